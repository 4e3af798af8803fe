// The benchmark operator (`npm run bench:seed`, docs/benchmarks.md): one company with hundreds of
// stations, thousands of chargers and a year of charging sessions, to measure the dashboard at a
// large operator's scale. Generated inside the database with set-based SQL (generate_series),
// so a million sessions take minutes, not hours, on PGlite and PostgreSQL alike.
//
// Deterministic: "random" choices come from md5 of the row number (same rows on every run and
// every backend) and times are relative to the start of `now`'s day in Argentina (UTC−3).
// Prices follow domain/pricing: the rates have no idle window, so the SQL below is the same
// arithmetic as priceSession (components rounded half away from zero, VAT on their sum), and
// verifyBenchPricing re-prices a sample with priceSession itself.
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { cuitCheckDigit } from "#domain/cuit";
import { priceSession, usageFromSession, type RateSnapshot } from "#domain/pricing";
import type { Db } from "../client";
import { seedCatalogs } from "./catalogs";

export const BENCH_EMAIL = "bench@enchufa.local";
export const BENCH_BUSINESS_NAME = "Enchufá Bench S.A.";
/** Placeholder login; the server benchmark points it at an Auth Emulator account. */
export const BENCH_FIREBASE_UID = "bench-operator";
export const BENCH_CUIT = (() => {
  const first10 = "3079999999";
  return first10 + String(cuitCheckDigit(first10));
})();

export interface BenchSize {
  stations: number;
  /** Chargers per station. */
  chargersPerStation: number;
  /** Connectors per charger. */
  connectorsPerCharger: number;
  sessions: number;
  historyDays: number;
  /** Meter samples for sessions that started in the last N days. */
  meterDays: number;
  notifications: number;
}

export const BENCH_SIZE: BenchSize = {
  stations: 200,
  chargersPerStation: 10,
  connectorsPerCharger: 2,
  sessions: 1_000_000,
  historyDays: 365,
  meterDays: 30,
  notifications: 10_000,
};

export interface BenchSeedResult {
  created: boolean;
  businessId: string;
  counts: Record<string, number>;
}

const DAY = 86_400_000;
const AR_OFFSET = 3 * 3_600_000;

/** The four bench rates; no idle window, so SQL and domain/pricing price them identically. */
const RATES = [
  { key: 0, name: "AC Estándar", kwh: 35_000, minute: 0, fee: 0, vatIncluded: true, grace: 30, idle: 5_000, idleMax: 500_000 },
  { key: 1, name: "Carga rápida DC", kwh: 55_000, minute: 0, fee: 50_000, vatIncluded: true, grace: 10, idle: 15_000, idleMax: 1_500_000 },
  { key: 2, name: "Flotas (IVA aparte)", kwh: 28_000, minute: 1_000, fee: 0, vatIncluded: false, grace: 15, idle: 8_000, idleMax: null },
  { key: 3, name: "Nocturna", kwh: 22_000, minute: 0, fee: 10_000, vatIncluded: true, grace: 60, idle: 0, idleMax: null },
] as const;

const PROVINCES = ["AR-C", "AR-B", "AR-X", "AR-M", "AR-S", "AR-T", "AR-N", "AR-Q", "AR-U", "AR-E"];
const CITIES = ["Ciudad Autónoma de Buenos Aires", "La Plata", "Córdoba", "Mendoza", "Rosario", "San Miguel de Tucumán", "Posadas", "Neuquén", "Rawson", "Paraná"];

/** An integer in [0, n) from md5 of the expression (deterministic "randomness" in SQL). */
const h = (expr: string, salt: string, n: number) => `(('x' || substr(md5((${expr})::text || '${salt}'), 1, 7))::bit(28)::int % ${n})`;
/** The same from 7 hex digits at `offset` (1, 8, 15, 22) of an md5 computed once per row. */
const hx = (md5Column: string, offset: number, n: number) => `(('x' || substr(${md5Column}, ${offset}, 7))::bit(28)::int % ${n})`;

export async function benchBusinessId(db: Db): Promise<string | null> {
  const rows = await rowsOf(db, sql`select id from business_users where cuit = ${BENCH_CUIT}`);
  return rows[0] ? String(rows[0].id) : null;
}

