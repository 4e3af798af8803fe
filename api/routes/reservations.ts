// /Business/Reservation — reserve a connector for a tag until a time (OCPP ReserveNow, both
// protocols), list reservations with their state, cancel one (CancelReservation). What happens
// afterwards (used by the tag's session, expired with the rate's no-show fee) is the central
// system's (ocpp/reservations.ts). ADR 0018.
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { Hono } from "hono";
import type { Db } from "#db/client";
import { chargers, chargingSessions, connectors, reservations, stations, type Reservation } from "#db/schema";
import { answerStatus, type ChargerAnswer } from "#ocpp/commands";
import { cancelReservationCall, reserveNowCall } from "#ocpp/reservations";
import { seesMoney } from "../access";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { idParam, iso, pageOffset, readJson, readQuery } from "../http";
import { conflict, fieldError, notFound } from "../problem";
import { RESERVATION_MAX_HOURS, RESERVATION_MESSAGES, reservationInputSchema, reservationListQuery } from "#contract/schemas/reservation";
import type { Page, ReservationDto, ReservationResultDto } from "#contract/dto";

const RESERVATION = "La reserva";
export const RESERVATION_OFFLINE_MESSAGE = "El cargador no está conectado: no se puede reservar. Probá cuando vuelva a conectarse.";
export const RESERVATION_TAKEN_MESSAGE = "Ese conector ya tiene una reserva activa. Cancelala antes de hacer otra.";
export const RESERVATION_NOT_ACTIVE_MESSAGE = "La reserva ya no está activa: se usó, venció o ya se canceló.";

const feeSessions = alias(chargingSessions, "fee_sessions");

const select = (db: Db) =>
  db
    .select({ r: reservations, stationName: stations.name, chargerName: chargers.name, feeTotalCents: feeSessions.totalCents })
    .from(reservations)
    .leftJoin(stations, eq(stations.id, reservations.stationId))
    .leftJoin(chargers, eq(chargers.id, reservations.chargerId))
    .leftJoin(feeSessions, eq(feeSessions.id, reservations.feeSessionId));

type Row = { r: Reservation; stationName: string | null; chargerName: string | null; feeTotalCents: number | null };

/** `money`: the caller may see payments (the fee's total is left out for the other roles). */
function dto({ r, stationName, chargerName, feeTotalCents }: Row, money: boolean): ReservationDto {
  return {
    id: r.id,
    reservationId: r.reservationNumber,
    status: r.status,
    chargerStatus: r.chargerStatus ?? null,
    stationId: r.stationId ?? null,
    stationName: r.stationId ? (stationName ?? null) : null,
    chargerId: r.chargerId ?? null,
    chargerName: r.chargerId ? (chargerName ?? null) : null,
    connectorId: r.connectorId ?? null,
    connectorNumber: r.connectorNumber,
    idTag: r.idTag,
    expiresAt: r.expiresAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    endedAt: iso(r.endedAt),
    sessionId: r.sessionId ?? null,
    feeSessionId: r.feeSessionId ?? null,
    ...(money ? { feeTotalCents: r.feeSessionId ? (feeTotalCents ?? null) : null } : {}),
  };
}

async function findOne(db: Db, businessId: string, id: string): Promise<Row> {
  const [row] = await select(db)
    .where(and(eq(reservations.id, id), eq(reservations.businessId, businessId)))
    .limit(1);
  if (!row) throw notFound(RESERVATION);
  return row;
}

const UNTIL = new Intl.DateTimeFormat("es-AR", { timeZone: "America/Argentina/Buenos_Aires", dateStyle: "short", timeStyle: "short" });

/** Spanish for the charger's refusal of a ReserveNow. */
const RESERVE_REFUSALS: Record<string, string> = {
  Occupied: "el conector está ocupado",
  Faulted: "el conector está en falla",
  Unavailable: "el conector no está disponible",
  Rejected: "el cargador no acepta reservas",
  NotSupported: "el cargador no admite reservas",
  NotImplemented: "el cargador no admite reservas",
  timeout: "el cargador no respondió a tiempo",
  error: "no se pudo comunicar con el cargador",
};

/** The Spanish outcome of a ReserveNow. */
function reserveMessage(answer: ChargerAnswer, r: Reservation): string {
  const status = answerStatus(answer);
  // es-AR times end in "a. m."/"p. m.": the sentence's own period is not doubled.
  if (status === "Accepted") return `El cargador reservó el conector ${r.connectorNumber} para ${r.idTag} hasta el ${UNTIL.format(r.expiresAt)}`.replace(/\.?$/, ".");
  // Our side failed (logged by the central system): the charger did not refuse anything.
  if (answer.kind === "error") return "No se pudo pedirle la reserva al cargador por un error de Enchufá, no del cargador (ya quedó registrado). Probá de nuevo.";
  return `El cargador no aceptó la reserva: ${RESERVE_REFUSALS[status] ?? `respondió ${status}`}.`;
}

