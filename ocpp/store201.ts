// OCPP 2.0.1 messages mapped onto the same rows as 1.6 (ADR 0015): the screens,
// pricing and rollups never know which protocol a charger speaks.
//
// EVSE/connector mapping: our connector number (OCPP 1.6 connectorId, what the operator
// configures) is the 2.0.1 EVSE id. An EVSE delivers energy through one connector at a time, so
// it is the unit that has a rate and a status; its connectorId inside the EVSE (1 on almost every
// station) is kept in the status history's info. EVSE 0 is the station itself, like 1.6's
// connector 0.
import { and, eq, inArray, ne, sql, type Placeholder, type SQL } from "drizzle-orm";
import { fixedQuery } from "../db/fixed-query";
import type { Db } from "../db/client";
import { chargerEvents, chargingSessions, connectors, rates, type ChargingSession } from "../db/schema";
import { OCCUPIED_STATUSES, type ChargePointStatus } from "../domain/ocpp-status";
import { rateSnapshotFromRow } from "../domain/pricing";
import { companyHolidays, dueRateChanges, withChanges } from "../db/rate-schedules";
import { energyFromReadings } from "../domain/metering";
import {
  finalizeSession,
  messageTime,
  readingRows,
  readMeterValue,
  readMeterValues,
  readingsRelation,
  recordStatus,
  samplesCtes,
  type BootPayload,
  type ChargerRef,
  type Created,
  type MeterValue,
  type StatusPayload,
  type TagDecision,
  authorizeTag,
  holdsReservation,
  linkPaidSession,
  notifyUnconfiguredConnector,
} from "./store";
import type { TagAnswer } from "../domain/authorization";
import { queryRows } from "../infra/sql";
import { claimReservation } from "./reservations";
import type { RoamingAuthorizer, RoamingGrant } from "./roaming";

// ---------------------------------------------------------------------------------------------
// Payloads (validated by ocpp-rpc's strict mode against the 2.0.1 schemas before they get here)

export interface SampledValue201 {
  value: number;
  context?: string;
  measurand?: string;
  phase?: string;
  location?: string;
  unitOfMeasure?: { unit?: string; multiplier?: number };
}

export interface MeterValue201 {
  timestamp: string;
  sampledValue: SampledValue201[];
}

export interface Boot201 {
  reason: string;
  chargingStation: { model: string; vendorName: string; serialNumber?: string; firmwareVersion?: string; modem?: { iccid?: string; imsi?: string } };
}

export type ConnectorStatus201 = "Available" | "Occupied" | "Reserved" | "Unavailable" | "Faulted";

export interface Status201 {
  timestamp: string;
  connectorStatus: ConnectorStatus201;
  evseId: number;
  connectorId: number;
}

export type ChargingState = "Charging" | "EVConnected" | "SuspendedEV" | "SuspendedEVSE" | "Idle";

export interface IdToken201 {
  idToken: string;
  type: string;
}

export interface TransactionEvent201 {
  eventType: "Started" | "Updated" | "Ended";
  timestamp: string;
  triggerReason: string;
  seqNo: number;
  offline?: boolean;
  transactionInfo: { transactionId: string; chargingState?: ChargingState; stoppedReason?: string; remoteStartId?: number };
  evse?: { id: number; connectorId?: number };
  idToken?: IdToken201;
  meterValue?: MeterValue201[];
  /** The reservation this transaction ends. */
  reservationId?: number;
}

// ---------------------------------------------------------------------------------------------
// Pure mappings

export function bootPayload(p: Boot201): BootPayload {
  const cs = p.chargingStation;
  return {
    chargePointVendor: cs.vendorName,
    chargePointModel: cs.model,
    chargePointSerialNumber: cs.serialNumber,
    firmwareVersion: cs.firmwareVersion,
    iccid: cs.modem?.iccid,
    imsi: cs.modem?.imsi,
    reason: p.reason,
  };
}

/** A 2.0.1 reading in 1.6 shape: the value with its power-of-ten multiplier applied, as text. */
export function meterValue16(mv: MeterValue201): MeterValue {
  return {
    timestamp: mv.timestamp,
    sampledValue: mv.sampledValue.map((v) => ({
      value: String(v.value * 10 ** (v.unitOfMeasure?.multiplier ?? 0)),
      ...(v.context ? { context: v.context } : {}),
      ...(v.measurand ? { measurand: v.measurand } : {}),
      ...(v.phase ? { phase: v.phase } : {}),
      ...(v.location ? { location: v.location } : {}),
      ...(v.unitOfMeasure?.unit ? { unit: v.unitOfMeasure.unit } : {}),
    })),
  };
}

/**
 * The 1.6 status a 2.0.1 connector report stands for. Occupied says only "a vehicle is here":
 * while the connector already shows an occupied state (Charging, SuspendedEV… from the
 * transaction's chargingState) it changes nothing; otherwise it is Preparing.
 */
