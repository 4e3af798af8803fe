// The data layer on every backend (PGlite always, PostgreSQL when TEST_DATABASE_URL is set):
// migrations, catalog and demo seeds, constraints.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase, type Database, type Db } from "#db/client";
import * as s from "#db/schema";
import { CHARGER_BRAND_CATALOG, CONNECTOR_TYPE_CATALOG, SERVICE_CATALOG, seedCatalogs } from "#db/seed/catalogs";
import { DEMO_CUIT, seedDemoOperator } from "#db/seed/demo";
import { isValidCuit } from "#domain/cuit";
import { isArgentineHoliday } from "#domain/holidays.server";
import { priceSessionByBand, usageFromSession } from "#domain/pricing";
import { ALL_TABLES, pgErrorCode, testBackends, truncateAll } from "../setup/db";

const NOW = new Date("2025-11-20T15:30:00Z"); // 12:30 in Buenos Aires
const DEMO = { firebaseUid: "demo-uid", email: "demo@enchufa.local", now: NOW };
const SLOW = 120_000;

const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8")) as { entries: unknown[] };

/** Everything that must come out the same when the demo is seeded twice. */
async function demoSummary(db: Db, businessId: string) {
  const count = (table: string, where: SQL) => sql<number>`(select count(*)::int from ${sql.identifier(table)} where ${where})`;
  const own = sql`business_id = ${businessId}`;
  const [row] = await db
    .select({
      stations: count("stations", own),
      chargers: count("chargers", own),
      connectors: count("connectors", sql`charger_id in (select id from chargers where ${own})`),
      rates: count("rates", own),
      sessions: count("charging_sessions", own),
      meterSamples: count("meter_samples", sql`session_id in (select id from charging_sessions where ${own})`),
      statusEvents: count("status_events", own),
      notifications: count("notifications", own),
      unread: count("notifications", sql`${own} and read_at is null`),
      payments: count("payments", own),
    })
    .from(s.businessUsers)
    .where(eq(s.businessUsers.id, businessId));

  const c = s.chargingSessions;
  const [totals] = await db
    .select({
      energyWh: sql<number>`coalesce(sum(${c.energyWh}), 0)`.mapWith(Number),
      totalCents: sql<number>`coalesce(sum(${c.totalCents}), 0)`.mapWith(Number),
      idleCents: sql<number>`coalesce(sum(${c.idleCents}), 0)`.mapWith(Number),
      vatCents: sql<number>`coalesce(sum(${c.vatCents}), 0)`.mapWith(Number),
      firstTransactionId: sql<number>`min(${c.transactionId})`.mapWith(Number),
      // Ids and instants of the history too (the live sessions move with `now`): the demo is
      // meant to be identical, not just similar.
      history: sql<string>`md5(string_agg(${c.id}::text || ${c.startedAt}::text || ${c.totalCents}::text, ',' order by ${c.transactionId})
        filter (where ${c.status} in ('COMPLETED', 'INVALID')))`,
    })
    .from(c)
    .where(eq(c.businessId, businessId));
  return { ...row, ...totals };
}

const summaries = new Map<string, Awaited<ReturnType<typeof demoSummary>>>();