export function reservationRoutes({ db, now, ocpp }: ApiServices) {
  const r = new Hono<AppEnv>();

  r.get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, reservationListQuery);
    const where: SQL[] = [eq(reservations.businessId, b.id)];
    if (query.stationId) where.push(eq(reservations.stationId, query.stationId));
    if (query.chargerId) where.push(eq(reservations.chargerId, query.chargerId));
    if (query.status) where.push(eq(reservations.status, query.status));
    const [rows, [{ total }]] = await Promise.all([
      select(db)
        .where(and(...where))
        .orderBy(desc(reservations.createdAt), desc(reservations.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db
        .select({ total: count() })
        .from(reservations)
        .where(and(...where)),
    ]);
    const body: Page<ReservationDto> = { items: rows.map((row) => dto(row, seesMoney(c))), total, page: query.page, pageSize: query.pageSize };
    return c.json(body);
  });

  r.get("/:id", async (c) => {
    const b = tenant(c);
    return c.json(dto(await findOne(db, b.id, idParam(c, "id", RESERVATION)), seesMoney(c)));
  });

  r.post("/", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, reservationInputSchema);
    const t = now();
    if (input.expiresAt.getTime() <= t.getTime() + 60_000) throw fieldError("expiresAt", RESERVATION_MESSAGES.past);
    if (input.expiresAt.getTime() > t.getTime() + RESERVATION_MAX_HOURS * 3_600_000) throw fieldError("expiresAt", RESERVATION_MESSAGES.tooFar);
    const [target] = await db
      .select({ connectorId: connectors.id, connectorNumber: connectors.connectorId, chargerId: chargers.id, ocppIdentity: chargers.ocppIdentity, stationId: chargers.stationId, online: chargers.online })
      .from(connectors)
      .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
      .where(and(eq(connectors.id, input.connectorId), eq(chargers.businessId, b.id)))
      .limit(1);
    if (!target) throw fieldError("connectorId", RESERVATION_MESSAGES.connector);
    const [taken] = await db
      .select({ id: reservations.id })
      .from(reservations)
      .where(and(eq(reservations.connectorId, target.connectorId), eq(reservations.status, "ACTIVE")))
      .limit(1);
    if (taken) throw conflict(RESERVATION_TAKEN_MESSAGE, { connectorId: [RESERVATION_TAKEN_MESSAGE] });
    if (!target.online || !ocpp?.callCharger) throw conflict(RESERVATION_OFFLINE_MESSAGE, { connectorId: [RESERVATION_OFFLINE_MESSAGE] });

    // The row first: its number is the OCPP reservationId the charger is given.
    const [created] = await db
      .insert(reservations)
      .values({
        businessId: b.id,
        stationId: target.stationId,
        chargerId: target.chargerId,
        connectorId: target.connectorId,
        connectorNumber: target.connectorNumber,
        idTag: input.idTag,
        expiresAt: input.expiresAt,
      })
      .onConflictDoNothing()
      .returning();
    if (!created) throw conflict(RESERVATION_TAKEN_MESSAGE, { connectorId: [RESERVATION_TAKEN_MESSAGE] });

    const answer = await ocpp.callCharger({ id: target.chargerId, ocppIdentity: target.ocppIdentity }, (protocol) => reserveNowCall(protocol, created));
    if (answer.kind === "offline") {
      // It went away between the check and the call: nothing was reserved.
      await db.delete(reservations).where(eq(reservations.id, created.id));
      throw conflict(RESERVATION_OFFLINE_MESSAGE, { connectorId: [RESERVATION_OFFLINE_MESSAGE] });
    }
    const chargerStatus = answerStatus(answer);
    const accepted = chargerStatus === "Accepted";
    await db
      .update(reservations)
      .set(accepted ? { chargerStatus } : { chargerStatus, status: "REFUSED", endedAt: now() })
      .where(and(eq(reservations.id, created.id), eq(reservations.status, "ACTIVE")));
    const body: ReservationResultDto = { ...dto(await findOne(db, b.id, created.id), seesMoney(c)), message: reserveMessage(answer, created) };
    return c.json(body, 201);
  });

  r.delete("/:id", async (c) => {
    const b = tenant(c);
    const current = await findOne(db, b.id, idParam(c, "id", RESERVATION));
    if (current.r.status !== "ACTIVE") throw conflict(RESERVATION_NOT_ACTIVE_MESSAGE);
    const [charger] = current.r.chargerId
      ? await db
          .select({ id: chargers.id, ocppIdentity: chargers.ocppIdentity })
          .from(chargers)
          .where(and(eq(chargers.id, current.r.chargerId), eq(chargers.businessId, b.id)))
      : [];
    const answer: ChargerAnswer = charger && ocpp?.callCharger ? await ocpp.callCharger(charger, (protocol) => cancelReservationCall(protocol, current.r.reservationNumber)) : { kind: "offline" };
    const status = answerStatus(answer);
    const [cancelled] = await db
      .update(reservations)
      .set({ status: "CANCELLED", endedAt: now() })
      .where(and(eq(reservations.id, current.r.id), eq(reservations.businessId, b.id), eq(reservations.status, "ACTIVE")))
      .returning({ id: reservations.id });
    // Used or expired while the charger answered.
    if (!cancelled) throw conflict(RESERVATION_NOT_ACTIVE_MESSAGE);
    const message =
      status === "Accepted"
        ? "Cancelamos la reserva y el cargador la liberó."
        : status === "offline"
          ? "Cancelamos la reserva. El cargador no está conectado: la libera cuando venza."
          : status === "timeout"
            ? "Cancelamos la reserva. El cargador no respondió a tiempo: puede seguir reservado hasta que venza."
            : status === "error"
              ? "Cancelamos la reserva. Un error de Enchufá impidió avisarle al cargador (ya quedó registrado): puede seguir reservado hasta que venza."
              : "Cancelamos la reserva. El cargador no la tenía (ya la había liberado).";
    const body: ReservationResultDto = { ...dto(await findOne(db, b.id, current.r.id), seesMoney(c)), message };
    return c.json(body);
  });

  return r;
}
