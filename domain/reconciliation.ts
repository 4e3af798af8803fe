// Payment reconciliation: does every payment Enchufá shows match the provider's own record of it?
// A pure comparison of our payments with what the provider answered for them. Our side is what
// the Pagos screen shows; the provider's is its record read back with the operator's credentials.
// Each difference says what kind it is, our value, the provider's, and a Spanish sentence for the
// accountant.
//
// Matching: a provider record is ours when its id is our payment's externalId; a payment of ours
// with no externalId yet (the provider never told us) takes the record carrying its id as
// external reference — an approved one first, as the checkout lets a driver retry. Any other
// record on one of our references that moved money (approved, refunded, charged back…) is a
// payment we do not know of (e.g. a second payment on the same checkout). Rejected or cancelled
// attempts moved no money and are not differences.

import { providerState, type StateProvider } from "./provider-states";

/** The statuses reconciliation speaks of: ours (PAYMENT_STATUSES) and any status a provider's state maps to. */
export type ReconStatus = string;

/** Our statuses in which money reached the operator (and may have gone back). */
export const MONEY_MOVED: ReadonlySet<ReconStatus> = new Set(["APPROVED", "PARTIALLY_REFUNDED", "IN_DISPUTE", "CHARGED_BACK", "REFUNDED"]);

/**
 * Our status as a provider's state can say it: a partly refunded payment is still `approved` at
 * the provider (what went back is compared as an amount, apart).
 */
const asProviderSays = (s: ReconStatus): ReconStatus => (s === "PARTIALLY_REFUNDED" ? "APPROVED" : s);

export type ReconProvider = StateProvider;

/** A provider's state (and Mercado Pago's status_detail) in our terms: the one table the payment's life reads too. */
export function providerStatus(provider: ReconProvider, state: string, detail?: string | null): ReconStatus {
  return providerState(provider, state, detail).status;
}

/** One of our payments as the Pagos screen shows it. */
export interface OurPayment {
  id: string;
  provider: ReconProvider;
  /** The provider's payment id, once it approved it; null before. */
  externalId: string | null;
  amountCents: number;
  currency: string;
  status: ReconStatus;
  /** What went back to the driver (a whole refund counts the whole amount). */
  refundedCents: number;
}

/** The provider's record of a payment. */
export interface ProviderPayment {
  provider: ReconProvider;
  externalId: string;
  /** The external reference it carries: our payment id, when it is one of ours. */
  reference: string | null;
  amountCents: number;
  currency: string;
  /** The provider's own state (approved, paid, charged_back…). */
  state: string;
  /** Mercado Pago's status_detail (a chargeback's in_process, settled or reimbursed); absent for Pagos360. */
  detail?: string | null;
  /** What the provider says went back; null when it does not report refunds (Pagos360). */
  refundedCents: number | null;
  /** The provider's fee; null when it does not report one. */
  feeCents: number | null;
}

export const DIFFERENCE_KINDS = ["MISSING_AT_PROVIDER", "UNKNOWN_TO_US", "AMOUNT", "CURRENCY", "STATUS", "REFUNDED"] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

export const DIFFERENCE_KIND_LABELS: Record<DifferenceKind, string> = {
  MISSING_AT_PROVIDER: "No está en el proveedor",
  UNKNOWN_TO_US: "Pago desconocido",
  AMOUNT: "Monto distinto",
  CURRENCY: "Moneda distinta",
  STATUS: "Estado distinto",
  REFUNDED: "Devolución distinta",
};

export interface Difference {
  kind: DifferenceKind;
  provider: ReconProvider;
  /** Our payment; for UNKNOWN_TO_US, the one whose reference the provider's payment carries. */
  paymentId: string;
  /** The provider's payment id (null when it has none for ours). */
  externalId: string | null;
  /** Our value and the provider's, as text (centavos as integers, statuses in our terms). */
  ours: string | null;
  theirs: string | null;
  description: string;
}

const STATUS_LABELS: Record<string, string> = {
  PENDING: "pendiente",
  APPROVED: "aprobado",
  REJECTED: "rechazado",
  REFUNDED: "devuelto",
  CANCELLED: "cancelado",
  IN_DISPUTE: "en disputa",
  CHARGED_BACK: "contracargado",
  PARTIALLY_REFUNDED: "devuelto en parte",
};
const PROVIDER_LABELS: Record<ReconProvider, string> = { MERCADOPAGO: "Mercado Pago", PAGOS360: "Pagos360" };

