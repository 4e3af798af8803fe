// The Mercado Pago client against msw: the shapes we send and read, the statuses we
// map, a provider that does not answer, and the webhook signature (good, wrong, stale).
import { http, HttpResponse, delay } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkMercadoPagoSignature, mercadoPagoClient, mpDate, mpFeeCents, mpVerdictKind, ProviderError, signMercadoPagoManifest, statementDescriptor, verifyMercadoPagoSignature } from "#infra/payments/mercadopago";
import { pagos360Client, pagos360VerdictKind } from "#infra/payments/pagos360";

const MP = "https://mp.test";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = (timeoutMs?: number) => mercadoPagoClient({ baseUrl: MP, accessToken: "TEST-token", timeoutMs });

describe("Mercado Pago client", () => {
  it("creates a Checkout Pro preference with our payment id as external_reference, in pesos, with the back and notification URLs", async () => {
    let seen: { body: Record<string, unknown>; auth: string | null; key: string | null } | undefined;
    server.use(
      http.post(`${MP}/checkout/preferences`, async ({ request }) => {
        seen = { body: (await request.json()) as Record<string, unknown>, auth: request.headers.get("authorization"), key: request.headers.get("x-idempotency-key") };
        return HttpResponse.json({ id: "pref-1", init_point: "https://www.mercadopago.com.ar/checkout/v1/redirect?pref_id=pref-1" }, { status: 201 });
      }),
    );
    const pref = await client().createPreference({ externalReference: "pay-1", title: "Carga", amountCents: 500_050, backUrl: "https://e.test/cargar/pago/pay-1?t=x", notificationUrl: "https://e.test/api/Webhook/MercadoPago/b" }, "k-1");
    expect(pref.init_point).toContain("pref_id=pref-1");
    expect(seen?.auth).toBe("Bearer TEST-token");
    expect(seen?.key).toBe("k-1");
    expect(seen?.body).toMatchObject({
      external_reference: "pay-1",
      notification_url: "https://e.test/api/Webhook/MercadoPago/b",
      back_urls: { success: "https://e.test/cargar/pago/pay-1?t=x" },
      items: [{ quantity: 1, currency_id: "ARS", unit_price: 5000.5 }],
    });
  });

  it.each([
    ["approved", "APPROVED"],
    ["rejected", "REJECTED"],
    ["pending", "PENDING"],
    ["in_process", "PENDING"],
    ["cancelled", "CANCELLED"],
    ["refunded", "REFUNDED"],
    // Authorized is not captured: no money moved yet.
    ["authorized", "PENDING"],
    ["in_mediation", "IN_DISPUTE"],
    ["charged_back", "CHARGED_BACK"],
  ] as const)("reads a payment %s as %s", async (status, ours) => {
    server.use(http.get(`${MP}/v1/payments/42`, () => HttpResponse.json({ id: 42, status, external_reference: "pay-1", transaction_amount: 100 })));
    expect(mpVerdictKind(await client().getPayment("42"))).toBe(ours);
  });

  it("reads a chargeback reimbursed to the seller as a dispute won, one in process as a dispute", () => {
    expect(mpVerdictKind({ status: "charged_back", status_detail: "reimbursed" })).toBe("DISPUTE_WON");
    expect(mpVerdictKind({ status: "charged_back", status_detail: "in_process" })).toBe("IN_DISPUTE");
    expect(mpVerdictKind({ status: "charged_back", status_detail: "settled" })).toBe("CHARGED_BACK");
  });

  it("sends the company's name on the card statement (ASCII, at most 22 characters) and the checkout's validity", async () => {
    expect(statementDescriptor("  Energía Ñandú S.A. — Cargas del Sur  ")).toBe("Energia Nandu S.A.");
    expect(statementDescriptor("¿¡")).toBeUndefined();
    expect(statementDescriptor("ABCDEFGHIJKLMNOPQRSTUVWXYZ")).toBe("ABCDEFGHIJKLMNOPQRSTUV");
    expect(mpDate(new Date("2026-11-28T20:00:00Z"))).toBe("2026-11-28T17:00:00.000-03:00");
    let body: Record<string, unknown> | undefined;
    server.use(
      http.post(`${MP}/checkout/preferences`, async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ id: "pref-2", init_point: "https://mp.test/pref-2" }, { status: 201 });
      }),
    );
    const validity = { from: new Date("2026-11-28T20:00:00Z"), to: new Date("2026-11-29T20:00:00Z") };
    await client().createPreference({ externalReference: "pay-2", title: "Carga", amountCents: 100, backUrl: "https://e.test/x", notificationUrl: "https://e.test/n", statementDescriptor: "ENCHUFA SA", validity }, "k-2");
    expect(body).toMatchObject({ statement_descriptor: "ENCHUFA SA", expires: true, expiration_date_from: "2026-11-28T17:00:00.000-03:00", expiration_date_to: "2026-11-29T17:00:00.000-03:00" });
  });

  it("searches by external_reference and refunds part of a payment with an idempotency key", async () => {
    let refundBody: unknown;
    server.use(
      http.get(`${MP}/v1/payments/search`, ({ request }) => {
        expect(new URL(request.url).searchParams.get("external_reference")).toBe("pay-1");
        return HttpResponse.json({ results: [{ id: 7, status: "approved", external_reference: "pay-1", transaction_amount: 50 }] });
      }),
      http.post(`${MP}/v1/payments/7/refunds`, async ({ request }) => {
        refundBody = await request.json();
        expect(request.headers.get("x-idempotency-key")).toBe("refund-1");
        return HttpResponse.json({ id: 1, amount: 38 }, { status: 201 });
      }),
    );
    expect(await client().searchByExternalReference("pay-1")).toHaveLength(1);
    await client().refund("7", 3_800, "refund-1");
    expect(refundBody).toEqual({ amount: 38 });
  });

  it("says so in Spanish when Mercado Pago answers an error or does not answer in time", async () => {
    server.use(http.get(`${MP}/v1/payments/1`, () => new HttpResponse(null, { status: 500 })));
    await expect(client().getPayment("1")).rejects.toMatchObject({ name: "ProviderError", status: 500 });
    server.use(
      http.get(`${MP}/v1/payments/2`, async () => {
        await delay(500);
        return HttpResponse.json({});
      }),
    );
    const err = await client(50).getPayment("2").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).status).toBe("timeout");
    expect((err as ProviderError).message).toBe("Mercado Pago no respondió a tiempo.");
  });
});

