// /Business/Activity — charging sessions (OCPI Session/CDR): list, detail, CSV export.
import { and, asc, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { Hono } from "hono";
import type { Db } from "#db/client";
import { chargers, chargingSessions, connectors, connectorTypes, meterSamples, payments, stations } from "#db/schema";
import { csvDocument } from "#domain/csv";
import { stopReasonLabel } from "#domain/ocpp-status";
import { meterFaultNotice } from "#domain/metering";
import { isArgentineHoliday } from "#domain/holidays.server";
import { DEFAULT_TIME_ZONE, priceSessionByBand, sessionBands, usageFromSession, type SessionBands, type SessionPrice } from "#domain/pricing";
import type { EnergyReading } from "#domain/tariff-bands";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { idParam, iso, pageOffset, parseSort, readJson, readQuery } from "../http";
import { conflict, notFound, validationError } from "../problem";
import { closeStuckSession } from "#ocpp/store";
import { STUCK_AFTER_HOURS } from "#contract/schemas/constants";
import { activityExportQuery, activityQuery, closeSessionBody, SESSION_PAYMENT_STATUS_LABELS, SESSION_STATUS_LABELS } from "#contract/schemas/queries";
import type { MeterPointDto, SessionDetailDto, SessionDto, SessionPage } from "#contract/dto";
import { toPaymentDto } from "./payments";
import { rawParts, rollupDays, splitPeriod } from "../rollup";
import { num, queryRows } from "#infra/sql";

const NOT_FOUND = "La carga";
export const EXPORT_MAX_ROWS = 10_000;
export const METER_SERIES_MAX_POINTS = 1_000;

const s = chargingSessions;

const rowColumns = {
  session: chargingSessions,
  stationName: stations.name,
  chargerName: chargers.name,
  connectorLabel: connectorTypes.label,
};

function baseSelect(db: Db) {
  return db
    .select(rowColumns)
    .from(chargingSessions)
    .leftJoin(stations, eq(stations.id, s.stationId))
    .leftJoin(chargers, eq(chargers.id, s.chargerId))
    .leftJoin(connectors, eq(connectors.id, s.connectorId))
    .leftJoin(connectorTypes, eq(connectorTypes.id, connectors.connectorTypeId));
}

type Row = Awaited<ReturnType<ReturnType<typeof baseSelect>["where"]>>[number];

function toDto(r: Row, now: Date): SessionDto {
  const x = r.session;
  const end = x.stoppedAt ?? (x.status === "ACTIVE" || x.status === "IDLE" ? now : x.startedAt);
  return {
    id: x.id,
    transactionId: x.transactionId,
    stationId: x.stationId ?? null,
    stationName: r.stationName ?? null,
    chargerId: x.chargerId ?? null,
    chargerName: r.chargerName ?? null,
    connectorId: x.connectorId ?? null,
    connectorNumber: x.connectorNumber,
    connectorLabel: r.connectorLabel ?? null,
    idTag: x.idTag,
    startedAt: x.startedAt.toISOString(),
    stoppedAt: iso(x.stoppedAt),
    status: x.status,
    energyWh: x.energyWh,
    energyKwh: Math.round(x.energyWh) / 1000,
    durationMinutes: Math.max(0, Math.floor((end.getTime() - x.startedAt.getTime()) / 60_000)),
    idleMinutes: x.idleMinutes,
    totalCents: x.totalCents,
    currency: x.rateSnapshot?.currency ?? "ARS",
    paymentStatus: x.paymentStatus,
    stopReason: x.stopReason ?? null,
    stopReasonLabel: x.stoppedAt ? stopReasonLabel(x.stopReason) : null,
  };
}

type Filters = {
  stationId?: string;
  chargerId?: string;
  status?: (typeof s.status.enumValues)[number];
  paymentStatus?: (typeof s.paymentStatus.enumValues)[number];
  stuck?: "1";
  from?: Date;
  to?: Date;
};

function filterWhere(businessId: string, q: Filters): SQL[] {
  const where: SQL[] = [eq(s.businessId, businessId)];
  if (q.stationId) where.push(eq(s.stationId, q.stationId));
  if (q.chargerId) where.push(eq(s.chargerId, q.chargerId));
  if (q.status) where.push(eq(s.status, q.status));
  if (q.paymentStatus) where.push(eq(s.paymentStatus, q.paymentStatus));
  if (q.stuck) where.push(sql`${s.status} in ('ACTIVE', 'IDLE') and ${s.startedAt} < now() - make_interval(hours => ${STUCK_AFTER_HOURS})`);
  if (q.from) where.push(gte(s.startedAt, q.from));
  if (q.to) where.push(lt(s.startedAt, q.to));
  return where;
}

const SORT_COLUMNS = {
  startedAt: s.startedAt,
  energyWh: s.energyWh,
  totalCents: s.totalCents,
  idleMinutes: s.idleMinutes,
} as const;

function encodeCursor(startedAt: Date, id: string): string {
  return Buffer.from(`${startedAt.toISOString()}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string): { startedAt: Date; id: string } {
  const [ts, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const startedAt = new Date(ts ?? "");
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(startedAt.getTime())) {
    throw validationError({ cursor: ["El cursor no es válido. Volvé a la primera página."] });
  }
  return { startedAt, id };
}

/**
 * Count, energy (sessions that started) and revenue (completed ones) of every session matching
 * the filters. Whole local days come from the rollup (api/rollup.ts) unless a filter it does not
 * keep is on (a charger; a station together with a payment status; open statuses), which the
 * per-charger and per-station indexes answer directly.
 */
async function activityTotals(db: Db, businessId: string, q: Filters): Promise<{ total: number; energyWh: number; totalCents: number }> {
  const where = filterWhere(businessId, q);
  const raw = sql`select count(*) as total,
      sum(${s.energyWh}) filter (where ${s.status} <> 'INVALID') as energy_wh,
      sum(${s.totalCents}) filter (where ${s.status} = 'COMPLETED') as total_cents
    from ${s}`;
  const direct = q.chargerId || q.stuck || q.status === "ACTIVE" || q.status === "IDLE" || (q.stationId && q.paymentStatus);
  let parts: SQL[];
  if (direct) {
    parts = [sql`${raw} where ${and(...where)}`];
  } else {
    const split = await splitPeriod(db, q.from ?? null, q.to ?? null);
    parts = rawParts(split).map((part) => sql`${raw} where ${and(...where, part)}`);
    if (split.rollup) {
      const table = q.stationId ? "session_station_daily_totals" : "session_daily_totals";
      const filters: SQL[] = [sql`r.business_id = ${businessId}`, rollupDays(split)];
      if (q.stationId) filters.push(sql`r.station_id = ${q.stationId}`);
      if (q.status) filters.push(sql`r.status = ${q.status}`);
      if (q.paymentStatus) filters.push(sql`r.payment_status = ${q.paymentStatus}`);
      parts.unshift(sql`select sum(r.sessions) as total,
          sum(r.energy_wh) filter (where r.status <> 'INVALID') as energy_wh,
          sum(r.total_cents) filter (where r.status = 'COMPLETED') as total_cents
        from ${sql.raw(table)} r where ${sql.join(filters, sql` and `)}`);
    }
  }
  const [r] = await queryRows(
    db,
    sql`select coalesce(sum(total), 0) as total, coalesce(sum(energy_wh), 0) as energy_wh, coalesce(sum(total_cents), 0) as total_cents
      from (${sql.join(parts, sql` union all `)}) x`,
  );
  return { total: num(r?.total), energyWh: num(r?.energy_wh), totalCents: num(r?.total_cents) };
}

/**
 * The cost of a session: stored when closed; an estimate from its rate snapshot while open, its
 * energy split among the rate's bands by the readings given (none: interpolated over the session).
 */
function costOf(x: Row["session"], now: Date, readings: readonly EnergyReading[] = []): { cost: SessionPrice; estimated: boolean; bands: SessionBands | null } {
  const stored: SessionPrice = {
    energyCents: x.energyCents,
    timeCents: x.timeCents,
    sessionFeeCents: x.sessionFeeCents,
    idleCents: x.idleCents,
    subtotalCents: x.subtotalCents,
    vatCents: x.vatCents,
    totalCents: x.totalCents,
  };
  if ((x.status !== "ACTIVE" && x.status !== "IDLE") || !x.rateSnapshot) return { cost: stored, estimated: false, bands: x.priceBands ?? null };
  const usage = usageFromSession({
    energyWh: x.energyWh,
    startedAt: x.startedAt,
    chargingEndedAt: x.chargingEndedAt,
    unpluggedAt: x.unpluggedAt,
    stoppedAt: x.stoppedAt ?? now,
    timeZone: DEFAULT_TIME_ZONE,
  });
  const { bands, bandsEstimated, ...cost } = priceSessionByBand(x.rateSnapshot, { ...usage, readings, isHoliday: isArgentineHoliday });
  return { cost, estimated: true, bands: sessionBands({ ...cost, bands, bandsEstimated }) };
}

async function meterSeries(db: Db, sessionId: string): Promise<MeterPointDto[]> {
  const numbered = db
    .select({
      at: meterSamples.at,
      energyWh: meterSamples.energyWh,
      powerW: meterSamples.powerW,
      soc: meterSamples.soc,
      rn: sql<number>`row_number() over (order by ${meterSamples.at}, ${meterSamples.id})`.as("rn"),
      cnt: sql<number>`count(*) over ()`.as("cnt"),
    })
    .from(meterSamples)
    .where(eq(meterSamples.sessionId, sessionId))
    .as("m");
  // At most ~METER_SERIES_MAX_POINTS points: every n-th sample, plus the last one.
  const rows = await db
    .select({ at: numbered.at, energyWh: numbered.energyWh, powerW: numbered.powerW, soc: numbered.soc })
    .from(numbered)
    .where(
      sql`(${numbered.rn} - 1) % greatest(1, ceil(${numbered.cnt}::numeric / ${METER_SERIES_MAX_POINTS}))::int = 0 or ${numbered.rn} = ${numbered.cnt}`,
    )
    .orderBy(asc(numbered.rn));
  return rows.map((m) => ({ at: new Date(m.at).toISOString(), energyWh: m.energyWh, powerW: m.powerW ?? null, soc: m.soc ?? null }));
}

// ---- CSV ------------------------------------------------------------------------------------------

const dateFmt = new Intl.DateTimeFormat("es-AR", {
  timeZone: DEFAULT_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

function csvDate(d: Date | null): string {
  return d ? dateFmt.format(d).replace(",", "") : "";
}

/** es-AR decimal comma, no grouping (spreadsheets read it back as a number). */
function decimal(value: number, digits: number): string {
  return value.toFixed(digits).replace(".", ",");
}

const CSV_HEADER = [
  "Inicio",
  "Fin",
  "Transacción",
  "Estación",
  "Cargador",
  "Conector",
  "Identificador",
  "Estado",
  "Energía (kWh)",
  "Duración (min)",
  "Inactividad (min)",
  "Energía ($)",
  "Tiempo ($)",
  "Cargo fijo ($)",
  "Penalidad por inactividad ($)",
  "IVA ($)",
  "Total ($)",
  "Pago",
  "Motivo de fin",
];

function csvRow(r: Row, now: Date): (string | number)[] {
  const x = r.session;
  const dto = toDto(r, now);
  const pesos = (cents: number) => decimal(cents / 100, 2);
  return [
    csvDate(x.startedAt),
    csvDate(x.stoppedAt),
    x.transactionId,
    r.stationName ?? "",
    r.chargerName ?? "",
    `${x.connectorNumber}${r.connectorLabel ? ` (${r.connectorLabel})` : ""}`,
    x.idTag,
    SESSION_STATUS_LABELS[x.status],
    decimal(x.energyWh / 1000, 3),
    dto.durationMinutes,
    x.idleMinutes,
    pesos(x.energyCents),
    pesos(x.timeCents),
    pesos(x.sessionFeeCents),
    pesos(x.idleCents),
    pesos(x.vatCents),
    pesos(x.totalCents),
    SESSION_PAYMENT_STATUS_LABELS[x.paymentStatus],
    dto.stopReasonLabel ?? "",
  ];
}

/** How long a close waits for a charger that accepted the stop to report it. */
const STOP_WAIT_MS = 5_000;

export const ALREADY_CLOSED_MESSAGE = "La carga ya está cerrada: el cargador la terminó o alguien la cerró antes.";

export function activityRoutes(services: ApiServices) {
  const r = new Hono<AppEnv>();

  // "/Export.csv" is registered before "/:id", which would otherwise take it.
  sessionListRoutes(r, services);
  sessionRoutes(r, services);

  return r;
}

/** The sessions: a page (filters, sort, keyset) and the same filters as a CSV file. */
function sessionListRoutes(r: Hono<AppEnv>, { db, now }: ApiServices) {
  r.get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, activityQuery);
    const where = filterWhere(b.id, query);
    const keyset = query.sort === "-startedAt";
    if ((query.cursor || query.before) && !keyset) throw validationError({ cursor: ["El cursor solo se usa con el orden por fecha descendente."] });
    if (query.cursor && query.before) throw validationError({ cursor: ["Usá cursor o before, no los dos."] });
    const key = (x: { startedAt: Date; id: string }) => sql`(${x.startedAt.toISOString()}::timestamptz, ${x.id}::uuid)`;
    const pageWhere = [...where];
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const before = query.before ? decodeCursor(query.before) : null;
    // Keyset pages walk sessions_business_started_idx from the cursor, whatever the depth;
    // `before` walks it upwards and the rows are put back in order.
    if (after) pageWhere.push(sql`(${s.startedAt}, ${s.id}) < ${key(after)}`);
    if (before) pageWhere.push(sql`(${s.startedAt}, ${s.id}) > ${key(before)}`);
    const { key: sortKey, desc: sortDesc } = parseSort(query.sort);
    const isDesc = before ? !sortDesc : sortDesc;
    const col = SORT_COLUMNS[sortKey];
    const base = baseSelect(db)
      .where(and(...pageWhere))
      .orderBy(isDesc ? desc(col) : asc(col), isDesc ? desc(s.id) : asc(s.id))
      .limit(query.pageSize + 1);
    const [fetched, { total, energyWh, totalCents }] = await Promise.all([
      after || before ? base : base.offset(pageOffset(query.page, query.pageSize)),
      // Totals of every matching session (not just this page), defined like the dashboard's
      // KPIs: energy of the sessions that started, revenue of the completed ones.
      activityTotals(db, b.id, query),
    ]);
    const more = fetched.length > query.pageSize;
    const pageRows = fetched.slice(0, query.pageSize);
    if (before) pageRows.reverse();
    const first = pageRows.at(0)?.session;
    const last = pageRows.at(-1)?.session;
    // Is there anything on the other side of this page (the side the request came from)?
    const exists = async (cond: SQL) => (await db.select({ id: s.id }).from(s).where(and(...where, cond)).limit(1)).length > 0;
    let hasNext = !before && more;
    let hasPrev = before ? more : false;
    if (keyset && after && first) hasPrev = await exists(sql`(${s.startedAt}, ${s.id}) > ${key(first)}`);
    if (keyset && before && last) hasNext = await exists(sql`(${s.startedAt}, ${s.id}) < ${key(last)}`);
    const t = now();
    const body: SessionPage = {
      items: pageRows.map((x) => toDto(x, t)),
      total,
      totals: { energyWh, totalCents },
      page: after || before ? 1 : query.page,
      pageSize: query.pageSize,
      nextCursor: keyset && hasNext && last ? encodeCursor(last.startedAt, last.id) : null,
      prevCursor: keyset && hasPrev && first ? encodeCursor(first.startedAt, first.id) : null,
    };
    return c.json(body);
  });

  r.get("/Export.csv", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, activityExportQuery);
    const { key, desc: isDesc } = parseSort(query.sort);
    const col = SORT_COLUMNS[key];
    const rows = await baseSelect(db)
      .where(and(...filterWhere(b.id, query)))
      .orderBy(isDesc ? desc(col) : asc(col), isDesc ? desc(s.id) : asc(s.id))
      .limit(EXPORT_MAX_ROWS + 1);
    const truncated = rows.length > EXPORT_MAX_ROWS;
    const t = now();
    const file = csvDocument(CSV_HEADER, rows.slice(0, EXPORT_MAX_ROWS).map((x) => csvRow(x, t)));
    const stamp = new Intl.DateTimeFormat("en-CA", { timeZone: DEFAULT_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" })
      .format(t)
      .replace(/-/g, "");
    return c.body(file, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="actividad-${stamp}.csv"`,
      "X-Export-Rows": String(Math.min(rows.length, EXPORT_MAX_ROWS)),
      "X-Export-Truncated": String(truncated),
    });
  });
}

