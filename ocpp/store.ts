// What the OCPP central system writes: each charger message becomes rows in one transaction
// (connector status and its history, sessions with their rate snapshot, meter samples, the
// priced session with its payment and notification). Everything is scoped to the charger that
// sent the message, so a charger can never touch another charger's or company's data.
import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql, type Param, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import {
  businessUsers,
  chargers,
  chargingSessions,
  connectors,
  meterSamples,
  accessGroups,
  notifications,
  rfidTags,
  payments,
  rates,
  stations,
  statusEvents,
  type ChargingSession,
  type Notification,
  type PaymentAccount,
  type NotificationType,
} from "../db/schema";
import { queryRows } from "../infra/sql";
import { fixedQuery } from "../db/fixed-query";
import { formatArs } from "../domain/money";
import { errorCodeLabel, IDLE_STATUSES, type ChargePointStatus } from "../domain/ocpp-status";
import { decideAuthorization, localDate, sessionRateId, type KnownTag, type TagAnswer } from "../domain/authorization";
import { chargedAmount, isPaymentIdTag } from "../domain/driver-payment";
import { energyFromReadings, meterFaultNotice } from "../domain/metering";
import type { RoamingAuthorizer, RoamingGrant } from "./roaming";
import type { OcppProtocol } from "../domain/ocpp-protocol";
import { isArgentineHoliday } from "../domain/holidays.server";
import { companyHolidays, dueRateChanges, withChanges } from "../db/rate-schedules";
import { chargedPrice, DEFAULT_TIME_ZONE, priceSessionByBand, rateSnapshotFromRow, sessionBands, usageFromSession, type SessionBands, type SessionPrice } from "../domain/pricing";

export type { OcppProtocol };

/** The charger a connection belongs to, read once at connection time. */
export interface ChargerRef {
  id: string;
  businessId: string;
  name: string;
  ocppIdentity: string;
}

/** Notifications created in a transaction, pushed and announced once it commits. */
export type Created = { notifications: Notification[] };

const NO_ERROR = "NoError";

export async function notify(
  tx: Db,
  out: Created,
  businessId: string,
  type: NotificationType,
  title: string,
  body: string,
  link: string | null,
): Promise<void> {
  const [row] = await tx.insert(notifications).values({ businessId, type, title, body, link }).returning();
  out.notifications.push(row);
}

/** A charger's clock may be wrong: a time in the future or absurdly old is replaced by ours. */
export function messageTime(timestamp: string | undefined, now: Date): Date {
  if (!timestamp) return now;
  const t = new Date(timestamp);
  if (Number.isNaN(t.getTime())) return now;
  const drift = t.getTime() - now.getTime();
  return drift > 5 * 60_000 || drift < -7 * 86_400_000 ? now : t;
}

// ---------------------------------------------------------------------------------------------
// Connection

export interface ChargerAuthRow extends ChargerRef {
  passwordHash: string | null;
  previousPasswordHash: string | null;
  enabled: boolean;
  businessStatus: string;
}

export async function findChargerByIdentity(db: Db, identity: string): Promise<ChargerAuthRow | undefined> {
  const [row] = await db
    .select({
      id: chargers.id,
      businessId: chargers.businessId,
      name: chargers.name,
      ocppIdentity: chargers.ocppIdentity,
      passwordHash: chargers.ocppPasswordHash,
      previousPasswordHash: chargers.ocppPreviousPasswordHash,
      enabled: chargers.enabled,
      businessStatus: businessUsers.status,
    })
    .from(chargers)
    .innerJoin(businessUsers, eq(businessUsers.id, chargers.businessId))
    .where(eq(chargers.ocppIdentity, identity))
    .limit(1);
  return row;
}

/**
 * The charger is online on this node. A charger that was offline gets a notification, once
 * whatever the nodes: the flip reads the state it replaces under the row's lock. One statement,
 * so the lock lasts only while it runs: held across a transaction's round trips, it kept the
 * charger's BootNotification (sent right after connecting) waiting behind a busy event loop, and
 * during a ramp of thousands of chargers those waits held the pool's connections.
 */
export async function markOnline(db: Db, ref: ChargerRef, nodeId: string, now: Date, protocol: OcppProtocol = "ocpp1.6"): Promise<Created> {
  const out: Created = { notifications: [] };
  // The protocol is recorded anew on every connection: a firmware update may switch it.
  const [before] = await queryRows<{ was_online: boolean; seen: string | Date | null }>(
    db,
    sql`update ${chargers} c
        set online = true, connected_node = ${nodeId}, last_heartbeat_at = ${now.toISOString()}::timestamptz, ocpp_protocol = ${protocol}, updated_at = ${now.toISOString()}::timestamptz
        from (select id, online, last_heartbeat_at from ${chargers} where id = ${ref.id} for update) b
        where c.id = b.id
        returning b.online as was_online, b.last_heartbeat_at as seen`,
  );
  if (!before || before.was_online) return out;
  const again = before.seen !== null;
  await notify(
    db,
    out,
    ref.businessId,
    "CHARGER_ONLINE",
    again ? "Cargador conectado nuevamente" : "Cargador conectado",
    again ? `${ref.name} volvió a conectarse con Enchufá.` : `${ref.name} se conectó con Enchufá por primera vez.`,
    `/charger/edit/${ref.id}`,
  );
  return out;
}

/**
 * The socket closed. Only the node that holds the charger marks it offline: when a newer
 * connection replaced this one (here or on another node), nothing changes.
 */
export async function markSocketClosed(db: Db, ref: ChargerRef, nodeId: string): Promise<Created> {
  const out: Created = { notifications: [] };
  // The conditional update alone decides who reports it (like markOnline: no lock held across round trips).
  const gone = await db
    .update(chargers)
    .set({ online: false, connectedNode: null })
    .where(and(eq(chargers.id, ref.id), eq(chargers.connectedNode, nodeId), eq(chargers.online, true)))
    .returning({ id: chargers.id });
  if (gone.length) await notifyOffline(db, out, ref, "se desconectó");
  return out;
}

async function notifyOffline(tx: Db, out: Created, ref: Pick<ChargerRef, "id" | "businessId" | "name">, why: string) {
  await notify(tx, out, ref.businessId, "CHARGER_OFFLINE", "Cargador sin conexión", `${ref.name} ${why}. Sus conectores figuran sin conexión hasta que vuelva.`, `/charger/edit/${ref.id}`);
}