export function statusFrom201(reported: ConnectorStatus201, current: ChargePointStatus | undefined): ChargePointStatus | null {
  if (reported !== "Occupied") return reported;
  return current && OCCUPIED_STATUSES.includes(current) ? null : "Preparing";
}

export interface ReplayedEvent {
  seqNo: number;
  eventType: string;
  triggerReason: string;
  chargingState: string | null;
  at: Date;
}

export interface Replay {
  startedAt: Date | null;
  /** When charging last ended (idle time runs from here); null while charging. */
  chargingEndedAt: Date | null;
  unpluggedAt: Date | null;
  ended: ReplayedEvent | null;
  /** The 1.6 status each event's chargingState stands for (by seqNo), null when it has none. */
  statusOf: Map<number, ChargePointStatus | null>;
}

/**
 * The transaction's events in seqNo order, read with the 1.6 status rules (store.recordStatus):
 * Charging clears the end of charging; SuspendedEV, or EVConnected after the vehicle charged
 * (1.6 Finishing), starts idle time if it has not started; Idle after a vehicle was connected
 * (or the EVDeparted trigger) is the unplug (1.6 Available). EVConnected before any charging is
 * 1.6 Preparing and SuspendedEVSE leaves idle time alone, as in 1.6. Replaying the whole log
 * makes the result independent of the order the events arrived in.
 */
export function replayEvents(events: ReplayedEvent[]): Replay {
  const sorted = [...events].sort((a, b) => a.seqNo - b.seqNo);
  let chargingEndedAt: Date | null = null;
  let unpluggedAt: Date | null = null;
  let charged = false;
  let connected = false;
  let ended: ReplayedEvent | null = null;
  const statusOf = new Map<number, ChargePointStatus | null>();
  for (const e of sorted) {
    let status: ChargePointStatus | null = null;
    switch (e.chargingState) {
      case "Charging":
        chargingEndedAt = null;
        charged = connected = true;
        status = "Charging";
        break;
      case "SuspendedEV":
        chargingEndedAt ??= e.at;
        connected = true;
        status = "SuspendedEV";
        break;
      case "SuspendedEVSE":
        connected = true;
        status = "SuspendedEVSE";
        break;
      case "EVConnected":
        connected = true;
        if (charged) chargingEndedAt ??= e.at;
        status = charged ? "Finishing" : "Preparing";
        break;
      case "Idle":
        if (connected) {
          chargingEndedAt ??= e.at;
          unpluggedAt ??= e.at;
          status = "Available";
        }
        break;
    }
    if (e.triggerReason === "EVDeparted" && connected) {
      chargingEndedAt ??= e.at;
      unpluggedAt ??= e.at;
      status = "Available";
    }
    statusOf.set(e.seqNo, status);
    if (e.eventType === "Ended") ended ??= e;
  }
  const started = sorted.find((e) => e.eventType === "Started");
  const first = [...events].sort((a, b) => a.at.getTime() - b.at.getTime())[0];
  return { startedAt: started?.at ?? first?.at ?? null, chargingEndedAt, unpluggedAt, ended, statusOf };
}

// ---------------------------------------------------------------------------------------------
// StatusNotification

export async function recordStatus201(db: Db, ref: ChargerRef, p: Status201, now: Date): Promise<Created> {
  const [conn] =
    p.evseId > 0
      ? await db
          .select({ status: connectors.status })
          .from(connectors)
          .where(and(eq(connectors.chargerId, ref.id), eq(connectors.connectorId, p.evseId)))
      : [];
  const status = statusFrom201(p.connectorStatus, conn?.status);
  if (!status) return { notifications: [] };
  const payload: StatusPayload = {
    connectorId: p.evseId,
    status,
    // 2.0.1 reports the fault's cause in NotifyEvent; the status says only that there is one.
    errorCode: status === "Faulted" ? "OtherError" : "NoError",
    info: p.connectorId > 1 ? `EVSE ${p.evseId}, conector ${p.connectorId}` : undefined,
    timestamp: p.timestamp,
  };
  return recordStatus(db, ref, payload, now);
}

// ---------------------------------------------------------------------------------------------
// TransactionEvent

export interface TransactionEventResult {
  /** Accepted/Blocked, answered when the event carried an idToken. */
  tokenStatus: TagAnswer;
  duplicate: boolean;
  /** The 1.6 status the connector moves to after the commit (recordStatus), if any. */
  connectorStatus: { connectorId: number; status: ChargePointStatus; at: Date } | null;
  created: Created;
  /** A roaming partner's token started (or was given to) this session: handed to the partner after the commit (ADR 0021). */
  roamingStart?: { grant: RoamingGrant; sessionId: string; connectorNumber: number };
}

/** A transaction_events row as the raw statement answers it. */
interface LogRow extends Record<string, unknown> {
  seq_no: number;
  event_type: string;
  trigger_reason: string;
  charging_state: string | null;
  register_min_wh: number | null;
  register_max_wh: number | null;
  at: Date | string;
}