describe.each(testBackends())("database on $name", (backend) => {
  let database: Database;
  let db: Db;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
  }, SLOW);
  afterAll(async () => {
    await database?.close();
  });

  it("applies every migration and answers ping", async () => {
    expect(database.kind).toBe(backend.name);
    await database.ping();
    const tables = await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`);
    const names = (tables as unknown as { rows: { table_name: string }[] }).rows.map((r) => r.table_name).sort();
    expect(names).toEqual([...ALL_TABLES].sort());
    const applied = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect((applied as unknown as { rows: { n: number }[] }).rows[0].n).toBe(journal.entries.length);
  });

  // The lists of stations, chargers and rates sort by `lower(name), id` by default (api/routes):
  // an index must give that order, or every page reads and sorts all the company's rows. With
  // sorting and sequential scans priced out, the plan must still need no Sort step.
  it.each(["stations", "chargers", "rates"])("%s: the default order by lower(name) comes from an index", async (table) => {
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_sort = off`);
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = await tx.execute(
        sql`explain select id from ${sql.identifier(table)} where business_id = ${"00000000-0000-4000-8000-000000000000"} order by lower(name) asc, id asc limit 20`,
      );
      return (res as unknown as { rows: { "QUERY PLAN": string }[] }).rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain(`${table}_business_name_idx`);
    expect(plan).not.toMatch(/Sort/);
  });

  it("seeds the catalogs idempotently", async () => {
    const first = await seedCatalogs(db);
    expect(first).toEqual({
      connectorTypes: CONNECTOR_TYPE_CATALOG.length,
      chargerBrands: CHARGER_BRAND_CATALOG.length,
      services: SERVICE_CATALOG.length,
    });
    const before = await db.select().from(s.connectorTypes).orderBy(asc(s.connectorTypes.id));

    expect(await seedCatalogs(db)).toEqual(first);
    const after = await db.select().from(s.connectorTypes).orderBy(asc(s.connectorTypes.id));
    expect(after).toEqual(before); // same ids, and no row rewritten (updated_at unchanged)

    const t2 = after.find((c) => c.code === "IEC_62196_T2");
    expect(t2).toMatchObject({ label: "Tipo 2", defaultPowerType: "AC_3_PHASE" });
    expect(after.find((c) => c.code === "CHADEMO")?.label).toBe("CHAdeMO");
    const wifi = await db.select().from(s.services).where(eq(s.services.code, "WIFI"));
    expect(wifi[0]).toMatchObject({ label: "Wi-Fi", ocpi: true });

    // A label edited by hand is put back.
    await db.update(s.connectorTypes).set({ label: "T2" }).where(eq(s.connectorTypes.code, "IEC_62196_T2"));
    await seedCatalogs(db);
    const [fixed] = await db.select().from(s.connectorTypes).where(eq(s.connectorTypes.code, "IEC_62196_T2"));
    expect(fixed.label).toBe("Tipo 2");
  });

  it(
    "seeds the demo operator deterministically and only once",
    async () => {
      const first = await seedDemoOperator(db, DEMO);
      expect(first.created).toBe(true);
      const a = await demoSummary(db, first.businessId);
      expect(a).toMatchObject({ stations: 4, rates: 3, sessions: first.counts!.sessions, meterSamples: first.counts!.meterSamples });
      expect(a.chargers).toBeGreaterThanOrEqual(12);
      expect(a.sessions).toBeGreaterThan(1000);
      expect(a.meterSamples).toBeLessThan(100_000);
      expect(a.unread).toBeGreaterThan(0);
      expect(a.unread).toBeLessThan(a.notifications);
      expect(a.totalCents).toBeGreaterThan(0);

      // Second run: nothing happens.
      const again = await seedDemoOperator(db, DEMO);
      expect(again).toEqual({ created: false, businessId: first.businessId });
      expect(await demoSummary(db, first.businessId)).toEqual(a);

      // From scratch, the same day: the same rows.
      await truncateAll(db);
      const second = await seedDemoOperator(db, { ...DEMO, now: new Date(NOW.getTime() + 60_000) });
      expect(second.businessId).toBe(first.businessId);
      const b = await demoSummary(db, second.businessId);
      expect(b).toEqual(a);
      summaries.set(backend.name, a);

      const [business] = await db.select().from(s.businessUsers).where(eq(s.businessUsers.id, first.businessId));
      expect(business).toMatchObject({ businessName: "Enchufá Demo S.A.", status: "ACTIVE", cuit: DEMO_CUIT });
      expect(isValidCuit(business.cuit!)).toBe(true);

      // A recreated demo login (new uid) gets the existing demo company, no duplicate.
      const rebound = await seedDemoOperator(db, { ...DEMO, firebaseUid: "demo-uid-2", email: "demo2@enchufa.local" });
      expect(rebound).toEqual({ created: false, businessId: first.businessId });
      expect(await db.$count(s.businessUsers)).toBe(1);
      const [owner] = await db.select().from(s.businessUsers).where(eq(s.businessUsers.id, first.businessId));
      expect(owner).toMatchObject({ firebaseUid: "demo-uid-2", email: "demo2@enchufa.local" });
    },
    SLOW,
  );

  it("prices every demo session exactly as domain/pricing does", async () => {
    const rows = await db
      .select({ session: s.chargingSessions, timeZone: s.stations.timeZone })
      .from(s.chargingSessions)
      .innerJoin(s.stations, eq(s.stations.id, s.chargingSessions.stationId))
      .where(eq(s.chargingSessions.status, "COMPLETED"));
    expect(rows.length).toBeGreaterThan(1000);

    // Sessions on a rate with bands are priced per band from their meter readings.
    const bandedIds = rows.filter((r) => r.session.rateSnapshot?.bands?.length).map((r) => r.session.id);
    const readings = new Map<string, { at: Date; energyWh: number }[]>();
    const samples = bandedIds.length
      ? await db.select({ sessionId: s.meterSamples.sessionId, at: s.meterSamples.at, energyWh: s.meterSamples.energyWh }).from(s.meterSamples).where(inArray(s.meterSamples.sessionId, bandedIds))
      : [];
    for (const m of samples) {
      const list = readings.get(m.sessionId) ?? [];
      list.push({ at: m.at, energyWh: m.energyWh });
      readings.set(m.sessionId, list);
    }
    let idleBilled = 0;
    let windowed = 0;
    let acrossBands = 0;
    for (const { session, timeZone } of rows) {
      expect(session.rateSnapshot).toBeTypeOf("object"); // jsonb comes back parsed on both drivers
      const usage = usageFromSession({ ...session, timeZone });
      const { bands, bandsEstimated, ...price } = priceSessionByBand(session.rateSnapshot!, { ...usage, readings: readings.get(session.id) ?? [], isHoliday: isArgentineHoliday });
      expect(session.priceBands).toEqual(bands.length ? { lines: bands, estimated: bandsEstimated } : null);
      if (bands.length > 1) acrossBands++;
      expect({
        energyCents: session.energyCents,
        timeCents: session.timeCents,
        sessionFeeCents: session.sessionFeeCents,
        idleCents: session.idleCents,
        subtotalCents: session.subtotalCents,
        vatCents: session.vatCents,
        totalCents: session.totalCents,
      }).toEqual(price);
      expect(session.idleMinutes).toBe(usage.idleMinutes);
      expect(session.energyWh).toBe(session.meterStopWh! - session.meterStartWh);
      if (price.idleCents > 0) idleBilled++;
      if (session.rateSnapshot!.idleActiveFrom && usage.idleMinutes > session.rateSnapshot!.idleGraceMinutes) windowed++;
    }
    // The demo exercises the penalties, including the night window.
    expect(idleBilled).toBeGreaterThan(50);
    expect(windowed).toBeGreaterThan(10);
    expect(acrossBands).toBeGreaterThan(5);

    // Meter samples end at the session's energy.
    const [last] = await db
      .select({ energyWh: s.meterSamples.energyWh, sessionEnergy: s.chargingSessions.energyWh })
      .from(s.meterSamples)
      .innerJoin(s.chargingSessions, eq(s.chargingSessions.id, s.meterSamples.sessionId))
      .where(and(eq(s.chargingSessions.status, "COMPLETED"), eq(s.meterSamples.at, s.chargingSessions.chargingEndedAt)))
      .limit(1);
    expect(last.energyWh).toBe(last.sessionEnergy);
  });

  it("stores images as bytes and serves them back unchanged", async () => {
    const [business] = await db.select({ id: s.businessUsers.id }).from(s.businessUsers).limit(1);
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
    const sha256 = "a".repeat(64);
    const [image] = await db.insert(s.images).values({ businessId: business.id, sha256, mime: "image/png", bytes, size: bytes.length }).returning();
    const [read] = await db.select().from(s.images).where(eq(s.images.id, image.id));
    expect(Buffer.isBuffer(read.bytes)).toBe(true);
    expect(read.bytes.equals(bytes)).toBe(true);
    // Same content twice for one business is one image.
    await expect(db.insert(s.images).values({ businessId: business.id, sha256, mime: "image/png", bytes, size: bytes.length })).rejects.toSatisfy(
      (e) => pgErrorCode(e) === "23505",
    );
  });

  describe("constraints", () => {
    let businessId: string;
    let stationId: string;

    beforeAll(async () => {
      await truncateAll(db);
      await seedCatalogs(db);
      const [b] = await db
        .insert(s.businessUsers)
        .values({ firebaseUid: "uid-a", email: "a@example.com", businessName: "A S.A.", cuit: "30712345671" })
        .returning();
      businessId = b.id;
      const [st] = await db
        .insert(s.stations)
        .values({ businessId, name: "Uno", address: "Calle 1", city: "Rosario", province: "AR-S", latitude: -32.95, longitude: -60.65 })
        .returning();
      stationId = st.id;
    }, SLOW);

    const uniqueViolation = (e: unknown) => pgErrorCode(e) === "23505";
    const checkViolation = (e: unknown) => pgErrorCode(e) === "23514";

    it("rejects a second business with the same CUIT", async () => {
      await expect(
        db.insert(s.businessUsers).values({ firebaseUid: "uid-b", email: "b@example.com", businessName: "B S.A.", cuit: "30712345671" }),
      ).rejects.toSatisfy(uniqueViolation);
      // Without a CUIT yet (registration in progress) any number of businesses is fine.
      await db.insert(s.businessUsers).values([
        { firebaseUid: "uid-c", email: "c@example.com", businessName: "C" },
        { firebaseUid: "uid-d", email: "d@example.com", businessName: "D" },
      ]);
      await expect(
        db.insert(s.businessUsers).values({ firebaseUid: "uid-e", email: "e@example.com", businessName: "E", cuit: "3O712345671" }),
      ).rejects.toSatisfy(checkViolation);
    });

    it("rejects a repeated OCPP identity, even across businesses", async () => {
      await db.insert(s.chargers).values({ businessId, stationId, name: "C1", ocppIdentity: "ROS-01" });
      const [other] = await db.insert(s.businessUsers).values({ firebaseUid: "uid-f", email: "f@example.com", businessName: "F" }).returning();
      await expect(db.insert(s.chargers).values({ businessId: other.id, name: "C1", ocppIdentity: "ROS-01" })).rejects.toSatisfy(uniqueViolation);
      await expect(db.insert(s.chargers).values({ businessId, name: "C2", ocppIdentity: "con espacio" })).rejects.toSatisfy(checkViolation);
    });

    it("rejects a repeated push token", async () => {
      await db.insert(s.pushRegistrations).values({ businessId, token: "fcm-token-1", endpoint: "https://fcm.googleapis.com/fcm/send/x" });
      await expect(db.insert(s.pushRegistrations).values({ businessId, token: "fcm-token-1" })).rejects.toSatisfy(uniqueViolation);
    });

    it("keeps one payment account per provider and a connector number once per charger", async () => {
      await db.insert(s.paymentAccounts).values({ businessId, provider: "MERCADOPAGO", credentialsEncrypted: "v1.x.y.z.w" });
      await expect(db.insert(s.paymentAccounts).values({ businessId, provider: "MERCADOPAGO", credentialsEncrypted: "v1.a.b.c.d" })).rejects.toSatisfy(
        uniqueViolation,
      );
      const [charger] = await db.select().from(s.chargers).where(eq(s.chargers.ocppIdentity, "ROS-01"));
      const [t2] = await db.select().from(s.connectorTypes).where(eq(s.connectorTypes.code, "IEC_62196_T2"));
      const connector = { chargerId: charger.id, connectorId: 1, connectorTypeId: t2.id, format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22 } as const;
      await db.insert(s.connectors).values(connector);
      await expect(db.insert(s.connectors).values(connector)).rejects.toSatisfy(uniqueViolation);
      const [read] = await db.select().from(s.connectors).where(eq(s.connectors.chargerId, charger.id));
      expect(read.maxPowerKw).toBe(22); // numeric comes back as a number
    });

    it("validates rate penalty windows and amounts", async () => {
      await db.insert(s.rates).values({ businessId, name: "Noche", idleActiveFrom: "22:00", idleActiveTo: "06:00" });
      await expect(db.insert(s.rates).values({ businessId, name: "Mal", idleActiveFrom: "22:00" })).rejects.toSatisfy(checkViolation);
      await expect(db.insert(s.rates).values({ businessId, name: "Mal", idleActiveFrom: "25:00", idleActiveTo: "06:00" })).rejects.toSatisfy(checkViolation);
      await expect(db.insert(s.rates).values({ businessId, name: "Mal", pricePerKwhCents: -1 })).rejects.toSatisfy(checkViolation);
    });

    it("gives sessions system-wide increasing transaction ids and deletes a business with all its data", async () => {
      const [charger] = await db.select().from(s.chargers).where(eq(s.chargers.ocppIdentity, "ROS-01"));
      const base = { businessId, chargerId: charger.id, stationId, connectorNumber: 1, idTag: "ABCD1234", meterStartWh: 0, startedAt: new Date() };
      const [one, two] = await db.insert(s.chargingSessions).values([base, base]).returning();
      expect(two.transactionId).toBe(one.transactionId + 1);

      await db.delete(s.businessUsers).where(eq(s.businessUsers.id, businessId));
      expect(await db.$count(s.chargingSessions)).toBe(0);
      expect(await db.$count(s.chargers, eq(s.chargers.businessId, businessId))).toBe(0);
      expect(await db.$count(s.pushRegistrations)).toBe(0);
      expect(await db.$count(s.connectorTypes)).toBe(CONNECTOR_TYPE_CATALOG.length); // catalogs stay
    });
  });
});

