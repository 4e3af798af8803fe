// What the driver payments service answers: the QR page, the checkout, the driver's status page
// and receipt, and recording a refund made by hand.
import type { Payment } from "../db/schema";
import type { PaymentProviderCode } from "../infra/crypto";

// The driver pages' answers are part of the API's contract.
import type { ChargePointInfo, ConnectorState, PaymentView, Receipt } from "../contract/dto";
export type { ChargePointInfo, ConnectorState, PaymentView, Receipt };

/** What recording a refund made by hand answers (POST /Business/Payments/{id}/Refund). */
export type RecordRefundResult =
  | { ok: true; payment: Payment }
  | { ok: false; status: 404 | 409 | 422; message: string; field?: "amountCents" };

export type CheckoutResult =
  | { ok: true; paymentId: string; token: string; checkoutUrl: string; created: boolean }
  | { ok: false; status: 400 | 404 | 409 | 502; message: string; field?: "amount" | "email" | "provider" | "acceptTerms" };

export interface CheckoutInput {
  identity: string;
  connectorNumber: number;
  amountCents: number;
  email: string;
  provider: PaymentProviderCode;
  requestKey: string;
  /** A Factura A's receiver: the CUIT (11 digits, checked) and company name the driver gave. */
  buyerCuit?: string;
  buyerName?: string;
  /** Our public origin (PUBLIC_URL, else the request's): the return page and the webhooks. */
  origin: string;
}

/** A stop asked by the driver: whether the charger took it, and what to tell them. */
export interface StopResult {
  ok: boolean;
  message: string;
}

/** A webhook's answer to the provider (it reads only the status). */
export interface WebhookResult<S extends number> {
  status: S;
}