describe("Mercado Pago webhook signature", () => {
  const now = new Date("2026-05-25T16:00:00Z");
  const ts = String(Math.floor(now.getTime() / 1000));
  const secret = "secreto";
  const v1 = signMercadoPagoManifest(secret, "123456", "req-1", ts);

  it("accepts the manifest id:{data.id};request-id:{x-request-id};ts:{ts}; signed with the company's secret", () => {
    expect(verifyMercadoPagoSignature({ signature: `ts=${ts},v1=${v1}`, requestId: "req-1", dataId: "123456", secret }, now)).toBe(true);
  });
  it("refuses another secret, another id, another request id, a stale ts or a malformed header", () => {
    expect(verifyMercadoPagoSignature({ signature: `ts=${ts},v1=${v1}`, requestId: "req-1", dataId: "123456", secret: "otro" }, now)).toBe(false);
    expect(verifyMercadoPagoSignature({ signature: `ts=${ts},v1=${v1}`, requestId: "req-1", dataId: "999", secret }, now)).toBe(false);
    expect(verifyMercadoPagoSignature({ signature: `ts=${ts},v1=${v1}`, requestId: "req-2", dataId: "123456", secret }, now)).toBe(false);
    expect(verifyMercadoPagoSignature({ signature: `ts=${ts},v1=${v1}`, requestId: "req-1", dataId: "123456", secret }, new Date(now.getTime() + 3_600_000))).toBe(false);
    expect(verifyMercadoPagoSignature({ signature: "v1=abc", requestId: "req-1", dataId: "123456", secret }, now)).toBe(false);
    expect(verifyMercadoPagoSignature({ signature: undefined, requestId: "req-1", dataId: "123456", secret }, now)).toBe(false);
  });
  it("tells a stale but right signature (a retry keeps its first ts) from a wrong one, and a missing one from both", () => {
    const later = new Date(now.getTime() + 3_600_000);
    expect(checkMercadoPagoSignature({ signature: `ts=${ts},v1=${v1}`, requestId: "req-1", dataId: "123456", secret }, now)).toBe("VALID");
    expect(checkMercadoPagoSignature({ signature: `ts=${ts},v1=${v1}`, requestId: "req-1", dataId: "123456", secret }, later)).toBe("STALE");
    expect(checkMercadoPagoSignature({ signature: `ts=${ts},v1=${v1}`, requestId: "req-1", dataId: "123456", secret: "otro" }, later)).toBe("INVALID");
    expect(checkMercadoPagoSignature({ signature: undefined, requestId: "req-1", dataId: "123456", secret }, now)).toBe("MISSING");
  });
});