/**
 * Chargers silent for more than twice their heartbeat interval go offline. One atomic update,
 * so with several nodes sweeping only one of them reports each charger.
 */
export async function sweepSilentChargers(db: Db, now: Date): Promise<{ created: Created; offline: { id: string; businessId: string; node: string | null }[] }> {
  const out: Created = { notifications: [] };
  const offline: { id: string; businessId: string; node: string | null }[] = [];
  await db.transaction(async (tx) => {
    const rows = await queryRows<{ id: string; business_id: string; name: string; node: string | null }>(tx, sql`
      update chargers c set online = false, connected_node = null, updated_at = ${now}
      from (select id, connected_node from chargers
            where online and (last_heartbeat_at is null
              or last_heartbeat_at < ${now}::timestamptz - make_interval(secs => heartbeat_interval * 2))
            for update skip locked) old
      where c.id = old.id
      returning c.id, c.business_id, c.name, old.connected_node as node`);
    for (const r of rows) {
      offline.push({ id: r.id, businessId: r.business_id, node: r.node });
      await notifyOffline(tx, out, { id: r.id, businessId: r.business_id, name: r.name }, "dejó de enviar señales (heartbeat)");
    }
  });
  return { created: out, offline };
}

/**
 * Any message proves the charger is alive (OCPP lets busy chargers skip heartbeats). Signs of
 * life are written in batches — one statement for many chargers — so thousands of heartbeats
 * do not each take a pool connection (the central system flushes them every second). Answers the
 * chargers it found: one that is missing was deleted while its socket was open.
 */
