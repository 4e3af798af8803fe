// Reading the session rollup (db/rollup.ts, migration 0002) together with the few sessions it
// does not hold, so the KPIs and totals equal the old aggregates over charging_sessions.
//
// A period [from, to) splits at Buenos Aires midnights into
//   [from, d1)  raw: sessions started before the first whole local day (all of them)
//   [d1, d2)    rollup: closed sessions started on whole local days (session_*_totals)
//               + raw: the sessions the rollup does not hold (open, or without an end time)
//   [d2, to)    raw: sessions started after the last whole local day (all of them)
// A null bound is unbounded. A period without a whole local day is read raw.
import { and, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { chargingSessions as s } from "../db/schema";
import { DEFAULT_TIME_ZONE } from "../domain/pricing";
import { num, queryRows } from "../infra/sql";

const TZ = DEFAULT_TIME_ZONE;

export interface PeriodSplit {
  from: Date | null;
  to: Date | null;
  /** Whole local days read from the rollup: [day1, day2) as 'YYYY-MM-DD'; null = unbounded. */
  rollup: { d1: Date | null; d2: Date | null; day1: string | null; day2: string | null } | null;
}

const tsz = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Sessions the rollup does not hold (the predicate of sessions_unrolled_idx). */
export const UNROLLED = sql`(${s.status} in ('ACTIVE', 'IDLE') or coalesce(${s.unpluggedAt}, ${s.stoppedAt}) is null)`;
/** Sessions the rollup holds. */
export const ROLLED = sql`(${s.status} not in ('ACTIVE', 'IDLE') and coalesce(${s.unpluggedAt}, ${s.stoppedAt}) is not null)`;

// The split depends only on the period and the time zone rules, so it is computed once per
// period (the home page asks for the same one four times: KPIs and three charts).
const splits = new Map<string, Promise<PeriodSplit>>();
const MAX_SPLITS = 1000;

export function splitPeriod(db: Db, from: Date | null, to: Date | null): Promise<PeriodSplit> {
  const key = `${from?.getTime() ?? ""}|${to?.getTime() ?? ""}`;
  let split = splits.get(key);
  if (!split) {
    if (splits.size >= MAX_SPLITS) splits.delete(splits.keys().next().value!);
    split = computeSplit(db, from, to);
    split.catch(() => splits.delete(key));
    splits.set(key, split);
  }
  return split;
}

async function computeSplit(db: Db, from: Date | null, to: Date | null): Promise<PeriodSplit> {
  const F = from ? tsz(from) : sql`null::timestamptz`;
  const T = to ? tsz(to) : sql`null::timestamptz`;
  const [r] = await queryRows(
    db,
    sql`select l1::date::text as day1, l2::date::text as day2,
        extract(epoch from (l1 at time zone ${TZ})) * 1000 as d1, extract(epoch from (l2 at time zone ${TZ})) * 1000 as d2
      from (select
        date_trunc('day', ${F} at time zone ${TZ})
          + case when date_trunc('day', ${F} at time zone ${TZ}) = ${F} at time zone ${TZ} then interval '0 days' else interval '1 day' end as l1,
        date_trunc('day', ${T} at time zone ${TZ}) as l2) x`,
  );
  const d1 = r?.d1 == null ? null : new Date(num(r.d1));
  const d2 = r?.d2 == null ? null : new Date(num(r.d2));
  if (d1 && d2 && d1 >= d2) return { from, to, rollup: null };
  return { from, to, rollup: { d1, d2, day1: (r?.day1 as string | null) ?? null, day2: (r?.day2 as string | null) ?? null } };
}

/** The rollup rows' day condition for table alias `r`. */
export function rollupDays(split: PeriodSplit): SQL {
  const r = split.rollup;
  const parts: SQL[] = [];
  if (r?.day1) parts.push(sql`r.day >= ${r.day1}::date`);
  if (r?.day2) parts.push(sql`r.day < ${r.day2}::date`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

function range(lo: Date | null, hi: Date | null): SQL[] {
  const out: SQL[] = [];
  if (lo) out.push(sql`${s.startedAt} >= ${tsz(lo)}`);
  if (hi) out.push(sql`${s.startedAt} < ${tsz(hi)}`);
  return out;
}

/**
 * Conditions on charging_sessions, one per part, for the sessions of [from, to) the rollup does
 * not cover. Each goes into its own SELECT of a UNION ALL, so each uses an index.
 */
export function rawParts(split: PeriodSplit): SQL[] {
  const { from, to, rollup } = split;
  if (!rollup) return [and(sql`true`, ...range(from, to)) as SQL];
  const parts: SQL[] = [];
  if (from && rollup.d1 && rollup.d1 > from) parts.push(and(...range(from, rollup.d1)) as SQL);
  if (to && rollup.d2 && to > rollup.d2) parts.push(and(...range(rollup.d2, to)) as SQL);
  parts.push(and(UNROLLED, ...range(rollup.d1, rollup.d2)) as SQL);
  return parts;
}

/** The sessions the rollup holds for the period's whole local days (raw, for a correction the rollup's keys cannot make). */
export function rolledPart(split: PeriodSplit): SQL {
  return and(ROLLED, ...range(split.rollup?.d1 ?? null, split.rollup?.d2 ?? null)) as SQL;
}

/** An upper bound of the occupied span (seconds) of any rolled-up session of the business. */
export async function maxSpanSeconds(db: Db, businessId: string): Promise<number> {
  const [r] = await queryRows(db, sql`select max(max_span_seconds) as m from session_daily_totals where business_id = ${businessId}`);
  return Math.ceil(num(r?.m)) + 1;
}

/**
 * Occupied connector seconds inside [from, to): Σ over non-INVALID sessions of
 * |[started_at, coalesce(unplugged_at, stopped_at, now)) ∩ [from, to)| — the same sum as
 * the plain aggregate, read as: the rollup's whole-day spans, minus what of them runs past
 * `to`, plus the rolled-up sessions that start outside the whole days (looking back one
 * maximum span before `from`), plus the open ones.
 */
export async function occupiedSeconds(db: Db, businessId: string, split: PeriodSplit & { from: Date; to: Date }, now: Date): Promise<number> {
  const { from, to, rollup } = split;
  const F = tsz(from);
  const T = tsz(to);
  const N = tsz(now);
  const M = await maxSpanSeconds(db, businessId);
  const back = new Date(from.getTime() - M * 1000);
  const end = sql`coalesce(${s.unpluggedAt}, ${s.stoppedAt})`;
  const clip = (e: SQL) => sql`coalesce(sum(extract(epoch from (least(${e}, ${T}) - greatest(${s.startedAt}, ${F})))), 0)`;
  const own = sql`${s.businessId} = ${businessId} and ${s.status} <> 'INVALID'`;
  const selects: SQL[] = [];
  // Open sessions (and any without an end): few, read whole.
  selects.push(sql`select ${clip(sql`coalesce(${s.unpluggedAt}, ${s.stoppedAt}, ${N})`)} as v from ${s}
    where ${own} and ${UNROLLED} and ${s.startedAt} < ${T} and coalesce(${s.unpluggedAt}, ${s.stoppedAt}, ${N}) > ${F}`);
  const rolledRaw = (lo: Date, hi: Date) =>
    sql`select ${clip(end)} as v from ${s}
      where ${own} and ${ROLLED} and ${s.startedAt} >= ${tsz(lo)} and ${s.startedAt} < ${tsz(hi)} and ${s.startedAt} < ${T} and ${end} > ${F}`;
  if (!rollup) {
    selects.push(rolledRaw(back, to));
  } else {
    const d1 = rollup.d1 ?? from;
    const d2 = rollup.d2 ?? to;
    selects.push(sql`select coalesce(sum(r.occupied_seconds), 0) as v from session_daily_totals r
      where r.business_id = ${businessId} and r.status <> 'INVALID' and ${rollupDays(split)}`);
    selects.push(rolledRaw(back, d1));
    if (to > d2) selects.push(rolledRaw(d2, to));
    // Whole-day sessions still running at `to`: take out what lies after it.
    const lo = new Date(Math.max(d1.getTime(), to.getTime() - M * 1000));
    if (d2 > lo) {
      selects.push(sql`select -coalesce(sum(extract(epoch from (${end} - ${T}))), 0) as v from ${s}
        where ${own} and ${ROLLED} and ${s.startedAt} >= ${tsz(lo)} and ${s.startedAt} < ${tsz(d2)} and ${end} > ${T}`);
    }
  }
  const [r] = await queryRows(db, sql`select coalesce(sum(v), 0) as seconds from (${sql.join(selects, sql` union all `)}) x`);
  return num(r?.seconds);
}