describe("Pagos360 client", () => {
  const P = "https://p360.test";
  it("creates a payment request with our payment id as external_reference and reads its state", async () => {
    let body: Record<string, unknown> | undefined;
    server.use(
      http.post(`${P}/payment-request`, async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ id: 9, state: "pending", checkout_url: "https://checkout.pagos360.com/9", external_reference: "pay-2" }, { status: 201 });
      }),
      http.get(`${P}/payment-request/9`, () => HttpResponse.json({ id: 9, state: "paid", checkout_url: "x", external_reference: "pay-2", first_total: 30 })),
    );
    const c = pagos360Client({ baseUrl: P, apiKey: "k" });
    const r = await c.createPaymentRequest({ externalReference: "pay-2", description: "Carga", amountCents: 3_000, payerName: "Conductor", backUrl: "https://e.test/x", dueDate: "25-05-2026" });
    expect(r.checkout_url).toBe("https://checkout.pagos360.com/9");
    expect(body).toMatchObject({ payment_request: { external_reference: "pay-2", first_total: 30, first_due_date: "25-05-2026", back_url_success: "https://e.test/x" } });
    expect(pagos360VerdictKind((await c.getPaymentRequest("9")).state)).toBe("APPROVED");
  });

  it.each([
    ["pending", "PENDING"],
    ["paid", "APPROVED"],
    ["available", "APPROVED"],
    ["expired", "CANCELLED"],
    // Pagos360 spells it with one l.
    ["canceled", "CANCELLED"],
    ["rejected", "REJECTED"],
    ["reverted", "CHARGED_BACK"],
    ["refunded", "REFUNDED"],
  ] as const)("reads a payment request %s as %s", (state, kind) => {
    expect(pagos360VerdictKind(state)).toBe(kind);
  });
});

describe("Mercado Pago search (reconciliation)", () => {
  it("reads every page of a creation range, with the fee Mercado Pago kept", async () => {
    const seen: URLSearchParams[] = [];
    const all = Array.from({ length: 130 }, (_, i) => ({ id: i + 1, status: "approved", external_reference: `pay-${i}`, transaction_amount: 100, fee_details: [{ amount: 4.83, fee_payer: "collector" }] }));
    server.use(
      http.get(`${MP}/v1/payments/search`, ({ request }) => {
        const q = new URL(request.url).searchParams;
        seen.push(q);
        const offset = Number(q.get("offset"));
        const limit = Number(q.get("limit"));
        return HttpResponse.json({ paging: { total: all.length, offset, limit }, results: all.slice(offset, offset + limit) });
      }),
    );
    const { results, truncated } = await client().searchPayments({ begin: new Date("2026-11-01T03:00:00Z"), end: new Date("2026-11-08T03:00:00Z") });
    expect(results).toHaveLength(130);
    expect(truncated).toBe(false);
    expect(seen.map((q) => q.get("offset"))).toEqual(["0", "100"]);
    expect(Object.fromEntries(seen[0])).toMatchObject({ range: "date_created", begin_date: "2026-11-01T03:00:00.000Z", end_date: "2026-11-08T03:00:00.000Z", limit: "100" });
    expect(mpFeeCents(results[0])).toBe(483);
  });

  it.each([
    [{ transaction_amount: 100, fee_details: [{ amount: 4.83, fee_payer: "collector" }, { amount: 1, fee_payer: "payer" }] }, 483],
    [{ transaction_amount: 100, transaction_details: { net_received_amount: 95.17 } }, 483],
    [{ transaction_amount: 100 }, null],
  ])("the fee of %j is %s centavos", (p, fee) => expect(mpFeeCents(p)).toBe(fee));
});
