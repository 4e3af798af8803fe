// Statements prepared per PostgreSQL connection (db/client.ts, preparePerConnection): a query the
// pages repeat is parsed once per connection and its results do not change; a connection prepares
// at most the configured number; 0 prepares none. PostgreSQL only (PGlite has no connections).
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "#infra/sql";
import { openDatabase, type Database, type Db } from "#db/client";
import { stations } from "#db/schema";
import { adminQuery, databaseUrl, dropDatabase, newRunId } from "../setup/global-db";

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)("prepared statements per connection (postgres)", () => {
  const name = `enchufa_test_prepared_${newRunId()}_${process.pid}`;
  const open: Database[] = [];
  const connect = async (preparedStatements?: number) => {
    const database = await openDatabase({ databaseUrl: databaseUrl(serverUrl!, name), preparedStatements });
    open.push(database);
    return database.db;
  };
  /** Runs `work` on one connection, then lists what that connection has prepared. */
  const onOneConnection = (db: Db, work: (tx: Db) => Promise<void>) =>
    db.transaction(async (tx) => {
      await work(tx as unknown as Db);
      return queryRows<{ name: string; statement: string }>(tx, sql`select name, statement from pg_prepared_statements order by prepare_time`);
    });
  const byName = (db: Db, n: number) => db.select({ id: stations.id }).from(stations).where(eq(stations.name, `Estación ${n}`));
  /** `name in (…)` with n names: a different SQL text for each n. */
  const byNames = (db: Db, n: number) =>
    db
      .select({ id: stations.id })
      .from(stations)
      .where(sql`${stations.name} in (${sql.join(Array.from({ length: n }, (_, i) => sql`${`Estación ${i}`}`), sql`, `)})`);

  beforeAll(async () => {
    await adminQuery(serverUrl!, `create database "${name}"`);
  });
  afterAll(async () => {
    for (const d of open) await d.close();
    await dropDatabase(serverUrl!, name);
  });

  it("prepares a repeated query once per connection; its results are the same", async () => {
    const db = await connect();
    const results: unknown[] = [];
    const prepared = await onOneConnection(db, async (tx) => {
      for (let i = 0; i < 3; i++) results.push(await queryRows(tx, sql`select ${i}::int + 1 as n, ${"x"}::text as s`));
    });
    expect(results).toEqual([[{ n: 1, s: "x" }], [{ n: 2, s: "x" }], [{ n: 3, s: "x" }]]);
    const mine = prepared.filter((p) => p.statement.includes("as n,"));
    expect(mine).toHaveLength(1);
    expect(mine[0].name).toMatch(/^e_[0-9a-f]{24}$/);
  });

  it("prepares at most the configured number per connection and runs the rest unnamed", async () => {
    const db = await connect(2);
    const prepared = await onOneConnection(db, async (tx) => {
      // Five different texts (the IN list's length changes the SQL), each run twice.
      for (let n = 1; n <= 5; n++) for (let k = 0; k < 2; k++) expect(await byNames(tx, n)).toEqual([]);
    });
    expect(prepared.filter((p) => p.statement.includes('from "stations"'))).toHaveLength(2);
  });

  it("prepares nothing with 0 (as behind PgBouncer's transaction pooling)", async () => {
    const db = await connect(0);
    const prepared = await onOneConnection(db, async (tx) => {
      for (let k = 0; k < 3; k++) expect(await byName(tx, k)).toEqual([]);
    });
    expect(prepared).toEqual([]);
  });
});
