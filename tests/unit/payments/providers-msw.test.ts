// The msw fake of Mercado Pago and Pagos360 (tests/mocks/providers.ts, in the shared handlers):
// what a test can make the providers do after the payment, read back through Enchufá's own
// clients, and the notifications it builds — the same rules as the local emulator.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mercadoPagoClient, verifyMercadoPagoSignature, type MercadoPagoClient } from "#infra/payments/mercadopago";
import { pagos360Client, type Pagos360Client } from "#infra/payments/pagos360";
import { apiUrl, MERCADOPAGO_TEST_URL, PAGOS360_TEST_URL, PROVIDER_TEST_WEBHOOK_SECRET, providers, server } from "../../mocks/server";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  providers.reset();
});
afterAll(() => server.close());

// Made once msw listens: a client keeps the fetch it was made with, and msw replaces fetch on listen().
let mp: MercadoPagoClient;
let p360: Pagos360Client;
beforeAll(() => {
  mp = mercadoPagoClient({ baseUrl: MERCADOPAGO_TEST_URL, accessToken: "TEST-token" });
  p360 = pagos360Client({ baseUrl: PAGOS360_TEST_URL, apiKey: "p360-key" });
});
const NOTIFY = "https://enchufa.test/api/Webhook/MercadoPago/b-1";
type Full = { status: string; status_detail: string; transaction_amount_refunded: number; refunds: { amount: number; status: string }[]; fee_details: { amount: number; type: string }[]; transaction_details: { net_received_amount: number } };
const full = async (id: number | string) => (await mp.getPayment(String(id))) as unknown as Full;

describe("msw providers fake: Mercado Pago", () => {
  it("a payment fixture carries the fee (6.29 % + IVA) and the net; a rejected one none", async () => {
    const p = providers.mercadoPago.payment({ amountCents: 500_000, externalReference: "pay-1" });
    expect(await full(p.id)).toMatchObject({ status: "approved", fee_details: [{ amount: 380.55, type: "mercadopago_fee" }], transaction_details: { net_received_amount: 4619.45 } });
    const rejected = providers.mercadoPago.payment({ status: "rejected" });
    expect(await full(rejected.id)).toMatchObject({ fee_details: [], transaction_details: { net_received_amount: 0 } });
    await expect(mp.getPayment("1")).rejects.toMatchObject({ status: 404 });
  });

  it("changes a payment's status as Mercado Pago would, and refuses what it would not", async () => {
    const p = providers.mercadoPago.payment({ amountCents: 500_000 });
    providers.mercadoPago.setStatus(p.id, "in_mediation");
    expect((await mp.getPayment(String(p.id))).status).toBe("in_mediation");
    providers.mercadoPago.setStatus(p.id, "approved");
    providers.mercadoPago.setStatus(p.id, "refunded", { amountCents: 100_000 });
    expect(await full(p.id)).toMatchObject({ status: "approved", status_detail: "partially_refunded", transaction_amount_refunded: 1000, refunds: [{ amount: 1000, status: "approved" }] });
    providers.mercadoPago.setStatus(p.id, "refunded");
    expect(await full(p.id)).toMatchObject({ status: "refunded", transaction_amount_refunded: 5000 });
    expect(() => providers.mercadoPago.setStatus(p.id, "charged_back")).toThrow(/no puede pasar/);
    const q = providers.mercadoPago.payment();
    expect(providers.mercadoPago.setStatus(q.id, "charged_back").status).toBe("charged_back");
  });

  it("pays the same reference again: the search finds both payments", async () => {
    const first = providers.mercadoPago.payment({ externalReference: "pay-2" });
    const second = providers.mercadoPago.payAgain(first.id);
    expect(second).toMatchObject({ status: "approved", external_reference: "pay-2", transaction_amount: first.transaction_amount });
    expect((await mp.searchByExternalReference("pay-2")).map((p) => p.id)).toEqual([second.id, first.id]);
  });

  it("API refunds get a status (next one rejected or in process), each readable; an in-process one settles later", async () => {
    const p = providers.mercadoPago.payment({ amountCents: 500_000 });
    providers.mercadoPago.nextRefund("rejected");
    const rejected = await mp.refund(String(p.id), 100_000, "k1");
    expect(rejected).toMatchObject({ status: "rejected", amount: 1000 });
    const read = await fetch(`${MERCADOPAGO_TEST_URL}/v1/payments/${p.id}/refunds/${rejected.id}`, { headers: { authorization: "Bearer TEST-token" } });
    expect(await read.json()).toMatchObject({ id: rejected.id, status: "rejected" });
    expect((await fetch(`${MERCADOPAGO_TEST_URL}/v1/payments/${p.id}/refunds/${rejected.id}`)).status).toBe(401);
    expect((await fetch(`${MERCADOPAGO_TEST_URL}/v1/payments/${p.id}/refunds/1`, { headers: { authorization: "Bearer TEST-token" } })).status).toBe(404);
    providers.mercadoPago.nextRefund("in_process");
    const pending = await mp.refund(String(p.id), undefined, "k2");
    expect(pending).toMatchObject({ status: "in_process", amount: 5000 });
    expect((await mp.getPayment(String(p.id))).status).toBe("approved");
    expect(providers.mercadoPago.settleRefund(p.id, pending.id, "approved").status).toBe("approved");
    expect(await full(p.id)).toMatchObject({ status: "refunded", refunds: [{ status: "rejected" }, { status: "approved" }] });
    expect(await mp.refund(String(p.id), 100, "k3").catch((e: unknown) => e)).toMatchObject({ status: 400 });
  });

  it("builds the notification: a signed webhook (verifiable) or the unsigned IPN", async () => {
    const p = providers.mercadoPago.payment();
    const hook = providers.mercadoPago.notification(p.id, NOTIFY);
    const url = new URL(hook.url);
    expect([hook.method, url.pathname, url.searchParams.get("data.id"), url.searchParams.get("type")]).toEqual(["POST", "/api/Webhook/MercadoPago/b-1", String(p.id), "payment"]);
    const signed = { signature: hook.headers.get("x-signature") ?? undefined, requestId: hook.headers.get("x-request-id") ?? undefined, dataId: url.searchParams.get("data.id") ?? undefined };
    expect(verifyMercadoPagoSignature({ ...signed, secret: PROVIDER_TEST_WEBHOOK_SECRET })).toBe(true);
    expect(await hook.json()).toMatchObject({ type: "payment", data: { id: String(p.id) } });
    const ipn = providers.mercadoPago.notification(p.id, NOTIFY, { delivery: "ipn" });
    const ipnUrl = new URL(ipn.url);
    expect([ipnUrl.searchParams.get("topic"), ipnUrl.searchParams.get("id"), ipn.headers.get("x-signature")]).toEqual(["payment", String(p.id), null]);
    expect(await ipn.json()).toEqual({ resource: String(p.id), topic: "payment" });
  });

  it("records the preferences the client creates (notification URL and expiry)", async () => {
    const pref = await mp.createPreference({ externalReference: "pay-3", title: "Carga", amountCents: 10_000, backUrl: "https://e.test/b", notificationUrl: NOTIFY }, "k");
    expect(pref.init_point.startsWith(MERCADOPAGO_TEST_URL)).toBe(true);
    expect(providers.preferences()).toEqual([expect.objectContaining({ id: pref.id, external_reference: "pay-3", notification_url: NOTIFY, expiration_date_to: undefined })]);
  });
});

