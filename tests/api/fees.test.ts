// /Business/Fees: rates with penalties, the in-use guard and the price preview.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceSession, type RateSnapshot } from "#domain/pricing";
import {
  chargerInput,
  createTenant,
  expectProblem,
  expectStatus,
  openHarness,
  rateInput,
  testBackends,
  type Harness,
  type Tenant,
} from "./helpers";

describe.each(testBackends())("rates ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, "fee-owner");
  });
  afterAll(() => h?.close());

  let rateId: string;

  it("creates a rate with penalties (201) and fills defaults", async () => {
    const body = await expectStatus(
      await h.call("POST", "/Business/Fees", { token: t.token, body: { name: "Nocturna", pricePerKwhCents: 20000, idleActiveFrom: "22:00", idleActiveTo: "06:00", idlePricePerMinuteCents: 1000 } }),
      201,
    );
    rateId = body.id;
    expect(body).toMatchObject({
      name: "Nocturna",
      currency: "ARS",
      pricePerKwhCents: 20000,
      pricePerMinuteCents: 0,
      sessionFeeCents: 0,
      vatIncluded: true,
      vatRateBp: 2100,
      idleGraceMinutes: 0,
      idlePricePerMinuteCents: 1000,
      idleMaxCents: null,
      idleActiveFrom: "22:00",
      idleActiveTo: "06:00",
      noShowFeeCents: 0,
      connectorCount: 0,
    });
  });

  it("validates amounts, windows and that there is some price (422)", async () => {
    const p = await expectProblem(
      await h.call("POST", "/Business/Fees", {
        token: t.token,
        body: { name: "", pricePerKwhCents: -1, sessionFeeCents: 10.5, vatRateBp: 20000, currency: "USD", idleActiveFrom: "7:00" },
      }),
      422,
    );
    expect(p.errors).toMatchObject({
      name: ["Este campo es obligatorio."],
      pricePerKwhCents: ["No puede ser negativo."],
      sessionFeeCents: ["Ingresá un número entero."],
      vatRateBp: ["Debe ser menor o igual a 10000."],
      currency: ["Por ahora solo se admiten pesos (ARS)."],
      idleActiveFrom: ["Ingresá una hora con formato HH:MM."],
    });
    const half = await expectProblem(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ idleActiveFrom: "22:00" }) }), 422);
    expect(half.errors).toEqual({ idleActiveTo: ["Indicá el inicio y el fin del horario de la penalidad."] });
    const free = await expectProblem(await h.call("POST", "/Business/Fees", { token: t.token, body: { name: "Gratis" } }), 422);
    expect(free.errors?.pricePerKwhCents?.[0]).toMatch(/al menos un precio/);
  });

  it("reads, lists (q, sort, pagination) and updates", async () => {
    await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: "AC estándar" }) }), 201);
    await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: "DC rápida", pricePerKwhCents: 60000 }) }), 201);
    const one = await expectStatus(await h.call("GET", `/Business/Fees/${rateId}`, { token: t.token }), 200);
    expect(one.name).toBe("Nocturna");

    const list = await expectStatus(await h.call("GET", "/Business/Fees?sort=-pricePerKwhCents&pageSize=2", { token: t.token }), 200);
    expect(list).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(list.items.map((r: { name: string }) => r.name)).toEqual(["DC rápida", "AC estándar"]);
    const q = await expectStatus(await h.call("GET", "/Business/Fees?q=rápida", { token: t.token }), 200);
    expect(q.total).toBe(1);

    const updated = await expectStatus(await h.call("PUT", `/Business/Fees/${rateId}`, { token: t.token, body: rateInput({ name: "Nocturna 2" }) }), 200);
    expect(updated).toMatchObject({ id: rateId, name: "Nocturna 2", idleActiveFrom: null, idleGraceMinutes: 15 });
  });

  it("counts the connectors using a rate and refuses to delete it while in use (409)", async () => {
    const charger = await expectStatus(
      await h.call("POST", "/Business/Charger", {
        token: t.token,
        body: chargerInput({ connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22, rateId }] }),
      }),
      201,
    );
    const one = await expectStatus(await h.call("GET", `/Business/Fees/${rateId}`, { token: t.token }), 200);
    expect(one.connectorCount).toBe(1);
    const p = await expectProblem(await h.call("DELETE", `/Business/Fees/${rateId}`, { token: t.token }), 409);
    expect(p.title).toMatch(/^La tarifa está asignada/);

    await expectStatus(await h.call("DELETE", `/Business/Charger/${charger.id}`, { token: t.token }), 204);
    expect((await h.call("DELETE", `/Business/Fees/${rateId}`, { token: t.token })).status).toBe(204);
    await expectProblem(await h.call("GET", `/Business/Fees/${rateId}`, { token: t.token }), 404);
  });

  it("previews a price with domain/pricing (same numbers as the product)", async () => {
    const rate = rateInput({ vatIncluded: false, pricePerMinuteCents: 100 });
    const usage = { energyWh: 12_345, chargingMinutes: 50, idleMinutes: 40 };
    const body = await expectStatus(await h.call("POST", "/Business/Fees/Preview", { token: t.token, body: { rate, usage } }), 200);
    const expected = priceSession({ rateId: null, currency: "ARS", ...(rate as Omit<RateSnapshot, "rateId" | "currency">) }, { ...usage, idleStartedAt: new Date() });
    // Without bands the price has no band lines.
    expect(body.price).toEqual({ ...expected, bands: [], bandsEstimated: false });
    expect(body.billableIdleMinutes).toBe(25);
    expect(body.price.idleCents).toBe(25 * 2000);
    expect(body.noShow).toEqual({ feeCents: 100000, vatCents: 21000, totalCents: 121000 });

    const p = await expectProblem(await h.call("POST", "/Business/Fees/Preview", { token: t.token, body: { rate: {}, usage: { energyWh: -1 } } }), 422);
    expect(p.errors).toMatchObject({ "rate.name": ["Este campo es obligatorio."], "usage.energyWh": ["No puede ser negativo."], "usage.chargingMinutes": ["Este campo es obligatorio."] });
  });
});
