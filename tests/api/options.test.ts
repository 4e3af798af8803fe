// Stations and chargers as choices (issue 9): the forms and filters read id and name from
// /Options instead of the full lists with their per-station counts and connectors. Same paging
// and bounds as every list (list-bounds.test.ts), ordered by name, and only the caller's own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargerInput, createTenant, expectProblem, expectStatus, openHarness, stationInput, testBackends, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("station and charger options ($name)", (backend) => {
  let h: Harness;
  let a: Tenant;
  let b: Tenant;
  const stationIds: Record<string, string> = {};

  beforeAll(async () => {
    h = await openHarness(backend);
    a = await createTenant(h, "options-a");
    b = await createTenant(h, "options-b");
    for (const [name, city] of [
      ["zeta", "Rosario"],
      ["Alfa", "Córdoba"],
      ["beta", "Mendoza"],
    ]) {
      stationIds[name] = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: a.token, body: stationInput({ name, city }) }), 201)).id;
    }
    await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: b.token, body: stationInput({ name: "Ajena" }) }), 201);
    await expectStatus(await h.call("POST", "/Business/Charger", { token: a.token, body: chargerInput({ name: "CP Beta", stationId: stationIds.beta }) }), 201);
    await expectStatus(await h.call("POST", "/Business/Charger", { token: a.token, body: chargerInput({ name: "cp alfa", stationId: stationIds.Alfa }) }), 201);
    await expectStatus(await h.call("POST", "/Business/Charger", { token: a.token, body: chargerInput({ name: "Suelto" }) }), 201);
    await expectStatus(await h.call("POST", "/Business/Charger", { token: b.token, body: chargerInput({ name: "Ajeno" }) }), 201);
  });
  afterAll(() => h.close());

  it("lists the caller's stations by name, with id, name and city only", async () => {
    const page = await expectStatus(await h.call("GET", "/Business/ChargingStation/Options", { token: a.token }), 200);
    expect(page).toEqual({
      items: [
        { id: stationIds.Alfa, name: "Alfa", city: "Córdoba" },
        { id: stationIds.beta, name: "beta", city: "Mendoza" },
        { id: stationIds.zeta, name: "zeta", city: "Rosario" },
      ],
      total: 3,
      page: 1,
      pageSize: 20,
    });
    const second = await expectStatus(await h.call("GET", "/Business/ChargingStation/Options?pageSize=2&page=2", { token: a.token }), 200);
    expect(second.items.map((s: { name: string }) => s.name)).toEqual(["zeta"]);
  });

  it("lists the caller's chargers by name with their station, and narrows to one station", async () => {
    const page = await expectStatus(await h.call("GET", "/Business/Charger/Options", { token: a.token }), 200);
    expect(page.total).toBe(3);
    expect(page.items.map((c: { name: string; stationName: string | null }) => [c.name, c.stationName])).toEqual([
      ["cp alfa", "Alfa"],
      ["CP Beta", "beta"],
      ["Suelto", null],
    ]);
    expect(Object.keys(page.items[0]).sort()).toEqual(["id", "name", "stationId", "stationName"]);
    const narrowed = await expectStatus(await h.call("GET", `/Business/Charger/Options?stationId=${stationIds.beta}`, { token: a.token }), 200);
    expect(narrowed.items.map((c: { name: string }) => c.name)).toEqual(["CP Beta"]);
    // Another company's station narrows to nothing, not to its chargers.
    const [foreign] = (await expectStatus(await h.call("GET", "/Business/ChargingStation/Options", { token: b.token }), 200)).items;
    expect((await expectStatus(await h.call("GET", `/Business/Charger/Options?stationId=${foreign.id}`, { token: a.token }), 200)).items).toEqual([]);
  });

  it("bad parameters are a 422 with the Spanish field message", async () => {
    const bad = await expectProblem(await h.call("GET", "/Business/Charger/Options?stationId=nope", { token: a.token }), 422);
    expect(bad.errors?.stationId?.[0]).toMatch(/[a-záéíóú]/i);
    await expectProblem(await h.call("GET", "/Business/ChargingStation/Options?pageSize=101", { token: a.token }), 422);
    await expectProblem(await h.call("GET", "/Business/ChargingStation/Options", { token: null }), 401);
  });
});
