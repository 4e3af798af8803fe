// Reservations (ADR 0018): the OCPP calls that reserve a connector for a tag and cancel
// the reservation, in the charger's protocol, and what the central system writes about them — a
// session the reserving tag starts uses its reservation; one that expires unused is charged its
// rate's no-show fee as a session of its own (zero energy, stop reason ReservationNoShow), so it
// shows in Actividad and Pagos like any other charge.
import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { chargers, chargingSessions, connectors, paymentAccounts, payments, rates, reservations, stations, type Reservation } from "../db/schema";
import { formatArs } from "../domain/money";
import { priceNoShow, rateSnapshotFromRow } from "../domain/pricing";
import { dueRateChanges, withChanges } from "../db/rate-schedules";
import type { CommandProtocol, OcppCallSpec } from "./commands";
import { notify, type ChargerRef, type Created } from "./store";

/** The stop reason of a no-show fee (domain/ocpp-status labels it). */
export const NO_SHOW_REASON = "ReservationNoShow";

/** ReserveNow: 1.6 by connector and idTag, 2.0.1 by EVSE (our connector number) and idToken. */
export function reserveNowCall(protocol: CommandProtocol, r: Pick<Reservation, "reservationNumber" | "connectorNumber" | "idTag" | "expiresAt">): OcppCallSpec {
  return protocol === "ocpp2.0.1"
    ? { method: "ReserveNow", params: { id: r.reservationNumber, expiryDateTime: r.expiresAt.toISOString(), evseId: r.connectorNumber, idToken: { idToken: r.idTag, type: "ISO14443" } } }
    : { method: "ReserveNow", params: { connectorId: r.connectorNumber, expiryDate: r.expiresAt.toISOString(), idTag: r.idTag, reservationId: r.reservationNumber } };
}

/** CancelReservation: the same call in both protocols. */
export function cancelReservationCall(_protocol: CommandProtocol, reservationNumber: number): OcppCallSpec {
  return { method: "CancelReservation", params: { reservationId: reservationNumber } };
}

/**
 * A session started by the reserving tag (or naming the reservation) on the reserved connector
 * uses it. Returns whether one was used.
 */
export async function claimReservation(
  db: Db,
  ref: ChargerRef,
  s: { connectorNumber: number; idTag: string | null | undefined; reservationId?: number; sessionId: string; at: Date },
): Promise<boolean> {
  const tag = (s.idTag ?? "").trim();
  if (!tag && s.reservationId === undefined) return false;
  const match =
    s.reservationId !== undefined
      ? sql`(${reservations.reservationNumber} = ${s.reservationId} or (${reservations.connectorNumber} = ${s.connectorNumber} and lower(${reservations.idTag}) = lower(${tag})))`
      : sql`(${reservations.connectorNumber} = ${s.connectorNumber} and lower(${reservations.idTag}) = lower(${tag}))`;
  const used = await db
    .update(reservations)
    .set({ status: "USED", sessionId: s.sessionId, endedAt: s.at })
    .where(and(eq(reservations.chargerId, ref.id), eq(reservations.businessId, ref.businessId), eq(reservations.status, "ACTIVE"), match))
    .returning({ id: reservations.id });
  return used.length > 0;
}

/**
 * ACTIVE reservations past their expiry become EXPIRED, each charged its connector rate's no-show
 * fee when it has one. One transaction; rows another node is handling are skipped.
 */
export async function expireReservations(db: Db, now: Date, only?: { chargerId: string; reservationNumber: number }): Promise<Created> {
  const out: Created = { notifications: [] };
  await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(reservations)
      .where(
        only
          ? and(eq(reservations.status, "ACTIVE"), eq(reservations.chargerId, only.chargerId), eq(reservations.reservationNumber, only.reservationNumber))
          : and(eq(reservations.status, "ACTIVE"), lte(reservations.expiresAt, now)),
      )
      .orderBy(asc(reservations.expiresAt))
      .limit(200)
      .for("update", { skipLocked: true });
    for (const r of due) await chargeNoShow(tx, out, r, only ? now : r.expiresAt);
  });
  return out;
}

