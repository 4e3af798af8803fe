// The session rollup (db/rollup.ts, migration 0002): the triggers keep it equal to a
// recomputation from charging_sessions through inserts, closes, payment updates, station and
// session deletes; and the KPIs, charts and activity totals read through it (api/rollup.ts)
// equal the plain aggregates over charging_sessions they replaced, for periods that start and
// end mid-day, on midnights, span a year, or hold no whole day.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#db/client";
import { rebuildSessionRollups, rollupDrift } from "#db/rollup";
import { chargingSessions, stations, type NewChargingSession } from "#db/schema";
import { chargerInput, createTenant, expectStatus, openHarness, stationInput, testBackends, type Harness, type Tenant } from "./helpers";

const TZ = "America/Argentina/Buenos_Aires";
const NOW = new Date("2025-03-12T12:00:00-03:00");
const at = (local: string) => new Date(`${local}-03:00`);

type Row = Record<string, unknown>;
const rows = async (db: Db, q: ReturnType<typeof sql>) => ((await db.execute(q)) as { rows: Row[] }).rows;
const n = (v: unknown) => (v == null ? 0 : Number(v));
const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

/** Revenue: completed sessions, less those whose payment was charged back (Contracargo). */
const EARNED = sql.raw("status = 'COMPLETED' and payment_status <> 'CHARGED_BACK'");

/** The KPIs and charts as they were computed before the rollup: plain aggregates over charging_sessions. */
async function reference(db: Db, businessId: string, from: Date, to: Date, now: Date) {
  const F = sql`${from.toISOString()}::timestamptz`;
  const T = sql`${to.toISOString()}::timestamptz`;
  const N = sql`${now.toISOString()}::timestamptz`;
  const [agg] = await rows(
    db,
    sql`select count(*) as sessions, count(*) filter (where status <> 'INVALID') as started,
        coalesce(sum(energy_wh) filter (where status <> 'INVALID'), 0) as energy_wh,
        coalesce(sum(total_cents) filter (where ${EARNED}), 0) as revenue,
        coalesce(sum(idle_cents) filter (where ${EARNED}), 0) as idle_revenue
      from charging_sessions where business_id = ${businessId} and started_at >= ${F} and started_at < ${T}`,
  );
  const [occ] = await rows(
    db,
    sql`select coalesce(sum(extract(epoch from (least(coalesce(unplugged_at, stopped_at, ${N}), ${T}) - greatest(started_at, ${F})))), 0) as seconds
      from charging_sessions where business_id = ${businessId} and status <> 'INVALID' and started_at < ${T} and coalesce(unplugged_at, stopped_at, ${N}) > ${F}`,
  );
  const inPeriod = sql`business_id = ${businessId} and started_at >= ${F} and started_at < ${T} and status <> 'INVALID'`;
  const byDay = await rows(
    db,
    sql`select to_char((started_at at time zone ${TZ})::date, 'YYYY-MM-DD') as date, count(*) as sessions, sum(energy_wh) as energy_wh,
        sum(total_cents) filter (where ${EARNED}) as revenue, sum(idle_cents) filter (where ${EARNED}) as idle_revenue
      from charging_sessions where ${inPeriod} group by 1 order by 1`,
  );
  const byHour = await rows(
    db,
    sql`select extract(hour from started_at at time zone ${TZ})::int as hour, count(*) as sessions, sum(energy_wh) as energy_wh
      from charging_sessions where ${inPeriod} group by 1 order by 1`,
  );
  const top = await rows(
    db,
    sql`select st.id as station_id, count(s.id) as sessions, coalesce(sum(s.energy_wh), 0) as energy_wh,
        coalesce(sum(s.total_cents) filter (where s.status = 'COMPLETED' and s.payment_status <> 'CHARGED_BACK'), 0) as revenue
      from charging_sessions s join stations st on st.id = s.station_id and st.business_id = ${businessId}
      where s.business_id = ${businessId} and s.started_at >= ${F} and s.started_at < ${T} and s.status <> 'INVALID'
      group by st.id, st.name order by revenue desc, sessions desc, st.name limit 10`,
  );
  return { agg, occupied: n(occ?.seconds), byDay, byHour, top };
}