/** One session: closing one the charger never stopped, and its detail. */
function sessionRoutes(r: Hono<AppEnv>, { db, now, ocpp, logger }: ApiServices) {
  // A session the charger never stopped: the charger is asked to stop it when it is
  // connected, then it is closed and priced up to its last meter value. A charger that answers
  // the stop by stopping it itself wins: its own data prices the session.
  r.post("/:id/Close", async (c) => {
    const b = tenant(c);
    const id = idParam(c, "id", NOT_FOUND);
    const [open] = await db
      .select({ status: s.status, connectorNumber: s.connectorNumber, chargerId: s.chargerId, ocppIdentity: chargers.ocppIdentity, online: chargers.online })
      .from(s)
      .leftJoin(chargers, eq(chargers.id, s.chargerId))
      .where(and(eq(s.id, id), eq(s.businessId, b.id)))
      .limit(1);
    if (!open) throw notFound(NOT_FOUND);
    const { reason } = await readJson(c, closeSessionBody);
    if (open.status !== "ACTIVE" && open.status !== "IDLE") throw conflict(ALREADY_CLOSED_MESSAGE);
    let remoteStop: "accepted" | "rejected" | "timeout" | "error" | "offline" | "not-needed" = "not-needed";
    if (open.status === "ACTIVE") {
      if (ocpp && open.chargerId && open.ocppIdentity && open.online) {
        const result = await ocpp.sendCommand({ id: open.chargerId, ocppIdentity: open.ocppIdentity }, { command: "RemoteStopTransaction", connectorId: open.connectorNumber });
        remoteStop = result.outcome;
      } else remoteStop = "offline";
    }
    if (remoteStop === "accepted") {
      // A charger that accepted stops the session itself with its own final reading: give its
      // StopTransaction (or TransactionEvent Ended) a few seconds to arrive before closing it here.
      const deadline = Date.now() + STOP_WAIT_MS;
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const [current] = await db.select({ status: s.status }).from(s).where(eq(s.id, id)).limit(1);
        if (current?.status !== "ACTIVE") break;
      }
    }
    const closed = await closeStuckSession(db, b.id, id);
    if (!closed.ok && closed.why === "not-found") throw notFound(NOT_FOUND);
    if (closed.ok) {
      logger.info({ sessionId: id, remoteStop }, "carga cerrada por el operador");
      ocpp?.live.publish(b.id, { kind: "session", chargerId: open.chargerId ?? undefined });
      if (closed.created.notifications.length) ocpp?.live.publish(b.id, { kind: "notification" });
    }
    // Already closed by now: the charger stopped it when asked, and its data stands.
    const [row] = await baseSelect(db)
      .where(and(eq(s.id, id), eq(s.businessId, b.id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return c.json({ ...toDto(row, now()), closedBy: closed.ok ? "operator" : "charger", remoteStop, reason });
  });

  r.get("/:id", async (c) => {
    const b = tenant(c);
    const id = idParam(c, "id", NOT_FOUND);
    const [row] = await baseSelect(db)
      .where(and(eq(s.id, id), eq(s.businessId, b.id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    const [series, pays] = await Promise.all([
      meterSeries(db, row.session.id),
      db
        .select()
        .from(payments)
        .where(and(eq(payments.sessionId, row.session.id), eq(payments.businessId, b.id)))
        .orderBy(desc(payments.createdAt))
        .limit(50),
    ]);
    const t = now();
    const x = row.session;
    const { cost, estimated, bands } = costOf(x, t, series.map((m) => ({ at: new Date(m.at), energyWh: m.energyWh })));
    const body: SessionDetailDto = {
      ...toDto(row, t),
      meterStartWh: x.meterStartWh,
      meterStopWh: x.meterStopWh ?? null,
      meterFaultNotice: x.meterFault ? meterFaultNotice(x.meterFault) : null,
      chargingEndedAt: iso(x.chargingEndedAt),
      unpluggedAt: iso(x.unpluggedAt),
      rateId: x.rateId ?? null,
      rateSnapshot: x.rateSnapshot ?? null,
      cost,
      costIsEstimate: estimated,
      bands,
      meterSeries: series,
      payments: pays.map((p) => toPaymentDto({ payment: p, transactionId: x.transactionId, stationName: row.stationName })),
    };
    return c.json(body);
  });
}