async function rowsOf(db: Db, query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  const res = (await db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
  return res.rows;
}

/** Runs one statement and logs its label with the seconds it took. */
type BenchExec = (label: string, query: ReturnType<typeof sql>) => Promise<void>;

/** A BenchExec on the database or on a transaction. */
function timedExec(target: Pick<Db, "execute">, log: (line: string) => void): BenchExec {
  return async (label, query) => {
    const t = Date.now();
    await target.execute(query);
    log(`${label} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  };
}

/** What every step of the bench seed needs: where it writes, the operator, its size and its clock. */
interface BenchSeedContext {
  exec: BenchExec;
  businessId: string;
  size: BenchSize;
  now: Date;
  /** Start of `now`'s day in Argentina. */
  dayStart: Date;
  /** Start of the history: historyDays before dayStart. */
  start: Date;
  chargers: number;
  connectors: number;
}

export async function seedBenchOperator(
  db: Db,
  opts: { now?: Date; size?: BenchSize; reset?: boolean; log?: (line: string) => void } = {},
): Promise<BenchSeedResult> {
  const size = opts.size ?? BENCH_SIZE;
  const log = opts.log ?? (() => {});
  const now = opts.now ?? new Date();
  const dayStart = new Date(Math.floor((now.getTime() - AR_OFFSET) / DAY) * DAY + AR_OFFSET);
  const existing = await benchBusinessId(db);
  if (existing && !opts.reset) return { created: false, businessId: existing, counts: await benchCounts(db, existing) };
  if (existing) {
    log("borrando el operador de benchmark anterior…");
    await db.execute(sql`delete from business_users where id = ${existing}`);
  }
  await seedCatalogs(db);

  const businessId = md5Uuid("bench-business");
  const start = new Date(dayStart.getTime() - size.historyDays * DAY);
  const chargers = size.stations * size.chargersPerStation;
  const connectors = chargers * size.connectorsPerCharger;
  const t0 = Date.now();

  await db.transaction(async (tx) => {
    const ctx: BenchSeedContext = { exec: timedExec(tx, log), businessId, size, now, dayStart, start, chargers, connectors };
    await seedBenchCompanyAndRates(ctx);
    await seedBenchStations(ctx);
    await seedBenchChargersAndConnectors(ctx);
    await seedBenchSessions(ctx);
    await seedBenchMeterSamples(ctx);
    await seedBenchStatusHistory(ctx);
    await seedBenchNotifications(ctx);
  });
  // Fresh statistics so the planner sees the real row counts right away, and the visibility map
  // a live server's autovacuum would have set by now (index-only scans then skip the heap; a
  // PostgreSQL run with autovacuum off, as test machines often are, would never set it).
  await timedExec(db, log)("vacuum analyze", sql`vacuum analyze`);
  log(`listo en ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return { created: true, businessId, counts: await benchCounts(db, businessId) };
}

/** The operator's company (active since the start of the history) and its four rates. */
async function seedBenchCompanyAndRates({ exec, businessId, start }: BenchSeedContext): Promise<void> {
  await exec(
    "empresa",
    sql`insert into business_users (id, firebase_uid, email, business_name, cuit, business_address, phone_number, status, created_at, updated_at)
          values (${businessId}, ${BENCH_FIREBASE_UID}, ${BENCH_EMAIL}, ${BENCH_BUSINESS_NAME}, ${BENCH_CUIT},
                  'Av. del Libertador 5000, C1426, Ciudad Autónoma de Buenos Aires', '+54 11 5555-0000', 'ACTIVE',
                  ${start.toISOString()}::timestamptz, ${start.toISOString()}::timestamptz)`,
  );

  const rateValues = RATES.map(
    (r) =>
      sql`(md5(${`bench-rate-${r.key}`})::uuid, ${businessId}::uuid, ${r.name}, ${r.kwh}, ${r.minute}, ${r.fee}, ${r.vatIncluded}, 2100, ${r.grace}, ${r.idle}, ${r.idleMax}::int, 0)`,
  );
  await exec(
    "tarifas",
    sql`insert into rates (id, business_id, name, price_per_kwh_cents, price_per_minute_cents, session_fee_cents, vat_included, vat_rate_bp,
            idle_grace_minutes, idle_price_per_minute_cents, idle_max_cents, no_show_fee_cents)
          values ${sql.join(rateValues, sql`, `)}`,
  );
}

/** The stations, spread over ten provinces; one in five unpublished. */
async function seedBenchStations({ exec, businessId, size, start }: BenchSeedContext): Promise<void> {
  const provinces = `(array[${PROVINCES.map((p) => `'${p}'`).join(",")}])`;
  const cities = `(array[${CITIES.map((c) => `'${c}'`).join(",")}])`;
  await exec(
    `${size.stations} estaciones`,
    sql`insert into stations (id, business_id, name, address, city, province, postal_code, latitude, longitude, parking_type, published, created_at, updated_at)
          select md5('bench-station-' || i)::uuid, ${businessId}::uuid,
            'Estación ' || lpad(i::text, 3, '0'), 'Calle ' || (100 + i) || ' ' || (1000 + ${sql.raw(h("i", "addr", 8000))}),
            ${sql.raw(cities)}[1 + (i - 1) % 10], ${sql.raw(provinces)}[1 + (i - 1) % 10], null,
            -22 - ${sql.raw(h("i", "lat", 3000))} / 100.0, -58 - ${sql.raw(h("i", "lng", 1000))} / 100.0,
            'PARKING_LOT', i % 5 <> 0, ${start.toISOString()}::timestamptz, ${start.toISOString()}::timestamptz
          from generate_series(1, ${size.stations}) as i`,
  );
}

/** chargersPerStation chargers on each station, with connectorsPerCharger connectors each. */
async function seedBenchChargersAndConnectors({ exec, businessId, size, now, start, chargers, connectors }: BenchSeedContext): Promise<void> {
  await exec(
    `${chargers} cargadores`,
    sql`insert into chargers (id, business_id, station_id, name, brand_id, model, ocpp_identity, enabled, heartbeat_interval, online, last_heartbeat_at, created_at, updated_at)
          select md5('bench-charger-' || c)::uuid, ${businessId}::uuid,
            md5('bench-station-' || (1 + (c - 1) / ${size.chargersPerStation}))::uuid,
            'Cargador ' || lpad(c::text, 4, '0'),
            (select id from charger_brands order by id limit 1 offset ${sql.raw(h("c", "brand", 5))}),
            'Modelo ' || (1 + c % 7), 'BENCH-' || lpad(c::text, 5, '0'), true, 300,
            ${sql.raw(h("c", "online", 20))} <> 0, ${now.toISOString()}::timestamptz - interval '2 minutes',
            ${start.toISOString()}::timestamptz, ${start.toISOString()}::timestamptz
          from generate_series(1, ${chargers}) as c`,
  );

  // Connector k of charger c: odd chargers are DC (CCS2, 50–150 kW), even ones AC (Tipo 2, 22 kW).
  await exec(
    `${connectors} conectores`,
    sql`insert into connectors (id, charger_id, connector_id, connector_type_id, format, power_type, max_power_kw, rate_id, status, status_at, created_at, updated_at)
          select md5('bench-connector-' || n)::uuid, md5('bench-charger-' || c)::uuid, k,
            (select id from connector_types where code = case when c % 2 = 1 then 'IEC_62196_T2_COMBO' else 'IEC_62196_T2' end),
            (case when c % 2 = 1 then 'CABLE' else 'SOCKET' end)::connector_format,
            (case when c % 2 = 1 then 'DC' else 'AC_3_PHASE' end)::power_type,
            case when c % 2 = 1 then 50 + 50 * (c % 3) else 22 end,
            md5('bench-rate-' || case when c % 2 = 1 then 1 when c % 10 = 0 then 2 when c % 10 = 4 then 3 else 0 end)::uuid,
            (array['Available','Available','Available','Charging','Preparing','SuspendedEV','Finishing','Faulted','Unavailable','Available'])[1 + ${sql.raw(h("n", "st", 10))}]::connector_status,
            ${now.toISOString()}::timestamptz - interval '1 hour', ${start.toISOString()}::timestamptz, ${start.toISOString()}::timestamptz
          from generate_series(1, ${chargers}) as c, generate_series(1, ${size.connectorsPerCharger}) as k,
            lateral (select (c - 1) * ${size.connectorsPerCharger} + k as n) x`,
  );
}

/**
 * The charging sessions, priced in SQL with the same arithmetic as priceSession; the ones still
 * under way at `now` are left open (ACTIVE, or IDLE once charging has ended).
 */
async function seedBenchSessions({ exec, businessId, size, now, start, connectors }: BenchSeedContext): Promise<void> {
  // Sessions spread evenly over the history (one every ~31 s for a million in a year), on a
  // pseudo-random connector; whole-minute durations as usageFromSession counts them.
  const spacingMs = (size.historyDays * DAY) / size.sessions;
  const sessionsSql = sql.raw(`
      with rnd as (
        select i, md5(i::text || 'a') as m1, md5(i::text || 'b') as m2 from generate_series(1, ${size.sessions}) as i
      ), base as (
        select i,
          1 + ${hx("m1", 1, connectors)} as n,
          timestamptz '${start.toISOString()}' + ((i - 1) * ${spacingMs.toFixed(3)} + ${hx("m1", 8, 20_000)}) * interval '1 millisecond' as started_at,
          10 + ${hx("m1", 15, 110)} as charging_min,
          case when ${hx("m1", 22, 4)} = 0 then ${hx("m2", 1, 90)} else ${hx("m2", 1, 8)} end as idle_min,
          ${hx("m2", 8, 40)} as util,
          ${hx("m2", 15, 100)} as pay,
          ${hx("m2", 22, 100)} = 0 as invalid,
          ${hx("m2", 22, 5000)} as tag
        from rnd
      ), s as (
        select b.*, c.charger_id, c.connector_id as connector_number, c.id as connector_id, c.rate_id, c.max_power_kw,
          ch.station_id,
          case when b.invalid then 0 else round(c.max_power_kw * 1000 * b.charging_min / 60.0 * (55 + b.util) / 100.0)::int end as energy_wh,
          b.started_at + (b.charging_min + b.idle_min) * interval '1 minute' as ends_at
        from base b
        join connectors c on c.id = md5('bench-connector-' || b.n)::uuid
        join chargers ch on ch.id = c.charger_id
      ), priced as (
        select s.*, r.*,
          round(r.price_per_kwh_cents::numeric * s.energy_wh / 1000) as e_c,
          round(r.price_per_minute_cents::numeric * s.charging_min) as t_c,
          case when r.idle_price_per_minute_cents > 0 then
            least(round(r.idle_price_per_minute_cents::numeric * greatest(0, s.idle_min - r.idle_grace_minutes)), coalesce(r.idle_max_cents, 2147483647))
          else 0 end as i_c,
          s.ends_at > timestamptz '${now.toISOString()}' as open
        from s join rates r on r.id = s.rate_id
      ), totals as (
        select p.*, p.e_c + p.t_c + p.session_fee_cents + p.i_c as sub,
          case when p.vat_included then round((p.e_c + p.t_c + p.session_fee_cents + p.i_c) * p.vat_rate_bp / (10000.0 + p.vat_rate_bp))
               else round((p.e_c + p.t_c + p.session_fee_cents + p.i_c) * p.vat_rate_bp / 10000.0) end as vat
        from priced p
      )
      insert into charging_sessions (id, business_id, station_id, charger_id, connector_id, connector_number, id_tag,
        started_at, stopped_at, charging_ended_at, unplugged_at, meter_start_wh, meter_stop_wh, energy_wh, idle_minutes, stop_reason, status,
        rate_id, rate_snapshot, energy_cents, time_cents, session_fee_cents, idle_cents, subtotal_cents, vat_cents, total_cents, payment_status,
        created_at, updated_at)
      select md5('bench-session-' || t.i)::uuid, '${businessId}'::uuid, t.station_id, t.charger_id, t.connector_id, t.connector_number,
        'TAG' || lpad(t.tag::text, 5, '0'),
        t.started_at,
        case when t.open then null else t.ends_at end,
        case when t.open and t.started_at + t.charging_min * interval '1 minute' > timestamptz '${now.toISOString()}' then null
             else t.started_at + t.charging_min * interval '1 minute' end,
        case when t.open then null else t.ends_at end,
        t.i * 10, case when t.open then null else t.i * 10 + t.energy_wh end,
        t.energy_wh, case when t.open then 0 else t.idle_min end,
        case when t.open then null when t.invalid then 'EVDisconnected' else 'Local' end,
        (case when t.open and t.started_at + t.charging_min * interval '1 minute' <= timestamptz '${now.toISOString()}' then 'IDLE'
              when t.open then 'ACTIVE' when t.invalid then 'INVALID' else 'COMPLETED' end)::session_status,
        t.rate_id,
        jsonb_build_object('rateId', t.rate_id, 'name', t.name, 'currency', t.currency, 'pricePerKwhCents', t.price_per_kwh_cents,
          'pricePerMinuteCents', t.price_per_minute_cents, 'sessionFeeCents', t.session_fee_cents, 'vatIncluded', t.vat_included,
          'vatRateBp', t.vat_rate_bp, 'idleGraceMinutes', t.idle_grace_minutes, 'idlePricePerMinuteCents', t.idle_price_per_minute_cents,
          'idleMaxCents', t.idle_max_cents, 'idleActiveFrom', t.idle_active_from, 'idleActiveTo', t.idle_active_to, 'noShowFeeCents', t.no_show_fee_cents),
        ${["e_c", "t_c", "session_fee_cents", "i_c", "sub", "vat"].map((c) => `case when t.open or t.invalid then 0 else t.${c} end`).join(", ")},
        case when t.open or t.invalid then 0 when t.vat_included then t.sub else t.sub + t.vat end,
        (case when t.invalid then 'NOT_REQUIRED' when t.open then 'PENDING' when t.pay < 90 then 'PAID' when t.pay < 97 then 'PENDING' else 'FAILED' end)::session_payment_status,
        t.started_at, coalesce(t.ends_at, t.started_at)
      from totals t
      order by t.i`);
  await exec(`${size.sessions.toLocaleString("es-AR")} cargas`, sessionsSql);
}

/** One meter sample every 5 minutes of charging for the sessions of the last meterDays days. */
async function seedBenchMeterSamples({ exec, businessId, size, now, dayStart }: BenchSeedContext): Promise<void> {
  await exec(
    `muestras de medidor (últimos ${size.meterDays} días)`,
    sql`insert into meter_samples (session_id, at, energy_wh, power_w, soc, created_at, updated_at)
          select s.id, s.started_at + m * interval '5 minutes',
            (s.energy_wh * least(1.0, m * 5.0 / greatest(1, extract(epoch from coalesce(s.charging_ended_at, ${now.toISOString()}::timestamptz) - s.started_at) / 60)))::int,
            (c.max_power_kw * 1000 * 0.8)::int,
            case when c.power_type = 'DC' then least(100, 20 + m * 4) end,
            s.started_at + m * interval '5 minutes', s.started_at + m * interval '5 minutes'
          from charging_sessions s
          join connectors c on c.id = s.connector_id,
          lateral generate_series(0, (extract(epoch from coalesce(s.charging_ended_at, ${now.toISOString()}::timestamptz) - s.started_at) / 300)::int) as m
          where s.business_id = ${businessId} and s.started_at >= ${new Date(dayStart.getTime() - size.meterDays * DAY).toISOString()}::timestamptz
            and s.status <> 'INVALID'`,
  );
}

/**
 * Status history: every connector Available at the start, then a fault and its recovery
 * every ~40 days on a fifth of them (uptime KPI).
 */
async function seedBenchStatusHistory({ exec, businessId, size, start }: BenchSeedContext): Promise<void> {
  await exec(
    "historial de estados",
    sql`insert into status_events (business_id, charger_id, connector_id, status, at, created_at, updated_at)
          select ${businessId}::uuid, c.charger_id, c.id, e.status::connector_status, e.at, e.at, e.at
          from connectors c join chargers ch on ch.id = c.charger_id and ch.business_id = ${businessId},
          lateral (
            select 'Available' as status, ${start.toISOString()}::timestamptz as at
            union all
            select st, ${start.toISOString()}::timestamptz + (d * 40 + ${sql.raw(h("c.id", "fd", 30))}) * interval '1 day' + off * interval '1 hour'
            from generate_series(0, ${Math.floor(size.historyDays / 40) - 1}) as d,
              (values ('Faulted', 0), ('Available', 3)) as v(st, off)
            where ${sql.raw(h("c.id", "fault", 5))} = 0
          ) e`,
  );
}

/** The notifications, evenly spread over the history about pseudo-random chargers; all but the first 50 read a day later. */
async function seedBenchNotifications({ exec, businessId, size, start, chargers }: BenchSeedContext): Promise<void> {
  const types = ["CHARGER_FAULTED", "CHARGER_RECOVERED", "SESSION_COMPLETED", "IDLE_FEE_APPLIED", "PAYMENT_RECEIVED", "PAYMENT_FAILED", "CHARGER_OFFLINE", "CHARGER_ONLINE"];
  await exec(
    `${size.notifications} notificaciones`,
    sql`insert into notifications (id, business_id, type, title, body, link, read_at, created_at, updated_at)
          select md5('bench-notification-' || i)::uuid, ${businessId}::uuid, t.type,
            case t.type when 'CHARGER_FAULTED' then 'Cargador con falla' when 'CHARGER_RECOVERED' then 'Cargador recuperado'
              when 'SESSION_COMPLETED' then 'Carga completada' when 'IDLE_FEE_APPLIED' then 'Penalidad por inactividad'
              when 'PAYMENT_RECEIVED' then 'Pago recibido' when 'PAYMENT_FAILED' then 'Pago rechazado'
              when 'CHARGER_OFFLINE' then 'Cargador sin conexión' else 'Cargador conectado' end,
            'Cargador ' || lpad((1 + ${sql.raw(h("i", "nch", chargers))})::text, 4, '0') || ': aviso automático de la red de carga.',
            '/charger/edit/' || md5('bench-charger-' || (1 + ${sql.raw(h("i", "nch", chargers))}))::uuid,
            case when i > 50 then ${start.toISOString()}::timestamptz + (i * ${(size.historyDays * DAY) / size.notifications}::float8) * interval '1 millisecond' + interval '1 day' end,
            ${start.toISOString()}::timestamptz + (i * ${(size.historyDays * DAY) / size.notifications}::float8) * interval '1 millisecond',
            ${start.toISOString()}::timestamptz + (i * ${(size.historyDays * DAY) / size.notifications}::float8) * interval '1 millisecond'
          from generate_series(1, ${size.notifications}) as i,
          lateral (select (array[${sql.raw(types.map((t) => `'${t}'`).join(","))}])[1 + ${sql.raw(h("i", "ntype", types.length))}] as type) t`,
  );
}

export async function benchCounts(db: Db, businessId: string): Promise<Record<string, number>> {
  const [r] = await rowsOf(
    db,
    sql`select
      (select count(*) from stations where business_id = ${businessId}) as stations,
      (select count(*) from chargers where business_id = ${businessId}) as chargers,
      (select count(*) from connectors c join chargers ch on ch.id = c.charger_id where ch.business_id = ${businessId}) as connectors,
      (select count(*) from charging_sessions where business_id = ${businessId}) as sessions,
      (select count(*) from meter_samples m join charging_sessions s on s.id = m.session_id where s.business_id = ${businessId}) as meter_samples,
      (select count(*) from status_events where business_id = ${businessId}) as status_events,
      (select count(*) from notifications where business_id = ${businessId}) as notifications`,
  );
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)]));
}

