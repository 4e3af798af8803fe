// The database down (closed, unreachable, restarting): the API answers 503 with Retry-After, as
// the driver's /cargar pages do, so payment providers retry their notifications and drivers'
// phones try again, instead of a 500 that reads as "this request is wrong".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, openHarness, testBackends, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("database down ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  beforeAll(async () => {
    h = await openHarness(backend, { accountRequestsPerMinute: 100_000 });
    t = await createTenant(h, `down-${backend.name}`);
    await h.close();
  });
  afterAll(() => undefined);

  it("driver pages, providers' webhooks and the back office answer 503 with Retry-After", async () => {
    const uuid = "00000000-0000-4000-8000-000000000000";
    const calls: [string, string, unknown?][] = [
      ["GET", "/Driver/Charge/CP-1/1"],
      ["POST", "/Driver/Charge/CP-1/1", { amountCents: 100000, email: "a@example.com", provider: "PAGOS360", acceptTerms: true, requestKey: "abcdefghijklmnopqrst" }],
      ["GET", `/Driver/Payment/${uuid}?t=abcdefghijklmnopqrst`],
      ["POST", `/Driver/Payment/${uuid}/Stop`, { token: "abcdefghijklmnopqrst" }],
      ["POST", `/Webhook/Pagos360/${t.businessId}`, { entity_name: "PaymentRequest", entity_id: 1 }],
      ["POST", `/Webhook/MercadoPago/${t.businessId}?data.id=1&type=payment`, {}],
      ["GET", "/Business/ChargingStation"],
    ];
    for (const [method, path, body] of calls) {
      const res = await h.call(method, path, { token: path.startsWith("/Business") ? t.token : null, body });
      const text = await res.text();
      expect(res.status, `${method} ${path}: ${text.slice(0, 200)}`).toBe(503);
      expect(Number(res.headers.get("Retry-After")), `${method} ${path}`).toBeGreaterThan(0);
      expect(JSON.parse(text).title, `${method} ${path}`).toMatch(/no está disponible/);
    }
  });
});