const registerRange = (values: MeterValue[]) => {
  const regs = values.map((mv) => readMeterValue(mv).energyRegisterWh).filter((x): x is number => x !== undefined);
  return regs.length ? { min: Math.min(...regs), max: Math.max(...regs) } : { min: null, max: null };
};

/**
 * One TransactionEvent, in one database transaction: the session (one per transactionId and
 * charger, created by whichever event arrives first), the event in the log (a seqNo already
 * there is a repetition: nothing else happens), its meter values, and the session's times and
 * energy recomputed from the whole log, so late and out-of-order events land where they belong.
 * An Ended event stops the session as 1.6 StopTransaction does: priced at once when the vehicle
 * is gone, otherwise IDLE until the unplug.
 *
 * `telemetry` takes the periodic readings (commits that do not wait for the disk, ADR 0023);
 * everything that can start, stop or price a session goes through `db`.
 */
export async function recordTransactionEvent(
  { db, telemetry }: { db: Db; telemetry: Db },
  ref: ChargerRef,
  p: TransactionEvent201,
  now: Date,
  roaming?: RoamingAuthorizer,
): Promise<TransactionEventResult> {
  const at = messageTime(p.timestamp, now);
  const values = (p.meterValue ?? []).map(meterValue16);
  const range = registerRange(values);
  if (isPlainUpdate(p)) {
    const fast = await recordPlainUpdate(telemetry, ref, p, { at, values, range, now });
    if (fast) return fast;
  }
  return recordEventInTransaction(db, ref, p, { at, values, range, now, roaming });
}

/**
 * An Updated event that changes nothing but the energy: no idToken, no chargingState, not the
 * vehicle leaving. Most of a transaction's events are these (MeterValuePeriodic), and they never
 * alter the replay of the log (replayEvents reads only Started/Ended, chargingState and
 * EVDeparted), so they need no replay.
 */
function isPlainUpdate(p: TransactionEvent201): boolean {
  return p.eventType === "Updated" && !p.idToken && !p.transactionInfo.chargingState && p.triggerReason !== "EVDeparted";
}

/**
 * A plain Updated event in one statement, like 1.6 MeterValues (ADR 0011: no transaction held
 * open across round trips): lock the session, log the event (a seqNo already there is a
 * repetition), write its samples and raise the energy. Only while the session is ACTIVE and the
 * event cannot move what the log decides — it is not earlier than the start, its registers are
 * not below the meter start (that would shift every sample) and the session already knows its
 * connector; otherwise null, and the whole-log path (recordEventInTransaction) takes it.
 */
async function recordPlainUpdate(
  db: Db,
  ref: ChargerRef,
  p: TransactionEvent201,
  o: { at: Date; values: MeterValue[]; range: { min: number | null; max: number | null }; now: Date },
): Promise<TransactionEventResult | null> {
  const readings = readMeterValues(o.values, o.now);
  const values: Record<PlainUpdateValue, unknown> = {
    chargerId: ref.id,
    transactionId: p.transactionInfo.transactionId,
    eventAt: o.at.toISOString(),
    evse: p.evse?.id ?? 0,
    rangeMin: o.range.min,
    rangeMax: o.range.max,
    seqNo: p.seqNo,
    eventType: p.eventType,
    triggerReason: p.triggerReason,
    offline: p.offline ?? false,
    now: o.now.toISOString(),
  };
  const [row] = readings ? await plainUpdateWithReadings(db, { ...values, ...readings }) : await plainUpdateWithoutReadings(db, values);
  if (!row?.fits) return null;
  return { tokenStatus: "Accepted", duplicate: row.logged === 0, connectorStatus: null, created: { notifications: [] } };
}

const PLAIN_UPDATE_VALUES = ["chargerId", "transactionId", "eventAt", "evse", "rangeMin", "rangeMax", "seqNo", "eventType", "triggerReason", "offline", "now"] as const;
type PlainUpdateValue = (typeof PLAIN_UPDATE_VALUES)[number];
const READING_VALUES = ["at", "reg", "powerW", "soc"] as const;

/**
 * recordPlainUpdate's statement (db/fixed-query.ts), built once with the readings' CTEs (the
 * samples and the session's energy) and once without: lock the session, log the event, write
 * what it read.
 */