/**
 * Re-prices a sample of closed bench sessions with domain/pricing and returns the ones whose
 * stored breakdown differs (none expected).
 */
export async function verifyBenchPricing(db: Db, businessId: string, sample = 500): Promise<{ checked: number; mismatches: string[] }> {
  const rows = await rowsOf(
    db,
    sql`select id, energy_wh, started_at, charging_ended_at, unplugged_at, stopped_at, rate_snapshot,
          energy_cents, time_cents, session_fee_cents, idle_cents, subtotal_cents, vat_cents, total_cents
        from charging_sessions where business_id = ${businessId} and status = 'COMPLETED'
        order by md5(id::text) limit ${sample}`,
  );
  const mismatches: string[] = [];
  const date = (v: unknown) => (v == null ? null : new Date(v as string));
  for (const r of rows) {
    const snapshot = (typeof r.rate_snapshot === "string" ? JSON.parse(r.rate_snapshot) : r.rate_snapshot) as RateSnapshot;
    const usage = usageFromSession({
      energyWh: Number(r.energy_wh),
      startedAt: date(r.started_at)!,
      chargingEndedAt: date(r.charging_ended_at),
      unpluggedAt: date(r.unplugged_at),
      stoppedAt: date(r.stopped_at),
    });
    const p = priceSession(snapshot, usage);
    const stored = [r.energy_cents, r.time_cents, r.session_fee_cents, r.idle_cents, r.subtotal_cents, r.vat_cents, r.total_cents].map(Number);
    const expected = [p.energyCents, p.timeCents, p.sessionFeeCents, p.idleCents, p.subtotalCents, p.vatCents, p.totalCents];
    if (stored.some((v, i) => v !== expected[i])) mismatches.push(`${String(r.id)}: guardado ${stored.join("/")} ≠ ${expected.join("/")}`);
  }
  return { checked: rows.length, mismatches };
}

function md5Uuid(seed: string): string {
  // Same as Postgres md5(seed)::uuid, so the business id is known before inserting.
  const hex = createHash("md5").update(seed).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
