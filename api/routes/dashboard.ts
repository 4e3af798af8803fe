// /Business/Dashboard (KPIs for a period) and /Business/Graphic (time series).
// Everything is aggregated in SQL; days and hours are Buenos Aires local time.
import { Hono } from "hono";
import { sql, type SQL } from "drizzle-orm";
import { chargers, chargingSessions, connectors, stations, statusEvents } from "#db/schema";
import { CHARGE_POINT_STATUSES, type ChargePointStatus } from "#domain/ocpp-status";
import { DEFAULT_TIME_ZONE } from "#domain/pricing";
import { seesMoney } from "../access";
import { tenant, type ApiServices, type AppEnv } from "../env";
import type { Db } from "#db/client";
import { readQuery } from "../http";
import { graphicQuery, periodQuery } from "#contract/schemas/queries";
import { rawParts, rolledPart, rollupDays, occupiedSeconds, splitPeriod } from "../rollup";
import { bucketCounts, num, pickBuckets, queryRows } from "#infra/sql";
import type { DashboardDto, GraphicDto } from "#contract/dto";

export const DEFAULT_PERIOD_DAYS = 30;
const TZ = DEFAULT_TIME_ZONE;
const s = chargingSessions;
// Revenue is what completed sessions earned, less those whose payment the payer's bank charged
// back (payment status CHARGED_BACK): the session rollup is keyed by that status, so a chargeback
// moves a session out of revenue in the rollup too.
const REVENUE = sql`${s.status} = 'COMPLETED' and ${s.paymentStatus} <> 'CHARGED_BACK'`;

function period(q: { from?: Date; to?: Date }, now: Date): { from: Date; to: Date } {
  const to = q.to ?? (q.from ? new Date(Math.min(now.getTime(), q.from.getTime() + DEFAULT_PERIOD_DAYS * 86_400_000)) : now);
  const from = q.from ?? new Date(to.getTime() - DEFAULT_PERIOD_DAYS * 86_400_000);
  return { from, to: to > from ? to : new Date(from.getTime() + 86_400_000) };
}

/** The period as asked (not as resolved: an open end means "until now"), for the company's cache. */
const periodKey = (q: { from?: Date; to?: Date }) => `${q.from?.getTime() ?? ""}|${q.to?.getTime() ?? ""}`;
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

export function dashboardRoutes({ db, now, companyCache }: ApiServices) {
  return new Hono<AppEnv>().get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, periodQuery);
    // The period's totals may come from the company's cache (a few seconds old at most, see
    // api/company-cache.ts); the equipment's current state below is always read now.
    const [totals, [equipment]] = await Promise.all([
      companyCache.get(b.id, `dashboard|${periodKey(query)}`, () => periodTotals(db, b.id, query, now())),
      db
        .select({
          // Counted on chargers alone: count(distinct) over the join with connectors sorted every
          // row (2.3–3.8 ms for 2,000 chargers, 1.4 ms without).
          chargersTotal: sql<number>`(select count(*) from ${chargers} where ${chargers.businessId} = ${b.id})`.mapWith(Number),
          chargersOnline: sql<number>`(select count(*) from ${chargers} where ${chargers.businessId} = ${b.id} and ${chargers.online} and ${chargers.enabled})`.mapWith(Number),
          connectorsTotal: sql<number>`count(${connectors.id})`.mapWith(Number),
          ...Object.fromEntries(
            CHARGE_POINT_STATUSES.map((st) => [`st_${st}`, sql<number>`count(${connectors.id}) filter (where ${connectors.status} = ${st})`.mapWith(Number)]),
          ),
          ...bucketCounts(),
          // In the same statement: one round trip to PostgreSQL fewer per page.
          activeSessions: sql<number>`(select count(*) from ${s} where ${s.businessId} = ${b.id} and ${s.status} in ('ACTIVE', 'IDLE'))`.mapWith(Number),
        })
        .from(chargers)
        .leftJoin(connectors, sql`${connectors.chargerId} = ${chargers.id}`)
        .where(sql`${chargers.businessId} = ${b.id}`),
    ]);
    const { from, to, at, sessionAgg, occupiedSecs, availability } = totals;

    const eq = equipment as Record<string, number>;
    const connectorStatus = Object.fromEntries(CHARGE_POINT_STATUSES.map((st) => [st, num(eq[`st_${st}`])])) as Record<ChargePointStatus, number>;
    const effectiveSeconds = Math.max(0, (Math.min(to.getTime(), at.getTime()) - from.getTime()) / 1000);
    const sessions = num(sessionAgg?.sessions);
    const utilization = pct(occupiedSecs, effectiveSeconds * num(eq.connectorsTotal));

    const body: DashboardDto = {
      from: from.toISOString(),
      to: to.toISOString(),
      energyKwh: Math.round(num(sessionAgg?.energy_wh)) / 1000,
      sessions,
      startSuccessRate: pct(num(sessionAgg?.started), sessions),
      ...(seesMoney(c) ? { revenueCents: num(sessionAgg?.revenue), idleRevenueCents: num(sessionAgg?.idle_revenue) } : {}),
      utilizationPct: utilization == null ? null : Math.min(100, utilization),
      availabilityPct: pct(num(availability?.up), num(availability?.tracked)),
      chargersTotal: num(eq.chargersTotal),
      chargersOnline: num(eq.chargersOnline),
      chargersOffline: num(eq.chargersTotal) - num(eq.chargersOnline),
      connectorsTotal: num(eq.connectorsTotal),
      connectorStatus,
      statusSummary: pickBuckets(eq),
      activeSessions: num(eq.activeSessions),
    };
    return c.json(body);
  });
}

