// The whole life of a driver's QR payment as one pure state machine: what a provider's verdict
// (from a notification or a read-back) or the sweep does to a payment's step and status.
//
//   PAYING/PENDING ─approved─▶ STARTING/APPROVED ─▶ CHARGING ─▶ SETTLING ─▶ FINISHED | REFUNDED
//        │ rejected (stays PAYING, the driver may retry)              (status APPROVED, PARTIALLY_REFUNDED, REFUNDED)
//        │ cancelled / expired / the sweep gives up ─▶ FAILED/CANCELLED ─approved late─▶ START_FAILED (refunded in full)
//   any approved status ─in_mediation─▶ IN_DISPUTE ─approved again─▶ back to APPROVED / PARTIALLY_REFUNDED (dispute won)
//                                            └─charged_back─▶ CHARGED_BACK ─(reimbursed to the seller)─▶ dispute won
//   any approved status ─refunded outside Enchufá (total or part)─▶ REFUNDED / PARTIALLY_REFUNDED
//
// Ordered and idempotent: a verdict that says nothing new answers null (no write), and nothing
// moves a payment backwards — a late `approved` after a refund or a chargeback changes nothing
// (only a dispute is undone by an approval; a chargeback only by the seller's reimbursement), and
// the refunded amount only grows. The caller writes the result conditionally on the state it read.
import { refundOwed, type DriverStep } from "./driver-payment";

/** Statuses of a payment the provider has not approved (yet, or ever). */
export const UNPAID_STATUSES = ["PENDING", "REJECTED", "CANCELLED"] as const;
/** Statuses of a payment once approved: what went back, and a payer's dispute. */
export const APPROVED_STATUSES = ["APPROVED", "PARTIALLY_REFUNDED", "REFUNDED", "IN_DISPUTE", "CHARGED_BACK"] as const;
/** A payment's status (contract's PAYMENT_STATUSES: the contract checks they are the same set). */
type PaymentStatus = (typeof UNPAID_STATUSES)[number] | (typeof APPROVED_STATUSES)[number];
export type LifecycleStatus = PaymentStatus;

export interface LifecycleState {
  step: DriverStep;
  status: PaymentStatus;
  amountCents: number;
  chargedCents: number | null;
  refundedCents: number;
}

/**
 * What happened: a provider's verdict (APPROVED … DISPUTE_WON; REFUNDED with the total the
 * provider says went back, or null when it does not say how much: Pagos360), or the sweep giving
 * up on an unpaid checkout (GIVE_UP).
 */
export type LifecycleEvent =
  | { kind: "PENDING" | "APPROVED" | "REJECTED" | "CANCELLED" | "IN_DISPUTE" | "CHARGED_BACK" | "DISPUTE_WON" | "GIVE_UP" }
  | { kind: "REFUNDED"; refundedCents: number | null };

export type LifecycleEventKind = LifecycleEvent["kind"];

/**
 * What the caller does after writing the move: START the charge, REFUND_UNUSED (all of an
 * approval Enchufá will not use), RECEIPT (a payment owing a refund closed by the provider's
 * refund), and which notice the operator gets.
 */
export type LifecycleEffect =
  | "START"
  | "REFUND_UNUSED"
  | "RECEIPT"
  | "NOTIFY_APPROVED"
  | "NOTIFY_REJECTED"
  | "NOTIFY_CANCELLED"
  | "NOTIFY_DISPUTED"
  | "NOTIFY_CHARGED_BACK"
  | "NOTIFY_DISPUTE_WON"
  | "NOTIFY_REFUNDED_OUTSIDE";

export interface LifecycleMove {
  next: LifecycleState;
  effects: LifecycleEffect[];
}

/** Statuses of a payment whose money reached the operator (approved at some point, not all of it back). */
const HELD: ReadonlySet<PaymentStatus> = new Set(["APPROVED", "PARTIALLY_REFUNDED", "IN_DISPUTE"]);
/** Steps that still owe the driver a refund. */
const OWING: ReadonlySet<DriverStep> = new Set(["SETTLING", "START_FAILED", "REFUND_PENDING"]);
/** Steps before the provider approved: a checkout, or one that ended unpaid. */
const UNPAID: ReadonlySet<DriverStep> = new Set(["PAYING", "FAILED"]);

/** The status a payment goes back to when a dispute ends in the seller's favour. */
const undisputed = (s: LifecycleState): PaymentStatus => (s.refundedCents >= s.amountCents ? "REFUNDED" : s.refundedCents > 0 ? "PARTIALLY_REFUNDED" : "APPROVED");