const plainUpdateStatement = <R extends string>(readingNames: readonly R[], readings: (p: Record<PlainUpdateValue | R, Placeholder>) => SQL) =>
  fixedQuery<{ fits: boolean; logged: number }, PlainUpdateValue | R>(
    [...PLAIN_UPDATE_VALUES, ...readingNames],
    (p) => sql`with locked as (
          select id, status, meter_start_wh, energy_wh from charging_sessions
          where charger_id = ${p.chargerId} and ocpp_transaction_id = ${p.transactionId}
            and status = 'ACTIVE' and started_at <= ${p.eventAt}::timestamptz
            and (connector_number <> 0 or ${p.evse}::int = 0)
            and (${p.rangeMin}::float8 is null or ${p.rangeMin}::float8 >= meter_start_wh)
          for update
        ), logged as (
          insert into transaction_events (session_id, seq_no, event_type, trigger_reason, charging_state, offline, register_min_wh, register_max_wh, at)
          select id, ${p.seqNo}, ${p.eventType}, ${p.triggerReason}, null, ${p.offline}, ${p.rangeMin}::float8, ${p.rangeMax}::float8, ${p.eventAt}::timestamptz
          from locked
          on conflict do nothing
          returning session_id
        ), s as (
          -- the session, only when the event is new: a repetition writes nothing more
          select locked.* from locked join logged on logged.session_id = locked.id
        )${readings(p)}
        select exists (select 1 from locked) as fits, (select count(*)::int from logged) as logged`,
  );
const plainUpdateWithReadings = plainUpdateStatement(
  READING_VALUES,
  (p) => sql`, ${samplesCtes(readingsRelation(p), { onlyActive: false })}, energy as (
          update charging_sessions c set energy_wh = x.wh, updated_at = ${p.now}::timestamptz
          from (select max(reg_wh) as wh from delivered) x, s
          where c.id = s.id and x.wh > c.energy_wh
        )`,
);
const plainUpdateWithoutReadings = plainUpdateStatement([], () => sql``);

type Range = { min: number | null; max: number | null };
/** One entry of a transaction's event log, as replayEvents reads it. */
type LogEntry = ReplayedEvent & { registerMinWh: number | null; registerMaxWh: number | null };

/**
 * Any other event (Started, Ended, a chargingState, a token, or one that arrived out of place):
 * the whole log replayed inside one transaction.
 */
async function recordEventInTransaction(
  db: Db,
  ref: ChargerRef,
  p: TransactionEvent201,
  { at, values, range, now, roaming }: { at: Date; values: MeterValue[]; range: Range; now: Date; roaming?: RoamingAuthorizer },
): Promise<TransactionEventResult> {
  const out: Created = { notifications: [] };
  // The idToken's answer (the station's policy, the company's tags); an event without one (a
  // cable plugged in before authorizing) only depends on the charger's standing. Read before the
  // transaction: it is configuration, and the transaction's round trips hold a lock. A partner's
  // token is asked here too (ADR 0021): never inside the transaction below.
  const read = await authorizeTag(db, ref, p.idToken?.idToken, now, p.idToken ? roaming : undefined, p.idToken?.type);
  const decision: TagDecision = p.idToken ? read : { ...read, status: read.standing, groupRateId: null };

  return db.transaction(async (tx) => {
    const found = await sessionOfEvent(tx, ref, p, { at, decision, out });
    let session = found.session;
    const { tokenStatus } = found;
    const connectorNumber = p.evse?.id ?? session.connectorNumber ?? 0;

    const rows = await logEvent(tx, session.id, p, at, range);
    const none = { tokenStatus, connectorStatus: null, created: out };
    if (!rows.some((r) => r.fresh)) return { ...none, duplicate: true };
    const open = session.status === "ACTIVE" || session.status === "IDLE";
    if (!open) return { ...none, duplicate: false };

    const log = logEntries(rows);
    const replay = replayEvents(log);
    const energy = await energyFromLog(tx, session, log);
    const readings = session.status === "ACTIVE" ? readingRows(values, now) : null;
    if (readings) {
      await tx.execute(
        sql`with s as (select id, status, ${energy.meterStartWh}::bigint as meter_start_wh, energy_wh from charging_sessions where id = ${session.id}), ${samplesCtes(readings, { onlyActive: false })} select 1`,
      );
    }

    const token = p.idToken && (p.eventType === "Started" || !session.idTag) ? { idTag: p.idToken.idToken, idTokenType: p.idToken.type } : {};
    session = await lateTokenRate(tx, ref, session, p, decision);
    // The reserving tag's session uses its reservation (ADR 0018); a partner's token gives the
    // session to the partner (after the commit: ADR 0021).
    let roamingStart: TransactionEventResult["roamingStart"];
    if (p.idToken && tokenStatus === "Accepted" && session.status === "ACTIVE" && (p.eventType === "Started" || !session.idTag)) {
      const connector = session.connectorNumber || connectorNumber;
      if (found.reservable) await claimReservation(tx, ref, { connectorNumber: connector, idTag: p.idToken.idToken, reservationId: p.reservationId, sessionId: session.id, at });
      if (decision.roaming) roamingStart = { grant: decision.roaming, sessionId: session.id, connectorNumber: connector };
    }
    const updated: ChargingSession = {
      ...session,
      ...token,
      connectorNumber: session.connectorNumber || connectorNumber,
      startedAt: replay.startedAt ?? session.startedAt,
      meterStartWh: energy.meterStartWh,
      energyWh: energy.energyWh,
      // A stopped (IDLE) session keeps the end of charging its stop gave it.
      chargingEndedAt: replay.chargingEndedAt ?? (session.status === "IDLE" ? session.chargingEndedAt : null),
      unpluggedAt: replay.unpluggedAt ?? session.unpluggedAt,
    };
    await settleSession(tx, out, { session, updated, replay, log, p, maxRegisterWh: energy.maxRegisterWh });

    const status = replay.statusOf.get(p.seqNo) ?? null;
    const connectorStatus = status && updated.connectorNumber > 0 ? { connectorId: updated.connectorNumber, status, at } : null;
    return { tokenStatus, duplicate: false, connectorStatus, created: out, roamingStart };
  });
}

