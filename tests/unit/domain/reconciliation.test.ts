// The reconciliation's comparison, by table: our payments against the provider's records.
import { describe, expect, it } from "vitest";
import { differenceKey, providerStatus, reconcilePayments, reconTotals, type OurPayment, type ProviderPayment } from "#domain/reconciliation";

const ID = "11111111-1111-4111-8111-111111111111";
const ours = (o: Partial<OurPayment> = {}): OurPayment => ({ id: ID, provider: "MERCADOPAGO", externalId: "900", amountCents: 150_000, currency: "ARS", status: "APPROVED", refundedCents: 0, ...o });
const theirs = (o: Partial<ProviderPayment> = {}): ProviderPayment => ({ provider: "MERCADOPAGO", externalId: "900", reference: ID, amountCents: 150_000, currency: "ARS", state: "approved", refundedCents: 0, feeCents: 6_000, ...o });

describe("reconcilePayments", () => {
  it.each([
    { name: "matching", our: [ours()], their: [theirs()], kinds: [] },
    { name: "a pending payment the provider never saw", our: [ours({ externalId: null, status: "PENDING" })], their: [], kinds: [] },
    { name: "an approved payment the provider has not", our: [ours()], their: [], kinds: ["MISSING_AT_PROVIDER"] },
    { name: "another amount", our: [ours()], their: [theirs({ amountCents: 140_000 })], kinds: ["AMOUNT"] },
    { name: "another currency", our: [ours()], their: [theirs({ currency: "USD" })], kinds: ["CURRENCY"] },
    { name: "another state", our: [ours()], their: [theirs({ state: "charged_back" })], kinds: ["STATUS"] },
    { name: "a partly refunded payment: still approved at the provider", our: [ours({ status: "PARTIALLY_REFUNDED", refundedCents: 50_000 })], their: [theirs({ refundedCents: 50_000 })], kinds: [] },
    { name: "in dispute on both sides", our: [ours({ status: "IN_DISPUTE" })], their: [theirs({ state: "in_mediation" })], kinds: [] },
    { name: "charged back on both sides", our: [ours({ status: "CHARGED_BACK" })], their: [theirs({ state: "charged_back" })], kinds: [] },
    { name: "another refund", our: [ours({ refundedCents: 50_000 })], their: [theirs({ refundedCents: 0 })], kinds: ["REFUNDED"] },
    { name: "a refund the provider does not report (Pagos360)", our: [ours({ provider: "PAGOS360", refundedCents: 50_000 })], their: [theirs({ provider: "PAGOS360", state: "paid", refundedCents: null })], kinds: [] },
    { name: "a second approved payment on our reference", our: [ours()], their: [theirs(), theirs({ externalId: "901" })], kinds: ["UNKNOWN_TO_US"] },
    { name: "a rejected attempt before the approval", our: [ours()], their: [theirs({ externalId: "899", state: "rejected" }), theirs()], kinds: [] },
    { name: "a payment of someone else's reference", our: [ours()], their: [theirs(), theirs({ externalId: "902", reference: "otra-venta" })], kinds: [] },
    { name: "our pending payment the provider approved", our: [ours({ externalId: null, status: "PENDING" })], their: [theirs({ externalId: "899", state: "rejected" }), theirs()], kinds: ["STATUS"] },
  ])("$name", ({ our, their, kinds }) => {
    const diffs = reconcilePayments(our, their);
    expect(diffs.map((d) => d.kind)).toEqual(kinds);
    for (const d of diffs) expect(d.description).toMatch(/[a-záéíóú]/);
  });

  it("says both values and a Spanish description", () => {
    const [d] = reconcilePayments([ours()], [theirs({ amountCents: 140_000 })]);
    expect(d).toEqual({ kind: "AMOUNT", provider: "MERCADOPAGO", paymentId: ID, externalId: "900", ours: "150000", theirs: "140000", description: "Mostramos $ 1.500,00; Mercado Pago registra $ 1.400,00." });
    const [s] = reconcilePayments([ours()], [theirs({ state: "refunded", refundedCents: 150_000 })]);
    expect(s).toMatchObject({ kind: "STATUS", ours: "APPROVED", theirs: "REFUNDED", description: "Mostramos el pago aprobado; para Mercado Pago está devuelto (refunded)." });
  });

  it("keys a difference by its values: a changed one is a new one", () => {
    const [a] = reconcilePayments([ours()], [theirs({ amountCents: 140_000 })]);
    const [b] = reconcilePayments([ours()], [theirs({ amountCents: 130_000 })]);
    expect(differenceKey(a)).not.toBe(differenceKey(b));
    expect(differenceKey(a)).toBe(differenceKey(reconcilePayments([ours()], [theirs({ amountCents: 140_000 })])[0]));
  });
});

describe("providerStatus", () => {
  it.each([
    ["MERCADOPAGO", "approved", "APPROVED"],
    ["MERCADOPAGO", "authorized", "PENDING"],
    ["MERCADOPAGO", "in_mediation", "IN_DISPUTE"],
    ["MERCADOPAGO", "charged_back", "CHARGED_BACK"],
    ["MERCADOPAGO", "refunded", "REFUNDED"],
    ["MERCADOPAGO", "cancelled", "CANCELLED"],
    ["MERCADOPAGO", "rejected", "REJECTED"],
    ["MERCADOPAGO", "in_process", "PENDING"],
    ["PAGOS360", "pending", "PENDING"],
    ["PAGOS360", "paid", "APPROVED"],
    ["PAGOS360", "expired", "CANCELLED"],
    ["PAGOS360", "canceled", "CANCELLED"],
    ["PAGOS360", "reverted", "CHARGED_BACK"],
    ["PAGOS360", "refunded", "REFUNDED"],
    ["PAGOS360", "rejected", "REJECTED"],
    ["PAGOS360", "something-new", "PENDING"],
  ] as const)("%s %s → %s", (provider, state, status) => expect(providerStatus(provider, state)).toBe(status));
});

describe("reconTotals", () => {
  it("adds gross, fee and refunds of what moved money; net to the cent", () => {
    const t = reconTotals([
      theirs({ amountCents: 150_001, feeCents: 6_001 }),
      theirs({ externalId: "2", amountCents: 100_000, feeCents: 4_000, refundedCents: 30_000 }),
      theirs({ externalId: "3", state: "rejected", amountCents: 99_999 }),
      theirs({ provider: "PAGOS360", externalId: "4", state: "refunded", amountCents: 50_000, feeCents: null, refundedCents: null }),
    ]);
    expect(t).toEqual({ grossCents: 300_001, feeCents: 10_001, refundedCents: 80_000, netCents: 300_001 - 10_001 - 80_000 });
  });
});
