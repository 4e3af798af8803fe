// A form submitted twice creates one record: POSTs with the same Idempotency-Key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { rates, stations } from "#db/schema";
import { createTenant, expectProblem, openHarness, rateInput, stationInput, testBackends, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("idempotent creates ($name)", (backend) => {
  let h: Harness;
  let a: Tenant;
  let b: Tenant;
  beforeAll(async () => {
    h = await openHarness(backend);
    a = await createTenant(h, `idem-a-${backend.name}`);
    b = await createTenant(h, `idem-b-${backend.name}`);
  });
  afterAll(() => h?.close());

  const key = () => `form-${crypto.randomUUID()}`;
  const countRates = async (businessId: string, name: string) =>
    (await h.db.select().from(rates).where(eq(rates.businessId, businessId))).filter((r) => r.name === name).length;

  it("the same key twice: one record, the second answer is the first one replayed", async () => {
    const k = key();
    const body = rateInput({ name: "Doble clic" });
    const first = await h.call("POST", "/Business/Fees", { token: a.token, body, headers: { "Idempotency-Key": k } });
    const second = await h.call("POST", "/Business/Fees", { token: a.token, body, headers: { "Idempotency-Key": k } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await second.json()).id).toBe((await first.json()).id);
    expect(await countRates(a.businessId, "Doble clic")).toBe(1);
  });

  it("two at once (a double click): one record", async () => {
    const k = key();
    const body = stationInput({ name: "Simultánea" });
    const [x, y] = await Promise.all([0, 1].map(() => h.call("POST", "/Business/ChargingStation", { token: a.token, body, headers: { "Idempotency-Key": k } })));
    expect([x.status, y.status]).toEqual([201, 201]);
    expect((await x.json()).id).toBe((await y.json()).id);
    expect((await h.db.select().from(stations).where(eq(stations.businessId, a.businessId))).filter((s) => s.name === "Simultánea")).toHaveLength(1);
  });

  it("a refused attempt lets go of the key: the corrected form goes through with the same token", async () => {
    const k = key();
    const bad = await h.call("POST", "/Business/Fees", { token: a.token, body: rateInput({ name: "" }), headers: { "Idempotency-Key": k } });
    expect(bad.status).toBe(422);
    const good = await h.call("POST", "/Business/Fees", { token: a.token, body: rateInput({ name: "Corregida" }), headers: { "Idempotency-Key": k } });
    expect(good.status).toBe(201);
    expect(good.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("keys belong to one company; one key is for one operation", async () => {
    const k = key();
    expect((await h.call("POST", "/Business/Fees", { token: a.token, body: rateInput({ name: "De A" }), headers: { "Idempotency-Key": k } })).status).toBe(201);
    const other = await h.call("POST", "/Business/Fees", { token: b.token, body: rateInput({ name: "De B" }), headers: { "Idempotency-Key": k } });
    expect(other.status).toBe(201);
    expect((await other.json()).name).toBe("De B");
    await expectProblem(await h.call("POST", "/Business/ChargingStation", { token: a.token, body: stationInput(), headers: { "Idempotency-Key": k } }), 422);
  });

  it("a malformed key is refused; without a key every POST creates", async () => {
    await expectProblem(await h.call("POST", "/Business/Fees", { token: a.token, body: rateInput(), headers: { "Idempotency-Key": "<x>" } }), 400);
    for (let i = 0; i < 2; i++) expect((await h.call("POST", "/Business/Fees", { token: a.token, body: rateInput({ name: "Sin clave" }) })).status).toBe(201);
    expect(await countRates(a.businessId, "Sin clave")).toBe(2);
  });

  it("the same key with another body → 422 (the Idempotency-Key draft's rule), nothing created; the same body still replays", async () => {
    const k = key();
    const first = await h.call("POST", "/Business/Fees", { token: a.token, body: rateInput({ name: "Primera" }), headers: { "Idempotency-Key": k } });
    expect(first.status).toBe(201);
    const other = await expectProblem(await h.call("POST", "/Business/Fees", { token: a.token, body: rateInput({ name: "Otra" }), headers: { "Idempotency-Key": k } }), 422);
    expect(other.title).toMatch(/otros datos/);
    expect(await countRates(a.businessId, "Otra")).toBe(0);
    const again = await h.call("POST", "/Business/Fees", { token: a.token, body: rateInput({ name: "Primera" }), headers: { "Idempotency-Key": k } });
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  });
});
