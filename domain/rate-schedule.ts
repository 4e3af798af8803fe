// Scheduled rate changes and repricing, pure. A rate's prices at an instant are its stored
// values with every scheduled change due by then laid over them, oldest first; a change lists
// only the fields it changes, so an edit of another field made meanwhile is kept. Repricing by a
// percentage rounds each amount to the centavo, half up.
import type { RateRow } from "./pricing";

/** A rate's own values (what a change may set): every field of a rate row but its id. */
export type RateValues = Omit<RateRow, "id">;
/** The fields a scheduled change sets. */
export type RateChanges = Partial<RateValues>;

export interface ScheduledChange {
  effectiveFrom: Date;
  changes: RateChanges;
}

/** The changes due at `at` (effective at or before it), oldest first. */
export function dueChanges<S extends ScheduledChange>(schedules: readonly S[], at: Date): S[] {
  return schedules.filter((s) => s.effectiveFrom.getTime() <= at.getTime()).sort((a, b) => a.effectiveFrom.getTime() - b.effectiveFrom.getTime());
}

/** The rate as in force at `at`: its values with every change due by then applied in order. */
export function rateAsOf<T extends RateValues>(rate: T, schedules: readonly ScheduledChange[], at: Date): T {
  let out = rate;
  for (const s of dueChanges(schedules, at)) out = { ...out, ...s.changes };
  return out;
}

/** The first change after `at`, or null. */
export function nextChange<S extends ScheduledChange>(schedules: readonly S[], at: Date): S | null {
  let best: S | null = null;
  for (const s of schedules) if (s.effectiveFrom.getTime() > at.getTime() && (!best || s.effectiveFrom < best.effectiveFrom)) best = s;
  return best;
}

/** The money fields of a rate that repricing moves (integer centavos; null stays null). */
export const REPRICED_FIELDS = ["pricePerKwhCents", "pricePerMinuteCents", "sessionFeeCents", "idlePricePerMinuteCents", "idleMaxCents", "noShowFeeCents"] as const;
/** The money fields of each entry of a rate's list of prices by time band, where it has one. */
const REPRICED_BAND_FIELDS = ["pricePerKwhCents", "pricePerMinuteCents"] as const;

/**
 * `cents` moved by `percent` (−100 to 1000, up to two decimals), rounded to the centavo half up:
 * computed in integers on basis points, so 0.5 centavo always goes up and no float noise decides.
 */
export function applyPercent(cents: number, percent: number): number {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Importe inválido: ${cents}`);
  const bp = Math.round(percent * 100);
  if (bp < -10_000) throw new RangeError(`Porcentaje inválido: ${percent}`);
  const scaled = BigInt(cents) * BigInt(10_000 + bp);
  return Number((scaled + 5_000n) / 10_000n);
}

/** The changes that move every money field of `rate` by `percent` (only those that change). */
export function repriceChanges(rate: RateValues, percent: number): RateChanges {
  const out: Record<string, unknown> = {};
  for (const k of REPRICED_FIELDS) {
    const v = rate[k];
    if (v == null) continue;
    const moved = applyPercent(v, percent);
    if (moved !== v) out[k] = moved;
  }
  // Prices by time band, when the rate has them: each band's prices move the same way.
  const bands = (rate as { bands?: unknown }).bands;
  if (Array.isArray(bands) && bands.length > 0) {
    out.bands = bands.map((b: Record<string, unknown>) => {
      const moved = { ...b };
      for (const k of REPRICED_BAND_FIELDS) if (typeof b[k] === "number") moved[k] = applyPercent(b[k], percent);
      return moved;
    });
  }
  return out as RateChanges;
}