export async function touchMany(db: Db, seen: ReadonlyArray<readonly [chargerId: string, at: Date]>): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < seen.length; i += 1000) {
    const part = seen.slice(i, i + 1000);
    // One array per column (unnest), not a VALUES list built by drizzle: thousands of chargers
    // report every second, and building that list blocked the event loop (as it did the message
    // log's). greatest(): a batch never moves a later sign of life (markOnline's) back.
    const rows = await queryRows<{ id: string }>(
      db,
      sql`update chargers c set last_heartbeat_at = greatest(c.last_heartbeat_at, v.at)
          from unnest(${sql.param(part.map(([id]) => id))}::uuid[], ${sql.param(part.map(([, at]) => at.toISOString()))}::timestamptz[]) as v(id, at)
          where c.id = v.id
          returning c.id`,
    );
    for (const r of rows) found.add(r.id);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// BootNotification

export interface BootPayload {
  chargePointVendor: string;
  chargePointModel: string;
  chargePointSerialNumber?: string;
  chargeBoxSerialNumber?: string;
  firmwareVersion?: string;
  iccid?: string;
  imsi?: string;
  meterType?: string;
  meterSerialNumber?: string;
  /** OCPP 2.0.1 BootReason. */
  reason?: string;
}

export async function recordBoot(db: Db, ref: ChargerRef, p: BootPayload, now: Date): Promise<{ accepted: boolean; interval: number }> {
  const [row] = await db
    .update(chargers)
    .set({
      vendor: p.chargePointVendor,
      bootModel: p.chargePointModel,
      serialNumber: sql`coalesce(${chargers.serialNumber}, ${p.chargePointSerialNumber ?? p.chargeBoxSerialNumber ?? null})`,
      firmwareVersion: p.firmwareVersion ?? null,
      iccid: p.iccid ?? null,
      imsi: p.imsi ?? null,
      meterType: p.meterType ?? null,
      meterSerial: p.meterSerialNumber ?? null,
      lastBootReason: p.reason ?? null,
      lastBootAt: now,
      lastHeartbeatAt: now,
    })
    .where(eq(chargers.id, ref.id))
    .returning({ enabled: chargers.enabled, interval: chargers.heartbeatInterval });
  return { accepted: row?.enabled ?? false, interval: row?.interval ?? 300 };
}

// ---------------------------------------------------------------------------------------------
// Authorize

/** A disabled charger or a suspended/rejected company blocks every tag. */
export function tagStatus(row: { enabled: boolean; businessStatus: string } | undefined): "Accepted" | "Blocked" {
  return !row || !row.enabled || row.businessStatus === "SUSPENDED" || row.businessStatus === "REJECTED" ? "Blocked" : "Accepted";
}

export interface TagDecision {
  status: TagAnswer;
  /** The rate of the tag's access group where it applies to this station, else null. */
  groupRateId: string | null;
  /** The charger's standing alone (enabled, company in good standing), whatever the tag. */
  standing: "Accepted" | "Blocked";
  stationId: string | null;
  /** A roaming partner decided (its token, ADR 0021): the session it starts is the partner's. */
  roaming: RoamingGrant | null;
}

/**
 * What a tag may do at this charger: one read of the charger's standing, its station's
 * policy and time zone, and the company's tag (case-insensitive) with its group; the decision is
 * domain/authorization's. Used by Authorize and by the starts of both protocols.
 *
 * A tag the company does not know, at a station published to roaming, is asked of `roaming`
 * (ADR 0021): a partner's answer for its token decides, whatever the station's policy; when no
 * partner claims the tag the policy decides as before. Known tags never get there.
 */
export async function authorizeTag(
  db: Db,
  ref: ChargerRef,
  idTag: string | null | undefined,
  now: Date,
  roaming?: RoamingAuthorizer,
  idTokenType?: string,
): Promise<TagDecision> {
  const tagId = (idTag ?? "").trim();
  const [row] = await db
    .select({
      enabled: chargers.enabled,
      businessStatus: businessUsers.status,
      stationId: chargers.stationId,
      roamingPublished: stations.roamingPublished,
      policy: stations.authorizationPolicy,
      timeZone: stations.timeZone,
      tagFound: sql<boolean>`${rfidTags.id} is not null`.mapWith(Boolean),
      blocked: rfidTags.blocked,
      expiresOn: rfidTags.expiresOn,
      groupId: accessGroups.id,
      allStations: accessGroups.allStations,
      groupRateId: rates.id,
      inGroup: sql<boolean>`exists (select 1 from access_group_stations g where g.group_id = ${accessGroups.id} and g.station_id = ${chargers.stationId})`.mapWith(Boolean),
    })
    .from(chargers)
    .innerJoin(businessUsers, eq(businessUsers.id, chargers.businessId))
    .leftJoin(stations, and(eq(stations.id, chargers.stationId), eq(stations.businessId, chargers.businessId)))
    .leftJoin(rfidTags, and(eq(rfidTags.businessId, chargers.businessId), sql`lower(${rfidTags.idTag}) = lower(${tagId})`))
    .leftJoin(accessGroups, and(eq(accessGroups.id, rfidTags.groupId), eq(accessGroups.businessId, chargers.businessId)))
    .leftJoin(rates, and(eq(rates.id, accessGroups.rateId), eq(rates.businessId, chargers.businessId)))
    .where(eq(chargers.id, ref.id))
    .limit(1);
  if (!row) return { status: "Blocked", groupRateId: null, standing: "Blocked", stationId: null, roaming: null };
  const stationId = row.stationId ?? null;
  // A remote start paid at the connector's QR carries its payment's idTag, accepted at
  // this charger while the payment waits for its start or charges (whatever the station's policy).
  if (isPaymentIdTag(tagId)) return { status: await paidStartStatus(db, ref, tagId), groupRateId: null, standing: tagStatus(row), stationId, roaming: null };
  if (roaming && tagId !== "" && !row.tagFound && stationId && row.roamingPublished && tagStatus(row) === "Accepted") {
    const grant = await roaming.authorize({ businessId: ref.businessId, stationId, chargerId: ref.id, idTag: tagId, idTokenType });
    if (grant) return { status: grant.status, groupRateId: null, standing: "Accepted", stationId, roaming: grant };
  }
  const tag: KnownTag | null =
    row.tagFound && tagId !== ""
      ? {
          blocked: row.blocked ?? false,
          expiresOn: row.expiresOn ?? null,
          group: row.groupId ? { allStations: row.allStations ?? true, stationIds: row.inGroup && stationId ? [stationId] : [], rateId: row.groupRateId ?? null } : null,
        }
      : null;
  const status = decideAuthorization({
    chargerBlocked: tagStatus(row) === "Blocked",
    stationId,
    policy: row.policy ?? "OPEN",
    tag,
    today: localDate(now, row.timeZone ?? DEFAULT_TIME_ZONE),
  });
  return { status, groupRateId: status === "Accepted" ? sessionRateId(tag, stationId, null) : null, standing: tagStatus(row), stationId, roaming: null };
}

async function paidStartStatus(db: Db, ref: ChargerRef, idTag: string): Promise<TagAnswer> {
  const [row] = await db
    .select({ enabled: chargers.enabled, businessStatus: businessUsers.status, step: payments.step })
    .from(chargers)
    .innerJoin(businessUsers, eq(businessUsers.id, chargers.businessId))
    .leftJoin(payments, and(eq(payments.idTag, idTag), eq(payments.chargerId, chargers.id), eq(payments.businessId, chargers.businessId)))
    .where(eq(chargers.id, ref.id))
    .limit(1);
  if (!row || tagStatus(row) === "Blocked") return "Blocked";
  return row.step === "STARTING" || row.step === "CHARGING" ? "Accepted" : "Invalid";
}

/** The session a paid remote start began belongs to its payment, which is now charging. */
export async function linkPaidSession(tx: Db, ref: ChargerRef, idTag: string, sessionId: string): Promise<void> {
  if (!isPaymentIdTag(idTag)) return;
  await tx
    .update(payments)
    .set({ sessionId, step: "CHARGING" })
    .where(and(eq(payments.idTag, idTag), eq(payments.chargerId, ref.id), eq(payments.step, "STARTING")));
}

export async function authorizationStatus(db: Db, ref: ChargerRef, idTag: string | null | undefined, now: Date, roaming?: RoamingAuthorizer, idTokenType?: string): Promise<TagAnswer> {
  return (await authorizeTag(db, ref, idTag, now, roaming, idTokenType)).status;
}

// ---------------------------------------------------------------------------------------------
// StatusNotification

export interface StatusPayload {
  connectorId: number;
  status: ChargePointStatus;
  errorCode: string;
  info?: string;
  timestamp?: string;
  vendorErrorCode?: string;
}

/**
 * StatusNotification. A connector's report is one statement, with no transaction held across
 * round trips: it locks the connector, records the report in the history, moves the
 * connector to it unless it is older than the status we hold (queued while offline), and moves
 * the session open on that connector along (idle time runs from SuspendedEV/Finishing to
 * Available). Only what needs the application afterwards (a notification, pricing a session
 * whose car was unplugged) takes a second, short transaction.
 */
export async function recordStatus(db: Db, ref: ChargerRef, p: StatusPayload, now: Date): Promise<Created> {
  const at = messageTime(p.timestamp, now);
  const errorCode = p.errorCode === NO_ERROR ? null : p.errorCode;
  const info = [p.info, p.vendorErrorCode ? `código del fabricante ${p.vendorErrorCode}` : undefined].filter(Boolean).join(" · ") || null;
  const out: Created = { notifications: [] };

  if (p.connectorId === 0) {
    await db.transaction(async (tx) => {
      await tx.insert(statusEvents).values({ businessId: ref.businessId, chargerId: ref.id, connectorId: null, status: p.status, errorCode, info, at });
      if (p.status === "Faulted") {
        await notify(tx, out, ref.businessId, "CHARGER_FAULTED", "Cargador en falla", `${ref.name}: ${errorCodeLabel(errorCode)}.`, `/charger/edit/${ref.id}`);
      }
    });
    return out;
  }

  const AT = sql`${at.toISOString()}::timestamptz`;
  const NOW = sql`${now.toISOString()}::timestamptz`;
  const STATUS = sql`${p.status}::connector_status`;
  const idle = IDLE_STATUSES.includes(p.status);
  const [row] = await queryRows<{ previous: ChargePointStatus; moved: boolean; idle_session: string | null }>(
    db,
    sql`with conn as (
          select id, status, status_at from connectors where charger_id = ${ref.id} and connector_id = ${p.connectorId} for update
        ), event as (
          insert into status_events (business_id, charger_id, connector_id, status, error_code, info, at)
          select ${ref.businessId}, ${ref.id}, conn.id, ${STATUS}, ${errorCode}, ${info}, ${AT} from conn
        ), moved as (
          update connectors c set status = ${STATUS}, error_code = ${errorCode}, status_at = ${AT}, updated_at = ${NOW}
          from conn where c.id = conn.id and (conn.status_at is null or conn.status_at <= ${AT})
          returning c.id
        ), open as (
          select s.id, s.status, s.charging_ended_at from charging_sessions s
          where s.connector_id = (select id from moved) and s.status in ('ACTIVE', 'IDLE')
          order by s.started_at desc limit 1 for update
        ), charging as (
          update charging_sessions c set
            charging_ended_at = ${p.status === "Charging" ? sql`null` : idle ? AT : sql`c.charging_ended_at`},
            unplugged_at = ${p.status === "Available" ? AT : sql`c.unplugged_at`},
            updated_at = ${NOW}
          from open where c.id = open.id and open.status = 'ACTIVE' and ${
            p.status === "Charging" ? sql`open.charging_ended_at is not null` : idle ? sql`open.charging_ended_at is null` : p.status === "Available" ? sql`true` : sql`false`
          }
        )
        select conn.status as previous, exists (select 1 from moved) as moved,
          (select id from open where status = 'IDLE') as idle_session
        from conn`,
  );

  if (!row) {
    // A connector the operator has not configured: keep the report on the charger's history.
    await db.insert(statusEvents).values({
      businessId: ref.businessId,
      chargerId: ref.id,
      connectorId: null,
      status: p.status,
      errorCode,
      info: `Conector ${p.connectorId} (no configurado)${info ? ` · ${info}` : ""}`,
      at,
    });
    return out;
  }
  // A report older than the one we hold is history, not the present.
  if (!row.moved) return out;

  const label = `${ref.name} · conector ${p.connectorId}`;
  const faulted = p.status === "Faulted" && row.previous !== "Faulted";
  const recovered = row.previous === "Faulted" && p.status !== "Faulted";
  const unpluggedSession = p.status === "Available" ? row.idle_session : null;
  if (!faulted && !recovered && !unpluggedSession) return out;
  await db.transaction(async (tx) => {
    if (faulted) {
      await notify(tx, out, ref.businessId, "CHARGER_FAULTED", "Conector en falla", `${label}: ${errorCodeLabel(errorCode)}.`, `/charger/edit/${ref.id}`);
    } else if (recovered) {
      await notify(tx, out, ref.businessId, "CHARGER_RECOVERED", "Conector recuperado", `${label} volvió a funcionar.`, `/charger/edit/${ref.id}`);
    }
    if (unpluggedSession) {
      // The car left after the stop: the idle window closes and the session is priced (unless
      // the idle sweep got there first).
      const [open] = await tx
        .select()
        .from(chargingSessions)
        .where(and(eq(chargingSessions.id, unpluggedSession), eq(chargingSessions.status, "IDLE")))
        .for("update");
      if (open) await finalizeSession(tx, out, open, { unpluggedAt: at });
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// StartTransaction

export interface StartPayload {
  connectorId: number;
  idTag: string;
  meterStart: number;
  timestamp: string;
  reservationId?: number;
}

/** Whether the charger holds an active reservation: only then is a start matched against one (ADR 0018). */
export const holdsReservation = (chargerId: string) =>
  sql<boolean>`exists (select 1 from reservations r where r.charger_id = ${chargerId} and r.status = 'ACTIVE')`.mapWith(Boolean);

/**
 * StartTransaction: one read (the company's standing, the connector, its rate and whether this
 * start was already recorded) and one insert, with no transaction held across round trips.
 * Only a connector that still has an open session (its stop never arrived) takes a
 * transaction, to close that session first.
 */
export async function startTransaction(
  db: Db,
  ref: ChargerRef,
  p: StartPayload,
  now: Date,
  roaming?: RoamingAuthorizer,
): Promise<{ transactionId: number; sessionId: string | null; status: TagAnswer; reserved: boolean; created: Created; roaming: RoamingGrant | null }> {
  const at = messageTime(p.timestamp, now);
  const out: Created = { notifications: [] };
  const decision = await authorizeTag(db, ref, p.idTag, now, roaming);
  const [found] = await db
    .select({
      stationId: chargers.stationId,
      connectorId: connectors.id,
      rate: rates,
      // The rate's scheduled changes due when the session starts: it is priced as in force then.
      due: dueRateChanges(rates.id, at),
      // The company's local holidays, which the snapshot keeps beside the rate's own.
      holidays: companyHolidays(chargers.businessId),
      // A StartTransaction repeated because its answer was lost gets the same transaction.
      again: sql<number | null>`(select s.transaction_id from charging_sessions s
        where s.charger_id = ${ref.id} and s.connector_number = ${p.connectorId}
          and s.started_at = ${at.toISOString()}::timestamptz and s.meter_start_wh = ${p.meterStart} limit 1)`.mapWith((v) => (v == null ? null : Number(v))),
      stale: sql<boolean>`exists (select 1 from charging_sessions s where s.connector_id = ${connectors.id} and s.status in ('ACTIVE', 'IDLE'))`.mapWith(Boolean),
      reserved: holdsReservation(ref.id),
    })
    .from(chargers)
    .innerJoin(businessUsers, eq(businessUsers.id, chargers.businessId))
    .leftJoin(connectors, and(eq(connectors.chargerId, chargers.id), eq(connectors.connectorId, p.connectorId)))
    // A grouped tag's session is priced with its group's rate where the group applies.
    .leftJoin(rates, and(sql`${rates.id} = coalesce(${decision.groupRateId}::uuid, ${connectors.rateId})`, eq(rates.businessId, ref.businessId)))
    .where(eq(chargers.id, ref.id));
  // A connector the operator never configured has no rate: a session there would be free. It is
  // refused, and the operator told (ADR 0030).
  const unconfigured = Boolean(found) && !found.connectorId;
  const status = !found ? "Blocked" : unconfigured && decision.status === "Accepted" ? "Invalid" : decision.status;
  const reserved = found?.reserved ?? false;
  // A repeated start gets its first answer; its session was given to the partner then.
  if (found?.again != null) return { transactionId: found.again, sessionId: null, status, reserved, created: out, roaming: null };
  const grant = status === "Accepted" ? decision.roaming : null;

  const rate = found?.rate ? withChanges(found.rate, found.due) : null;
  const insert = (tx: Db) =>
    tx
      .insert(chargingSessions)
      .values({
        businessId: ref.businessId,
        stationId: found?.stationId ?? null,
        chargerId: ref.id,
        connectorId: found?.connectorId ?? null,
        connectorNumber: p.connectorId,
        idTag: p.idTag,
        startedAt: at,
        meterStartWh: p.meterStart,
        status: status === "Accepted" ? "ACTIVE" : "INVALID",
        rateId: rate?.id ?? null,
        rateSnapshot: rate ? rateSnapshotFromRow(rate, found?.holidays) : null,
        paymentStatus: status === "Accepted" ? "PENDING" : "NOT_REQUIRED",
        ...(status === "Accepted" ? {} : { stoppedAt: at, stopReason: "DeAuthorized" }),
      })
      .returning({ transactionId: chargingSessions.transactionId, id: chargingSessions.id });

  const connectorId = found?.connectorId;
  if (unconfigured) await notifyUnconfiguredConnector(db, out, ref, p.connectorId, "conector", now);
  if (!found?.stale || !connectorId) {
    const [row] = await insert(db);
    if (status === "Accepted") await linkPaidSession(db, ref, p.idTag, row.id);
    return { transactionId: row.transactionId, sessionId: row.id, status, reserved, created: out, roaming: grant };
  }
  const inserted = await db.transaction(async (tx) => {
    // A session left open on this connector (its stop never arrived) is closed now.
    const stale = await tx
      .select()
      .from(chargingSessions)
      .where(and(eq(chargingSessions.connectorId, connectorId), inArray(chargingSessions.status, ["ACTIVE", "IDLE"])))
      .for("update");
    for (const s of stale) {
      const stoppedAt = s.stoppedAt ?? at;
      const closing = { ...s, stoppedAt, stopReason: s.stopReason ?? "Other", chargingEndedAt: s.chargingEndedAt ?? stoppedAt };
      await finalizeSession(tx, out, closing, { unpluggedAt: s.unpluggedAt ?? stoppedAt });
    }
    const [row] = await insert(tx);
    if (status === "Accepted") await linkPaidSession(tx, ref, p.idTag, row.id);
    return row;
  });
  return { transactionId: inserted.transactionId, sessionId: inserted.id, status, reserved, created: out, roaming: grant };
}

/**
 * Tells the operator that a charger started a session on a connector (1.6) or EVSE (2.0.1) that is
 * not configured, and that it was refused. Once an hour per charger and connector: a charger
 * retrying its start does not flood the operator.
 */
export async function notifyUnconfiguredConnector(tx: Db, out: Created, ref: ChargerRef, connectorNumber: number, noun: "conector" | "EVSE", now: Date): Promise<void> {
  const title = "Carga rechazada: conector no configurado";
  const body = `${ref.name}: se intentó iniciar una carga en el ${noun} ${connectorNumber}, que no está configurado en Enchufá. La rechazamos porque no tiene tarifa: agregá el conector con su tarifa al cargador para habilitarlo.`;
  const [recent] = await tx
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.businessId, ref.businessId), eq(notifications.title, title), eq(notifications.body, body), gt(notifications.createdAt, new Date(now.getTime() - 3_600_000))))
    .limit(1);
  if (!recent) await notify(tx, out, ref.businessId, "CHARGER_FAULTED", title, body, `/charger/edit/${ref.id}`);
}

// ---------------------------------------------------------------------------------------------
// MeterValues

export interface SampledValue {
  value: string;
  context?: string;
  format?: string;
  measurand?: string;
  phase?: string;
  location?: string;
  unit?: string;
}

export interface MeterValue {
  timestamp: string;
  sampledValue: SampledValue[];
}

/** Energy register (Wh), power (W) and SoC of one MeterValue; phase values only when no total. */
export function readMeterValue(mv: MeterValue): { energyRegisterWh?: number; powerW?: number; soc?: number } {
  const pick = (measurand: string) => {
    const values = mv.sampledValue.filter((v) => (v.measurand ?? "Energy.Active.Import.Register") === measurand && (v.format ?? "Raw") === "Raw");
    const total = values.find((v) => !v.phase) ?? values[0];
    if (!total) return undefined;
    const n = Number(total.value);
    return Number.isFinite(n) ? { n, unit: total.unit } : undefined;
  };
  const out: { energyRegisterWh?: number; powerW?: number; soc?: number } = {};
  const e = pick("Energy.Active.Import.Register");
  if (e) out.energyRegisterWh = e.unit === "kWh" ? e.n * 1000 : e.n;
  const pw = pick("Power.Active.Import");
  if (pw) out.powerW = pw.unit === "kW" ? pw.n * 1000 : pw.n;
  const soc = pick("SoC");
  if (soc && soc.n >= 0 && soc.n <= 100) out.soc = soc.n;
  return out;
}

/** The readings of a message, one array per column (at, register, power, SoC). */
export interface Readings {
  at: string[];
  reg: (number | null)[];
  powerW: (number | null)[];
  soc: (number | null)[];
}

/**
 * The readings of MeterValue entries that carry something this system records (energy register,
 * power, SoC); null when none does.
 */
export function readMeterValues(values: MeterValue[], now: Date): Readings | null {
  const readings = values
    .map((mv) => ({ at: messageTime(mv.timestamp, now), ...readMeterValue(mv) }))
    .filter((r) => r.energyRegisterWh !== undefined || r.powerW !== undefined || r.soc !== undefined);
  if (readings.length === 0) return null;
  return {
    at: readings.map((r) => r.at.toISOString()),
    reg: readings.map((r) => r.energyRegisterWh ?? null),
    powerW: readings.map((r) => (r.powerW === undefined ? null : Math.max(0, Math.round(r.powerW)))),
    soc: readings.map((r) => (r.soc === undefined ? null : Math.round(r.soc))),
  };
}

/**
 * Readings as a relation v(at, reg, power_w, soc, ord), from one array per column (unnest): the
 * statement's text is the same however many readings a message carries, so PostgreSQL prepares
 * it once per connection (ADR 0012) and the hot path builds it once (db/fixed-query.ts). Each
 * column is a parameter (`sql.param(array)`) or a placeholder.
 */
export function readingsRelation(c: Record<keyof Readings, Param | Placeholder>): SQL {
  return sql`unnest(${c.at}::timestamptz[], ${c.reg}::float8[], ${c.powerW}::int[], ${c.soc}::smallint[]) with ordinality as v(at, reg, power_w, soc, ord)`;
}

/** The readings of MeterValue entries as a relation for `samplesCtes`; null when none carries anything recorded. */
export function readingRows(values: MeterValue[], now: Date): SQL | null {
  const r = readMeterValues(values, now);
  return r && readingsRelation({ at: sql.param(r.at), reg: sql.param(r.reg), powerW: sql.param(r.powerW), soc: sql.param(r.soc) });
}

/** The energy registers of a message's readings, oldest first (a charger may list them in any order). */
export function registersInOrder(r: Readings | null): number[] {
  if (!r) return [];
  return r.at
    .map((at, i) => ({ at, reg: r.reg[i] }))
    .filter((x): x is { at: string; reg: number } => x.reg !== null)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
    .map((x) => x.reg);
}

/**
 * The meter-reading rules, for MeterValues and a StopTransaction's transactionData alike: CTEs
 * over a relation `s` (the session: id, status, meter_start_wh, energy_wh) and `readingRows`.
 * `delivered` turns each register into delivered energy (Math.round, as `floor(x + 0.5)`; never
 * below 0); `samples` writes one meter sample per reading, where a reading without a register
 * carries the energy so far (the session's, or the highest register before it).
 */
export function samplesCtes(rows: SQL, { onlyActive }: { onlyActive: boolean }): SQL {
  return sql`delivered as (
      select v.ord, v.at, v.power_w, v.soc,
        case when v.reg is null then null else greatest(0, floor(v.reg - s.meter_start_wh + 0.5))::int end as reg_wh
      from ${rows}, s
      ${onlyActive ? sql`where s.status = 'ACTIVE'` : sql``}
    ), samples as (
      insert into meter_samples (session_id, at, energy_wh, power_w, soc)
      select s.id, d.at, coalesce(d.reg_wh, greatest(s.energy_wh, max(d.reg_wh) over (order by d.ord))), d.power_w, d.soc
      from delivered d, s
    )`;
}

/**
 * MeterValues, the most frequent message of a charging charger: one statement, no transaction
 * held open across round trips (with thousands of chargers, a pool connection held between round
 * trips is what makes every other message wait). It locks the session, turns the register
 * readings into delivered energy (`samplesCtes`: a reading without a register carries the
 * energy so far), writes the samples and raises the session's energy, and only while the session
 * is ACTIVE — a StopTransaction that got there first wins and nothing is written.
 */
export async function recordMeterValues(db: Db, ref: ChargerRef, p: { connectorId: number; transactionId?: number; meterValue: MeterValue[] }, now: Date): Promise<boolean> {
  const byTransaction = p.transactionId !== undefined;
  const readings = readMeterValues(p.meterValue, now);
  if (!readings) {
    // Nothing to record (e.g. only phase values in another format): attached if the session is live.
    const session = byTransaction
      ? sql`charger_id = ${ref.id} and transaction_id = ${p.transactionId}`
      : sql`charger_id = ${ref.id} and connector_number = ${p.connectorId} and status = 'ACTIVE'`;
    const [row] = await queryRows<{ status: string }>(db, sql`select status from charging_sessions where ${session} order by started_at desc limit 1`);
    return row?.status === "ACTIVE";
  }
  const run = byTransaction ? meterValuesByTransaction : meterValuesByConnector;
  const [row] = await run(db, { chargerId: ref.id, key: byTransaction ? p.transactionId : p.connectorId, now: now.toISOString(), ...readings });
  return row?.status === "ACTIVE";
}

/** recordMeterValues' statement, built once per way of finding the session (db/fixed-query.ts). */
const meterValuesStatement = (session: (p: Record<"chargerId" | "key", Placeholder>) => SQL) =>
  fixedQuery<{ status: string }, "chargerId" | "key" | "now" | "at" | "reg" | "powerW" | "soc">(
    ["chargerId", "key", "now", "at", "reg", "powerW", "soc"],
    (p) => sql`with s as (
          select id, status, meter_start_wh, energy_wh from charging_sessions where ${session(p)} order by started_at desc limit 1 for update
        ), ${samplesCtes(readingsRelation(p), { onlyActive: true })}, energy as (
          update charging_sessions c set energy_wh = x.wh, updated_at = ${p.now}::timestamptz
          from (select max(reg_wh) as wh from delivered) x, s
          where c.id = s.id and x.wh > c.energy_wh
        )
        select status from s`,
  );
const meterValuesByTransaction = meterValuesStatement((p) => sql`charger_id = ${p.chargerId} and transaction_id = ${p.key}`);
const meterValuesByConnector = meterValuesStatement((p) => sql`charger_id = ${p.chargerId} and connector_number = ${p.key} and status = 'ACTIVE'`);

// ---------------------------------------------------------------------------------------------
// StopTransaction and pricing

export interface StopPayload {
  transactionId: number;
  meterStop: number;
  timestamp: string;
  idTag?: string;
  reason?: string;
  transactionData?: MeterValue[];
}

export interface FinalizeOptions {
  /** Idle time is charged at most this long after charging ended when no unplug arrives. */
  idleMaxMinutes: number;
}

export async function stopTransaction(
  db: Db,
  ref: ChargerRef,
  p: StopPayload,
  now: Date,
): Promise<{ found: boolean; repeated: boolean; created: Created }> {
  const at = messageTime(p.timestamp, now);
  const out: Created = { notifications: [] };
  const result = await db.transaction(async (tx) => {
    const [session] = await tx
      .select()
      .from(chargingSessions)
      .where(and(eq(chargingSessions.chargerId, ref.id), eq(chargingSessions.transactionId, p.transactionId)))
      .for("update");
    if (!session) return { found: false, repeated: false };
    if (session.stoppedAt && session.status !== "ACTIVE") return { found: true, repeated: true };

    const data = readMeterValues(p.transactionData ?? [], now);
    if (data) {
      // The row is locked above; its energy is set from all its readings just below.
      const readings = readingsRelation({ at: sql.param(data.at), reg: sql.param(data.reg), powerW: sql.param(data.powerW), soc: sql.param(data.soc) });
      await tx.execute(
        sql`with s as (select id, status, meter_start_wh, energy_wh from charging_sessions where id = ${session.id}), ${samplesCtes(readings, { onlyActive: false })} select 1`,
      );
    }
    // A stop below a reading already stored (a late or wrong meterStop) is a meter fault, not a
    // discount: the session is billed by its readings (domain/metering, ADR 0030).
    const metered = energyFromReadings(session.meterStartWh, [...registersInOrder(data), p.meterStop], session.meterStartWh + session.energyWh);
    const stopped: ChargingSession = {
      ...session,
      stoppedAt: at,
      meterStopWh: p.meterStop,
      energyWh: metered.energyWh,
      meterFault: metered.fault,
      stopReason: p.reason ?? "Local",
      chargingEndedAt: session.chargingEndedAt ?? at,
    };
    const [conn] = session.connectorId ? await tx.select({ status: connectors.status }).from(connectors).where(eq(connectors.id, session.connectorId)) : [];
    const unplugged = session.unpluggedAt ?? (p.reason === "EVDisconnected" || conn?.status === "Available" || !conn ? at : null);
    if (unplugged) {
      await finalizeSession(tx, out, stopped, { unpluggedAt: unplugged });
    } else {
      // The vehicle is still plugged in: idle time runs until the connector is Available.
      await tx
        .update(chargingSessions)
        .set({
          stoppedAt: stopped.stoppedAt,
          meterStopWh: stopped.meterStopWh,
          energyWh: stopped.energyWh,
          meterFault: stopped.meterFault,
          stopReason: stopped.stopReason,
          chargingEndedAt: stopped.chargingEndedAt,
          status: "IDLE",
        })
        .where(eq(chargingSessions.id, session.id));
    }
    return { found: true, repeated: false };
  });
  return { ...result, created: out };
}

const ZERO: SessionPrice = { energyCents: 0, timeCents: 0, sessionFeeCents: 0, idleCents: 0, subtotalCents: 0, vatCents: 0, totalCents: 0 };

/**
 * Closes a stopped session: prices it with its rate snapshot (domain/pricing), records a
 * payment to collect when the company has a payment account, and notifies "Sesión finalizada".
 * `unpluggedAt` is the observed unplug; `idleEnd` a cut-off when the unplug never came.
 */
export async function finalizeSession(
  tx: Db,
  out: Created,
  session: ChargingSession,
  end: { unpluggedAt: Date } | { idleEnd: Date },
): Promise<void> {
  // What the price and the notification need, in one statement: the station's time zone and
  // name, the charger's name, the company's payment account, and the lock on a QR prepayment
  // (a session prepaid at the QR is paid already: it costs its price up to what was
  // prepaid, and the rest goes back to the driver; payments/refunds.ts refunds it after
  // commit). Each round trip here is one more that the session's lock is held (ADR 0024).
  const [context] = await queryRows<{
    time_zone: string | null;
    station_name: string | null;
    charger_name: string | null;
    provider: PaymentAccount["provider"] | null;
    prepaid_id: string | null;
    prepaid_cents: number | null;
    prepaid_status: string | null;
  }>(
    tx,
    sql`with prepaid as (
          select id, amount_cents, status from payments where session_id = ${session.id} and origin = 'QR' and step = 'CHARGING' for update
        )
        select st.time_zone, st.name as station_name, ch.name as charger_name,
          (select a.provider from payment_accounts a where a.business_id = ${session.businessId} and a.status = 'CONNECTED' order by a.provider limit 1) as provider,
          pp.id as prepaid_id, pp.amount_cents as prepaid_cents, pp.status as prepaid_status
        from (select 1) one
        left join stations st on st.id = ${session.stationId}::uuid
        left join chargers ch on ch.id = ${session.chargerId}::uuid
        left join (select id, amount_cents, status from prepaid limit 1) pp on true`,
  );
  const prepaid = context?.prepaid_id ? { id: context.prepaid_id, amountCents: Number(context.prepaid_cents), chargedBack: context.prepaid_status === "CHARGED_BACK" } : undefined;
  const station = context?.station_name != null ? { timeZone: context.time_zone, name: context.station_name } : undefined;
  const stoppedAt = session.stoppedAt ?? ("unpluggedAt" in end ? end.unpluggedAt : end.idleEnd);
  const unpluggedAt = "unpluggedAt" in end ? end.unpluggedAt : null;
  const idleEnd = "unpluggedAt" in end ? end.unpluggedAt : end.idleEnd;
  const chargingEndedAt = session.chargingEndedAt ?? stoppedAt;
  const usage = usageFromSession({
    energyWh: session.energyWh,
    startedAt: session.startedAt,
    chargingEndedAt,
    unpluggedAt: idleEnd < chargingEndedAt ? chargingEndedAt : idleEnd,
    stoppedAt,
    timeZone: station?.timeZone ?? DEFAULT_TIME_ZONE,
  });
  const valid = session.status !== "INVALID";
  let price: SessionPrice = { ...ZERO };
  let bands: SessionBands | null = null;
  if (valid && session.rateSnapshot) {
    // A rate with time-of-use bands splits the energy by the session's meter readings at each
    // band edge; only then are they read, so a one-price session costs no extra round trip.
    const readings = session.rateSnapshot.bands?.length
      ? await tx.select({ at: meterSamples.at, energyWh: meterSamples.energyWh }).from(meterSamples).where(eq(meterSamples.sessionId, session.id)).orderBy(asc(meterSamples.at))
      : [];
    const { bands: lines, bandsEstimated, ...priced } = priceSessionByBand(session.rateSnapshot, { ...usage, readings, isHoliday: isArgentineHoliday });
    price = priced;
    bands = sessionBands({ ...priced, bands: lines, bandsEstimated });
  }
  const settled = prepaid ? chargedAmount(price.totalCents, prepaid.amountCents) : null;
  if (prepaid && settled) {
    await tx.update(payments).set({ step: "SETTLING", chargedCents: settled.chargedCents }).where(eq(payments.id, prepaid.id));
    // Capped at what was prepaid: the stored lines add up to what was charged (ADR 0030).
    price = session.rateSnapshot ? chargedPrice(price, settled.chargedCents, session.rateSnapshot) : { ...price, totalCents: settled.chargedCents };
  }
  // A prepayment charged back while the car was charging leaves the session unpaid (Contracargo).
  const paymentStatus = prepaid ? (prepaid.chargedBack ? "CHARGED_BACK" : "PAID") : price.totalCents > 0 ? "PENDING" : "NOT_REQUIRED";

  await tx
    .update(chargingSessions)
    .set({
      stoppedAt,
      meterStopWh: session.meterStopWh,
      energyWh: session.energyWh,
      meterFault: session.meterFault,
      stopReason: session.stopReason,
      chargingEndedAt,
      unpluggedAt,
      // The column counts started minutes; the price counts billed seconds (domain/pricing billedSeconds).
      idleMinutes: Math.ceil(usage.idleMinutes),
      status: valid ? "COMPLETED" : "INVALID",
      ...price,
      priceBands: bands,
      paymentStatus,
    })
    .where(eq(chargingSessions.id, session.id));
  if (!valid) return;

  if (price.totalCents > 0 && !prepaid) {
    // The amount to collect goes to the company's payment account (Mercado Pago first).
    if (context?.provider) {
      await tx.insert(payments).values({ businessId: session.businessId, sessionId: session.id, provider: context.provider, amountCents: price.totalCents, currency: session.rateSnapshot?.currency ?? "ARS", status: "PENDING" });
    }
  }

  const charger = context?.charger_name != null ? { name: context.charger_name } : undefined;
  const kwh = (session.energyWh / 1000).toLocaleString("es-AR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const where = [station?.name, charger?.name ? `${charger.name} · conector ${session.connectorNumber}` : `conector ${session.connectorNumber}`].filter(Boolean).join(" · ");
  const idle = price.idleCents > 0 ? ` (incluye ${formatArs(price.idleCents)} de penalidad por ${usage.idleMinutes} min de inactividad)` : "";
  await notify(tx, out, session.businessId, "SESSION_COMPLETED", "Sesión finalizada", `${where}: ${kwh} kWh, total ${formatArs(price.totalCents)}${idle}.`, `/activity?session=${session.id}`);
  if (session.meterFault) {
    // Billed by its readings, but the charger's meter needs looking at: the operator is told as of a fault.
    await notify(tx, out, session.businessId, "CHARGER_FAULTED", "Medidor con lecturas inconsistentes", `${where}: ${meterFaultNotice(session.meterFault)} Revisá el medidor del cargador.`, `/activity?session=${session.id}`);
  }
}

/**
 * Sessions stopped but never unplugged (or whose unplug report was lost) are priced once the
 * maximum idle wait is over, with idle time up to that cut-off.
 */
export async function sweepIdleSessions(db: Db, now: Date, options: FinalizeOptions): Promise<Created> {
  const out: Created = { notifications: [] };
  const cutoff = new Date(now.getTime() - options.idleMaxMinutes * 60_000);
  await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(chargingSessions)
      .where(and(eq(chargingSessions.status, "IDLE"), or(lt(chargingSessions.chargingEndedAt, cutoff), and(isNull(chargingSessions.chargingEndedAt), lt(chargingSessions.stoppedAt, cutoff)))))
      .limit(200)
      .for("update", { skipLocked: true });
    for (const s of due) {
      const from = s.chargingEndedAt ?? s.stoppedAt ?? s.startedAt;
      await finalizeSession(tx, out, s, { idleEnd: new Date(from.getTime() + options.idleMaxMinutes * 60_000) });
    }
  });
  return out;
}

/** Why an operator's close of a session did not happen. */
export type CloseRefusal = "not-found" | "already-closed";

/**
 * Closes a session the charger never stopped (a charger misbehaving): priced as if
 * it had stopped at its last meter value — the energy and the time up to that reading, idle time
 * up to it too when charging had already ended — never at the time the operator notices. The
 * stop reason says so; the operator's reason goes to the audit log.
 */
export async function closeStuckSession(
  db: Db,
  businessId: string,
  sessionId: string,
): Promise<{ ok: true; created: Created; session: ChargingSession } | { ok: false; why: CloseRefusal }> {
  const out: Created = { notifications: [] };
  return db.transaction(async (tx) => {
    const [session] = await tx
      .select()
      .from(chargingSessions)
      .where(and(eq(chargingSessions.id, sessionId), eq(chargingSessions.businessId, businessId)))
      .for("update");
    if (!session) return { ok: false as const, why: "not-found" as const };
    if (session.status !== "ACTIVE" && session.status !== "IDLE") return { ok: false as const, why: "already-closed" as const };
    const [last] = await tx
      .select({ at: meterSamples.at })
      .from(meterSamples)
      .where(eq(meterSamples.sessionId, session.id))
      .orderBy(desc(meterSamples.at))
      .limit(1);
    // The last thing the charger told us about this session.
    const lastKnown = [session.startedAt, session.chargingEndedAt, session.stoppedAt, last?.at].filter((d): d is Date => d instanceof Date).reduce((a, b) => (b > a ? b : a));
    const stopped: ChargingSession = {
      ...session,
      stoppedAt: session.stoppedAt ?? lastKnown,
      meterStopWh: session.meterStopWh ?? session.meterStartWh + session.energyWh,
      stopReason: session.stoppedAt ? session.stopReason : OPERATOR_CLOSED,
      chargingEndedAt: session.chargingEndedAt ?? lastKnown,
    };
    await finalizeSession(tx, out, stopped, { unpluggedAt: lastKnown });
    const [closed] = await tx.select().from(chargingSessions).where(eq(chargingSessions.id, session.id));
    return { ok: true as const, created: out, session: closed };
  });
}

/** The stop reason of a session an operator closed (domain/ocpp-status labels it). */
export const OPERATOR_CLOSED = "OperatorClosed";

/** The open session's transaction on a connector (RemoteStopTransaction / RequestStopTransaction need it). */
export async function openTransaction(db: Db, chargerId: string, connectorNumber: number | undefined): Promise<{ transactionId: number; ocppTransactionId: string | null } | undefined> {
  const [row] = await db
    .select({ transactionId: chargingSessions.transactionId, ocppTransactionId: chargingSessions.ocppTransactionId })
    .from(chargingSessions)
    .where(
      and(
        eq(chargingSessions.chargerId, chargerId),
        eq(chargingSessions.status, "ACTIVE"),
        ...(connectorNumber === undefined ? [] : [eq(chargingSessions.connectorNumber, connectorNumber)]),
      ),
    )
    .orderBy(desc(chargingSessions.startedAt))
    .limit(1);
  return row;
}