describe("demo across backends", () => {
  it("is the same data on PGlite and PostgreSQL", () => {
    if (summaries.size < 2) return; // only PGlite in this run
    expect(summaries.get("postgres")).toEqual(summaries.get("pglite"));
  });
});

describe("PGlite on disk", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "enchufa-pglite-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(
    "persists under <dataDir>/db and does not migrate twice",
    async () => {
      const first = await openDatabase({ dataDir: dir });
      await seedCatalogs(first.db);
      await first.close();
      await expect(first.ping()).rejects.toThrow();

      const second = await openDatabase({ dataDir: dir });
      try {
        expect(await second.db.$count(s.connectorTypes)).toBe(CONNECTOR_TYPE_CATALOG.length);
        const applied = await second.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
        expect((applied as unknown as { rows: { n: number }[] }).rows[0].n).toBe(journal.entries.length);
      } finally {
        await second.close();
      }
      expect(readFileSync(path.join(dir, "db", "PG_VERSION"), "utf8").trim()).toMatch(/^\d+$/);
    },
    SLOW,
  );

  it(
    "keeps the planner's statistics (no autovacuum in PGlite): the demo's newest sessions walk the index instead of sorting every session",
    async () => {
      const statsDir = path.join(dir, "stats");
      const first = await openDatabase({ dataDir: statsDir });
      let businessId: string;
      try {
        await seedCatalogs(first.db);
        ({ businessId } = await seedDemoOperator(first.db, { firebaseUid: "stats-uid", email: "stats@example.com" }));
      } finally {
        await first.close();
      }
      // The activity list's first page: the 21 newest sessions of the company.
      const newestPlan = async (database: Database) => {
        const result = await database.db.execute(
          sql`explain (format json) select * from charging_sessions where business_id = ${businessId} order by started_at desc, id desc limit 21`,
        );
        return JSON.stringify((result as unknown as { rows: unknown[] }).rows);
      };
      const second = await openDatabase({ dataDir: statsDir });
      try {
        const sessions = await second.db.$count(s.chargingSessions);
        expect(sessions).toBeGreaterThan(1000); // enough rows for the plan to matter
        const estimate = (await second.db.execute(sql`select reltuples::int as n from pg_class where relname = 'charging_sessions'`)) as unknown as { rows: { n: number }[] };
        expect(estimate.rows[0].n).toBe(sessions);
        const plan = await newestPlan(second);
        expect(plan).toContain("sessions_business_started_idx");
        expect(plan).not.toContain('"Node Type":"Sort"');
      } finally {
        await second.close();
      }
    },
    SLOW,
  );
});
