import { describe, expect, it } from "vitest";
import { approvedAfterCheckout } from "#domain/driver-payment";
import { paymentTransition, type LifecycleState } from "#domain/payment-lifecycle";
import { MERCADOPAGO_CHARGEBACK_DETAILS, MERCADOPAGO_STATES, PAGOS360_STATES, providerState, type ProviderStateMeaning } from "#domain/provider-states";
import { providerStatus } from "#domain/reconciliation";
import { mpVerdictKind } from "#infra/payments/mercadopago";
import { pagos360VerdictKind } from "#infra/payments/pagos360";

// The states each provider documents for a payment (Mercado Pago's payment status; Pagos360's
// payment request state, plus the two-l spelling of canceled read in case).
const MP_DOCUMENTED = ["pending", "approved", "authorized", "in_process", "in_mediation", "rejected", "cancelled", "refunded", "charged_back"];
const P360_DOCUMENTED = ["pending", "paid", "available", "expired", "canceled", "cancelled", "rejected", "reverted", "refunded"];

const paying: LifecycleState = { step: "PAYING", status: "PENDING", amountCents: 10_000, chargedCents: null, refundedCents: 0 };
const charging: LifecycleState = { step: "CHARGING", status: "APPROVED", amountCents: 10_000, chargedCents: null, refundedCents: 0 };
const disputed: LifecycleState = { ...charging, status: "IN_DISPUTE" };

/** The status a payment ends in when the state's event reaches it from where that event applies. */
function statusAfter(m: ProviderStateMeaning): string {
  if (m.event === "PENDING") return paying.status;
  const from = m.event === "DISPUTE_WON" ? disputed : m.event === "APPROVED" || m.event === "REJECTED" || m.event === "CANCELLED" ? paying : charging;
  const e = m.event === "REFUNDED" ? { kind: m.event, refundedCents: null } : { kind: m.event };
  return paymentTransition(from, e as Parameters<typeof paymentTransition>[1])?.next.status ?? "unchanged";
}

describe("provider states: one table per provider", () => {
  it.each([
    ["MERCADOPAGO", MERCADOPAGO_STATES, MP_DOCUMENTED],
    ["PAGOS360", PAGOS360_STATES, P360_DOCUMENTED],
  ] as const)("%s: every documented state is mapped, once, and nothing else", (_p, table, documented) => {
    expect(Object.keys(table).sort()).toEqual([...documented].sort());
    expect(new Set(documented).size).toBe(documented.length);
  });

  it.each([
    ...Object.entries(MERCADOPAGO_STATES).map(([s, m]) => ["MERCADOPAGO", s, m] as const),
    ...Object.entries(MERCADOPAGO_CHARGEBACK_DETAILS).map(([d, m]) => ["MERCADOPAGO", `charged_back/${d}`, m] as const),
    ...Object.entries(PAGOS360_STATES).map(([s, m]) => ["PAGOS360", s, m] as const),
  ])("%s %s: the payment's life reaches the status reconciliation expects", (_p, _s, meaning) => {
    expect(statusAfter(meaning)).toBe(meaning.status);
  });

  it("the lifecycle's reading and the reconciliation's reading of a state are the same table", () => {
    for (const [state, m] of Object.entries(MERCADOPAGO_STATES)) {
      expect(mpVerdictKind({ status: state })).toBe(m.event);
      expect(providerStatus("MERCADOPAGO", state)).toBe(m.status);
    }
    for (const [detail, m] of Object.entries(MERCADOPAGO_CHARGEBACK_DETAILS)) {
      expect(mpVerdictKind({ status: "charged_back", status_detail: detail })).toBe(m.event);
      expect(providerStatus("MERCADOPAGO", "charged_back", detail)).toBe(m.status);
    }
    for (const [state, m] of Object.entries(PAGOS360_STATES)) {
      expect(pagos360VerdictKind(state)).toBe(m.event);
      expect(providerStatus("PAGOS360", state)).toBe(m.status);
    }
  });

  it("a state no provider documents is pending, for both readings", () => {
    expect(providerState("MERCADOPAGO", "something-new")).toEqual({ event: "PENDING", status: "PENDING" });
    expect(providerState("PAGOS360", "toString")).toEqual({ event: "PENDING", status: "PENDING" });
    expect(providerStatus("MERCADOPAGO", "charged_back", "settled")).toBe("CHARGED_BACK");
  });
});

describe("approvedAfterCheckout", () => {
  const created = new Date("2026-11-28T12:00:00Z");
  it.each([
    [null, false],
    [new Date("2026-11-29T12:00:00Z"), false],
    [new Date("2026-11-29T12:00:01Z"), true],
  ] as const)("approved at %s → late %s", (at, late) => expect(approvedAfterCheckout(created, at)).toBe(late));
});