const statusLabel = (s: ReconStatus) => STATUS_LABELS[s] ?? s.toLowerCase();
/** $ 1.234,56 without Intl's non-breaking spaces (a description goes to CSV too). */
function pesos(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}$ ${whole},${String(abs % 100).padStart(2, "0")}`;
}

/** The provider's record that is ours: by its id, else (no id yet) by our reference, an approved one first. */
function counterpart(p: OurPayment, byId: Map<string, ProviderPayment>, byRef: Map<string, ProviderPayment[]>): ProviderPayment | undefined {
  if (p.externalId) return byId.get(`${p.provider}:${p.externalId}`);
  const candidates = byRef.get(`${p.provider}:${p.id}`) ?? [];
  return candidates.find((r) => MONEY_MOVED.has(providerStatus(r.provider, r.state, r.detail))) ?? candidates[0];
}

function compareOne(p: OurPayment, r: ProviderPayment): Difference[] {
  const name = PROVIDER_LABELS[p.provider];
  const base = { provider: p.provider, paymentId: p.id, externalId: r.externalId };
  const out: Difference[] = [];
  if (r.currency.toUpperCase() !== p.currency.toUpperCase()) {
    out.push({ ...base, kind: "CURRENCY", ours: p.currency, theirs: r.currency, description: `Mostramos el pago en ${p.currency}; ${name} lo tiene en ${r.currency}.` });
  }
  if (r.amountCents !== p.amountCents) {
    out.push({ ...base, kind: "AMOUNT", ours: String(p.amountCents), theirs: String(r.amountCents), description: `Mostramos ${pesos(p.amountCents)}; ${name} registra ${pesos(r.amountCents)}.` });
  }
  const theirStatus = providerStatus(r.provider, r.state, r.detail);
  if (theirStatus !== asProviderSays(p.status)) {
    out.push({ ...base, kind: "STATUS", ours: p.status, theirs: theirStatus, description: `Mostramos el pago ${statusLabel(p.status)}; para ${name} está ${statusLabel(theirStatus)} (${r.state}).` });
  }
  if (r.refundedCents !== null && r.refundedCents !== p.refundedCents) {
    out.push({ ...base, kind: "REFUNDED", ours: String(p.refundedCents), theirs: String(r.refundedCents), description: `Mostramos ${pesos(p.refundedCents)} devueltos; ${name} registra ${pesos(r.refundedCents)}.` });
  }
  return out;
}

/** Every difference between our payments and the provider's records of them. */
export function reconcilePayments(ours: readonly OurPayment[], theirs: readonly ProviderPayment[]): Difference[] {
  const byId = new Map<string, ProviderPayment>();
  const byRef = new Map<string, ProviderPayment[]>();
  for (const r of theirs) {
    byId.set(`${r.provider}:${r.externalId}`, r);
    if (r.reference) {
      const key = `${r.provider}:${r.reference}`;
      byRef.set(key, [...(byRef.get(key) ?? []), r]);
    }
  }
  const ourIds = new Set(ours.map((p) => `${p.provider}:${p.id}`));
  const matched = new Set<ProviderPayment>();
  const out: Difference[] = [];
  for (const p of ours) {
    const r = counterpart(p, byId, byRef);
    if (r) {
      matched.add(r);
      out.push(...compareOne(p, r));
    } else if (p.externalId || MONEY_MOVED.has(p.status)) {
      // A payment that never reached the provider (no id, still pending) is not a difference.
      out.push({
        kind: "MISSING_AT_PROVIDER",
        provider: p.provider,
        paymentId: p.id,
        externalId: p.externalId,
        ours: p.status,
        theirs: null,
        description: `${PROVIDER_LABELS[p.provider]} no tiene este pago de ${pesos(p.amountCents)} (${statusLabel(p.status)} para nosotros).`,
      });
    }
  }
  for (const r of theirs) {
    if (matched.has(r) || !r.reference || !ourIds.has(`${r.provider}:${r.reference}`)) continue;
    const status = providerStatus(r.provider, r.state, r.detail);
    if (!MONEY_MOVED.has(status)) continue;
    out.push({
      kind: "UNKNOWN_TO_US",
      provider: r.provider,
      paymentId: r.reference,
      externalId: r.externalId,
      ours: null,
      theirs: String(r.amountCents),
      description: `${PROVIDER_LABELS[r.provider]} tiene otro pago de ${pesos(r.amountCents)} (${statusLabel(status)}) con la referencia de este pago, que no registramos.`,
    });
  }
  return out;
}

/** Gross, fee and net of the provider's payments that moved money: net = gross − refunded − fee, to the cent. */
export interface ReconTotals {
  grossCents: number;
  feeCents: number;
  refundedCents: number;
  netCents: number;
}

export function reconTotals(theirs: readonly ProviderPayment[]): ReconTotals {
  const t = { grossCents: 0, feeCents: 0, refundedCents: 0, netCents: 0 };
  for (const r of theirs) {
    const status = providerStatus(r.provider, r.state, r.detail);
    if (!MONEY_MOVED.has(status)) continue;
    // A whole refund a provider does not itemise (Pagos360's refunded state) is the whole amount,
    // and so is a chargeback: the payer's bank took it all back.
    const refunded = status === "CHARGED_BACK" ? r.amountCents : (r.refundedCents ?? (status === "REFUNDED" ? r.amountCents : 0));
    t.grossCents += r.amountCents;
    t.feeCents += r.feeCents ?? 0;
    t.refundedCents += refunded;
  }
  t.netCents = t.grossCents - t.refundedCents - t.feeCents;
  return t;
}

/** A stable key of one difference (its kind, payments and both values): reported once. */
export function differenceKey(d: Difference): string {
  return [d.kind, d.provider, d.paymentId, d.externalId ?? "", d.ours ?? "", d.theirs ?? ""].join("|");
}
