// The prices a rate has at an instant: its row with the scheduled changes due by then that the
// sweep has not yet written into it (ADR 0043). Read in the same statement as the rate, so a
// session that starts one second after a change takes the new prices without an extra round trip.
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { RateChanges } from "../domain/rate-schedule";

/** A column to select beside a rate: its pending changes due at `at`, oldest first ([] when none). */
export function dueRateChanges(rateId: AnyPgColumn | SQL, at: Date): SQL<RateChanges[]> {
  return sql<RateChanges[]>`(select coalesce(jsonb_agg(rs.changes order by rs.effective_from), '[]'::jsonb) from rate_schedules rs
    where rs.rate_id = ${rateId} and rs.applied_at is null and rs.effective_from <= ${at.toISOString()}::timestamptz)`.mapWith((v: unknown) => (typeof v === "string" ? (JSON.parse(v) as RateChanges[]) : ((v ?? []) as RateChanges[])));
}

/** The rate with its due changes laid over it, oldest first. */
export function withChanges<T extends object>(rate: T, due: readonly RateChanges[] | null | undefined): T {
  let out = rate;
  for (const c of due ?? []) out = { ...out, ...c };
  return out;
}

/** A column to select beside a rate: its first pending change after `at` and within `withinMs`, or null. */
export function nextRateChange(rateId: AnyPgColumn | SQL, at: Date, withinMs: number): SQL<{ effectiveFrom: string; changes: RateChanges } | null> {
  return sql`(select jsonb_build_object('effectiveFrom', rs.effective_from, 'changes', rs.changes) from rate_schedules rs
    where rs.rate_id = ${rateId} and rs.applied_at is null and rs.effective_from > ${at.toISOString()}::timestamptz
      and rs.effective_from <= ${new Date(at.getTime() + withinMs).toISOString()}::timestamptz
    order by rs.effective_from limit 1)`.mapWith((v: unknown) => (typeof v === "string" ? JSON.parse(v) : (v ?? null)) as { effectiveFrom: string; changes: RateChanges } | null);
}

/**
 * A column to select beside a rate: its company's local holidays ('YYYY-MM-DD'), which every
 * rate of the company prices as Sundays; read in the same statement, given to rateSnapshotFromRow.
 */
export function companyHolidays(businessId: AnyPgColumn | SQL): SQL<string[]> {
  return sql<string[]>`(select bu.local_holidays from business_users bu where bu.id = ${businessId})`.mapWith((v: unknown) => (typeof v === "string" ? (JSON.parse(v) as string[]) : ((v ?? []) as string[])));
}
