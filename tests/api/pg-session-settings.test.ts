// What every PostgreSQL connection of the app runs with (db/client.ts): no JIT compilation, on the
// pages' connections and on the readings' ones, which also commit without waiting for the WAL
// flush. PostgreSQL only (PGlite has no JIT and no connections).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "#infra/sql";
import { openDatabase, type Database, type Db } from "#db/client";
import { adminQuery, databaseUrl, dropDatabase, newRunId } from "../setup/global-db";

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)("PostgreSQL session settings (postgres)", () => {
  const name = `enchufa_test_settings_${newRunId()}_${process.pid}`;
  let database: Database;
  const setting = async (db: Db, key: string) => (await queryRows<{ v: string }>(db, sql`select current_setting(${key}) as v`))[0].v;

  beforeAll(async () => {
    await adminQuery(serverUrl!, `create database "${name}"`);
    database = await openDatabase({ databaseUrl: databaseUrl(serverUrl!, name) });
  });
  afterAll(async () => {
    await database?.close();
    await dropDatabase(serverUrl!, name);
  });

  it("compiles no query with JIT: the pages' pool and the readings' pool", async () => {
    expect(await setting(database.db, "jit")).toBe("off");
    expect(await setting(database.telemetry as unknown as Db, "jit")).toBe("off");
  });

  it("the readings' pool commits without waiting for the WAL flush; the pages' pool waits", async () => {
    expect(await setting(database.telemetry as unknown as Db, "synchronous_commit")).toBe("off");
    expect(await setting(database.db, "synchronous_commit")).toBe("on");
  });
});
