// GET /Business/Activity `totals`: energy and revenue of every matching session (not only the
// page), defined like the dashboard's KPIs so the home screen and the activity list agree.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargingSessions, type NewChargingSession } from "#db/schema";
import { chargerInput, createTenant, expectStatus, openHarness, sessionRow, stationInput, testBackends, type Harness, type Tenant } from "./helpers";

const NOW = new Date("2025-03-12T12:00:00-03:00");
const at = (local: string) => new Date(`${local}-03:00`);

describe.each(testBackends())("activity totals ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    h = await openHarness(backend, { now: () => NOW });
    t = await createTenant(h, "totals-owner");
    other = await createTenant(h, "totals-other");
    const stationId = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Estación Totales" }) }), 201)).id;
    const charger = await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ name: "CP Totales", stationId }) }), 201);
    const base = (over: Partial<NewChargingSession>) => sessionRow({ businessId: t.businessId, stationId, charger }, { startedAt: NOW, ...over });
    await h.db.insert(chargingSessions).values([
      base({ startedAt: at("2025-03-10T12:00:00"), stoppedAt: at("2025-03-10T13:00:00"), energyWh: 10_000, totalCents: 500_000, paymentStatus: "PAID" }),
      base({ startedAt: at("2025-03-11T08:00:00"), stoppedAt: at("2025-03-11T08:45:00"), energyWh: 5_500, totalCents: 250_000 }),
      // Open: its energy counts, its (estimated) amount does not.
      base({ startedAt: at("2025-03-12T11:30:00"), energyWh: 3_000, status: "ACTIVE", paymentStatus: "PENDING", totalCents: 99_999 }),
      // Invalid: counted as a session, neither energy nor revenue.
      base({ startedAt: at("2025-03-11T09:00:00"), stoppedAt: at("2025-03-11T09:01:00"), energyWh: 700, status: "INVALID", paymentStatus: "NOT_REQUIRED", totalCents: 1 }),
    ]);
  });
  afterAll(() => h?.close());

  it("sums every matching session, whatever the page", async () => {
    const body = await expectStatus(await h.call("GET", "/Business/Activity?pageSize=1", { token: t.token }), 200);
    expect(body.items).toHaveLength(1);
    expect(body.total).toBe(4);
    expect(body.totals).toEqual({ energyWh: 18_500, totalCents: 750_000 });
  });

  it("follows the filters", async () => {
    const body = await expectStatus(await h.call("GET", "/Business/Activity?from=2025-03-11&to=2025-03-11", { token: t.token }), 200);
    expect(body.total).toBe(2);
    expect(body.totals).toEqual({ energyWh: 5_500, totalCents: 250_000 });
    const none = await expectStatus(await h.call("GET", "/Business/Activity?status=INVALID", { token: t.token }), 200);
    expect(none.totals).toEqual({ energyWh: 0, totalCents: 0 });
  });

  it("matches the dashboard's KPIs for the same period", async () => {
    const period = "from=2025-03-01&to=2025-03-12";
    const list = await expectStatus(await h.call("GET", `/Business/Activity?${period}`, { token: t.token }), 200);
    const kpis = await expectStatus(await h.call("GET", `/Business/Dashboard?${period}`, { token: t.token }), 200);
    expect(list.total).toBe(kpis.sessions);
    expect(list.totals.energyWh / 1000).toBe(kpis.energyKwh);
    expect(list.totals.totalCents).toBe(kpis.revenueCents);
  });

  it("another business sees none of it", async () => {
    const body = await expectStatus(await h.call("GET", "/Business/Activity", { token: other.token }), 200);
    expect(body).toMatchObject({ total: 0, totals: { energyWh: 0, totalCents: 0 } });
  });
});