describe("msw providers fake: Pagos360, and the Business API handlers are unchanged", () => {
  it("a payment request's states, read by the client, and Pagos360's unsigned notification", async () => {
    const created = await p360.createPaymentRequest({ externalReference: "pay-4", description: "Carga", amountCents: 250_000, payerName: "C", backUrl: "https://e.test/b", dueDate: "31-12-2030" });
    expect(created).toMatchObject({ state: "pending", external_reference: "pay-4", first_total: 2500 });
    for (const state of ["paid", "reverted"] as const) {
      providers.pagos360.setState(created.id, state);
      expect((await p360.getPaymentRequest(String(created.id))).state).toBe(state);
    }
    expect(() => providers.pagos360.setState(created.id, "refunded")).toThrow(/no puede pasar/);
    for (const [from, to] of [["paid", "refunded"], ["pending", "canceled"], ["pending", "expired"], ["pending", "rejected"]] as const) {
      const r = providers.pagos360.request({ state: from });
      expect(providers.pagos360.setState(r.id, to).state).toBe(to);
      expect((await p360.getPaymentRequest(String(r.id))).state).toBe(to);
    }
    const note = providers.pagos360.notification(created.id, "https://enchufa.test/api/Webhook/Pagos360/b-1");
    expect(note.headers.get("x-signature")).toBeNull();
    expect(await note.json()).toEqual({ entity_name: "PaymentRequest", type: "reverted", entity_id: created.id, created_at: expect.any(String) });
    await expect(p360.getPaymentRequest("1")).rejects.toMatchObject({ status: 404 });
  });

  it("the Business API still answers its fixtures next to the providers", async () => {
    expect((await fetch(apiUrl("/MercadoPago/BusinessUser"))).status).toBe(200);
  });
});
