// The API over the local-mode demo operator (db/seed/demo.ts): KPIs agree with the rows they
// aggregate, sealed demo credentials are readable, and the msw fixtures the loader tests use
// have exactly the shape the real API answers with (mocks cannot drift from the contract).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { createKeyRing, sealPaymentCredentials } from "#infra/crypto";
import { chargerEvents, chargingSessions } from "#db/schema";
import { seedDemoOperator } from "#db/seed/demo";
import { fixtures } from "../mocks/fixtures";
import { expectStatus, mintToken, openHarness, TEST_KEYS, testBackends, type Harness } from "./helpers";

const NOW = new Date("2025-06-15T15:00:00-03:00");

/**
 * Paths where the two values differ in shape: keys of objects (recursively), first element of
 * arrays. null and empty arrays match anything (a fixture may leave optional data out).
 */
function shapeDiff(actual: unknown, fixture: unknown, path = "$"): string[] {
  if (actual == null || fixture == null) return [];
  if (Array.isArray(actual) || Array.isArray(fixture)) {
    if (!Array.isArray(actual) || !Array.isArray(fixture)) return [`${path}: array vs not`];
    return actual.length && fixture.length ? shapeDiff(actual[0], fixture[0], `${path}[0]`) : [];
  }
  if (typeof actual === "object" || typeof fixture === "object") {
    if (typeof actual !== "object" || typeof fixture !== "object") return [`${path}: object vs ${typeof fixture}`];
    const a = actual as Record<string, unknown>;
    const f = fixture as Record<string, unknown>;
    const keys = new Set([...Object.keys(a), ...Object.keys(f)]);
    return [...keys].flatMap((k) => (!(k in a) ? [`${path}.${k}: only in fixture`] : !(k in f) ? [`${path}.${k}: missing in fixture`] : shapeDiff(a[k], f[k], `${path}.${k}`)));
  }
  return typeof actual === typeof fixture ? [] : [`${path}: ${typeof actual} vs ${typeof fixture}`];
}

function sameShape(actual: unknown, fixture: unknown) {
  expect(shapeDiff(actual, fixture)).toEqual([]);
}

describe.each(testBackends())("demo operator and contract ($name)", (backend) => {
  let h: Harness;
  let token: string;
  let businessId: string;
  beforeAll(async () => {
    h = await openHarness(backend, { now: () => NOW });
    const ring = createKeyRing(TEST_KEYS);
    const result = await seedDemoOperator(h.db, {
      firebaseUid: "demo-uid",
      email: "demo@enchufa.local",
      now: NOW,
      sealCredentials: (plain, ctx) => sealPaymentCredentials(ring, plain, ctx),
    });
    businessId = result.businessId;
    token = mintToken("demo-uid", { email: "demo@enchufa.local" });
  }, 120_000);
  afterAll(() => h?.close());

  const get = (path: string) => h.call("GET", path, { token }).then((r) => expectStatus(r, 200));

  it("dashboard figures equal the sums of the sessions they come from", async () => {
    const dash = await get("/Business/Dashboard?from=2025-05-16&to=2025-06-14");
    const from = new Date("2025-05-16T00:00:00-03:00");
    const to = new Date("2025-06-15T00:00:00-03:00");
    const [ref] = await h.db
      .select({
        sessions: sql<number>`count(*)`.mapWith(Number),
        energy: sql<number>`coalesce(sum(${chargingSessions.energyWh}) filter (where ${chargingSessions.status} <> 'INVALID'), 0)`.mapWith(Number),
        revenue: sql<number>`coalesce(sum(${chargingSessions.totalCents}) filter (where ${chargingSessions.status} = 'COMPLETED'), 0)`.mapWith(Number),
      })
      .from(chargingSessions)
      .where(and(eq(chargingSessions.businessId, businessId), gte(chargingSessions.startedAt, from), lt(chargingSessions.startedAt, to)));
    expect(ref.sessions).toBeGreaterThan(50);
    expect(dash.sessions).toBe(ref.sessions);
    expect(dash.energyKwh).toBeCloseTo(ref.energy / 1000, 3);
    expect(dash.revenueCents).toBe(ref.revenue);
    expect(dash.chargersTotal).toBeGreaterThanOrEqual(10);
    for (const k of ["utilizationPct", "availabilityPct", "startSuccessRate"] as const) {
      expect(dash[k]).toBeGreaterThanOrEqual(0);
      expect(dash[k]).toBeLessThanOrEqual(100);
    }

    const days = await get("/Business/Graphic?series=energyRevenueByDay&from=2025-05-16&to=2025-06-14");
    expect(days.points).toHaveLength(30);
    const sum = (k: string) => days.points.reduce((a: number, p: Record<string, number>) => a + p[k], 0);
    expect(sum("revenueCents")).toBe(dash.revenueCents);
    expect(sum("energyKwh")).toBeCloseTo(dash.energyKwh, 2);

    const activity = await get("/Business/Activity?from=2025-05-16&to=2025-06-14&pageSize=1");
    expect(activity.total).toBe(dash.sessions);
    const csv = await (await h.call("GET", "/Business/Activity/Export.csv?from=2025-05-16&to=2025-06-14", { token })).text();
    expect(csv.trimEnd().split("\r\n")).toHaveLength(dash.sessions + 1);
  });

  it("reads the demo's sealed payment accounts", async () => {
    expect(await get("/MercadoPago/BusinessUser")).toMatchObject({ connected: true, last4: "4821", environment: "PRODUCTION" });
    expect(await get("/Pagos360/BusinessUser")).toMatchObject({ connected: true, last4: "7390" });
  });

  it("msw fixtures have the real responses' shape", async () => {
    sameShape(await get("/Business/BusinessUser"), fixtures.businessUser);
    sameShape(await get("/Account/Business"), fixtures.accountBusiness);
    const stations = await get("/Business/ChargingStation");
    sameShape(stations, fixtures.stations);
    const chargers = await get("/Business/Charger");
    sameShape(chargers, fixtures.chargers);
    // The demo has no charger events: one report part, so the list and its summary have a shape.
    const demoCharger = chargers.items[0].id;
    await h.db.insert(chargerEvents).values({ businessId, chargerId: demoCharger, kind: "NotifyReport", summary: "Informe 1, parte 0: 1 variable", payload: { requestId: 1, seqNo: 0, reportData: [{}] }, at: NOW });
    sameShape(await get(`/Business/Charger/${demoCharger}/Event`), fixtures.chargerEvents);
    sameShape(await get("/Business/Fees"), fixtures.rates);
    const activity = await get("/Business/Activity?status=COMPLETED&paymentStatus=PAID");
    sameShape(activity, fixtures.activity);
    const withPayment = await get(`/Business/Activity/${activity.items[0].id}`);
    sameShape({ ...withPayment, payments: [] }, fixtures.session);
    sameShape(await get("/Business/Dashboard"), fixtures.dashboard);
    sameShape(await get("/Business/Graphic"), fixtures.graphic);
    sameShape(await get("/Business/Notification"), fixtures.notifications);
    sameShape(await get("/Business/Payments"), fixtures.payments);
    sameShape(await get("/MercadoPago/BusinessUser"), fixtures.paymentAccount("MERCADOPAGO"));
    sameShape(await get("/Business/Service"), fixtures.services);
    sameShape(await get("/Business/ChargerBrand"), fixtures.chargerBrands);
    sameShape(await get("/Driver/ConnectorType"), fixtures.connectorTypes);
  });
});
