// What the driver payments service answers: the QR page, the checkout, the driver's status page
// and receipt, and recording a refund made by hand.
import type { Payment } from "../db/schema";
import type { DriverStep } from "../domain/driver-payment";
import type { RateSnapshot, SessionPrice } from "../domain/pricing";
import type { PaymentProviderCode } from "../infra/crypto";

export type ConnectorState = "AVAILABLE" | "BUSY" | "OUT_OF_SERVICE" | "OFFLINE";

/** What the QR page shows: nothing of the operator beyond what a driver needs. */
export interface ChargePointInfo {
  stationName: string;
  address: string;
  city: string;
  chargerName: string;
  connectorNumber: number;
  connectorType: string;
  maxPowerKw: number;
  state: ConnectorState;
  stateLabel: string;
  rate: Pick<RateSnapshot, "pricePerKwhCents" | "pricePerMinuteCents" | "sessionFeeCents" | "idleGraceMinutes" | "idlePricePerMinuteCents" | "idleMaxCents" | "vatIncluded" | "vatRateBp"> | null;
  providers: PaymentProviderCode[];
  minCents: number;
  maxCents: number;
  presets: number[];
  /** Why charging cannot start now (Spanish), or null when the driver may pay. */
  unavailable: string | null;
}

export interface PaymentView {
  id: string;
  provider: PaymentProviderCode;
  step: DriverStep;
  status: Payment["status"];
  amountCents: number;
  chargedCents: number | null;
  refundedCents: number;
  checkoutUrl: string | null;
  failureReason: string | null;
  stationName: string;
  chargerName: string;
  connectorNumber: number;
  createdAt: string;
  session: {
    startedAt: string;
    stoppedAt: string | null;
    energyWh: number;
    minutes: number;
    costCents: number | null;
    status: string;
    price: SessionPrice | null;
  } | null;
  canStop: boolean;
  stopRequested: boolean;
  receipt: Receipt | null;
}

export interface Receipt {
  companyName: string;
  cuit: string | null;
  stationName: string;
  address: string;
  chargerName: string;
  connectorNumber: number;
  startedAt: string;
  endedAt: string | null;
  energyWh: number;
  chargingMinutes: number;
  idleMinutes: number;
  breakdown: { energyCents: number; timeCents: number; sessionFeeCents: number; idleCents: number; vatCents: number; totalCents: number };
  prepaidCents: number;
  chargedCents: number;
  refundedCents: number;
  /** Still owed to the driver, to be refunded by the operator by hand (Pagos360: REFUND_PENDING); 0 otherwise. */
  pendingRefundCents: number;
  provider: PaymentProviderCode;
  providerPaymentId: string | null;
}

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
