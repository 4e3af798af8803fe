// The life of a driver's QR payment, one row per transition: what each provider verdict (or the
// sweep) does from each state, and that a repeated, late or out-of-order verdict changes nothing.
import { describe, expect, it } from "vitest";
import { paymentTransition, type LifecycleEvent, type LifecycleState } from "#domain/payment-lifecycle";

const AMOUNT = 500_000;
const s = (step: LifecycleState["step"], status: LifecycleState["status"], more: Partial<LifecycleState> = {}): LifecycleState => ({
  step,
  status,
  amountCents: AMOUNT,
  chargedCents: null,
  refundedCents: 0,
  ...more,
});
const ev = (kind: Exclude<LifecycleEvent["kind"], "REFUNDED">): LifecycleEvent => ({ kind });
const refunded = (refundedCents: number | null): LifecycleEvent => ({ kind: "REFUNDED", refundedCents });

type Row = [string, LifecycleState, LifecycleEvent, Partial<LifecycleState> | null, string[]?];

const ROWS: Row[] = [
  // Before approval.
  ["pending → approved: the charge starts", s("PAYING", "PENDING"), ev("APPROVED"), { step: "STARTING", status: "APPROVED" }, ["START", "NOTIFY_APPROVED"]],
  ["a rejected attempt → approved (another card)", s("PAYING", "REJECTED"), ev("APPROVED"), { step: "STARTING", status: "APPROVED" }, ["START", "NOTIFY_APPROVED"]],
  ["pending → rejected: still paying", s("PAYING", "PENDING"), ev("REJECTED"), { step: "PAYING", status: "REJECTED" }, ["NOTIFY_REJECTED"]],
  ["rejected again: nothing", s("PAYING", "REJECTED"), ev("REJECTED"), null],
  ["pending → cancelled / expired", s("PAYING", "PENDING"), ev("CANCELLED"), { step: "FAILED", status: "CANCELLED" }, ["NOTIFY_CANCELLED"]],
  ["pending → the sweep gives up", s("PAYING", "PENDING"), ev("GIVE_UP"), { step: "FAILED", status: "CANCELLED" }, []],
  ["pending → pending: nothing", s("PAYING", "PENDING"), ev("PENDING"), null],
  ["pending → a dispute of a payment never approved: nothing", s("PAYING", "PENDING"), ev("IN_DISPUTE"), null],
  ["cancelled → approved late: refunded in full", s("FAILED", "CANCELLED"), ev("APPROVED"), { step: "START_FAILED", status: "APPROVED", chargedCents: 0 }, ["REFUND_UNUSED"]],
  ["cancelled → cancelled again: nothing", s("FAILED", "CANCELLED"), ev("CANCELLED"), null],
  // Approved: repeated and stale verdicts.
  ["approved → approved again: nothing", s("CHARGING", "APPROVED"), ev("APPROVED"), null],
  ["approved → a stale pending: nothing", s("STARTING", "APPROVED"), ev("PENDING"), null],
  ["approved → a stale rejected: nothing", s("CHARGING", "APPROVED"), ev("REJECTED"), null],
  ["approved → a stale cancelled: nothing", s("CHARGING", "APPROVED"), ev("CANCELLED"), null],
  ["approved → the sweep's give-up: nothing", s("STARTING", "APPROVED"), ev("GIVE_UP"), null],
  // Disputes and chargebacks, from any approved state.
  ["charging → in dispute", s("CHARGING", "APPROVED"), ev("IN_DISPUTE"), { step: "CHARGING", status: "IN_DISPUTE" }, ["NOTIFY_DISPUTED"]],
  ["finished, partly refunded → in dispute", s("FINISHED", "PARTIALLY_REFUNDED", { chargedCents: 120_000, refundedCents: 380_000 }), ev("IN_DISPUTE"), { status: "IN_DISPUTE" }, ["NOTIFY_DISPUTED"]],
  ["in dispute again: nothing", s("FINISHED", "IN_DISPUTE"), ev("IN_DISPUTE"), null],
  ["in dispute → approved: dispute won, back to approved", s("FINISHED", "IN_DISPUTE", { chargedCents: AMOUNT }), ev("APPROVED"), { step: "FINISHED", status: "APPROVED" }, ["NOTIFY_DISPUTE_WON"]],
  ["in dispute → dispute won: back to partly refunded", s("FINISHED", "IN_DISPUTE", { chargedCents: 120_000, refundedCents: 380_000 }), ev("DISPUTE_WON"), { status: "PARTIALLY_REFUNDED" }, ["NOTIFY_DISPUTE_WON"]],
  ["in dispute → charged back", s("FINISHED", "IN_DISPUTE", { chargedCents: AMOUNT }), ev("CHARGED_BACK"), { step: "FINISHED", status: "CHARGED_BACK" }, ["NOTIFY_CHARGED_BACK"]],
  ["finished → charged back directly", s("FINISHED", "APPROVED", { chargedCents: AMOUNT }), ev("CHARGED_BACK"), { status: "CHARGED_BACK" }, ["NOTIFY_CHARGED_BACK"]],
  ["settling → charged back: nothing more is owed, closed", s("SETTLING", "APPROVED", { chargedCents: 120_000 }), ev("CHARGED_BACK"), { step: "FINISHED", status: "CHARGED_BACK" }, ["NOTIFY_CHARGED_BACK"]],
  ["charged back → dispute won (reimbursed to the seller)", s("FINISHED", "CHARGED_BACK", { chargedCents: AMOUNT }), ev("DISPUTE_WON"), { status: "APPROVED" }, ["NOTIFY_DISPUTE_WON"]],
  ["charged back → a late approved: nothing", s("FINISHED", "CHARGED_BACK", { chargedCents: AMOUNT }), ev("APPROVED"), null],
  ["charged back again: nothing", s("FINISHED", "CHARGED_BACK"), ev("CHARGED_BACK"), null],
  ["refunded → charged back: nothing (no money held)", s("REFUNDED", "REFUNDED", { chargedCents: 0, refundedCents: AMOUNT }), ev("CHARGED_BACK"), null],
  ["approved → dispute won without a dispute: nothing", s("FINISHED", "APPROVED"), ev("DISPUTE_WON"), null],
  // Refunds made outside Enchufá (the provider's panel) and reported by it.
  ["finished → refunded in full outside Enchufá", s("FINISHED", "APPROVED", { chargedCents: AMOUNT }), refunded(AMOUNT), { step: "FINISHED", status: "REFUNDED", refundedCents: AMOUNT }, ["NOTIFY_REFUNDED_OUTSIDE"]],
  ["finished → refunded in part outside Enchufá", s("FINISHED", "APPROVED", { chargedCents: AMOUNT }), refunded(100_000), { status: "PARTIALLY_REFUNDED", refundedCents: 100_000 }, ["NOTIFY_REFUNDED_OUTSIDE"]],
  ["charging → refunded in part: charge goes on", s("CHARGING", "APPROVED"), refunded(100_000), { step: "CHARGING", status: "PARTIALLY_REFUNDED", refundedCents: 100_000 }, ["NOTIFY_REFUNDED_OUTSIDE"]],
  ["refund pending → the provider reports it refunded (no amount): closed, finished", s("REFUND_PENDING", "APPROVED", { chargedCents: 120_000 }), refunded(null), { step: "FINISHED", status: "PARTIALLY_REFUNDED", refundedCents: 380_000 }, ["NOTIFY_REFUNDED_OUTSIDE", "RECEIPT"]],
  ["refund pending after a failed start → refunded (no amount): closed, refunded", s("REFUND_PENDING", "APPROVED", { chargedCents: 0 }), refunded(null), { step: "REFUNDED", status: "REFUNDED", refundedCents: AMOUNT }, ["NOTIFY_REFUNDED_OUTSIDE", "RECEIPT"]],
  ["finished → refunded (no amount): all of it", s("FINISHED", "APPROVED", { chargedCents: AMOUNT }), refunded(null), { status: "REFUNDED", refundedCents: AMOUNT }, ["NOTIFY_REFUNDED_OUTSIDE"]],
  ["partly refunded → refunded with no amount: nothing it can tell", s("FINISHED", "PARTIALLY_REFUNDED", { chargedCents: 120_000, refundedCents: 380_000 }), refunded(null), null],
  ["the same refunded amount again: nothing", s("FINISHED", "PARTIALLY_REFUNDED", { chargedCents: 120_000, refundedCents: 380_000 }), refunded(380_000), null],
  ["a smaller (older) refunded amount: nothing", s("FINISHED", "PARTIALLY_REFUNDED", { refundedCents: 380_000 }), refunded(100_000), null],
  ["refunded → a late approved: never back", s("REFUNDED", "REFUNDED", { chargedCents: 0, refundedCents: AMOUNT }), ev("APPROVED"), null],
  ["refunded → refunded again: nothing", s("REFUNDED", "REFUNDED", { refundedCents: AMOUNT }), refunded(AMOUNT), null],
  ["in dispute → refunded in part: stays in dispute", s("FINISHED", "IN_DISPUTE", { chargedCents: AMOUNT }), refunded(100_000), { status: "IN_DISPUTE", refundedCents: 100_000 }, ["NOTIFY_REFUNDED_OUTSIDE"]],
];

describe("a QR payment's life", () => {
  it.each(ROWS)("%s", (_name, from, event, to, effects) => {
    const move = paymentTransition(from, event);
    if (to === null) {
      expect(move).toBeNull();
      return;
    }
    expect(move?.next).toEqual({ ...from, ...to });
    expect(move?.effects).toEqual(effects);
  });

  it("applying a verdict twice moves the payment once", () => {
    for (const [, from, event, to] of ROWS) {
      if (!to) continue;
      const first = paymentTransition(from, event)!;
      expect(paymentTransition(first.next, event), `${from.step}/${from.status} + ${event.kind}`).toBeNull();
    }
  });
});
