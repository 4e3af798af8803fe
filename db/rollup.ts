// The daily rollup of closed charging sessions (session_daily_totals,
// session_station_daily_totals, session_hourly_totals): kept by triggers (migration
// 0002_session_rollup_triggers); this module rebuilds it and checks it against a recomputation
// from the sessions (tests, `npm run db:rollup -- --check`).
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "./client";

/** Recomputes the rollup of one business, or of every business, from charging_sessions. */
export async function rebuildSessionRollups(db: Db, businessId?: string): Promise<void> {
  await db.execute(sql`select session_rollup_rebuild(${businessId ?? null}::uuid)`);
}

const LOCAL = sql.raw(`(s.started_at at time zone 'America/Argentina/Buenos_Aires')`);
const SPAN = sql.raw(`extract(epoch from coalesce(s.unplugged_at, s.stopped_at) - s.started_at)`);

interface TableCheck {
  table: string;
  keys: [name: string, expr: SQL][];
  measures: [name: string, expr: SQL][];
  where?: SQL;
}

const CHECKS: TableCheck[] = [
  {
    table: "session_daily_totals",
    keys: [["day", sql`${LOCAL}::date`], ["status", sql`s.status`], ["payment_status", sql`s.payment_status`]],
    measures: [
      ["sessions", sql`count(*)`],
      ["energy_wh", sql`sum(s.energy_wh)`],
      ["total_cents", sql`sum(s.total_cents)`],
      ["idle_cents", sql`sum(s.idle_cents)`],
      ["occupied_seconds", sql`sum(${SPAN})`],
    ],
  },
  {
    table: "session_station_daily_totals",
    keys: [["station_id", sql`s.station_id`], ["day", sql`${LOCAL}::date`], ["status", sql`s.status`]],
    measures: [
      ["sessions", sql`count(*)`],
      ["energy_wh", sql`sum(s.energy_wh)`],
      ["total_cents", sql`sum(s.total_cents)`],
    ],
    where: sql`s.station_id is not null`,
  },
  {
    table: "session_hourly_totals",
    keys: [["day", sql`${LOCAL}::date`], ["hour", sql`extract(hour from ${LOCAL})::smallint`], ["status", sql`s.status`]],
    measures: [
      ["sessions", sql`count(*)`],
      ["energy_wh", sql`sum(s.energy_wh)`],
    ],
  },
];

/**
 * Differences between the stored rollup and one recomputed from the sessions right now
 * (empty = equal). Stored rows whose counters are all zero count as absent;
 * max_span_seconds only has to be an upper bound of every session's span.
 */
export async function rollupDrift(db: Db, businessId?: string): Promise<string[]> {
  const b = businessId ?? null;
  const member = sql`s.status not in ('ACTIVE', 'IDLE') and coalesce(s.unplugged_at, s.stopped_at) is not null and (${b}::uuid is null or s.business_id = ${b}::uuid)`;
  const out: string[] = [];
  for (const c of CHECKS) {
    const keyNames = ["business_id", ...c.keys.map(([k]) => k)];
    const freshCols = sql.join(
      [sql`s.business_id`, ...c.keys.map(([k, e]) => sql`${e} as ${sql.raw(k)}`), ...c.measures.map(([m, e]) => sql`(${e})::numeric as ${sql.raw(m)}`)],
      sql`, `,
    );
    const nonZero = sql.raw(c.measures.map(([m]) => `t.${m} <> 0`).join(" or "));
    const join = sql.raw(keyNames.map((k) => `t.${k} = f.${k}`).join(" and "));
    const differs = sql.raw(c.measures.map(([m]) => `f.${m} is distinct from t.${m}::numeric`).join(" or "));
    const show = sql.raw(
      [...keyNames.map((k) => `coalesce(f.${k}, t.${k})::text as ${k}`), ...c.measures.flatMap(([m]) => [`f.${m}::text as fresh_${m}`, `t.${m}::text as stored_${m}`])].join(", "),
    );
    const result = (await db.execute(sql`
      with fresh as (
        select ${freshCols} from charging_sessions s
        where ${member} ${c.where ? sql`and ${c.where}` : sql``}
        group by ${sql.raw(keyNames.map((_, i) => String(i + 1)).join(", "))}
      ), stored as (
        select * from ${sql.raw(c.table)} t where (${b}::uuid is null or t.business_id = ${b}::uuid) and (${nonZero})
      )
      select ${show} from fresh f full join stored t on ${join}
      where ${differs}
      limit 20`)) as { rows?: Record<string, unknown>[] };
    for (const r of result.rows ?? []) out.push(`${c.table} ${JSON.stringify(r)}`);
  }
  const span = (await db.execute(sql`
    with fresh as (
      select s.business_id, ${LOCAL}::date as day, max(${SPAN}) as span
      from charging_sessions s where ${member} group by 1, 2
    )
    select f.business_id, f.day::text as day, f.span::text as span
    from fresh f
    where f.span > coalesce((select max(t.max_span_seconds) from session_daily_totals t where t.business_id = f.business_id and t.day = f.day), 0)
    limit 20`)) as { rows?: Record<string, unknown>[] };
  for (const r of span.rows ?? []) out.push(`max_span_seconds ${JSON.stringify(r)}`);
  return out;
}