/** The period's aggregates over sessions and status history, as of `t`. */
async function periodTotals(db: Db, businessId: string, query: { from?: Date; to?: Date }, t: Date) {
  const { from, to } = period(query, t);
  const F = ts(from);
  const T = ts(to);
  const N = ts(t);

  // Sessions started in the period: whole local days from the rollup, the rest raw (api/rollup.ts).
  const split = { ...(await splitPeriod(db, from, to)), from, to };
  const rawAgg = rawParts(split).map(
    (part) => sql`select count(*) as sessions,
          count(*) filter (where ${s.status} <> 'INVALID') as started,
          sum(${s.energyWh}) filter (where ${s.status} <> 'INVALID') as energy_wh,
          sum(${s.totalCents}) filter (where ${REVENUE}) as revenue,
          sum(${s.idleCents}) filter (where ${REVENUE}) as idle_revenue
        from ${s} where ${s.businessId} = ${businessId} and ${part}`,
  );
  const rollupAgg = split.rollup
    ? [
        sql`select sum(r.sessions) as sessions,
            sum(r.sessions) filter (where r.status <> 'INVALID') as started,
            sum(r.energy_wh) filter (where r.status <> 'INVALID') as energy_wh,
            sum(r.total_cents) filter (where r.status = 'COMPLETED' and r.payment_status <> 'CHARGED_BACK') as revenue,
            sum(r.idle_cents) filter (where r.status = 'COMPLETED' and r.payment_status <> 'CHARGED_BACK') as idle_revenue
          from session_daily_totals r where r.business_id = ${businessId} and ${rollupDays(split)}`,
      ]
    : [];
  // The three aggregates are independent: run at once, a page waits for the slowest, not the sum.
  const [[sessionAgg], occupiedSecs, [availability]] = await Promise.all([
    queryRows(
      db,
      sql`select coalesce(sum(sessions), 0) as sessions, coalesce(sum(started), 0) as started, coalesce(sum(energy_wh), 0) as energy_wh,
            coalesce(sum(revenue), 0) as revenue, coalesce(sum(idle_revenue), 0) as idle_revenue
          from (${sql.join([...rollupAgg, ...rawAgg], sql` union all `)}) x`,
    ),
    // Occupied connector time inside the period: plug-in to unplug (or stop, or now).
    occupiedSeconds(db, businessId, split, t),
    // Availability: time each connector spent outside Faulted/Unavailable, from its status
    // history (the last status before the period counts from the period's start).
    queryRows(
      db,
      // The last status at or before the period's start: one backward probe of the
      // (connector_id, at) index per connector of the company, so the cost follows the number of
      // connectors, not the length of the history (a DISTINCT ON over every earlier event sorted
      // the whole history: 1 s with 2 M events, docs/benchmarks.md §2). Then every change inside
      // the period.
      sql`with ev as (
          select c.id as connector_id, ${F} as at, last.status
          from ${connectors} c
          join ${chargers} ch on ch.id = c.charger_id
          cross join lateral (
            select e.status from ${statusEvents} e
            where e.connector_id = c.id and e.business_id = ${businessId} and e.at <= ${F}
            order by e.at desc limit 1
          ) last
          where ch.business_id = ${businessId}
          union all
          select e.connector_id, e.at, e.status
          from ${statusEvents} e
          where e.business_id = ${businessId} and e.connector_id is not null and e.at > ${F} and e.at < ${T}
        ), seg as (
          select status, at, lead(at, 1, least(${T}, ${N})) over (partition by connector_id order by at) as until from ev
        )
        select
          coalesce(sum(extract(epoch from until - at)) filter (where status not in ('Faulted', 'Unavailable')), 0) as up,
          sum(extract(epoch from until - at)) as tracked
        from seg where until > at`,
    ),
  ]);
  return { from, to, at: t, sessionAgg, occupiedSecs, availability };
}

