// Mercado Pago and Pagos360 for unit tests, over msw: the same records and rules as the local
// emulator (scripts/payments-emulator-model.ts), in memory, with functions a test calls to make
// the provider do what it does after the payment — a chargeback, a dispute, a refund from its
// panel, a second or late payment on the same reference, a refund that stays in process or is
// rejected, a Pagos360 state — and to build the notification the provider would send then.
//
//   import { providers, MERCADOPAGO_TEST_URL } from "../mocks/providers";   // also in `handlers`
//   const p = providers.mercadoPago.payment({ amountCents: 500_000 });      // approved, with fees
//   providers.mercadoPago.setStatus(p.id, "charged_back");
//   await app.fetch(providers.mercadoPago.notification(p.id, NOTIFY_URL));  // signed webhook
//   afterEach(() => providers.reset());
//
// Clients point at MERCADOPAGO_TEST_URL / PAGOS360_TEST_URL (`baseUrl`); any Bearer token works.
import { http, HttpResponse } from "msw";
import {
  addMercadoPagoRefund,
  changeMercadoPagoStatus,
  changePagos360State,
  mercadoPagoIpnRequest,
  mercadoPagoPaymentView,
  mercadoPagoRefundView,
  mercadoPagoWebhookRequest,
  pagos360WebhookRequest,
  settleMercadoPagoRefund,
  type MpAfterStatus,
  type MpPaymentRecord,
  type MpRefundRecord,
  type MpRefundStatus,
  type Pagos360State,
  type ProviderRequest,
} from "../../scripts/payments-emulator-model";

export const MERCADOPAGO_TEST_URL = "https://api.mercadopago.test";
export const PAGOS360_TEST_URL = "https://api.pagos360.test";
/** The webhook secret the fake signs with (the operator's "secret signature" in tests). */
export const PROVIDER_TEST_WEBHOOK_SECRET = "secreto-webhook-de-prueba";

const FIRST_ID = 2_000_000_001;

export interface FakePagos360Request {
  id: number;
  state: Pagos360State;
  external_reference: string;
  description: string;
  first_total: number;
  checkout_url: string;
}
interface FakePreference {
  id: string;
  external_reference: string;
  unit_price: number;
  notification_url?: string;
  expiration_date_to?: string;
}

const asRequest = (r: ProviderRequest) => new Request(r.url, { method: r.method, headers: r.headers, body: r.body });

