// What Mercado Pago and Pagos360 do with a payment after the driver pays, as plain records and
// functions, shared by the local emulator (scripts/payments-emulator.ts, over real HTTP) and the
// msw fake of the unit tests (tests/mocks/providers.ts): one behaviour, two transports.
//
// The shapes follow the providers' real APIs, reduced to the fields Enchufá reads or shows:
// - Mercado Pago payment (GET /v1/payments/{id}): id, status, status_detail, external_reference,
//   transaction_amount (pesos), transaction_amount_refunded, currency_id "ARS", date_created,
//   date_approved, refunds[] (id, amount, status…), fee_details[] ({ amount, type
//   "mercadopago_fee", fee_payer "collector" }), transaction_details.net_received_amount.
// - Mercado Pago refund (POST /v1/payments/{id}/refunds, GET …/refunds/{refund_id}): status
//   approved, in_process or rejected.
// - Pagos360 payment request states: pending, paid, expired, canceled, reverted, refunded, rejected.
// - Notifications: Mercado Pago's signed webhook (x-signature over id, request id and ts; data.id
//   and type in the URL), Mercado Pago's older IPN (unsigned, `?topic=payment&id=…`) and
//   Pagos360's unsigned `{ entity_name, type, entity_id, created_at }`.
import { randomUUID } from "node:crypto";
import { signMercadoPagoManifest } from "../infra/payments/mercadopago";

/**
 * The fee the emulated Mercado Pago keeps from every approved payment: 6.29 % plus IVA (21 %)
 * on it — Mercado Pago Argentina's usual rate for money available at once — i.e. 7.6109 % of the
 * amount, rounded to the centavo. One constant for the emulator and the tests; the real rate
 * depends on each seller's plan and is read from fee_details, never assumed.
 */
export const MERCADOPAGO_FEE_BASIS_POINTS = 629;
export const IVA_PERCENT = 21;

/** The fee (with IVA) on an amount, in centavos: integer arithmetic, rounded half up. */
export function mercadoPagoFeeCents(amountCents: number): number {
  return Math.round((amountCents * MERCADOPAGO_FEE_BASIS_POINTS * (100 + IVA_PERCENT)) / 1_000_000);
}

const cents = (pesos: number) => Math.round(pesos * 100);
const pesos = (c: number) => Math.round(c) / 100;

export interface MpPaymentRecord {
  id: number;
  owner: string;
  status: string;
  status_detail: string;
  external_reference: string;
  transaction_amount: number;
  /** Pesos refunded by approved refunds. */
  transaction_amount_refunded: number;
  currency_id: "ARS";
  preference_id: string;
  date_created: string;
  /** Set once, when the payment is approved (it stays through refunds and chargebacks). */
  date_approved: string | null;
  date_last_updated: string;
}

export type MpRefundStatus = "approved" | "in_process" | "rejected";
export const MP_REFUND_STATUSES: readonly MpRefundStatus[] = ["approved", "in_process", "rejected"];

export interface MpRefundRecord {
  id: number;
  payment_id: number;
  /** Pesos. */
  amount: number;
  status: MpRefundStatus;
  date_created: string;
  /** Who made it: Enchufá through the API, or the seller in Mercado Pago's panel. */
  origin: "api" | "panel";
  /** The X-Idempotency-Key it was made with (API refunds). */
  key?: string;
}

/** A refund as GET /v1/payments/{id}/refunds/{refund_id} answers it. */
export function mercadoPagoRefundView(r: MpRefundRecord) {
  return {
    id: r.id,
    payment_id: r.payment_id,
    amount: r.amount,
    amount_refunded_to_payer: r.status === "approved" ? r.amount : 0,
    status: r.status,
    date_created: r.date_created,
    refund_mode: "standard",
    source: { type: "collector" },
  };
}

/** A payment as GET /v1/payments/{id} answers it: fees and net only once approved. */
export function mercadoPagoPaymentView(p: MpPaymentRecord, refunds: readonly MpRefundRecord[]) {
  const { owner: _owner, ...rest } = p;
  const feeCents = p.date_approved ? mercadoPagoFeeCents(cents(p.transaction_amount)) : 0;
  return {
    ...rest,
    refunds: refunds.filter((r) => r.payment_id === p.id).map(mercadoPagoRefundView),
    fee_details: feeCents > 0 ? [{ amount: pesos(feeCents), fee_payer: "collector", type: "mercadopago_fee" }] : [],
    transaction_details: {
      total_paid_amount: p.transaction_amount,
      net_received_amount: p.date_approved ? pesos(cents(p.transaction_amount) - feeCents) : 0,
    },
  };
}