describe.each(testBackends())("session rollup ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let stationA: string;
  let stationB: string;
  let chargerA: { id: string; connectors: { id: string }[] };
  let chargerB: { id: string; connectors: { id: string }[] };
  let connectorsTotal = 0;

  const base = (over: Partial<NewChargingSession>): NewChargingSession => ({
    businessId: t.businessId,
    stationId: stationA,
    chargerId: chargerA.id,
    connectorId: chargerA.connectors[0].id,
    connectorNumber: 1,
    idTag: "TAG",
    startedAt: NOW,
    meterStartWh: 0,
    status: "COMPLETED",
    paymentStatus: "PAID",
    ...over,
  });

  beforeAll(async () => {
    h = await openHarness(backend, { now: () => NOW });
    t = await createTenant(h, "rollup-owner");
    stationA = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Estación A" }) }), 201)).id;
    stationB = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Estación B" }) }), 201)).id;
    chargerA = await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ name: "CP A", stationId: stationA }) }), 201);
    chargerB = await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ name: "CP B", stationId: stationB }) }), 201);
    connectorsTotal = chargerA.connectors.length + chargerB.connectors.length;
    const onB = { stationId: stationB, chargerId: chargerB.id, connectorId: chargerB.connectors[0].id };
    const closed = (start: string, minutes: number, over: Partial<NewChargingSession> = {}) =>
      base({ startedAt: at(start), stoppedAt: new Date(at(start).getTime() + minutes * 60_000), energyWh: 1_000 + minutes * 37, totalCents: 10_000 + minutes * 113, idleCents: minutes % 7 === 0 ? 500 : 0, ...over });
    await h.db.insert(chargingSessions).values([
      // A year back, and a long one across several midnights.
      closed("2024-03-20T10:00:00", 45),
      closed("2024-12-31T22:30:00", 3 * 24 * 60 + 17, { paymentStatus: "PENDING" }),
      // Around local midnights (Buenos Aires), incl. one starting exactly at 00:00.
      closed("2025-03-09T23:50:00", 40),
      closed("2025-03-10T00:00:00", 30, { paymentStatus: "FAILED" }),
      closed("2025-03-10T12:00:00", 60, { unpluggedAt: at("2025-03-10T13:30:00"), ...onB }),
      closed("2025-03-10T23:59:59", 120, onB),
      closed("2025-03-11T08:00:00", 45, { paymentStatus: "PENDING" }),
      closed("2025-03-11T09:00:00", 1, { status: "INVALID", paymentStatus: "NOT_REQUIRED" }),
      closed("2025-03-11T14:20:00", 35, { stationId: null }),
      // Paid at the QR, then charged back by the payer's bank: not revenue (on a whole day and on the last, partial one).
      closed("2025-03-11T16:00:00", 50, { paymentStatus: "CHARGED_BACK", ...onB }),
      closed("2025-03-12T07:30:00", 20, { paymentStatus: "CHARGED_BACK" }),
      closed("2025-03-12T06:10:00", 70, onB),
      // Open: an active one and an idle one (stopped, not unplugged); one closed without end time.
      base({ startedAt: at("2025-03-12T11:30:00"), energyWh: 3_000, status: "ACTIVE", paymentStatus: "PENDING", totalCents: 99_999 }),
      base({ startedAt: at("2025-03-12T09:00:00"), stoppedAt: at("2025-03-12T10:00:00"), energyWh: 8_000, status: "IDLE", paymentStatus: "PENDING", ...onB }),
      base({ startedAt: at("2025-03-08T15:00:00"), energyWh: 2_000, totalCents: 40_000, status: "COMPLETED" }),
    ]);
  });
  afterAll(() => h?.close());

  it("the triggers keep it equal to a recomputation from the sessions", async () => {
    expect(await rollupDrift(h.db, t.businessId)).toEqual([]);
    const [daily] = await rows(h.db, sql`select count(*) as n, sum(sessions) as s from session_daily_totals where business_id = ${t.businessId}`);
    expect(n(daily.s)).toBe(12); // every closed session with an end time
  });

  it("follows closes, payments, edits, station and session deletes, and a rebuild", async () => {
    // The active session closes (what ocpp/store.ts finalizeSession writes).
    const [open] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.status, "ACTIVE"));
    await h.db
      .update(chargingSessions)
      .set({ status: "COMPLETED", stoppedAt: at("2025-03-12T11:55:00"), unpluggedAt: at("2025-03-12T11:58:00"), energyWh: 4_200, totalCents: 52_000, paymentStatus: "PENDING" })
      .where(eq(chargingSessions.id, open.id));
    expect(await rollupDrift(h.db, t.businessId)).toEqual([]);
    // Paid later; a meter correction on a closed one.
    await h.db.update(chargingSessions).set({ paymentStatus: "PAID" }).where(eq(chargingSessions.id, open.id));
    await h.db.update(chargingSessions).set({ energyWh: sql`${chargingSessions.energyWh} + 11` }).where(eq(chargingSessions.stationId, stationB));
    expect(await rollupDrift(h.db, t.businessId)).toEqual([]);
    // A throwaway station with sessions, then deleted: its sessions keep counting without it.
    const tmp = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Temporal" }) }), 201)).id;
    await h.db.insert(chargingSessions).values([
      base({ stationId: tmp, startedAt: at("2025-03-05T10:00:00"), stoppedAt: at("2025-03-05T11:00:00"), energyWh: 777, totalCents: 7_700 }),
      base({ stationId: tmp, startedAt: at("2025-03-05T12:00:00"), stoppedAt: at("2025-03-05T12:30:00"), energyWh: 333, totalCents: 3_300 }),
    ]);
    await h.db.delete(stations).where(eq(stations.id, tmp));
    expect(await rollupDrift(h.db, t.businessId)).toEqual([]);
    // A session deleted; the whole table rebuilt gives the same rows.
    await h.db.delete(chargingSessions).where(eq(chargingSessions.energyWh, 333));
    expect(await rollupDrift(h.db, t.businessId)).toEqual([]);
    const before = await rows(h.db, sql`select * from session_daily_totals where business_id = ${t.businessId} and sessions <> 0 order by day, status, payment_status`);
    await rebuildSessionRollups(h.db, t.businessId);
    const after = await rows(h.db, sql`select * from session_daily_totals where business_id = ${t.businessId} order by day, status, payment_status`);
    expect(after.map((r) => ({ ...r, max_span_seconds: null }))).toEqual(before.map((r) => ({ ...r, max_span_seconds: null })));
    expect(await rollupDrift(h.db)).toEqual([]);
  });

  it("applies a transaction's updates when it commits, and none of a rolled-back one (ADR 0024)", async () => {
    const daily = async () => n((await rows(h.db, sql`select coalesce(sum(energy_wh), 0) as wh from session_daily_totals where business_id = ${t.businessId}`))[0].wh);
    const before = await daily();
    // A session of its own (the other tests' IDLE one stays as it is), stopped and not unplugged.
    const [idle] = await h.db
      .insert(chargingSessions)
      .values(base({ startedAt: at("2025-03-12T08:00:00"), stoppedAt: at("2025-03-12T09:00:00"), energyWh: 8_000, status: "IDLE", paymentStatus: "PENDING" }))
      .returning();
    // Closed, corrected twice and closed again in one transaction: only the net difference lands,
    // at commit (inside it the rollup still shows the state before).
    await h.db.transaction(async (tx) => {
      await tx.update(chargingSessions).set({ status: "COMPLETED", unpluggedAt: at("2025-03-12T10:30:00"), paymentStatus: "PENDING" }).where(eq(chargingSessions.id, idle.id));
      await tx.update(chargingSessions).set({ energyWh: 8_500 }).where(eq(chargingSessions.id, idle.id));
      await tx.update(chargingSessions).set({ paymentStatus: "PAID", energyWh: 8_400 }).where(eq(chargingSessions.id, idle.id));
      expect(n((await rows(tx, sql`select coalesce(sum(energy_wh), 0) as wh from session_daily_totals where business_id = ${t.businessId}`))[0].wh)).toBe(before);
    });
    expect(await daily()).toBe(before + 8_400);
    expect(await rollupDrift(h.db, t.businessId)).toEqual([]);
    // Rolled back: nothing of it stays.
    await expect(
      h.db.transaction(async (tx) => {
        await tx.update(chargingSessions).set({ energyWh: 99_000 }).where(eq(chargingSessions.id, idle.id));
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await daily()).toBe(before + 8_400);
    // Updated, then deleted in the same transaction: the updates and the delete cancel out.
    await h.db.transaction(async (tx) => {
      await tx.update(chargingSessions).set({ energyWh: 1_234 }).where(eq(chargingSessions.id, idle.id));
      await tx.delete(chargingSessions).where(eq(chargingSessions.id, idle.id));
    });
    expect(await daily()).toBe(before);
    expect(await rollupDrift(h.db, t.businessId)).toEqual([]);
  });

  const periods: [string, string, string][] = [
    ["midnight to midnight", "2025-03-09T00:00:00", "2025-03-12T00:00:00"],
    ["mid-day to now", "2025-03-09T13:45:00", "2025-03-12T12:00:00"],
    ["no whole day", "2025-03-10T06:00:00", "2025-03-10T23:00:00"],
    ["one hour over midnight", "2025-03-10T23:30:00", "2025-03-11T00:30:00"],
    ["a year", "2024-03-12T12:00:00", "2025-03-12T12:00:00"],
    ["ending in the past, long session running past it", "2024-12-01T00:00:00", "2025-01-02T10:00:00"],
    ["starting inside a long session", "2025-01-02T05:00:00", "2025-03-01T00:00:00"],
  ];

  it.each(periods)("KPIs and charts equal the plain aggregates: %s", async (_name, fromLocal, toLocal) => {
    const from = at(fromLocal);
    const to = at(toLocal);
    const q = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
    const ref = await reference(h.db, t.businessId, from, to, NOW);
    const kpis = await expectStatus(await h.call("GET", `/Business/Dashboard?${q}`, { token: t.token }), 200);
    expect(kpis.sessions).toBe(n(ref.agg.sessions));
    expect(kpis.startSuccessRate).toBe(pct(n(ref.agg.started), n(ref.agg.sessions)));
    expect(kpis.energyKwh).toBe(Math.round(n(ref.agg.energy_wh)) / 1000);
    expect(kpis.revenueCents).toBe(n(ref.agg.revenue));
    expect(kpis.idleRevenueCents).toBe(n(ref.agg.idle_revenue));
    const effective = Math.max(0, (Math.min(to.getTime(), NOW.getTime()) - from.getTime()) / 1000);
    const util = pct(ref.occupied, effective * connectorsTotal);
    expect(kpis.utilizationPct).toBe(util == null ? null : Math.min(100, util));
    expect(ref.occupied).toBeGreaterThan(0);

    const byDay = await expectStatus(await h.call("GET", `/Business/Graphic?series=energyRevenueByDay&${q}`, { token: t.token }), 200);
    const refDays = new Map(ref.byDay.map((r) => [String(r.date), r]));
    for (const p of byDay.points) {
      const r = refDays.get(p.date);
      expect({ date: p.date, sessions: p.sessions, energyKwh: p.energyKwh, revenueCents: p.revenueCents, idle: p.idleRevenueCents }).toEqual({
        date: p.date,
        sessions: n(r?.sessions),
        energyKwh: Math.round(n(r?.energy_wh)) / 1000,
        revenueCents: n(r?.revenue),
        idle: n(r?.idle_revenue),
      });
    }
    expect(byDay.points.reduce((a: number, p: { sessions: number }) => a + p.sessions, 0)).toBe(ref.byDay.reduce((a, r) => a + n(r.sessions), 0));

    const byHour = await expectStatus(await h.call("GET", `/Business/Graphic?series=sessionsByHour&${q}`, { token: t.token }), 200);
    const refHours = new Map(ref.byHour.map((r) => [n(r.hour), r]));
    expect(byHour.points).toEqual(
      Array.from({ length: 24 }, (_, hour) => ({ hour, sessions: n(refHours.get(hour)?.sessions), energyKwh: Math.round(n(refHours.get(hour)?.energy_wh)) / 1000 })),
    );

    const top = await expectStatus(await h.call("GET", `/Business/Graphic?series=topStations&${q}`, { token: t.token }), 200);
    expect(top.points.map((p: { stationId: string; sessions: number; energyKwh: number; revenueCents: number }) => [p.stationId, p.sessions, p.energyKwh, p.revenueCents])).toEqual(
      ref.top.map((r) => [r.station_id, n(r.sessions), Math.round(n(r.energy_wh)) / 1000, n(r.revenue)]),
    );
  });

  const filters = [
    "",
    "from=2025-03-10&to=2025-03-11",
    "from=2025-03-10T12:30:00&to=2025-03-12T07:00:00",
    `stationId=STATION_B`,
    `stationId=STATION_B&from=2025-03-10T12:30:00`,
    `stationId=STATION_B&paymentStatus=PAID`,
    "status=COMPLETED&paymentStatus=PENDING",
    "status=INVALID",
    "status=IDLE",
    "paymentStatus=FAILED&to=2025-03-11",
    `chargerId=CHARGER_B&from=2025-03-10`,
  ];

  it.each(filters)("activity totals equal the plain aggregate: %s", async (raw) => {
    const query = raw.replace("STATION_B", stationB).replace("CHARGER_B", chargerB.id);
    const body = await expectStatus(await h.call("GET", `/Business/Activity?pageSize=1&${query}`, { token: t.token }), 200);
    // The reference: every matching row fetched (pages of 100) and summed here.
    let total = 0;
    let energyWh = 0;
    let totalCents = 0;
    let cursor: string | null = null;
    do {
      const page: { items: { status: string; energyWh: number; totalCents: number }[]; nextCursor: string | null } = await expectStatus(
        await h.call("GET", `/Business/Activity?pageSize=100&${query}${cursor ? `&cursor=${cursor}` : ""}`, { token: t.token }),
        200,
      );
      for (const x of page.items) {
        total += 1;
        if (x.status !== "INVALID") energyWh += x.energyWh;
        if (x.status === "COMPLETED") totalCents += x.totalCents;
      }
      cursor = page.nextCursor;
    } while (cursor);
    expect(body.total).toBe(total);
    expect(body.totals).toEqual({ energyWh, totalCents });
  });
});