export function providersFake(opts: { mercadoPagoUrl?: string; pagos360Url?: string; webhookSecret?: string } = {}) {
  const MP = opts.mercadoPagoUrl ?? MERCADOPAGO_TEST_URL;
  const P360 = opts.pagos360Url ?? PAGOS360_TEST_URL;
  const secret = opts.webhookSecret ?? PROVIDER_TEST_WEBHOOK_SECRET;
  const state = {
    nextId: FIRST_ID,
    preferences: new Map<string, FakePreference>(),
    payments: new Map<number, MpPaymentRecord>(),
    refunds: [] as MpRefundRecord[],
    nextRefundStatus: "approved" as MpRefundStatus,
    pagos360: new Map<number, FakePagos360Request>(),
  };
  const view = (p: MpPaymentRecord) => mercadoPagoPaymentView(p, state.refunds);
  const payment = (id: number | string) => {
    const p = state.payments.get(Number(id));
    if (!p) throw new Error(`Mercado Pago fake: no payment ${id}`);
    return p;
  };

  const mercadoPago = {
    /** A payment (approved unless told), as if a driver paid a preference with this reference. */
    payment(input: { externalReference?: string; amountCents?: number; status?: "approved" | "rejected" | "pending" | "in_process"; preferenceId?: string; at?: Date } = {}) {
      const at = (input.at ?? new Date()).toISOString();
      const status = input.status ?? "approved";
      const p: MpPaymentRecord = {
        id: state.nextId++,
        owner: "",
        status,
        status_detail: status === "approved" ? "accredited" : status === "rejected" ? "cc_rejected_other_reason" : "pending_contingency",
        external_reference: input.externalReference ?? crypto.randomUUID(),
        transaction_amount: (input.amountCents ?? 500_000) / 100,
        transaction_amount_refunded: 0,
        currency_id: "ARS",
        preference_id: input.preferenceId ?? `pref-${state.nextId}`,
        date_created: at,
        date_approved: status === "approved" ? at : null,
        date_last_updated: at,
      };
      state.payments.set(p.id, p);
      return view(p);
    },
    /** The payment as GET /v1/payments/{id} answers it (refunds, fees, net). */
    get: (id: number | string) => view(payment(id)),
    /** What Mercado Pago does later: charged_back, in_mediation, approved (dispute won), refunded (its panel). */
    setStatus(id: number | string, to: MpAfterStatus, o: { amountCents?: number } = {}) {
      const p = payment(id);
      const result = changeMercadoPagoStatus(p, state.refunds, to, { refundId: state.nextId, amountCents: o.amountCents });
      if (!result.ok) throw new Error(`Mercado Pago fake: ${result.message}`);
      if (result.refund) state.nextId++;
      return view(p);
    },
    /** Another approved payment with the same external_reference (a double or late payment). */
    payAgain(id: number | string, o: { at?: Date } = {}) {
      const first = payment(id);
      return mercadoPago.payment({ externalReference: first.external_reference, amountCents: Math.round(first.transaction_amount * 100), preferenceId: first.preference_id, at: o.at });
    },
    /** The status the next refund made through the API gets (used once). */
    nextRefund(status: MpRefundStatus) {
      state.nextRefundStatus = status;
    },
    /** A refund in process, settled later by Mercado Pago. */
    settleRefund(id: number | string, refundId: number | string, status: "approved" | "rejected") {
      const r = settleMercadoPagoRefund(payment(id), state.refunds, Number(refundId), status);
      if (!r) throw new Error(`Mercado Pago fake: refund ${refundId} is not in process`);
      return mercadoPagoRefundView(r);
    },
    refunds: (id: number | string) => state.refunds.filter((r) => r.payment_id === Number(id)).map(mercadoPagoRefundView),
    /** The notification Mercado Pago sends about a payment: the signed webhook, or the unsigned IPN. */
    notification(id: number | string, notificationUrl: string, o: { delivery?: "webhook" | "ipn"; action?: string; secret?: string } = {}) {
      return asRequest(o.delivery === "ipn" ? mercadoPagoIpnRequest(notificationUrl, id) : mercadoPagoWebhookRequest(notificationUrl, id, o.secret ?? secret, o.action));
    },
  };

  const pagos360 = {
    /** A payment request (pending unless told), as if created by Enchufá. */
    request(input: { externalReference?: string; amountCents?: number; state?: Pagos360State; description?: string } = {}) {
      const id = state.nextId++;
      const r: FakePagos360Request = {
        id,
        state: input.state ?? "pending",
        external_reference: input.externalReference ?? crypto.randomUUID(),
        description: input.description ?? "Carga",
        first_total: (input.amountCents ?? 250_000) / 100,
        checkout_url: `${P360}/checkout/${id}`,
      };
      state.pagos360.set(id, r);
      return { ...r };
    },
    /** What Pagos360 does later (paid, reverted, refunded, canceled, expired…), under its rules. */
    setState(id: number | string, to: Pagos360State) {
      const r = state.pagos360.get(Number(id));
      if (!r) throw new Error(`Pagos360 fake: no payment request ${id}`);
      const refused = changePagos360State(r, to);
      if (refused) throw new Error(`Pagos360 fake: ${refused}`);
      return { ...r };
    },
    get: (id: number | string) => {
      const r = state.pagos360.get(Number(id));
      return r ? { ...r } : undefined;
    },
    /** Pagos360's unsigned notification of the request's current state. */
    notification(id: number | string, webhookUrl: string) {
      const r = state.pagos360.get(Number(id));
      if (!r) throw new Error(`Pagos360 fake: no payment request ${id}`);
      return asRequest(pagos360WebhookRequest(webhookUrl, r));
    },
  };

  // Errors carry no body: the clients cancel an error's body, and cancelling an msw response's
  // stream never settles. What they read of an error is its status.
  const fail = (status: number) => new HttpResponse(null, { status });
  const unauthorized = (request: Request) => (/^Bearer \S+/.test(request.headers.get("authorization") ?? "") ? undefined : fail(401));

  const handlers = [
    http.post(`${MP}/checkout/preferences`, async ({ request }) => {
      const denied = unauthorized(request);
      if (denied) return denied;
      const b = (await request.json()) as { items?: { unit_price?: number }[]; external_reference?: string; notification_url?: string; expires?: boolean; expiration_date_to?: string };
      const price = b.items?.[0]?.unit_price;
      if (typeof price !== "number" || !(price > 0) || !b.external_reference) return fail(400);
      const id = `${state.nextId++}-pref`;
      const expiry = b.expires ? b.expiration_date_to : undefined;
      state.preferences.set(id, { id, external_reference: b.external_reference, unit_price: price, notification_url: b.notification_url, expiration_date_to: expiry });
      const init = `${MP}/checkout/${id}`;
      return HttpResponse.json({ id, init_point: init, sandbox_init_point: init, external_reference: b.external_reference, expires: Boolean(expiry), ...(expiry ? { expiration_date_to: expiry } : {}) }, { status: 201 });
    }),
    http.get(`${MP}/v1/payments/search`, ({ request }) => {
      const denied = unauthorized(request);
      if (denied) return denied;
      const ref = new URL(request.url).searchParams.get("external_reference");
      const results = [...state.payments.values()].filter((p) => p.external_reference === ref).reverse().map(view);
      return HttpResponse.json({ paging: { total: results.length, limit: 30, offset: 0 }, results });
    }),
    http.get(`${MP}/v1/payments/:id`, ({ request, params }) => {
      const p = state.payments.get(Number(params.id));
      return unauthorized(request) ?? (p ? HttpResponse.json(view(p)) : fail(404));
    }),
    http.post(`${MP}/v1/payments/:id/refunds`, async ({ request, params }) => {
      const denied = unauthorized(request);
      if (denied) return denied;
      const p = state.payments.get(Number(params.id));
      if (!p) return fail(404);
      const asked = ((await request.json().catch(() => ({}))) as { amount?: unknown }).amount;
      const refund = addMercadoPagoRefund(p, state.refunds, {
        id: state.nextId,
        amountCents: typeof asked === "number" ? Math.round(asked * 100) : undefined,
        status: state.nextRefundStatus,
        origin: "api",
        key: request.headers.get("x-idempotency-key") ?? undefined,
      });
      if (!refund) return fail(400);
      state.nextId++;
      state.nextRefundStatus = "approved";
      return HttpResponse.json(mercadoPagoRefundView(refund), { status: 201 });
    }),
    http.get(`${MP}/v1/payments/:id/refunds`, ({ request, params }) => unauthorized(request) ?? HttpResponse.json(mercadoPago.refunds(String(params.id)))),
    http.get(`${MP}/v1/payments/:id/refunds/:refundId`, ({ request, params }) => {
      const r = state.refunds.find((x) => x.payment_id === Number(params.id) && x.id === Number(params.refundId));
      return unauthorized(request) ?? (r ? HttpResponse.json(mercadoPagoRefundView(r)) : fail(404));
    }),
    http.post(`${P360}/payment-request`, async ({ request }) => {
      const denied = unauthorized(request);
      if (denied) return denied;
      const b = ((await request.json()) as { payment_request?: Record<string, unknown> }).payment_request ?? {};
      if (typeof b.first_total !== "number" || !(b.first_total > 0) || typeof b.external_reference !== "string") return fail(422);
      return HttpResponse.json(pagos360.request({ externalReference: b.external_reference, amountCents: Math.round(b.first_total * 100), description: String(b.description ?? "") }), { status: 201 });
    }),
    http.get(`${P360}/payment-request/:id`, ({ request, params }) => {
      const r = pagos360.get(String(params.id));
      return unauthorized(request) ?? (r ? HttpResponse.json(r) : fail(404));
    }),
  ];

  return {
    handlers,
    mercadoPago,
    pagos360,
    /** The preferences created through the API (with their notification_url and expiry). */
    preferences: () => [...state.preferences.values()],
    /** Back to empty: call it after each test. */
    reset() {
      state.nextId = FIRST_ID;
      state.preferences.clear();
      state.payments.clear();
      state.refunds.length = 0;
      state.nextRefundStatus = "approved";
      state.pagos360.clear();
    },
  };
}

/** The fake the shared msw server (tests/mocks/server.ts) answers with. */
export const providers = providersFake();