/**
 * The event's session, locked: one per transactionId and charger, created by whichever event
 * arrives first. Also the token's answer as the session leaves it (a session refused for its
 * unconfigured EVSE refuses every token it is shown), and whether a reservation may match the
 * start (known when this event creates the session).
 */
async function sessionOfEvent(
  tx: Db,
  ref: ChargerRef,
  p: TransactionEvent201,
  { at, decision, out }: { at: Date; decision: TagDecision; out: Created },
): Promise<{ session: ChargingSession; tokenStatus: TagAnswer; reservable: boolean }> {
  const txId = p.transactionInfo.transactionId;
  const findSession = async () =>
    (
      await tx
        .select()
        .from(chargingSessions)
        .where(and(eq(chargingSessions.chargerId, ref.id), eq(chargingSessions.ocppTransactionId, txId)))
        .for("update")
    )[0] as ChargingSession | undefined;

  let reservable = true;
  const create = async () => {
    const made = await createSession(tx, ref, p, { at, connectorNumber: p.evse?.id ?? 0, status: decision.status, groupRateId: decision.groupRateId, stationId: decision.stationId, out });
    if (made) reservable = made.reserved;
    return made?.session;
  };
  // A Started event is normally the transaction's first: create, and look the session up only
  // when it is there already (a repeat, or events that arrived before it). Any other event
  // normally finds it.
  let session = p.eventType === "Started" ? await create() : await findSession();
  if (!session) session = p.eventType === "Started" ? await findSession() : await create();
  if (!session) session = await findSession(); // created by a concurrent event
  if (!session) throw new Error("TransactionEvent: la sesión no se pudo crear");
  // A session begun before its EVSE was known (authorized first) takes the EVSE's connector and
  // rate when an event names it; an EVSE the operator never configured refuses it.
  const evseId = p.evse?.id ?? 0;
  if (session.connectorId === null && session.connectorNumber === 0 && evseId > 0 && (session.status === "ACTIVE" || session.status === "IDLE")) {
    session = await attachEvse(tx, ref, session, evseId, { at, out });
  }
  const refused = session.status === "INVALID" && session.connectorId === null && session.connectorNumber > 0 && decision.status === "Accepted";
  return { session, tokenStatus: refused ? "Invalid" : decision.status, reservable };
}

/**
 * The event into the log and the log back, in one statement (the insert's row comes from its
 * RETURNING: the statement's own read does not see it). No fresh row: a repetition, and then
 * no other row either.
 */
function logEvent(tx: Db, sessionId: string, p: TransactionEvent201, at: Date, range: Range) {
  return queryRows<LogRow & { fresh: boolean }>(
    tx,
    sql`with logged as (
          insert into transaction_events (session_id, seq_no, event_type, trigger_reason, charging_state, offline, register_min_wh, register_max_wh, at)
          values (${sessionId}, ${p.seqNo}, ${p.eventType}, ${p.triggerReason}, ${p.transactionInfo.chargingState ?? null}, ${p.offline ?? false},
                  ${range.min}::float8, ${range.max}::float8, ${at.toISOString()}::timestamptz)
          on conflict do nothing
          returning seq_no, event_type, trigger_reason, charging_state, register_min_wh, register_max_wh, at
        )
        select true as fresh, * from logged
        union all
        select false, seq_no, event_type, trigger_reason, charging_state, register_min_wh, register_max_wh, at
        from transaction_events where session_id = ${sessionId} and exists (select 1 from logged)`,
  );
}

/** The log's rows in seqNo order. */
function logEntries(rows: LogRow[]): LogEntry[] {
  return rows
    .map((r) => ({
      seqNo: Number(r.seq_no),
      eventType: r.event_type,
      triggerReason: r.trigger_reason,
      chargingState: r.charging_state,
      registerMinWh: r.register_min_wh === null ? null : Number(r.register_min_wh),
      registerMaxWh: r.register_max_wh === null ? null : Number(r.register_max_wh),
      at: new Date(r.at),
    }))
    .sort((a, b) => a.seqNo - b.seqNo);
}

