// An audited write and its audit entry commit together or not at all: when the entry cannot be
// written, the station, rate or tag stays as it was and the caller gets an error, not a 2xx.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { auditLog, rates, stations } from "#db/schema";
import { createTenant, expectStatus, openHarness, rateInput, stationInput, testBackends, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("audited writes are atomic with their entry ($name)", (backend) => {
  let h: Harness;
  let owner: Tenant;
  /** Station ids whose rebalance ran, with the grid capacity it saw. */
  const rebalanced: { id: string; gridCapacityKw: number | null }[] = [];

  beforeAll(async () => {
    h = await openHarness(backend, {
      accountRequestsPerMinute: 100_000,
      ocpp: {
        sendCommand: async () => ({ outcome: "offline" }) as never,
        // Reads the station on the database's own handle: it must see the committed write.
        rebalanceStation: async (id) => {
          const [row] = await h.db.select({ gridCapacityKw: stations.gridCapacityKw }).from(stations).where(eq(stations.id, id));
          rebalanced.push({ id, gridCapacityKw: row?.gridCapacityKw ?? null });
        },
        live: { subscribe: () => () => {}, publish: () => {} } as never,
      },
    });
    owner = await createTenant(h, "atomic-owner");
    await h.db.execute(sql`create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$`);
  });
  afterAll(() => h?.close());
  afterEach(() => refuseAudit(false));

  async function refuseAudit(on: boolean) {
    await h.db.execute(sql`drop trigger if exists refuse_audit on audit_log`);
    if (on) await h.db.execute(sql`create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()`);
  }
  const entryCount = async () => (await h.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.businessId, owner.businessId))).length;
  const stationNamed = async (name: string) => h.db.select().from(stations).where(and(eq(stations.businessId, owner.businessId), eq(stations.name, name)));

  it("a station created without its entry is not created", async () => {
    await refuseAudit(true);
    const res = await h.call("POST", "/Business/ChargingStation", { token: owner.token, body: stationInput({ name: "Sin registro" }) });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(await stationNamed("Sin registro")).toEqual([]);
  });

  it("a station updated without its entry keeps its fields; deleted without its entry, it stays", async () => {
    const station = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: owner.token, body: stationInput({ name: "Atómica" }) }), 201);
    const entries = await entryCount();
    await refuseAudit(true);
    const put = await h.call("PUT", `/Business/ChargingStation/${station.id}`, { token: owner.token, body: stationInput({ name: "Atómica 2", published: false, gridCapacityKw: 22 }) });
    expect(put.status).toBeGreaterThanOrEqual(500);
    // Nothing after the commit ran either: the chargers were not told of a capacity that never was.
    expect(rebalanced.map((r) => r.id)).not.toContain(station.id);
    const [kept] = await stationNamed("Atómica");
    expect(kept).toMatchObject({ id: station.id, published: true });
    const del = await h.call("DELETE", `/Business/ChargingStation/${station.id}`, { token: owner.token });
    expect(del.status).toBeGreaterThanOrEqual(500);
    expect(await stationNamed("Atómica")).toHaveLength(1);
    await refuseAudit(false);
    expect(await entryCount()).toBe(entries);
    // Once the log writes again, so does the station, with its entry.
    await expectStatus(await h.call("PUT", `/Business/ChargingStation/${station.id}`, { token: owner.token, body: stationInput({ name: "Atómica 2" }) }), 200);
    expect(await entryCount()).toBe(entries + 1);
  });

  it("rates and tags: no change without its entry", async () => {
    const rate = await expectStatus(await h.call("POST", "/Business/Fees", { token: owner.token, body: rateInput({ name: "Tarifa atómica" }) }), 201);
    await refuseAudit(true);
    expect((await h.call("PUT", `/Business/Fees/${rate.id}`, { token: owner.token, body: rateInput({ name: "Tarifa cambiada" }) })).status).toBeGreaterThanOrEqual(500);
    expect((await h.db.select({ name: rates.name }).from(rates).where(eq(rates.id, rate.id)))[0].name).toBe("Tarifa atómica");
    const tag = await h.call("POST", "/Business/Tag", { token: owner.token, body: { idTag: "ATOMIC01", holderName: "Ana" } });
    expect(tag.status).toBeGreaterThanOrEqual(500);
    await refuseAudit(false);
    const list = await expectStatus(await h.call("GET", "/Business/Tag?q=ATOMIC01", { token: owner.token }), 200);
    expect(list.items).toEqual([]);
  });

  it("the station's load balancing runs after the commit and sees the new capacity", async () => {
    const station = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: owner.token, body: stationInput({ name: "Con red" }) }), 201);
    await expectStatus(await h.call("PUT", `/Business/ChargingStation/${station.id}`, { token: owner.token, body: stationInput({ name: "Con red", gridCapacityKw: 44 }) }), 200);
    expect(rebalanced).toContainEqual({ id: station.id, gridCapacityKw: 44 });
  });
});