/** The step a payment owing a refund closes at: REFUNDED when nothing was charged, else FINISHED. */
const closedStep = (s: LifecycleState): DriverStep => ((s.chargedCents ?? 0) === 0 && s.step !== "SETTLING" ? "REFUNDED" : "FINISHED");

const move = (s: LifecycleState, change: Partial<LifecycleState>, effects: LifecycleEffect[]): LifecycleMove => ({ next: { ...s, ...change }, effects });

function beforeApproval(s: LifecycleState, e: LifecycleEvent): LifecycleMove | null {
  const paying = s.step === "PAYING";
  switch (e.kind) {
    case "APPROVED":
      // Paid in time: the charge starts. Paid after the checkout ended: all of it goes back.
      return paying ? move(s, { step: "STARTING", status: "APPROVED" }, ["START", "NOTIFY_APPROVED"]) : move(s, { step: "START_FAILED", status: "APPROVED", chargedCents: 0 }, ["REFUND_UNUSED"]);
    case "REJECTED":
      return paying && s.status !== "REJECTED" ? move(s, { status: "REJECTED" }, ["NOTIFY_REJECTED"]) : null;
    case "CANCELLED":
      return paying ? move(s, { step: "FAILED", status: "CANCELLED" }, ["NOTIFY_CANCELLED"]) : null;
    case "GIVE_UP":
      return paying ? move(s, { step: "FAILED", status: "CANCELLED" }, []) : null;
    default:
      // A dispute, chargeback or refund of a payment never seen approved: its approval comes first (a read-back).
      return null;
  }
}

function refunded(s: LifecycleState, total: number | null): LifecycleMove | null {
  // Without an amount (Pagos360's "refunded"): what was owed went back; when nothing was owed, all
  // of it — unless some already went back, which that same report may be (it cannot tell more).
  const owed = OWING.has(s.step) ? refundOwed(s) : 0;
  if (total === null && owed === 0 && s.refundedCents > 0) return null;
  const r = Math.min(s.amountCents, total ?? (owed > 0 ? s.refundedCents + owed : s.amountCents));
  if (r <= s.refundedCents) return null;
  const next: LifecycleState = { ...s, refundedCents: r };
  next.status = s.status === "IN_DISPUTE" || s.status === "CHARGED_BACK" ? s.status : r >= s.amountCents ? "REFUNDED" : "PARTIALLY_REFUNDED";
  const effects: LifecycleEffect[] = ["NOTIFY_REFUNDED_OUTSIDE"];
  if (OWING.has(s.step) && refundOwed(next) === 0) {
    next.step = closedStep(s);
    effects.push("RECEIPT");
  }
  return { next, effects };
}

/** The move an event makes from a state; null when it changes nothing (repeated, late, or out of order). */
export function paymentTransition(s: LifecycleState, e: LifecycleEvent): LifecycleMove | null {
  if (UNPAID.has(s.step) && (s.status === "PENDING" || s.status === "REJECTED" || s.status === "CANCELLED")) return beforeApproval(s, e);
  switch (e.kind) {
    case "APPROVED":
      // Mercado Pago answers `approved` again when a mediation ends in the seller's favour.
      return s.status === "IN_DISPUTE" ? move(s, { status: undisputed(s) }, ["NOTIFY_DISPUTE_WON"]) : null;
    case "DISPUTE_WON":
      return s.status === "IN_DISPUTE" || s.status === "CHARGED_BACK" ? move(s, { status: undisputed(s) }, ["NOTIFY_DISPUTE_WON"]) : null;
    case "IN_DISPUTE":
      return HELD.has(s.status) && s.status !== "IN_DISPUTE" ? move(s, { status: "IN_DISPUTE" }, ["NOTIFY_DISPUTED"]) : null;
    case "CHARGED_BACK":
      // The payer's bank took it all back: nothing more is owed to the driver by Enchufá.
      if (!HELD.has(s.status)) return null;
      return move(s, { status: "CHARGED_BACK", ...(OWING.has(s.step) ? { step: closedStep(s) } : {}) }, ["NOTIFY_CHARGED_BACK"]);
    case "REFUNDED":
      return s.status === "REFUNDED" ? null : refunded(s, e.refundedCents);
    default:
      // PENDING, REJECTED, CANCELLED, GIVE_UP after an approval: stale, never a step back.
      return null;
  }
}
