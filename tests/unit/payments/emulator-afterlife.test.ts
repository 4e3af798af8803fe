// The payments emulator after the payment: each /_emulator route changes the emulated provider's
// record and then notifies Enchufá the way the provider does — Mercado Pago's signed webhook
// (verifiable with verifyMercadoPagoSignature), its unsigned IPN (`?topic=payment&id=…`) when
// asked, Pagos360's unsigned { entity_name, type, entity_id }. Also: refunds with a status and
// their read, fees and net on the payment, expiring preferences, and the panel's plain forms.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mercadoPagoClient, verifyMercadoPagoSignature } from "#infra/payments/mercadopago";
import { pagos360Client } from "#infra/payments/pagos360";
import { EMULATOR_WEBHOOK_SECRET, startPaymentsEmulator, type PaymentsEmulator } from "../../../scripts/payments-emulator";

interface Received {
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}
type Payment = {
  id: number;
  status: string;
  status_detail: string;
  external_reference: string;
  transaction_amount_refunded: number;
  date_approved: string | null;
  refunds: { id: number; amount: number; status: string }[];
  fee_details: { amount: number; type: string }[];
  transaction_details: { net_received_amount: number };
};

describe("payments emulator: what providers do after the payment", () => {
  let emulator: PaymentsEmulator;
  let receiver: http.Server;
  let hookBase = "";
  const received: Received[] = [];
  const TOKEN = "TEST-afterlife-token";
  const mp = () => mercadoPagoClient({ baseUrl: emulator.mercadoPagoUrl, accessToken: TOKEN });

  beforeAll(async () => {
    emulator = await startPaymentsEmulator();
    receiver = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://x");
        received.push({ path: url.pathname, query: url.searchParams, headers: req.headers, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {} });
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/Webhook`;
  });
  afterAll(async () => {
    await new Promise((r) => receiver.close(r));
    await emulator.stop();
  });
  beforeEach(() => {
    received.length = 0;
  });

  const control = (path: string, body: Record<string, unknown> = {}) =>
    fetch(`${emulator.url}/_emulator/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  /** A preference paid (approved) at the emulator's checkout, as the driver does. */
  async function paid(amountCents = 500_000, extra: Record<string, unknown> = {}) {
    const externalReference = crypto.randomUUID();
    const created = await fetch(`${emulator.mercadoPagoUrl}/checkout/preferences`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        items: [{ title: "Carga", quantity: 1, currency_id: "ARS", unit_price: amountCents / 100 }],
        external_reference: externalReference,
        back_urls: { success: "http://127.0.0.1:1/cargar/pago/x" },
        notification_url: `${hookBase}/MercadoPago/b-1`,
        ...extra,
      }),
    });
    const pref = (await created.json()) as { id: string; init_point: string };
    const back = await fetch(pref.init_point, { method: "POST", body: new URLSearchParams({ decision: "approve" }), redirect: "manual" });
    const paymentId = Number(new URL(back.headers.get("location")!).searchParams.get("payment_id"));
    received.length = 0;
    return { pref, paymentId, externalReference };
  }

  function expectSignedWebhook(r: Received | undefined, paymentId: number) {
    expect(r?.path).toBe("/api/Webhook/MercadoPago/b-1");
    expect(r?.query.get("data.id")).toBe(String(paymentId));
    expect(r?.query.get("type")).toBe("payment");
    expect(r?.body).toMatchObject({ type: "payment", data: { id: String(paymentId) } });
    const signed = { signature: r?.headers["x-signature"] as string, requestId: r?.headers["x-request-id"] as string, dataId: r?.query.get("data.id") ?? undefined };
    expect(verifyMercadoPagoSignature({ ...signed, secret: EMULATOR_WEBHOOK_SECRET })).toBe(true);
    expect(verifyMercadoPagoSignature({ ...signed, secret: "otro-secreto" })).toBe(false);
  }

  it("reports the fee (6.29 % + IVA) and the net on an approved payment", async () => {
    const { paymentId } = await paid(500_000);
    const p = (await mp().getPayment(String(paymentId))) as unknown as Payment;
    // 5000 × 0.0629 × 1.21 = 380.545 → 380.55 (to the centavo, half up); net 4619.45.
    expect(p.fee_details).toEqual([{ amount: 380.55, fee_payer: "collector", type: "mercadopago_fee" }]);
    expect(p.transaction_details.net_received_amount).toBe(4619.45);
    expect(p.date_approved).toEqual(expect.any(String));
    expect(p.refunds).toEqual([]);
  });

  it("a chargeback: the payment is charged_back and a signed webhook reaches the preference's notification URL", async () => {
    const { paymentId } = await paid();
    const res = await control(`mercadopago/payments/${paymentId}/status`, { status: "charged_back" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ payment: { id: paymentId, status: "charged_back" }, delivery: { provider: "MERCADOPAGO", format: "webhook", status: 200, paymentId } });
    expect(received).toHaveLength(1);
    expectSignedWebhook(received[0], paymentId);
    expect((await mp().getPayment(String(paymentId))).status).toBe("charged_back");
  });

  it("a dispute opened and resolved in the seller's favour, each notified; a lost one ends charged back", async () => {
    const { paymentId } = await paid();
    expect((await control(`mercadopago/payments/${paymentId}/status`, { status: "in_mediation" })).status).toBe(200);
    expect((await mp().getPayment(String(paymentId))).status).toBe("in_mediation");
    expect((await control(`mercadopago/payments/${paymentId}/status`, { status: "approved" })).status).toBe(200);
    const p = (await mp().getPayment(String(paymentId))) as unknown as Payment;
    expect([p.status, p.status_detail]).toEqual(["approved", "accredited"]);
    expect(received.map((r) => r.query.get("data.id"))).toEqual([String(paymentId), String(paymentId)]);
    received.forEach((r) => expectSignedWebhook(r, paymentId));
    await control(`mercadopago/payments/${paymentId}/status`, { status: "in_mediation" });
    await control(`mercadopago/payments/${paymentId}/status`, { status: "charged_back" });
    expect((await mp().getPayment(String(paymentId))).status).toBe("charged_back");
  });

  it("a refund from Mercado Pago's panel: partial with amountCents, then the rest; approved refunds on the payment", async () => {
    const { paymentId } = await paid(500_000);
    await control(`mercadopago/payments/${paymentId}/status`, { status: "refunded", amountCents: 120_000 });
    let p = (await mp().getPayment(String(paymentId))) as unknown as Payment;
    expect([p.status, p.status_detail, p.transaction_amount_refunded]).toEqual(["approved", "partially_refunded", 1200]);
    expect(p.refunds).toEqual([expect.objectContaining({ amount: 1200, status: "approved" })]);
    await control(`mercadopago/payments/${paymentId}/status`, { status: "refunded" });
    p = (await mp().getPayment(String(paymentId))) as unknown as Payment;
    expect([p.status, p.transaction_amount_refunded]).toEqual(["refunded", 5000]);
    expect(p.refunds.map((r) => [r.amount, r.status])).toEqual([
      [1200, "approved"],
      [3800, "approved"],
    ]);
    // The fee stays: Mercado Pago does not give it back on a refund.
    expect(p.fee_details[0]?.amount).toBe(380.55);
    expect(received).toHaveLength(2);
    received.forEach((r) => expectSignedWebhook(r, paymentId));
  });

  it("refuses what Mercado Pago would not do, notifying nothing", async () => {
    const { paymentId } = await paid();
    expect((await control(`mercadopago/payments/${paymentId}/status`, { status: "approved" })).status).toBe(409);
    expect((await control(`mercadopago/payments/${paymentId}/status`, { status: "paid" })).status).toBe(400);
    expect((await control(`mercadopago/payments/${paymentId}/status`, { status: "refunded", amountCents: 600_000 })).status).toBe(409);
    expect((await control(`mercadopago/payments/${paymentId}/status`, { status: "refunded", amountCents: -1 })).status).toBe(400);
    expect((await control("mercadopago/payments/1/status", { status: "charged_back" })).status).toBe(404);
    expect(received).toEqual([]);
  });

  it('delivers the unsigned IPN instead with delivery: "ipn": POST ?topic=payment&id=…, no x-signature', async () => {
    const { paymentId } = await paid();
    const res = await control(`mercadopago/payments/${paymentId}/status`, { status: "charged_back", delivery: "ipn" });
    expect(await res.json()).toMatchObject({ delivery: { format: "ipn", status: 200 } });
    expect(received).toHaveLength(1);
    const [r] = received;
    expect(r.path).toBe("/api/Webhook/MercadoPago/b-1");
    expect([r.query.get("topic"), r.query.get("id"), r.query.get("data.id")]).toEqual(["payment", String(paymentId), null]);
    expect(r.headers["x-signature"]).toBeUndefined();
    expect(r.body).toEqual({ resource: String(paymentId), topic: "payment" });
  });

  it("pays a preference again: a new approved payment with the same external_reference, notified", async () => {
    const { pref, paymentId, externalReference } = await paid();
    const res = await control(`mercadopago/preferences/${pref.id}/pay`);
    expect(res.status).toBe(201);
    const { payment } = (await res.json()) as { payment: Payment };
    expect(payment.id).not.toBe(paymentId);
    expect([payment.status, payment.external_reference]).toEqual(["approved", externalReference]);
    expectSignedWebhook(received[0], payment.id);
    expect(received[0].body.action).toBe("payment.created");
    const both = await mp().searchByExternalReference(externalReference);
    expect(both.map((p) => Number(p.id)).sort()).toEqual([paymentId, payment.id].sort());
  });

  it("an expired preference: the checkout and a second payment are refused, a late one goes through", async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const externalReference = crypto.randomUUID();
    const created = await fetch(`${emulator.mercadoPagoUrl}/checkout/preferences`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ items: [{ unit_price: 100 }], external_reference: externalReference, back_urls: { success: "http://127.0.0.1:1/x" }, notification_url: `${hookBase}/MercadoPago/b-1`, expires: true, expiration_date_to: past }),
    });
    const pref = (await created.json()) as { id: string; init_point: string; expires: boolean; expiration_date_to: string };
    expect(pref).toMatchObject({ expires: true, expiration_date_to: past });
    expect((await fetch(pref.init_point)).status).toBe(410);
    expect((await fetch(pref.init_point, { method: "POST", body: new URLSearchParams({ decision: "approve" }), redirect: "manual" })).status).toBe(410);
    expect((await control(`mercadopago/preferences/${pref.id}/pay`)).status).toBe(409);
    expect(received).toEqual([]);
    const late = await control(`mercadopago/preferences/${pref.id}/pay`, { late: true });
    expect(late.status).toBe(201);
    const { payment } = (await late.json()) as { payment: Payment };
    expect(payment).toMatchObject({ status: "approved", external_reference: externalReference });
    expectSignedWebhook(received[0], payment.id);
  });

  it("API refunds get a status, readable at /refunds/{id}; next-refund makes one rejected or in process", async () => {
    const { paymentId } = await paid(500_000);
    expect((await control("mercadopago/next-refund", { status: "rejected" })).status).toBe(200);
    const rejected = await mp().refund(String(paymentId), 100_000, "k-rejected");
    expect(rejected).toMatchObject({ payment_id: paymentId, amount: 1000, status: "rejected" });
    const read = await fetch(`${emulator.mercadoPagoUrl}/v1/payments/${paymentId}/refunds/${rejected.id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(await read.json()).toMatchObject({ id: rejected.id, status: "rejected", amount: 1000 });
    expect((await fetch(`${emulator.mercadoPagoUrl}/v1/payments/${paymentId}/refunds/${rejected.id}`, { headers: { authorization: "Bearer TEST-otro" } })).status).toBe(404);
    expect((await fetch(`${emulator.mercadoPagoUrl}/v1/payments/${paymentId}/refunds/1`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect((await mp().getPayment(String(paymentId))).transaction_amount_refunded).toBe(0);

    // Used once: the next one is approved again.
    expect(await mp().refund(String(paymentId), 100_000, "k-approved")).toMatchObject({ status: "approved" });
    await control("mercadopago/next-refund", { status: "in_process" });
    const pending = await mp().refund(String(paymentId), undefined, "k-in-process");
    expect(pending).toMatchObject({ status: "in_process", amount: 4000 });
    let p = (await mp().getPayment(String(paymentId))) as unknown as Payment;
    expect([p.status, p.transaction_amount_refunded]).toEqual(["approved", 1000]);
    // In process still holds its amount: no second refund of it.
    await expect(mp().refund(String(paymentId), 100, "k-more")).rejects.toMatchObject({ status: 400 });

    // Mercado Pago settles it later and notifies.
    const settled = await control(`mercadopago/payments/${paymentId}/refunds/${pending.id}/status`, { status: "approved" });
    expect(settled.status).toBe(200);
    p = (await mp().getPayment(String(paymentId))) as unknown as Payment;
    expect([p.status, p.transaction_amount_refunded]).toEqual(["refunded", 5000]);
    expect(p.refunds.map((r) => r.status)).toEqual(["rejected", "approved", "approved"]);
    expectSignedWebhook(received.at(-1), paymentId);
    expect((await control(`mercadopago/payments/${paymentId}/refunds/${pending.id}/status`, { status: "rejected" })).status).toBe(409);
    expect((await control("mercadopago/next-refund", { status: "lost" })).status).toBe(400);
  });

  it("Pagos360: a state change notifies the account's webhook URL, unsigned, with entity_name and entity_id", async () => {
    const apiKey = "p360-afterlife-0000000000";
    emulator.setPagos360Webhook(apiKey, `${hookBase}/Pagos360/b-1`);
    const client = pagos360Client({ baseUrl: emulator.pagos360Url, apiKey });
    const paidRequest = async () => {
      const r = await client.createPaymentRequest({ externalReference: crypto.randomUUID(), description: "Carga", amountCents: 250_000, payerName: "Conductor", backUrl: "http://127.0.0.1:1/x", dueDate: "31-12-2030" });
      await fetch(r.checkout_url, { method: "POST", body: new URLSearchParams({ decision: "approve" }), redirect: "manual" });
      return r;
    };
    const reverted = await paidRequest();
    const refunded = await paidRequest();
    received.length = 0;
    for (const [request, state] of [[reverted, "reverted"], [refunded, "refunded"]] as const) {
      const res = await control(`pagos360/payment-request/${request.id}/status`, { state });
      expect(res.status).toBe(200);
      expect((await client.getPaymentRequest(String(request.id))).state).toBe(state);
    }
    expect(received.map((r) => [r.path, r.headers["x-signature"], r.body])).toEqual([
      ["/api/Webhook/Pagos360/b-1", undefined, { entity_name: "PaymentRequest", type: "reverted", entity_id: reverted.id, created_at: expect.any(String) }],
      ["/api/Webhook/Pagos360/b-1", undefined, { entity_name: "PaymentRequest", type: "refunded", entity_id: refunded.id, created_at: expect.any(String) }],
    ]);
    // Money goes back once, and only from a paid request; nothing is notified then.
    expect((await control(`pagos360/payment-request/${reverted.id}/status`, { state: "refunded" })).status).toBe(409);
    expect(received).toHaveLength(2);
    expect((await control(`pagos360/payment-request/${reverted.id}/status`, { state: "approved" })).status).toBe(400);
    expect((await control("pagos360/payment-request/1/status", { state: "canceled" })).status).toBe(404);
  });

  it("the panel lists payments with a button per action; a form posts, is redirected back with a message", async () => {
    const { paymentId } = await paid();
    const html = await (await fetch(`${emulator.url}/_emulator`)).text();
    for (const label of ["Contracargo", "Abrir disputa", "Resolver disputa a favor", "Devolver desde el panel", "Pagar otra vez", "Aprobar tarde", "Revertir", "Devolver"]) {
      expect(html).toContain(`>${label}</button>`);
    }
    expect(html).toContain(`formaction="/_emulator/mercadopago/payments/${paymentId}/status" name="status" value="charged_back"`);
    const form = await fetch(`${emulator.url}/_emulator/mercadopago/payments/${paymentId}/status`, {
      method: "POST",
      body: new URLSearchParams({ status: "refunded", amountCents: "", delivery: "ipn" }),
      redirect: "manual",
    });
    expect(form.status).toBe(303);
    const location = form.headers.get("location")!;
    expect(location).toMatch(/^\/_emulator\?msg=/);
    expect((await mp().getPayment(String(paymentId))).status).toBe("refunded");
    expect(received[0]?.query.get("topic")).toBe("payment");
    expect(await (await fetch(`${emulator.url}${location}`)).text()).toContain(`Pago ${paymentId}: refunded.`);
    const refused = await fetch(`${emulator.url}/_emulator/mercadopago/payments/${paymentId}/status`, { method: "POST", body: new URLSearchParams({ status: "in_mediation" }), redirect: "manual" });
    expect(refused.status).toBe(303);
    expect(decodeURIComponent(refused.headers.get("location")!)).toContain("no puede pasar");
  });
});