async function chargeNoShow(tx: Db, out: Created, r: Reservation, endedAt: Date): Promise<void> {
  const [ctx] = r.connectorId
    ? await tx
        .select({ rate: rates, due: dueRateChanges(rates.id, endedAt), chargerName: chargers.name, stationName: stations.name })
        .from(connectors)
        .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
        .leftJoin(stations, eq(stations.id, chargers.stationId))
        .leftJoin(rates, and(eq(rates.id, connectors.rateId), eq(rates.businessId, r.businessId)))
        .where(and(eq(connectors.id, r.connectorId), eq(chargers.businessId, r.businessId)))
    : [];
  const rate = ctx?.rate ? withChanges(ctx.rate, ctx.due) : null;
  let feeSessionId: string | null = null;
  if (rate && rate.noShowFeeCents > 0) {
    const snapshot = rateSnapshotFromRow(rate);
    const fee = priceNoShow(snapshot);
    const [session] = await tx
      .insert(chargingSessions)
      .values({
        businessId: r.businessId,
        stationId: r.stationId,
        chargerId: r.chargerId,
        connectorId: r.connectorId,
        connectorNumber: r.connectorNumber,
        idTag: r.idTag,
        startedAt: endedAt,
        stoppedAt: endedAt,
        chargingEndedAt: endedAt,
        unpluggedAt: endedAt,
        meterStartWh: 0,
        meterStopWh: 0,
        energyWh: 0,
        stopReason: NO_SHOW_REASON,
        status: "COMPLETED",
        rateId: rate.id,
        rateSnapshot: snapshot,
        sessionFeeCents: fee.feeCents,
        subtotalCents: fee.feeCents,
        vatCents: fee.vatCents,
        totalCents: fee.totalCents,
        paymentStatus: fee.totalCents > 0 ? "PENDING" : "NOT_REQUIRED",
      })
      .returning({ id: chargingSessions.id });
    feeSessionId = session.id;
    const [account] = await tx
      .select({ provider: paymentAccounts.provider })
      .from(paymentAccounts)
      .where(and(eq(paymentAccounts.businessId, r.businessId), eq(paymentAccounts.status, "CONNECTED")))
      .orderBy(asc(paymentAccounts.provider))
      .limit(1);
    if (account && fee.totalCents > 0) {
      await tx.insert(payments).values({ businessId: r.businessId, sessionId: session.id, provider: account.provider, amountCents: fee.totalCents, currency: snapshot.currency, status: "PENDING" });
    }
    const where = [ctx?.stationName, ctx?.chargerName ? `${ctx.chargerName} · conector ${r.connectorNumber}` : `conector ${r.connectorNumber}`].filter(Boolean).join(" · ");
    await notify(
      tx,
      out,
      r.businessId,
      "RESERVATION_NO_SHOW",
      "Reserva vencida sin uso",
      `${where}: la tarjeta ${r.idTag} no se presentó. Cargo por no presentarse: ${formatArs(fee.totalCents)}.`,
      `/activity?session=${session.id}`,
    );
  }
  await tx.update(reservations).set({ status: "EXPIRED", endedAt, feeSessionId }).where(eq(reservations.id, r.id));
}

/**
 * OCPP 2.0.1 ReservationStatusUpdate: Expired is the charger's own expiry (charged like ours);
 * Removed means the charger dropped it for another reason (no fee): CANCELLED.
 */
export async function reservationStatusUpdate(db: Db, ref: ChargerRef, p: { reservationId: number; reservationUpdateStatus: string }, now: Date): Promise<Created> {
  if (p.reservationUpdateStatus === "Expired") return expireReservations(db, now, { chargerId: ref.id, reservationNumber: p.reservationId });
  await db
    .update(reservations)
    .set({ status: "CANCELLED", endedAt: now, chargerStatus: "Removed" })
    .where(and(eq(reservations.chargerId, ref.id), eq(reservations.reservationNumber, p.reservationId), eq(reservations.status, "ACTIVE")));
  return { notifications: [] };
}