/**
 * Meter start is the lowest register of the whole transaction (normally the Started event's
 * Transaction.Begin reading); when an earlier reading turns up late, the samples written so far
 * move up by the difference. The energy is the highest register above it, never less than
 * what the session had already counted.
 */
async function energyFromLog(tx: Db, session: ChargingSession, log: LogEntry[]) {
  const mins = log.map((e) => e.registerMinWh).filter((x): x is number => x !== null);
  const maxs = log.map((e) => e.registerMaxWh).filter((x): x is number => x !== null);
  const meterStartWh = mins.length ? Math.round(Math.min(...mins)) : session.meterStartWh;
  const maxRegisterWh = maxs.length ? Math.round(Math.max(...maxs)) : null;
  const shift = session.energyWh > 0 || mins.length > 1 ? session.meterStartWh - meterStartWh : 0;
  if (shift > 0) await tx.execute(sql`update meter_samples set energy_wh = energy_wh + ${shift} where session_id = ${session.id}`);
  const energyWh = Math.max(maxRegisterWh === null ? 0 : maxRegisterWh - meterStartWh, session.energyWh + Math.max(shift, 0), 0);
  return { meterStartWh, maxRegisterWh, energyWh };
}

/**
 * A token that arrives after the session began (plugged in, then authorized): its group's rate,
 * where it has one, prices the session from now on, as if it had come with the start.
 */
async function lateTokenRate(tx: Db, ref: ChargerRef, session: ChargingSession, p: TransactionEvent201, decision: TagDecision): Promise<ChargingSession> {
  if (!p.idToken || session.idTag || !decision.groupRateId || session.status !== "ACTIVE") return session;
  const [found] = await tx.select({ rate: rates, due: dueRateChanges(rates.id, session.startedAt), holidays: companyHolidays(rates.businessId) }).from(rates).where(and(eq(rates.id, decision.groupRateId), eq(rates.businessId, ref.businessId)));
  if (!found) return session;
  const groupRate = withChanges(found.rate, found.due);
  const rateColumns = { rateId: groupRate.id, rateSnapshot: rateSnapshotFromRow(groupRate, found.holidays) };
  await tx.update(chargingSessions).set(rateColumns).where(eq(chargingSessions.id, session.id));
  return { ...session, ...rateColumns };
}

/**
 * The session as the replayed log leaves it. An Ended event stops an ACTIVE session as 1.6
 * StopTransaction does: priced at once when the vehicle is gone, otherwise IDLE until the
 * unplug. A late event that shows the vehicle already left closes an IDLE session's idle window.
 */
async function settleSession(
  tx: Db,
  out: Created,
  o: { session: ChargingSession; updated: ChargingSession; replay: Replay; log: LogEntry[]; p: TransactionEvent201; maxRegisterWh: number | null },
) {
  const { session, updated, replay } = o;
  if (replay.ended && session.status === "ACTIVE") {
    const end = replay.ended;
    const stoppedAt = end.at;
    const endLog = o.log.find((e) => e.seqNo === end.seqNo);
    const meterStopWh = Math.round(endLog?.registerMaxWh ?? o.maxRegisterWh ?? updated.meterStartWh);
    const reason = end.seqNo === o.p.seqNo ? (o.p.transactionInfo.stoppedReason ?? "Local") : (session.stopReason ?? "Local");
    // An end register below the highest reading is a meter fault, not a discount (ADR 0030).
    const metered = energyFromReadings(updated.meterStartWh, [meterStopWh], updated.meterStartWh + updated.energyWh);
    const stopped: ChargingSession = {
      ...updated,
      stoppedAt,
      meterStopWh,
      energyWh: metered.energyWh,
      meterFault: metered.fault,
      stopReason: reason,
      chargingEndedAt: replay.chargingEndedAt ?? stoppedAt,
    };
    const [conn] = session.connectorId ? await tx.select({ status: connectors.status }).from(connectors).where(eq(connectors.id, session.connectorId)) : [];
    const unplugged = updated.unpluggedAt ?? (reason === "EVDisconnected" || conn?.status === "Available" || !conn ? stoppedAt : null);
    if (unplugged) await finalizeSession(tx, out, stopped, { unpluggedAt: unplugged });
    else await tx.update(chargingSessions).set(sessionColumns(stopped, "IDLE")).where(eq(chargingSessions.id, session.id));
  } else if (session.status === "IDLE" && updated.unpluggedAt) {
    await finalizeSession(tx, out, updated, { unpluggedAt: updated.unpluggedAt });
  } else {
    await tx.update(chargingSessions).set(sessionColumns(updated, session.status)).where(eq(chargingSessions.id, session.id));
  }
}

/**
 * The connector of a session's EVSE, named after the session began: the session is priced with
 * its rate (unless a grouped token already gave it one). Without a configured connector the
 * session would be free: it is refused as at its start (ADR 0030), and the operator told.
 */
