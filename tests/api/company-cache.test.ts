// The home KPIs and charts, and the filters' option lists, through the company cache
// (api/company-cache.ts, ADR 0011), as the server runs them (COMPANY_CACHE_SECONDS): a period's
// totals and the options are reused for the TTL, the equipment's current state never is, a write
// by the company drops its entries at once, and one company never sees another's.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargingSessions, connectors, stations, type NewChargingSession } from "#db/schema";
import { callApi, createTestApi, chargerInput, createTenant, expectStatus, fakeVerifyToken, openHarness, sessionRow, stationInput, testBackends, TEST_KEYS, type Harness, type Tenant } from "./helpers";

const TTL = 15_000;

describe.each(testBackends())("company cache ($name)", (backend) => {
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
    h = await openHarness(backend, { now: () => new Date(clock), companyCacheMs: TTL });
    t = await createTenant(h, "company-cache");
    other = await createTenant(h, "company-cache-other");
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

    // Past the TTL the first read still gets the kept totals while they are computed again; the
    // reads after that computation get the new ones.
    clock += 1;
    expect((await dashboard()).sessions).toBe(1);
    await expect.poll(async () => (await dashboard()).sessions).toBe(2);
    const later = await dashboard();
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

  it("keeps the filters' station and charger options for the TTL; a write by the company shows at once", async () => {
    const stationNames = async (tenant = t) =>
      (await expectStatus(await h.call("GET", "/Business/ChargingStation/Options", { token: tenant.token }), 200)).items.map((s: { name: string }) => s.name);
    const chargerNames = async (query = "") =>
      (await expectStatus(await h.call("GET", `/Business/Charger/Options${query}`, { token: t.token }), 200)).items.map(
        (c: { name: string; stationName: string | null }) => `${c.name} @ ${c.stationName}`,
      );
    const before = await stationNames();
    const chargersBefore = await chargerNames();
    expect(chargersBefore).toEqual(before.map((name: string) => `CP 1 @ ${name}`));

    // Written behind the API's back (as no client of it can): the lists stay as read for the TTL.
    await h.db.update(stations).set({ name: "Renombrada por fuera" }).where(eq(stations.id, stationId));
    clock += TTL - 1;
    expect(await stationNames()).toEqual(before);
    expect(await chargerNames()).toEqual(chargersBefore);
    expect(await chargerNames(`?stationId=${stationId}`)).toEqual(["CP 1 @ Renombrada por fuera"]); // a filter of its own
    clock += 1;
    expect(await stationNames()).toEqual(before); // answered at once while computed again
    await expect.poll(stationNames).toEqual(["Renombrada por fuera"]);

    // Through the API: at once.
    await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ name: "CP 0", stationId }) }), 201);
    expect(await chargerNames()).toEqual(["CP 0 @ Renombrada por fuera", "CP 1 @ Renombrada por fuera"]);
    await expectStatus(await h.call("PUT", `/Business/ChargingStation/${stationId}`, { token: t.token, body: stationInput({ name: "Estación Sur" }) }), 200);
    expect(await stationNames()).toEqual(["Estación Sur"]);
    expect(await chargerNames()).toEqual(["CP 0 @ Estación Sur", "CP 1 @ Estación Sur"]);
    expect(await stationNames(other)).toEqual([]);
  });

  it("a write on one node drops the totals another node keeps (through the database's channels)", async () => {
    const node = () =>
      createTestApi({ db: h.db, channels: h.database.channels, verifyToken: fakeVerifyToken, encryptionKeys: TEST_KEYS, now: () => new Date(clock), companyCacheMs: TTL });
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
