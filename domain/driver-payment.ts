// Drivers pay at the charger: the steps of a prepaid charge, the amounts a driver may
// prepay, and what a charge costs so far. Pure: shared by the API, the OCPP store and the pages.
import { priceSession, usageFromSession, type RateSnapshot, type SessionPrice } from "./pricing";
import type { HolidayCheck } from "./tariff-bands";

/** Prepay limits a new station starts with (centavos, VAT included): $ 1.000 to $ 50.000. */
export const DEFAULT_QR_MIN_CENTS = 100_000;
export const DEFAULT_QR_MAX_CENTS = 5_000_000;
/** No station may ask for more than this per charge ($ 1.000.000). */
export const QR_MAX_CENTS_LIMIT = 100_000_000;

/**
 * PAYING: the driver is at the provider's checkout; STARTING: approved, the remote start was
 * sent; CHARGING: the charger started the session; SETTLING: the session is priced, the unused
 * balance is being refunded; FINISHED: refunded and receipt sent. START_FAILED: the charger
 * refused or never started, the whole amount is being refunded; REFUNDED: it was. FAILED: the
 * provider rejected or cancelled the payment (nothing was charged). REFUND_PENDING: what the
 * driver is owed (the unused balance, or all of it when the charge never started) cannot go back
 * through the provider's API (Pagos360 documents no refund call): the receipt is sent, and the
 * operator refunds it by hand and records it in Pagos (→ FINISHED, or REFUNDED when nothing was
 * charged). The sweep leaves it alone (ADR 0017).
 */
export const DRIVER_STEPS = ["PAYING", "STARTING", "CHARGING", "SETTLING", "FINISHED", "START_FAILED", "REFUNDED", "FAILED", "REFUND_PENDING"] as const;
export type DriverStep = (typeof DRIVER_STEPS)[number];

/**
 * How long a checkout may be paid: the Mercado Pago preference expires then, and the sweep gives
 * up on it (a payment approved later anyway is refunded in full: domain/payment-lifecycle.ts).
 */
export const CHECKOUT_VALIDITY_MS = 24 * 3_600_000;

/** How long a charger has, after accepting a remote start, to start the session. */
export const START_TIMEOUT_MS = 2 * 60_000;

/** The steps after which nothing else happens to the payment. */
export const FINAL_STEPS: ReadonlySet<DriverStep> = new Set(["FINISHED", "REFUNDED", "FAILED"]);

/** What is still owed to the driver of a prepaid charge: the prepaid amount less what was charged and what already went back. */
export function refundOwed(p: { amountCents: number; chargedCents: number | null; refundedCents: number }): number {
  return Math.max(0, p.amountCents - (p.chargedCents ?? 0) - p.refundedCents);
}

/** Preset amounts offered on the page (centavos), within the station's limits. */
export function presetAmounts(minCents: number, maxCents: number): number[] {
  const candidates = [200_000, 500_000, 1_000_000, 2_000_000];
  const inside = candidates.filter((c) => c >= minCents && c <= maxCents);
  return inside.length ? inside : [minCents];
}

/**
 * A prepaid amount typed by a driver ("5000", "5.000", "5000,50"): centavos, or null when it is
 * not a plain amount of pesos.
 */
export function parsePesos(input: string): number | null {
  const s = input.trim().replace(/^\$\s*/, "");
  if (!/^\d{1,3}(\.\d{3})*(,\d{1,2})?$|^\d+(,\d{1,2})?$/.test(s)) return null;
  const [whole, decimals = ""] = s.replace(/\./g, "").split(",");
  const cents = Number(whole) * 100 + Number(decimals.padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** What a session has cost so far (or in total, once closed), by its rate snapshot, at `now`. */
export function costSoFar(
  rate: RateSnapshot | null,
  s: { energyWh: number; startedAt: Date; chargingEndedAt: Date | null; stoppedAt: Date | null; unpluggedAt: Date | null },
  now: Date,
  timeZone?: string,
  isHoliday?: HolidayCheck,
): SessionPrice | null {
  if (!rate) return null;
  const end = s.unpluggedAt ?? now;
  const usage = usageFromSession({
    energyWh: s.energyWh,
    startedAt: s.startedAt,
    chargingEndedAt: s.chargingEndedAt ?? s.stoppedAt ?? (s.unpluggedAt ? s.unpluggedAt : null),
    unpluggedAt: end < s.startedAt ? s.startedAt : end,
    stoppedAt: s.stoppedAt,
    timeZone,
  });
  usage.isHoliday = isHoliday;
  if (!s.chargingEndedAt && !s.stoppedAt && !s.unpluggedAt) {
    // Still charging: the whole time so far is charging time, none is idle.
    usage.chargingMinutes = Math.floor(Math.max(0, end.getTime() - s.startedAt.getTime()) / 60_000);
    usage.idleMinutes = 0;
  }
  return priceSession(rate, usage);
}

/** The amount charged for a session prepaid with `prepaidCents`: its price, never above what was paid. */
export function chargedAmount(totalCents: number, prepaidCents: number): { chargedCents: number; refundCents: number } {
  const chargedCents = Math.max(0, Math.min(totalCents, prepaidCents));
  return { chargedCents, refundCents: prepaidCents - chargedCents };
}

/** The idTag a paid remote start carries: "QR" and 18 characters of the payment's own random key. */
export function paymentIdTag(random: string): string {
  return `QR${random.replace(/[^A-Za-z0-9]/g, "").toUpperCase().slice(0, 18)}`;
}

export const isPaymentIdTag = (idTag: string | null | undefined): boolean => typeof idTag === "string" && /^QR[A-Z0-9]{18}$/.test(idTag);

/**
 * Whether the provider approved a payment after its checkout's validity ended (the provider's own
 * approval time against the checkout's creation): a late approval, refunded in full, even if the
 * sweep has not given the checkout up yet. Without the provider's time it is not late.
 */
export function approvedAfterCheckout(createdAt: Date, approvedAt: Date | null): boolean {
  return approvedAt !== null && approvedAt.getTime() > createdAt.getTime() + CHECKOUT_VALIDITY_MS;
}

/** " (operación N)": the provider's payment id as an operator or driver looks it up; "" before the provider gave one. */
export const operationSuffix = (externalId: string | null | undefined): string => (externalId ? ` (operación ${externalId})` : "");
