// Commands receiver (mod_commands.asciidoc, ADR 0020): START_SESSION, STOP_SESSION and
// UNLOCK_CONNECTOR become the OCPP commands the dashboard sends (RemoteStartTransaction,
// RemoteStopTransaction, UnlockConnector through the central system). The partner gets a
// CommandResponse at once and the charger's answer as a CommandResult POSTed to its response_url
// (§Interfaces: asynchronous). RESERVE_NOW and CANCEL_RESERVATION are NOT_SUPPORTED (no
// reservations in Enchufá yet).
import { and, desc, eq, lte } from "drizzle-orm";
import { z } from "zod";
import { chargers, chargingSessions, connectors, ocpiSessions, stations, type BusinessUser, type OcpiPartner } from "../db/schema";
import type { ChargerCommand, CommandReply } from "../ocpp/commands";
import { PartnerError } from "./client";
import { OCPI_STATUS, OcpiError } from "./envelope";
import { callPartner, OCPI_COUNTRY_CODE, type OcpiServices } from "./registration";
import { commandType, startSession, stopSession, unlockConnector, type CommandResponse, type CommandResultBody } from "./schemas";

/** What the /ocpi commands need of the OCPP central system (api/env's OcppGateway has it). */
export interface CommandGateway {
  sendCommand(charger: { id: string; ocppIdentity: string }, command: ChargerCommand): Promise<CommandReply>;
}

/** Seconds the partner may wait for the CommandResult (the central system's command timeout is shorter). */
export const COMMAND_TIMEOUT_S = 30;
/** OCPP 1.6 idTag is at most 20 characters: a longer token uid cannot start a session. */
const ID_TAG_MAX = 20;

const text = (en: string) => [{ language: "en", text: en }];

/** The charger's answer as §CommandResultType. */
export function commandResultOf(r: CommandReply): CommandResultBody {
  switch (r.outcome) {
    case "accepted":
      return { result: "ACCEPTED" };
    case "timeout":
      return { result: "TIMEOUT" };
    case "offline":
      return { result: "FAILED", message: text("The charge point is not connected.") };
    case "rejected":
      return { result: r.status === "NotSupported" || r.status === "NotImplemented" ? "NOT_SUPPORTED" : "REJECTED", message: r.status ? text(`Charge point answered ${r.status}.`) : undefined };
    default:
      return { result: "FAILED" };
  }
}

interface Target {
  charger: { id: string; ocppIdentity: string };
  connectorNumber: number;
}

/** A connector of a station the partner's company publishes to roaming; null when unknown there. */
async function findTarget(svc: OcpiServices, businessId: string, locationId: string, evseUid?: string, connectorId?: string): Promise<Target | null> {
  const uuid = /^[0-9a-f-]{36}$/i;
  if (!uuid.test(locationId) || (evseUid && !uuid.test(evseUid))) return null;
  const conditions = [eq(stations.id, locationId), eq(stations.businessId, businessId), eq(stations.roamingPublished, true), eq(chargers.businessId, businessId)];
  if (evseUid) conditions.push(eq(chargers.id, evseUid));
  if (connectorId) {
    if (!/^\d{1,2}$/.test(connectorId)) return null;
    conditions.push(eq(connectors.connectorId, Number(connectorId)));
  }
  const [row] = await svc.db
    .select({ id: chargers.id, ocppIdentity: chargers.ocppIdentity, connectorNumber: connectors.connectorId })
    .from(stations)
    .innerJoin(chargers, eq(chargers.stationId, stations.id))
    .innerJoin(connectors, eq(connectors.chargerId, chargers.id))
    .where(and(...conditions))
    .orderBy(chargers.createdAt, connectors.connectorId)
    .limit(1);
  return row ? { charger: { id: row.id, ocppIdentity: row.ocppIdentity }, connectorNumber: row.connectorNumber } : null;
}

/** POSTs the result to the partner's response_url with our token for it; failures are counted on the partner. */
async function postResult(svc: OcpiServices, partner: OcpiPartner, business: BusinessUser, responseUrl: string, result: CommandResultBody): Promise<void> {
  try {
    await callPartner(svc, partner, "POST", responseUrl, z.unknown(), result, { from: { countryCode: OCPI_COUNTRY_CODE, partyId: business.ocpiPartyId ?? "" } });
  } catch (err) {
    svc.logger.warn({ partnerId: partner.id, err: (err as Error).message }, "ocpi: el socio no recibió el resultado del comando");
  }
}

/**
 * POST /ocpi/2.2.1/commands/{command}: validates, answers the CommandResponse, and sends the
 * OCPP command in the background; `done` resolves when the CommandResult has been posted (tests).
 */