async function attachEvse(tx: Db, ref: ChargerRef, session: ChargingSession, evseId: number, o: { at: Date; out: Created }): Promise<ChargingSession> {
  const [conn] = await tx
    .select({ id: connectors.id, rate: rates, due: dueRateChanges(rates.id, session.startedAt), holidays: companyHolidays(rates.businessId) })
    .from(connectors)
    .leftJoin(rates, and(sql`${rates.id} = coalesce(${session.rateId}::uuid, ${connectors.rateId})`, eq(rates.businessId, ref.businessId)))
    .where(and(eq(connectors.chargerId, ref.id), eq(connectors.connectorId, evseId)));
  const columns: Partial<ChargingSession> = conn
    ? { connectorId: conn.id, connectorNumber: evseId, ...(session.rateSnapshot ? {} : { rateId: conn.rate?.id ?? null, rateSnapshot: conn.rate ? rateSnapshotFromRow(withChanges(conn.rate, conn.due), conn.holidays) : null }) }
    : { connectorNumber: evseId, status: "INVALID", paymentStatus: "NOT_REQUIRED", stoppedAt: o.at, stopReason: "DeAuthorized" };
  await tx.update(chargingSessions).set(columns).where(eq(chargingSessions.id, session.id));
  if (!conn) await notifyUnconfiguredConnector(tx, o.out, ref, evseId, "EVSE", o.at);
  return { ...session, ...columns };
}

function sessionColumns(s: ChargingSession, status: ChargingSession["status"]) {
  return {
    idTag: s.idTag,
    idTokenType: s.idTokenType,
    connectorNumber: s.connectorNumber,
    startedAt: s.startedAt,
    meterStartWh: s.meterStartWh,
    meterStopWh: s.meterStopWh,
    energyWh: s.energyWh,
    meterFault: s.meterFault,
    stoppedAt: s.stoppedAt,
    stopReason: s.stopReason,
    chargingEndedAt: s.chargingEndedAt,
    unpluggedAt: s.unpluggedAt,
    status,
  };
}

/**
 * The session of a transactionId seen for the first time, with its connector's rate (as 1.6
 * StartTransaction). A Started event that creates it also closes a session its connector left
 * open (its end never arrived). Undefined when the transaction's session exists already (another
 * event created it, before or meanwhile). The common case is two statements: the connector (with
 * whether anything is open on it) and the insert.
 */
async function createSession(
  tx: Db,
  ref: ChargerRef,
  p: TransactionEvent201,
  o: { at: Date; connectorNumber: number; status: TagAnswer; groupRateId: string | null; stationId: string | null; out: Created },
): Promise<{ session: ChargingSession; reserved: boolean } | undefined> {
  const [conn] =
    o.connectorNumber > 0
      ? await tx
          .select({
            id: connectors.id,
            rate: rates,
            // The rate's scheduled changes due when the session starts: it is priced as in force then.
            due: dueRateChanges(rates.id, o.at),
            holidays: companyHolidays(rates.businessId),
            stale: sql<boolean>`exists (select 1 from charging_sessions s where s.connector_id = ${connectors.id} and s.status in ('ACTIVE', 'IDLE'))`.mapWith(Boolean),
            reserved: holdsReservation(ref.id),
          })
          .from(connectors)
          // A grouped tag's session is priced with its group's rate where the group applies.
          .leftJoin(rates, and(sql`${rates.id} = coalesce(${o.groupRateId}::uuid, ${connectors.rateId})`, eq(rates.businessId, ref.businessId)))
          .where(and(eq(connectors.chargerId, ref.id), eq(connectors.connectorId, o.connectorNumber)))
      : [];
  // An EVSE the operator never configured has no rate: its session would be free. It is refused
  // (the token's answer is Invalid) and the operator told (ADR 0030). EVSE 0 is a session whose
  // EVSE is not known yet.
  const unconfigured = o.connectorNumber > 0 && !conn;
  const accepted = o.status === "Accepted" && !unconfigured;
  // Before its EVSE is known, a grouped token's rate is the session's already (attachEvse keeps it).
  const [group] =
    o.connectorNumber === 0 && o.groupRateId && accepted ? await tx.select({ rate: rates, due: dueRateChanges(rates.id, o.at), holidays: companyHolidays(rates.businessId) }).from(rates).where(and(eq(rates.id, o.groupRateId), eq(rates.businessId, ref.businessId))) : [];
  const rate = conn?.rate ? withChanges(conn.rate, conn.due) : group ? withChanges(group.rate, group.due) : null;
  const [row] = await tx
    .insert(chargingSessions)
    .values({
      businessId: ref.businessId,
      stationId: o.stationId,
      chargerId: ref.id,
      connectorId: conn?.id ?? null,
      connectorNumber: o.connectorNumber,
      ocppTransactionId: p.transactionInfo.transactionId,
      idTag: p.idToken?.idToken ?? "",
      idTokenType: p.idToken?.type ?? null,
      startedAt: o.at,
      meterStartWh: 0,
      status: accepted ? "ACTIVE" : "INVALID",
      rateId: rate?.id ?? null,
      rateSnapshot: rate ? rateSnapshotFromRow(rate, conn?.rate ? conn.holidays : group?.holidays) : null,
      paymentStatus: accepted ? "PENDING" : "NOT_REQUIRED",
      ...(accepted ? {} : { stoppedAt: o.at, stopReason: "DeAuthorized" }),
    })
    .onConflictDoNothing({ target: [chargingSessions.chargerId, chargingSessions.ocppTransactionId] })
    .returning();
  if (row && conn?.stale && p.eventType === "Started") {
    const stale = await tx
      .select()
      .from(chargingSessions)
      .where(and(eq(chargingSessions.connectorId, conn.id), inArray(chargingSessions.status, ["ACTIVE", "IDLE"]), ne(chargingSessions.id, row.id)))
      .for("update");
    for (const s of stale) {
      const stoppedAt = s.stoppedAt ?? o.at;
      await finalizeSession(tx, o.out, { ...s, stoppedAt, stopReason: s.stopReason ?? "Other", chargingEndedAt: s.chargingEndedAt ?? stoppedAt }, { unpluggedAt: s.unpluggedAt ?? stoppedAt });
    }
  }
  if (row && unconfigured) await notifyUnconfiguredConnector(tx, o.out, ref, o.connectorNumber, "EVSE", o.at);
  if (row && accepted && p.idToken) await linkPaidSession(tx, ref, p.idToken.idToken, row.id);
  // Without a connector (evse 0) nothing was asked: the reservation is looked for.
  return row ? { session: row, reserved: conn?.reserved ?? true } : undefined;
}

