// The home KPIs and charts through the company's period cache (api/period-cache.ts, ADR 0011),
// as the server runs them (KPI_CACHE_SECONDS): a period's totals are reused for the TTL, the
// equipment's current state never is, a write by the company drops its totals at once, and
// one company never sees another's.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../api/app";
import { chargingSessions, connectors, type NewChargingSession } from "../../db/schema";
import { callApi, chargerInput, createTenant, expectStatus, fakeVerifyToken, openHarness, sessionRow, stationInput, testBackends, TEST_KEYS, type Harness, type Tenant } from "./helpers";

const TTL = 15_000;

describe.each(testBackends())("period cache ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let other: Tenant;
  let stationId: string;
  let charger: { id: string; connectors: { id: string }[] };
  let clock = new Date("2025-03-12T15:00:00.000Z").getTime();

  const session = (over: Partial<NewChargingSession> = {}) =>
    sessionRow(
      { businessId: t.businessId, stationId, charger },
      { startedAt: new Date(clock - 3_600_000), stoppedAt: new Date(clock - 1_800_000), energyWh: 5_000, totalCents: 10_000, paymentStatus: "PAID", ...over },
    );
  const dashboard = async (tenant = t) => expectStatus(await h.call("GET", "/Business/Dashboard", { token: tenant.token }), 200);
  const topStations = async () => expectStatus(await h.call("GET", "/Business/Graphic?series=topStations", { token: t.token }), 200);

  beforeAll(async () => {
    h = await openHarness(backend, { now: () => new Date(clock), periodCacheMs: TTL });
    t = await createTenant(h, "period-cache");
    other = await createTenant(h, "period-cache-other");
    stationId = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Estación Norte" }) }), 201)).id;
    charger = await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ name: "CP 1", stationId }) }), 201);
    await h.db.insert(chargingSessions).values(session());
  });
  afterAll(() => h?.close());

  it("reuses a period's totals for the TTL; the equipment's current state is always read now", async () => {
    const first = await dashboard();
    expect(first.sessions).toBe(1);
    expect(first.energyKwh).toBe(5);
    expect(first.activeSessions).toBe(0);

    // A session starts (as the central system writes it) and a connector changes state.
    await h.db.insert(chargingSessions).values(session({ startedAt: new Date(clock - 60_000), stoppedAt: null, energyWh: 1_000, status: "ACTIVE", paymentStatus: "PENDING" }));
    await h.db.update(connectors).set({ status: "Charging", statusAt: new Date(clock) }).where(eq(connectors.id, charger.connectors[0].id));
    clock += TTL - 1;
    const cached = await dashboard();
    expect(cached.sessions).toBe(1); // the period's totals, as of the first read
    expect(cached.from).toBe(first.from);
    expect(cached.activeSessions).toBe(1); // current state: now
    expect(cached.connectorStatus.Charging).toBe(1);

    clock += 1;
    const later = await dashboard();
    expect(later.sessions).toBe(2);
    expect(later.energyKwh).toBe(6);
    expect(later.from).not.toBe(first.from);
  });

  it("a write by the company shows in its charts at once", async () => {
    expect((await topStations()).points.map((p: { stationName: string }) => p.stationName)).toEqual(["Estación Norte"]);
    await expectStatus(await h.call("PUT", `/Business/ChargingStation/${stationId}`, { token: t.token, body: stationInput({ name: "Estación Sur" }) }), 200);
    expect((await topStations()).points.map((p: { stationName: string }) => p.stationName)).toEqual(["Estación Sur"]);
  });

  it("another company gets its own totals, never these", async () => {
    expect((await dashboard()).sessions).toBeGreaterThan(0);
    const theirs = await dashboard(other);
    expect(theirs.sessions).toBe(0);
    expect(theirs.energyKwh).toBe(0);
    expect((await expectStatus(await h.call("GET", "/Business/Graphic?series=topStations", { token: other.token }), 200)).points).toEqual([]);
  });

  it("an explicit period is kept apart from the default one", async () => {
    const all = await expectStatus(await h.call("GET", "/Business/Dashboard?from=2025-03-01&to=2025-03-31", { token: t.token }), 200);
    const none = await expectStatus(await h.call("GET", "/Business/Dashboard?from=2024-01-01&to=2024-01-31", { token: t.token }), 200);
    expect(all.sessions).toBeGreaterThan(0);
    expect(none.sessions).toBe(0);
  });

  it("a write on one node drops the totals another node keeps (through the database's channels)", async () => {
    const node = () =>
      createApi({ db: h.db, channels: h.database.channels, verifyToken: fakeVerifyToken, encryptionKeys: TEST_KEYS, now: () => new Date(clock), periodCacheMs: TTL });
    const [a, b] = [node(), node()];
    await new Promise((r) => setTimeout(r, 100)); // both listening
    const names = async () =>
      (await expectStatus(await callApi(b, "GET", "/Business/Graphic?series=topStations", { token: t.token }), 200)).points.map((p: { stationName: string }) => p.stationName);
    expect(await names()).toEqual(["Estación Sur"]);
    await expectStatus(await callApi(a, "PUT", `/Business/ChargingStation/${stationId}`, { token: t.token, body: stationInput({ name: "Estación Oeste" }) }), 200);
    for (let i = 0; i < 50 && (await names())[0] !== "Estación Oeste"; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await names()).toEqual(["Estación Oeste"]);
  });
});