/** Pesos a new refund may still take: the amount less approved and in-process refunds. */
export function refundableCents(p: MpPaymentRecord, refunds: readonly MpRefundRecord[]): number {
  const taken = refunds.filter((r) => r.payment_id === p.id && r.status !== "rejected").reduce((s, r) => s + cents(r.amount), 0);
  return cents(p.transaction_amount) - taken;
}

/** Recomputes refunded total and status from the approved refunds (partial: status_detail says so). */
function settleRefunds(p: MpPaymentRecord, refunds: readonly MpRefundRecord[], now: string) {
  const refunded = refunds.filter((r) => r.payment_id === p.id && r.status === "approved").reduce((s, r) => s + cents(r.amount), 0);
  p.transaction_amount_refunded = pesos(refunded);
  if (refunded > 0 && refunded >= cents(p.transaction_amount)) {
    p.status = "refunded";
    p.status_detail = "refunded";
  } else if (refunded > 0 && p.status === "approved") {
    p.status_detail = "partially_refunded";
  }
  p.date_last_updated = now;
}

/**
 * A refund on an approved payment (the whole refundable amount without `amountCents`), with the
 * given status; undefined when the payment takes no refund of that amount.
 */
export function addMercadoPagoRefund(
  p: MpPaymentRecord,
  refunds: MpRefundRecord[],
  input: { id: number; amountCents?: number; status: MpRefundStatus; origin: "api" | "panel"; key?: string; now?: Date },
): MpRefundRecord | undefined {
  const left = refundableCents(p, refunds);
  const amount = input.amountCents ?? left;
  if (p.status !== "approved" || !Number.isInteger(amount) || !(amount > 0) || amount > left) return undefined;
  const now = (input.now ?? new Date()).toISOString();
  const refund: MpRefundRecord = { id: input.id, payment_id: p.id, amount: pesos(amount), status: input.status, date_created: now, origin: input.origin, ...(input.key ? { key: input.key } : {}) };
  refunds.push(refund);
  settleRefunds(p, refunds, now);
  return refund;
}

/** A refund in process that Mercado Pago later approves or rejects. */
export function settleMercadoPagoRefund(p: MpPaymentRecord, refunds: MpRefundRecord[], refundId: number, status: "approved" | "rejected", now = new Date()): MpRefundRecord | undefined {
  const r = refunds.find((x) => x.id === refundId && x.payment_id === p.id);
  if (!r || r.status !== "in_process") return undefined;
  r.status = status;
  settleRefunds(p, refunds, now.toISOString());
  return r;
}

export type MpAfterStatus = "charged_back" | "in_mediation" | "refunded" | "approved";
export const MP_AFTER_STATUSES: readonly MpAfterStatus[] = ["charged_back", "in_mediation", "refunded", "approved"];

/** Which statuses each change may start from: what Mercado Pago lets happen to a payment. */
const FROM: Record<MpAfterStatus, readonly string[]> = {
  // A chargeback on an approved payment, or the end of a dispute the seller lost.
  charged_back: ["approved", "in_mediation"],
  in_mediation: ["approved"],
  // A refund from the seller's panel.
  refunded: ["approved"],
  // A dispute resolved in the seller's favour, or a pending payment approved late.
  approved: ["in_mediation", "pending", "in_process"],
};

/**
 * What happens in Mercado Pago after the payment: a chargeback, a dispute opened or resolved for
 * the seller, a refund made in the panel (approved, the whole remaining amount or `amountCents`).
 * Returns an error message (Spanish, for the panel) when the payment cannot go there.
 */
export function changeMercadoPagoStatus(
  p: MpPaymentRecord,
  refunds: MpRefundRecord[],
  to: MpAfterStatus,
  opts: { refundId: number; amountCents?: number; now?: Date },
): { ok: true; refund?: MpRefundRecord } | { ok: false; message: string } {
  if (!FROM[to].includes(p.status)) return { ok: false, message: `Un pago ${p.status} no puede pasar a ${to}.` };
  const now = opts.now ?? new Date();
  if (to === "refunded") {
    const refund = addMercadoPagoRefund(p, refunds, { id: opts.refundId, amountCents: opts.amountCents, status: "approved", origin: "panel", now });
    return refund ? { ok: true, refund } : { ok: false, message: "El monto a devolver no es válido para este pago." };
  }
  p.status = to;
  p.status_detail = to === "charged_back" ? "settled" : to === "in_mediation" ? "in_mediation" : "accredited";
  p.date_approved ??= to === "approved" ? now.toISOString() : null;
  p.date_last_updated = now.toISOString();
  return { ok: true };
}

export const PAGOS360_STATES = ["pending", "paid", "expired", "canceled", "reverted", "refunded", "rejected"] as const;
export type Pagos360State = (typeof PAGOS360_STATES)[number];
export const isPagos360State = (s: unknown): s is Pagos360State => typeof s === "string" && (PAGOS360_STATES as readonly string[]).includes(s);