export function graphicRoutes({ db, now, companyCache }: ApiServices) {
  return new Hono<AppEnv>().get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, graphicQuery);
    // Shared by the company's users and tabs for a few seconds (api/company-cache.ts).
    // Without money the stations are ranked by energy and no point carries an amount.
    const money = seesMoney(c);
    const key = `graphic|${query.series}|${money ? "money" : "energy"}|${periodKey(query)}`;
    return c.json(await companyCache.get(b.id, key, () => graphic(db, b.id, query, now(), money)));
  });
}

/** One chart's points for the period, as of `t`. */
async function graphic(db: Db, businessId: string, query: { series: GraphicDto["series"]; from?: Date; to?: Date }, t: Date, money: boolean): Promise<GraphicDto> {
  const { from, to } = period(query, t);
  const F = ts(from);
  const T = ts(to);
  // Whole local days from the rollup, the rest of the period raw (api/rollup.ts).
  const split = await splitPeriod(db, from, to);
  const own = sql`${s.businessId} = ${businessId} and ${s.status} <> 'INVALID'`;
  const raw = (select: SQL, groupBy: SQL) => rawParts(split).map((part) => sql`select ${select} from ${s} where ${own} and ${part} group by ${groupBy}`);
  const rolled = (table: string, select: SQL, groupBy: SQL) =>
    split.rollup
      ? [
          sql`select ${select} from ${sql.raw(table)} r where r.business_id = ${businessId} and r.status <> 'INVALID' and ${rollupDays(
            split,
          )} group by ${groupBy}`,
        ]
      : [];
  const union = (parts: SQL[]) => sql.join(parts, sql` union all `);

  let points: GraphicDto["points"];
  if (query.series === "energyRevenueByDay") {
    const rows = await queryRows(
      db,
      sql`with days as (
            select d::date as day from generate_series(
              (${F} at time zone ${TZ})::date,
              ((${T} - interval '1 microsecond') at time zone ${TZ})::date,
              interval '1 day') as d
          ), parts as (${union([
            ...rolled(
              "session_daily_totals",
              sql`r.day, sum(r.sessions) as sessions, sum(r.energy_wh) as energy_wh,
                sum(r.total_cents) filter (where r.status = 'COMPLETED' and r.payment_status <> 'CHARGED_BACK') as revenue,
                sum(r.idle_cents) filter (where r.status = 'COMPLETED' and r.payment_status <> 'CHARGED_BACK') as idle_revenue`,
              sql`r.day`,
            ),
            ...raw(
              sql`(${s.startedAt} at time zone ${TZ})::date as day, count(*) as sessions, sum(${s.energyWh}) as energy_wh,
                sum(${s.totalCents}) filter (where ${REVENUE}) as revenue,
                sum(${s.idleCents}) filter (where ${REVENUE}) as idle_revenue`,
              sql`1`,
            ),
          ])}), agg as (
            select day, sum(sessions) as sessions, sum(energy_wh) as energy_wh, sum(revenue) as revenue, sum(idle_revenue) as idle_revenue
            from parts group by day
          )
          select to_char(days.day, 'YYYY-MM-DD') as date, agg.sessions, agg.energy_wh, agg.revenue, agg.idle_revenue
          from days left join agg on agg.day = days.day
          order by days.day`,
    );
    points = rows.map((r) => ({
      date: String(r.date),
      energyKwh: Math.round(num(r.energy_wh)) / 1000,
      ...(money ? { revenueCents: num(r.revenue), idleRevenueCents: num(r.idle_revenue) } : {}),
      sessions: num(r.sessions),
    }));
  } else if (query.series === "sessionsByHour") {
    const rows = await queryRows(
      db,
      sql`with hours as (select generate_series(0, 23) as hour), parts as (${union([
        ...rolled("session_hourly_totals", sql`r.hour::int as hour, sum(r.sessions) as sessions, sum(r.energy_wh) as energy_wh`, sql`r.hour`),
        ...raw(sql`extract(hour from ${s.startedAt} at time zone ${TZ})::int as hour, count(*) as sessions, sum(${s.energyWh}) as energy_wh`, sql`1`),
      ])}), agg as (
            select hour, sum(sessions) as sessions, sum(energy_wh) as energy_wh from parts group by hour
          )
          select hours.hour, agg.sessions, agg.energy_wh from hours left join agg on agg.hour = hours.hour order by hours.hour`,
    );
    points = rows.map((r) => ({ hour: num(r.hour), sessions: num(r.sessions), energyKwh: Math.round(num(r.energy_wh)) / 1000 }));
  } else {
    const rows = await queryRows(
      db,
      sql`select ${stations.id} as station_id, ${stations.name} as station_name,
            coalesce(sum(u.sessions), 0) as sessions, coalesce(sum(u.energy_wh), 0) as energy_wh, coalesce(sum(u.revenue), 0) as revenue
          from (${union([
            ...rolled(
              "session_station_daily_totals",
              sql`r.station_id, sum(r.sessions) as sessions, sum(r.energy_wh) as energy_wh, sum(r.total_cents) filter (where r.status = 'COMPLETED') as revenue`,
              sql`r.station_id`,
            ),
            ...raw(
              sql`${s.stationId} as station_id, count(*) as sessions, sum(${s.energyWh}) as energy_wh,
                sum(${s.totalCents}) filter (where ${REVENUE}) as revenue`,
              sql`1`,
            ),
            // The station rollup is not keyed by payment status: its charged-back sessions come off here.
            ...(split.rollup
              ? [
                  sql`select ${s.stationId} as station_id, 0 as sessions, 0 as energy_wh, -sum(${s.totalCents}) as revenue from ${s}
                    where ${own} and ${rolledPart(split)} and ${s.status} = 'COMPLETED' and ${s.paymentStatus} = 'CHARGED_BACK' group by 1`,
                ]
              : []),
          ])}) u
          join ${stations} on ${stations.id} = u.station_id and ${stations.businessId} = ${businessId}
          group by ${stations.id}, ${stations.name}
          order by ${money ? sql`revenue desc, sessions desc` : sql`energy_wh desc, sessions desc`}, ${stations.name}
          limit 10`,
    );
    points = rows.map((r) => ({
      stationId: String(r.station_id),
      stationName: String(r.station_name),
      sessions: num(r.sessions),
      energyKwh: Math.round(num(r.energy_wh)) / 1000,
      ...(money ? { revenueCents: num(r.revenue) } : {}),
    }));
  }
  return { series: query.series, from: from.toISOString(), to: to.toISOString(), timeZone: TZ, points };
}
