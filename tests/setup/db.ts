// Database backends for data tests. Always PGlite in memory; PostgreSQL too when
// TEST_DATABASE_URL is set. Every open() gives a fresh, migrated, empty database of its own,
// so test files can run in parallel and leave nothing behind:
//
//   describe.each(testBackends())("… ($name)", (backend) => {
//     let database: Database;
//     beforeAll(async () => { database = await backend.open(); });
//     afterAll(() => database.close());
//   });
import { readFile } from "node:fs/promises";
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { inject } from "vitest";
import { openDatabase, type Database, type Db } from "#db/client";
import * as schema from "#db/schema";
import { adminQuery, databaseUrl, dropDatabase, newRunId, type EnchufaPostgresContext } from "./global-db";

export interface TestBackend {
  name: "pglite" | "postgres";
  /** A new empty database with the schema applied; close() also deletes it (PostgreSQL). */
  open(): Promise<Database>;
}

export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [{ name: "pglite", open: () => openPgliteTestDatabase() }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) backends.push({ name: "postgres", open: () => openPostgresTestDatabase(url) });
  return backends;
}

let pgliteImage: Promise<Blob | undefined> | undefined;

/** A new in-memory PGlite, from the migrated image the globalSetup made when there is one. */
async function openPgliteTestDatabase(): Promise<Database> {
  pgliteImage ??= (async () => {
    const file: string | undefined = inject("enchufaPgliteImage");
    return file ? new Blob([await readFile(file)]) : undefined;
  })();
  return openDatabase({ inMemory: true, pgliteImage: await pgliteImage });
}

let counter = 0;
let fallbackRunId: string | undefined;

async function openPostgresTestDatabase(serverUrl: string): Promise<Database> {
  // Without the globalSetup (tests/setup/global-db.ts) there is no migrated template: start
  // from an empty database and let openDatabase migrate it.
  const ctx: EnchufaPostgresContext | null = inject("enchufaPostgres") ?? null;
  const runId = ctx?.runId ?? (fallbackRunId ??= newRunId());
  const adminUrl = ctx?.adminUrl ?? serverUrl;
  const name = `enchufa_test_${runId}_${process.pid}_${++counter}`;
  await adminQuery(adminUrl, ctx ? `create database "${name}" template "${ctx.template}"` : `create database "${name}"`);

  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: databaseUrl(adminUrl, name) });
  } catch (err) {
    await dropDatabase(adminUrl, name);
    throw err;
  }
  return {
    ...database,
    async close() {
      await database.close();
      await dropDatabase(adminUrl, name);
    },
  };
}

/** Names of every table in db/schema. */
export const ALL_TABLES: string[] = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableName(table));

/** Empties every table and restarts identities (transaction ids, catalog ids). */
export async function truncateAll(db: Db): Promise<void> {
  await db.execute(sql.raw(`truncate ${ALL_TABLES.map((t) => `"${t}"`).join(", ")} restart identity cascade`));
}

/** The SQLSTATE of a database error, looking through Drizzle's wrapper (23505 = unique violation). */
export function pgErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
