// Stations and chargers as choices: the forms and filters read id and name from
// /Options instead of the full lists with their per-station counts and connectors. Paged like
// every list, with a larger cap (OPTIONS_MAX_PAGE_SIZE, list-bounds.test.ts) so that one request
// brings a company's stations; ordered by name, and only the caller's own.
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

  it("reports the same total whether the page shows it (short page) or it has to be counted", async () => {
    // Full pages and pages past the end are counted; a short page is the last one.
    for (const [query, items, total] of [
      ["pageSize=2&page=1", 2, 3],
      ["pageSize=3&page=1", 3, 3],
      ["pageSize=2&page=2", 1, 3],
      ["pageSize=2&page=3", 0, 3],
      ["pageSize=500&page=1", 3, 3],
      ["pageSize=1&page=3", 1, 3],
    ] as const) {
      for (const path of ["/Business/ChargingStation/Options", "/Business/Charger/Options"]) {
        const page = await expectStatus(await h.call("GET", `${path}?${query}`, { token: a.token }), 200);
        expect([page.items.length, page.total], `${path}?${query}`).toEqual([items, total]);
      }
    }
    // Narrowed to one station, a short first page still totals only that station's chargers.
    const narrowed = await expectStatus(await h.call("GET", `/Business/Charger/Options?stationId=${stationIds.beta}&pageSize=500`, { token: a.token }), 200);
    expect(narrowed.total).toBe(1);
    // Another company's empty answer totals 0.
    const none = await expectStatus(await h.call("GET", `/Business/Charger/Options?stationId=${stationIds.beta}`, { token: b.token }), 200);
    expect([none.items.length, none.total]).toEqual([0, 0]);
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
    await expectProblem(await h.call("GET", "/Business/ChargingStation/Options?pageSize=501", { token: a.token }), 422);
    await expectProblem(await h.call("GET", "/Business/ChargingStation/Options", { token: null }), 401);
  });
});
