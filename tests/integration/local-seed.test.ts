// Local mode's seeding step (scripts/local-seed.ts) seeds the database the server will run on:
// with DATABASE_URL, that PostgreSQL database — not the embedded one under the data directory.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "#db/client";
import * as s from "#db/schema";
import { DEMO_BUSINESS_NAME } from "#db/seed/demo";
import { seedLocalDatabase } from "../../scripts/local-seed";
import { adminQuery, databaseUrl, dropDatabase, newRunId } from "../setup/global-db";

const serverUrl = process.env.TEST_DATABASE_URL;
const dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-local-seed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!serverUrl)("local mode's seeding step with DATABASE_URL", () => {
  const name = `enchufa_test_${newRunId()}_local_seed`;
  afterAll(() => dropDatabase(serverUrl!, name));

  it("seeds the PostgreSQL database the server runs on, and leaves the data directory without an embedded one", { timeout: 120_000 }, async () => {
    await adminQuery(serverUrl!, `create database "${name}"`);
    const url = databaseUrl(serverUrl!, name);
    const seeded = await seedLocalDatabase({ dataDir: dir, databaseUrl: url, firebaseUid: "demo-uid-pg", email: "demo@enchufa.local", encryptionKey: "a".repeat(64), sim: true });

    const database = await openDatabase({ databaseUrl: url });
    try {
      const [company] = await database.db.select().from(s.businessUsers).where(eq(s.businessUsers.id, seeded.businessId));
      expect(company).toMatchObject({ firebaseUid: "demo-uid-pg", businessName: DEMO_BUSINESS_NAME });
      // The simulated QR charger's charger is in this database too.
      expect(seeded.qrDemo).not.toBeNull();
      const [charger] = await database.db.select().from(s.chargers).where(eq(s.chargers.id, seeded.qrDemo!.chargerId));
      expect(charger.businessId).toBe(seeded.businessId);
    } finally {
      await database.close();
    }
    expect(existsSync(path.join(dir, "db"))).toBe(false);
  });
});
