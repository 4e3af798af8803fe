// Statements built once (db/fixed-query.ts, ADR 0024): the same rows as drizzle building them on
// every call, for any values (arrays of any length, nulls), on PGlite and PostgreSQL; inside a
// transaction too; and on PostgreSQL the built text is prepared once on its connection.
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedQuery } from "#db/fixed-query";
import { openDatabase, type Database, type Db } from "#db/client";
import { queryRows } from "#infra/sql";
import { adminQuery, databaseUrl, dropDatabase, newRunId } from "../setup/global-db";

const serverUrl = process.env.TEST_DATABASE_URL;

// A reading-like statement: scalars and arrays, with nulls, and a value used twice.
const readings = fixedQuery<{ n: number; at: string; reg: number | null; label: string; offset: number }, "at" | "reg" | "label" | "offset">(
  ["at", "reg", "label", "offset"],
  (p) => sql`select v.ord::int as n, to_char(v.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as at, v.reg + ${p.offset}::int as reg, ${p.label}::text as label, ${p.offset}::int as offset
    from unnest(${p.at}::timestamptz[], ${p.reg}::float8[]) with ordinality as v(at, reg, ord) order by v.ord`,
);

const cases = [
  { at: ["2026-11-27T10:00:00Z"], reg: [1500], label: "uno", offset: 0 },
  { at: ["2026-11-27T10:00:00Z", "2026-11-27T10:00:10Z", "2026-11-27T10:00:20Z"], reg: [1500, null, 1561.5], label: "tres, con 'comillas'", offset: 7 },
];

function checks(open: () => Promise<Db>) {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });

  it("answers the rows of the values given, call after call", async () => {
    for (const c of cases) {
      const rows = await readings(db, c);
      expect(rows.map((r) => [Number(r.n), r.at, r.reg === null ? null : Number(r.reg), r.label, Number(r.offset)])).toEqual(
        c.at.map((at, i) => [i + 1, at.replace("Z", ""), c.reg[i] === null ? null : (c.reg[i] as number) + c.offset, c.label, c.offset]),
      );
    }
  });

  it("gives the same rows inside a transaction", async () => {
    const inside = await db.transaction(async (tx) => readings(tx as unknown as Db, cases[1]));
    expect(inside).toEqual(await readings(db, cases[1]));
  });

  it("builds its SQL once, however many times it runs outside a transaction", async () => {
    let builds = 0;
    const counted = fixedQuery<{ n: number }, "n">(["n"], (p) => {
      builds++;
      return sql`select ${p.n}::int as n`;
    });
    for (const n of [1, 2, 3]) expect((await counted(db, { n }))[0].n).toBe(n);
    expect(builds).toBe(1);
    await db.transaction(async (tx) => expect((await counted(tx as unknown as Db, { n: 4 }))[0].n).toBe(4));
    expect(builds).toBe(2); // inside a transaction it is built with its values, as any statement
  });

  it("refuses to run without one of its values", async () => {
    await expect(readings(db, { at: [], reg: [], label: "x" } as never)).rejects.toThrow(/offset/);
  });
}

describe("statements built once (PGlite)", () => {
  let client: PGlite;
  afterAll(() => client?.close());
  checks(async () => {
    client = await PGlite.create();
    return drizzlePglite({ client }) as unknown as Db;
  });
});

describe.skipIf(!serverUrl)("statements built once (postgres)", () => {
  const name = `enchufa_test_fixed_${newRunId()}_${process.pid}`;
  let database: Database;
  beforeAll(async () => {
    await adminQuery(serverUrl!, `create database "${name}"`);
  });
  afterAll(async () => {
    await database?.close();
    await dropDatabase(serverUrl!, name);
  });
  // Two connections (one holds the migration lock while the other migrates).
  checks(async () => {
    database = await openDatabase({ databaseUrl: databaseUrl(serverUrl!, name), poolMax: 2 });
    return database.db;
  });

  it("is prepared once on its connection", async () => {
    // Four at once on a pool of two: both connections run it, each twice or more.
    await Promise.all([...cases, ...cases].map((c) => readings(database.db, c)));
    await readings(database.db, cases[0]);
    const prepared = await database.db.transaction((tx) => queryRows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements`));
    expect(prepared.filter((p) => p.statement.includes("with ordinality as v(at, reg, ord)"))).toHaveLength(1);
  });
});