/** Which states a payment request may reach from which: money moves back only once it was paid. */
const PAGOS360_FROM: Record<Pagos360State, readonly string[]> = {
  paid: ["pending", "rejected", "expired"],
  // A chargeback (reverted) or a refund made in Pagos360's panel.
  reverted: ["paid"],
  refunded: ["paid"],
  canceled: ["pending"],
  expired: ["pending"],
  rejected: ["pending"],
  pending: [],
};

/** Moves a payment request to `to`; an error message (Spanish, for the panel) when Pagos360 would not. */
export function changePagos360State(r: { state: string }, to: Pagos360State): string | undefined {
  if (!PAGOS360_FROM[to].includes(r.state)) return `Una solicitud ${r.state} no puede pasar a ${to}.`;
  r.state = to;
  return undefined;
}

/** An HTTP request a provider makes to Enchufá: delivered with fetch by the emulator, or handed to a test. */
export interface ProviderRequest {
  url: string;
  method: "POST";
  headers: Record<string, string>;
  body: string;
}

/**
 * Mercado Pago's webhook: data.id and type in the URL, x-signature (`ts=…,v1=…`) over the
 * manifest with the account's secret, x-request-id, and a JSON body with the action.
 */
export function mercadoPagoWebhookRequest(notificationUrl: string, paymentId: number | string, secret: string, action = "payment.updated", now = new Date()): ProviderRequest {
  const url = new URL(notificationUrl);
  url.searchParams.set("data.id", String(paymentId));
  url.searchParams.set("type", "payment");
  const requestId = randomUUID();
  const ts = String(Math.floor(now.getTime() / 1000));
  const v1 = signMercadoPagoManifest(secret, String(paymentId), requestId, ts);
  return {
    url: url.toString(),
    method: "POST",
    headers: { "content-type": "application/json", "x-signature": `ts=${ts},v1=${v1}`, "x-request-id": requestId },
    body: JSON.stringify({ action, api_version: "v1", type: "payment", data: { id: String(paymentId) }, date_created: now.toISOString(), live_mode: false }),
  };
}

/** Mercado Pago's IPN (the older format, still sent): `?topic=payment&id=…`, no signature. */
export function mercadoPagoIpnRequest(notificationUrl: string, paymentId: number | string): ProviderRequest {
  const url = new URL(notificationUrl);
  url.searchParams.set("topic", "payment");
  url.searchParams.set("id", String(paymentId));
  return { url: url.toString(), method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ resource: String(paymentId), topic: "payment" }) };
}

/** Pagos360's webhook, unsigned: the receiver reads the request back with its key. */
export function pagos360WebhookRequest(webhookUrl: string, r: { id: number | string; state: string }, now = new Date()): ProviderRequest {
  return {
    url: webhookUrl,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ entity_name: "PaymentRequest", type: r.state, entity_id: r.id, created_at: now.toISOString() }),
  };
}

/**
 * A payment the provider already has when the emulator starts: local mode's demo seed made
 * these (approved or rejected, long settled), so the emulator learns them and reconciliation finds
 * every one. `owner` is the account's access token (Mercado Pago) or API key (Pagos360).
 */
export interface KnownPayment {
  provider: "MERCADOPAGO" | "PAGOS360";
  owner: string;
  /** The provider's id: numeric, as both providers number them. */
  id: number;
  /** Our payment's id (external_reference). */
  reference: string;
  amountCents: number;
  approved: boolean;
  /** When it was made (ISO). */
  at: string;
}

/** Mercado Pago's record of a known payment. */
export function knownMercadoPagoPayment(k: KnownPayment): MpPaymentRecord {
  return {
    id: k.id,
    owner: k.owner,
    status: k.approved ? "approved" : "rejected",
    status_detail: k.approved ? "accredited" : "cc_rejected_other_reason",
    external_reference: k.reference,
    transaction_amount: pesos(k.amountCents),
    transaction_amount_refunded: 0,
    currency_id: "ARS",
    preference_id: `seed-${k.reference}`,
    date_created: k.at,
    date_approved: k.approved ? k.at : null,
    date_last_updated: k.at,
  };
}

/** Whether a body is a list of known payments (what POST /_emulator/known-payments takes). */
export function isKnownPayments(v: unknown): v is KnownPayment[] {
  return (
    Array.isArray(v) &&
    v.every(
      (k: Partial<KnownPayment>) =>
        (k.provider === "MERCADOPAGO" || k.provider === "PAGOS360") &&
        typeof k.owner === "string" &&
        Number.isSafeInteger(k.id) &&
        typeof k.reference === "string" &&
        Number.isSafeInteger(k.amountCents) &&
        (k.amountCents ?? 0) > 0 &&
        typeof k.approved === "boolean" &&
        typeof k.at === "string" &&
        Number.isFinite(Date.parse(k.at)),
    )
  );
}