/** MeterValues outside a transaction event: attached to the EVSE's session while it charges. */
export function meterValuesPayload(p: { evseId: number; meterValue: MeterValue201[] }): { connectorId: number; meterValue: MeterValue[] } {
  return { connectorId: p.evseId, meterValue: p.meterValue.map(meterValue16) };
}

// ---------------------------------------------------------------------------------------------
// Reports kept for support: NotifyEvent, SecurityEventNotification, NotifyReport, firmware and logs

/** Payloads above this size are stored truncated (a NotifyReport may list a whole device model). */
const MAX_PAYLOAD_CHARS = 16_000;

export interface ChargerEventInput {
  kind: string;
  summary: string;
  payload: unknown;
  at?: string;
}

/**
 * A payload too large to keep whole: its head, plus its top-level scalars (a report's requestId,
 * seqNo, tbc) and the length of its top-level lists, so the screen can still tell which report a
 * part belongs to, whether more follow and how many variables it carried.
 */
export function truncatedPayload(payload: unknown, json: string): Record<string, unknown> {
  const scalars: Record<string, unknown> = {};
  const lengths: Record<string, number> = {};
  if (payload && typeof payload === "object" && !Array.isArray(payload)) {
    for (const [key, value] of Object.entries(payload)) {
      if (Array.isArray(value)) lengths[key] = value.length;
      else if (value === null || typeof value !== "object") scalars[key] = typeof value === "string" ? value.slice(0, 100) : value;
    }
  }
  return { ...scalars, truncated: true, head: json.slice(0, MAX_PAYLOAD_CHARS), lengths };
}

export async function recordChargerEvents(db: Db, ref: ChargerRef, events: ChargerEventInput[], now: Date): Promise<void> {
  if (events.length === 0) return;
  await db.insert(chargerEvents).values(
    events.map((e) => {
      const json = JSON.stringify(e.payload);
      return {
        businessId: ref.businessId,
        chargerId: ref.id,
        kind: e.kind,
        summary: e.summary.slice(0, 300),
        payload: json.length > MAX_PAYLOAD_CHARS ? truncatedPayload(e.payload, json) : (e.payload as object),
        at: messageTime(e.at, now),
      };
    }),
  );
}

/** One summary line per NotifyEvent entry: the component (and EVSE) and what happened. */
export function notifyEventSummaries(p: {
  generatedAt: string;
  eventData: { eventId: number; timestamp: string; trigger: string; actualValue: string; component: { name: string; evse?: { id: number; connectorId?: number } }; variable: { name: string }; techCode?: string }[];
}): ChargerEventInput[] {
  return p.eventData.map((e) => {
    const where = e.component.evse ? ` (EVSE ${e.component.evse.id}${e.component.evse.connectorId ? `, conector ${e.component.evse.connectorId}` : ""})` : "";
    const code = e.techCode ? ` [${e.techCode}]` : "";
    return { kind: "NotifyEvent", summary: `${e.component.name}${where}.${e.variable.name} = ${e.actualValue}${code}`, payload: e, at: e.timestamp };
  });
}
