// Every state a payment provider documents for a payment, read one way: as the event it is in the
// payment's life (domain/payment-lifecycle.ts moves a payment by it) and as the status of ours it
// corresponds to (domain/reconciliation.ts compares ours with it). One table per provider, so the
// payment's life and the reconciliation cannot read the same provider state two ways.
//
// Mercado Pago (GET /v1/payments/{id} → status, status_detail):
//   https://www.mercadopago.com.ar/developers/es/reference/payments/_payments_id/get
// Pagos360 (GET /payment-request/{id} → state): https://developers.pagos360.com
import type { LifecycleEventKind, LifecycleStatus } from "./payment-lifecycle";

/** What one provider state means: the event it is, and the status a payment of ours in it has. */
export interface ProviderStateMeaning {
  event: LifecycleEventKind;
  status: LifecycleStatus;
}

type StateTable = Readonly<Record<string, ProviderStateMeaning>>;

const PENDING: ProviderStateMeaning = { event: "PENDING", status: "PENDING" };

/** Mercado Pago's payment `status`es. */
export const MERCADOPAGO_STATES: StateTable = {
  pending: PENDING,
  in_process: PENDING,
  // A card authorised and not captured: no money moved yet, so it is not an approval.
  authorized: PENDING,
  approved: { event: "APPROVED", status: "APPROVED" },
  rejected: { event: "REJECTED", status: "REJECTED" },
  cancelled: { event: "CANCELLED", status: "CANCELLED" },
  refunded: { event: "REFUNDED", status: "REFUNDED" },
  in_mediation: { event: "IN_DISPUTE", status: "IN_DISPUTE" },
  // Settled (status_detail `settled`) unless its detail says otherwise, below.
  charged_back: { event: "CHARGED_BACK", status: "CHARGED_BACK" },
};

/**
 * A Mercado Pago chargeback's `status_detail` that changes what it means: still in process is a
 * dispute; reimbursed to the seller is a dispute the operator won (the money is theirs again).
 */
export const MERCADOPAGO_CHARGEBACK_DETAILS: StateTable = {
  in_process: { event: "IN_DISPUTE", status: "IN_DISPUTE" },
  reimbursed: { event: "DISPUTE_WON", status: "APPROVED" },
};

/** Pagos360's payment request `state`s. */
export const PAGOS360_STATES: StateTable = {
  pending: PENDING,
  paid: { event: "APPROVED", status: "APPROVED" },
  // Paid, and the money credited to the account.
  available: { event: "APPROVED", status: "APPROVED" },
  rejected: { event: "REJECTED", status: "REJECTED" },
  expired: { event: "CANCELLED", status: "CANCELLED" },
  // Pagos360 spells it with one l; the two-l spelling is read the same, in case.
  canceled: { event: "CANCELLED", status: "CANCELLED" },
  cancelled: { event: "CANCELLED", status: "CANCELLED" },
  // The payer's bank reversed it: a chargeback.
  reverted: { event: "CHARGED_BACK", status: "CHARGED_BACK" },
  refunded: { event: "REFUNDED", status: "REFUNDED" },
};

export const PROVIDER_STATES = { MERCADOPAGO: MERCADOPAGO_STATES, PAGOS360: PAGOS360_STATES } as const;
export type StateProvider = keyof typeof PROVIDER_STATES;

/**
 * A provider's state (and, for Mercado Pago, its status_detail) in our terms. A state the provider
 * does not document is still pending: nothing is believed of it.
 */
export function providerState(provider: StateProvider, state: string, detail?: string | null): ProviderStateMeaning {
  const key = state.toLowerCase();
  if (provider === "MERCADOPAGO" && key === "charged_back" && detail) {
    const byDetail = MERCADOPAGO_CHARGEBACK_DETAILS[detail.toLowerCase()];
    if (byDetail) return byDetail;
  }
  return Object.hasOwn(PROVIDER_STATES[provider], key) ? PROVIDER_STATES[provider][key] : PENDING;
}
