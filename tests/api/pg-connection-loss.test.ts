// A PostgreSQL connection lost in the middle of a transaction (database down, nothing
// written half): the transaction's promise rejects, PostgreSQL rolls back what it had written,
// the process does not crash on the client's 'error' event, and the pool serves the next
// transaction on a fresh connection. PostgreSQL only (PGlite has no connections to lose).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "#infra/sql";
import type { Database } from "#db/client";
import { adminQuery } from "../setup/global-db";
import { testBackends } from "../setup/db";

const postgres = testBackends().find((b) => b.name === "postgres");
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgres || !serverUrl)("connection lost mid-transaction (postgres)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await postgres!.open();
    await database.db.execute(sql`create table half_written (n int not null)`);
  });
  afterAll(() => database?.close());

  it("rejects the transaction, keeps nothing of it, survives the client's error and carries on", async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on("uncaughtException", onUncaught);
    try {
      const cut = database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into half_written values (1)`);
        const [{ pid }] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
        // Another connection ends this one's backend, as a failover or a network cut would.
        await adminQuery(serverUrl!, "select pg_terminate_backend($1)", [pid]);
        await tx.execute(sql`insert into half_written values (2)`);
      });
      await expect(cut).rejects.toThrow();
      // Let the socket's close and the client's 'error' event happen.
      await new Promise((r) => setTimeout(r, 200));
      expect(uncaught).toEqual([]);

      const count = async () => (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from half_written`))[0].n;
      expect(await count()).toBe(0);
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into half_written values (3)`);
      });
      expect(await count()).toBe(1);
    } finally {
      process.off("uncaughtException", onUncaught);
    }
  });
});