export async function receiveCommand(
  svc: OcpiServices,
  gateway: CommandGateway | undefined,
  partner: OcpiPartner,
  business: BusinessUser,
  type: string,
  body: unknown,
): Promise<{ response: CommandResponse; done: Promise<void> }> {
  const command = commandType.safeParse(type);
  if (!command.success) throw new OcpiError(404, OCPI_STATUS.CLIENT_ERROR, "Unknown command.");
  const reply = (result: CommandResponse["result"], message?: string) => ({ response: { result, timeout: COMMAND_TIMEOUT_S, ...(message ? { message: text(message) } : {}) }, done: Promise.resolve() });
  if (command.data === "RESERVE_NOW" || command.data === "CANCEL_RESERVATION") return reply("NOT_SUPPORTED", "Reservations are not supported.");
  if (!gateway) return reply("NOT_SUPPORTED", "Commands are not available.");
  const invalid = () => new OcpiError(200, OCPI_STATUS.INVALID_PARAMETERS, `Invalid ${command.data} object.`);
  // The result goes to response_url: the partners' address rule applies to it (ADR 0021), checked
  // before anything is recorded or sent.
  const checkResponseUrl = async (responseUrl: string) => {
    try {
      await svc.client.checkUrl(responseUrl);
    } catch (err) {
      if (err instanceof PartnerError) throw new OcpiError(200, OCPI_STATUS.INVALID_PARAMETERS, "response_url is not an address we can call.");
      throw err;
    }
  };
  const later = (responseUrl: string, run: () => Promise<CommandReply>) => {
    const done = run()
      .then((r) => postResult(svc, partner, business, responseUrl, commandResultOf(r)))
      .catch((err) => {
        svc.logger.error({ partnerId: partner.id, err: (err as Error).message }, "ocpi: comando fallido");
        return postResult(svc, partner, business, responseUrl, { result: "FAILED" });
      });
    return { response: { result: "ACCEPTED" as const, timeout: COMMAND_TIMEOUT_S }, done };
  };

  if (command.data === "START_SESSION") {
    const parsed = startSession.safeParse(body);
    if (!parsed.success) throw invalid();
    const p = parsed.data;
    if (p.connector_id && !p.evse_uid) throw invalid();
    const target = await findTarget(svc, business.id, p.location_id, p.evse_uid, p.connector_id);
    // status_codes.asciidoc: 2003 "Command: START_SESSION with unknown location".
    if (!target) throw new OcpiError(200, OCPI_STATUS.UNKNOWN_LOCATION, "Unknown location, EVSE or connector.");
    await checkResponseUrl(p.response_url);
    if (!p.token.valid || p.token.uid.length > ID_TAG_MAX) return reply("REJECTED", p.token.valid ? "Token uid too long for the charge point (20 characters at most)." : "Token not valid.");
    await svc.db.insert(ocpiSessions).values({
      businessId: business.id,
      partnerId: partner.id,
      chargerId: target.charger.id,
      connectorNumber: target.connectorNumber,
      tokenUid: p.token.uid,
      token: { country_code: p.token.country_code, party_id: p.token.party_id, uid: p.token.uid, type: p.token.type, contract_id: p.token.contract_id },
      authorizationReference: p.authorization_reference ?? null,
    });
    return later(p.response_url, () => gateway.sendCommand(target.charger, { command: "RemoteStartTransaction", connectorId: target.connectorNumber, idTag: p.token.uid }));
  }

  if (command.data === "STOP_SESSION") {
    const parsed = stopSession.safeParse(body);
    if (!parsed.success) throw invalid();
    await checkResponseUrl(parsed.data.response_url);
    const session = await partnerSession(svc, partner, parsed.data.session_id);
    if (!session) return reply("UNKNOWN_SESSION");
    if (session.status !== "ACTIVE" && session.status !== "IDLE") return reply("REJECTED", "The session has ended.");
    return later(parsed.data.response_url, () => gateway.sendCommand(session.charger, { command: "RemoteStopTransaction", connectorId: session.connectorNumber }));
  }

  const parsed = unlockConnector.safeParse(body);
  if (!parsed.success) throw invalid();
  const target = await findTarget(svc, business.id, parsed.data.location_id, parsed.data.evse_uid, parsed.data.connector_id);
  if (!target) throw new OcpiError(200, OCPI_STATUS.UNKNOWN_LOCATION, "Unknown location, EVSE or connector.");
  await checkResponseUrl(parsed.data.response_url);
  return later(parsed.data.response_url, () => gateway.sendCommand(target.charger, { command: "UnlockConnector", connectorId: target.connectorNumber }));
}

/**
 * Our session `sessionId` if this partner started it: linked already, or the session that began on
 * the charger and connector of one of its START_SESSIONs, with its token, after it (then linked).
 */
export async function partnerSession(svc: OcpiServices, partner: OcpiPartner, sessionId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(sessionId)) return null;
  const [s] = await svc.db
    .select({
      id: chargingSessions.id,
      status: chargingSessions.status,
      chargerId: chargingSessions.chargerId,
      connectorNumber: chargingSessions.connectorNumber,
      idTag: chargingSessions.idTag,
      startedAt: chargingSessions.startedAt,
      ocppIdentity: chargers.ocppIdentity,
    })
    .from(chargingSessions)
    .innerJoin(chargers, eq(chargers.id, chargingSessions.chargerId))
    .where(and(eq(chargingSessions.id, sessionId), eq(chargingSessions.businessId, partner.businessId)))
    .limit(1);
  if (!s || !s.chargerId) return null;
  const [linked] = await svc.db
    .select({ id: ocpiSessions.id, sessionId: ocpiSessions.sessionId })
    .from(ocpiSessions)
    .where(
      and(
        eq(ocpiSessions.partnerId, partner.id),
        eq(ocpiSessions.chargerId, s.chargerId),
        eq(ocpiSessions.connectorNumber, s.connectorNumber),
        eq(ocpiSessions.tokenUid, s.idTag),
        // Asked before the charger started it (a few seconds of slack for the charger's clock).
        lte(ocpiSessions.createdAt, new Date(s.startedAt.getTime() + 5_000)),
      ),
    )
    .orderBy(desc(ocpiSessions.createdAt))
    .limit(1);
  if (!linked || (linked.sessionId && linked.sessionId !== s.id)) return null;
  if (!linked.sessionId) await svc.db.update(ocpiSessions).set({ sessionId: s.id }).where(eq(ocpiSessions.id, linked.id));
  return { ...s, charger: { id: s.chargerId, ocppIdentity: s.ocppIdentity } };
}
