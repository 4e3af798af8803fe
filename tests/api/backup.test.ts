// Backups: `db:backup` then `db:restore` gives back every row of every table, on
// PGlite and PostgreSQL alike; a restore is all-or-nothing and never overwrites data unasked.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { BackupError, backupDatabase, restoreDatabase, tablesInDependencyOrder } from "#db/backup";
import { openDatabase, type Database, type Db } from "#db/client";
import { BENCH_SIZE, seedBenchOperator } from "#db/seed/bench";
import { queryRows } from "#infra/sql";
import { adminQuery, databaseUrl, dropDatabase } from "../setup/global-db";
import { createTenant, expectStatus, imageForm, openHarness, PNG_1x1, testBackends, type Harness } from "./helpers";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** One checksum per table over every row's JSON. */
async function fingerprint(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of tablesInDependencyOrder()) {
    const [row] = await queryRows<{ n: number; h: string }>(
      db,
      sql.raw(`select count(*)::int as n, md5(coalesce(string_agg(row_to_json(x)::text, '|' order by row_to_json(x)::text), '')) as h from "${t}" x`),
    );
    out[t] = `${row.n}:${row.h}`;
  }
  return out;
}

const SMALL = { ...BENCH_SIZE, stations: 3, chargersPerStation: 2, connectorsPerCharger: 2, sessions: 300, historyDays: 20, meterDays: 2, notifications: 30 };

describe.each(testBackends())("backup and restore ($name)", (backend) => {
  let h: Harness;
  let dir: string;
  let file: string;
  let before: Record<string, string>;
  const others: Database[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-backup-"));
    file = path.join(dir, "copia.ndjson.gz");
    h = await openHarness(backend);
    await seedBenchOperator(h.db, { size: SMALL });
    const t = await createTenant(h, `backup-${backend.name}`);
    await expectStatus(await h.call("PATCH", "/Business/Images/ProfilePicture", { token: t.token, body: imageForm(PNG_1x1) }), 200);
    await expectStatus(await h.call("PUT", "/MercadoPago/BusinessUser", { token: t.token, body: { publicKey: "APP_USR-public-1", accessToken: "APP_USR-secret-token-1234" } }), 200);
    before = await fingerprint(h.db);
  }, 120_000);
  afterAll(async () => {
    for (const d of others) await d.close();
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("round trip: every table comes back identical (images, encrypted credentials, sessions, catalogs…)", async () => {
    const header = await backupDatabase(h.db, file);
    expect(header.tables.charging_sessions).toBeGreaterThan(100);
    expect(header.tables.images).toBe(1);
    expect(header.tables.payment_accounts).toBe(1);
    const target = await backend.open();
    others.push(target);
    await restoreDatabase(target.db, file);
    expect(await fingerprint(target.db)).toEqual(before);
    // Identity columns carry on after the restored ids.
    const [{ max }] = await queryRows<{ max: number }>(target.db, sql`select max(id)::int as max from status_events`);
    const [inserted] = await queryRows<{ id: number }>(
      target.db,
      sql`insert into status_events (business_id, charger_id, status, at) select business_id, id, 'Available', now() from chargers limit 1 returning id`,
    );
    expect(Number(inserted.id)).toBeGreaterThan(max);
  });

  it("refuses a database that already has data, unless asked to replace it", async () => {
    const target = await backend.open();
    others.push(target);
    await target.db.execute(sql`insert into services (code, label) values ('YA', 'Ya estaba')`);
    await expect(restoreDatabase(target.db, file)).rejects.toThrow(/ya tiene datos/);
    await restoreDatabase(target.db, file, { replace: true });
    expect(await fingerprint(target.db)).toEqual(before);
  });

  it("a damaged or truncated file changes nothing", async () => {
    const target = await backend.open();
    others.push(target);
    const truncated = path.join(dir, "rota.ndjson.gz");
    const lines = (await import("node:zlib")).gunzipSync((await import("node:fs")).readFileSync(file)).toString("utf8").split("\n");
    writeFileSync(truncated, gzipSync(lines.slice(0, Math.floor(lines.length / 2)).join("\n")));
    await expect(restoreDatabase(target.db, truncated)).rejects.toThrow(BackupError);
    const counts = await fingerprint(target.db);
    expect(Object.values(counts).every((v) => v.startsWith("0:"))).toBe(true);
    writeFileSync(truncated, gzipSync("hola\n"));
    await expect(restoreDatabase(target.db, truncated)).rejects.toThrow(/no es una copia/);
  });
});

describe("npm run db:backup / db:restore (the commands)", () => {
  const tsx = path.join(ROOT, "node_modules/.bin/tsx");
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(tsx, ["scripts/db-backup.ts", ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: "", ...env }, encoding: "utf8", timeout: 120_000 });

  it("PGlite: backup from one DATA_DIR, restore into another", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-cli-"));
    try {
      const source = await openDatabase({ dataDir: path.join(dir, "a") });
      await seedBenchOperator(source.db, { size: { ...SMALL, sessions: 50 } });
      const expected = await fingerprint(source.db);
      await source.close();
      const file = path.join(dir, "copia.ndjson.gz");
      const backup = run(["backup", file], { DATA_DIR: path.join(dir, "a") });
      expect(backup.status, backup.stderr).toBe(0);
      expect(backup.stdout).toMatch(/^Copia de PGlite/);
      const restore = run(["restore", file], { DATA_DIR: path.join(dir, "b") });
      expect(restore.status, restore.stderr).toBe(0);
      const again = run(["restore", file], { DATA_DIR: path.join(dir, "b") });
      expect(again.status).toBe(1);
      expect(again.stderr).toContain("ya tiene datos");
      const target = await openDatabase({ dataDir: path.join(dir, "b") });
      expect(await fingerprint(target.db)).toEqual(expected);
      await target.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it.runIf(process.env.TEST_DATABASE_URL)("PostgreSQL: backup and restore through DATABASE_URL", async () => {
    const server = process.env.TEST_DATABASE_URL!;
    const names = [`enchufa_test_cli_${process.pid}_a`, `enchufa_test_cli_${process.pid}_b`];
    const dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-cli-"));
    try {
      for (const n of names) await adminQuery(server, `create database "${n}"`);
      const source = await openDatabase({ databaseUrl: databaseUrl(server, names[0]) });
      await seedBenchOperator(source.db, { size: { ...SMALL, sessions: 50 } });
      const expected = await fingerprint(source.db);
      const file = path.join(dir, "copia.ndjson.gz");
      // The server may keep running against PostgreSQL: the source stays open here.
      const backup = run(["backup", file], { DATABASE_URL: databaseUrl(server, names[0]) });
      expect(backup.status, backup.stderr).toBe(0);
      await source.close();
      const restore = run(["restore", file], { DATABASE_URL: databaseUrl(server, names[1]) });
      expect(restore.status, restore.stderr).toBe(0);
      const target = await openDatabase({ databaseUrl: databaseUrl(server, names[1]) });
      expect(await fingerprint(target.db)).toEqual(expected);
      await target.close();
    } finally {
      for (const n of names) await dropDatabase(server, n);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
