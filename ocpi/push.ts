// Sessions and CDRs pushed to the partner that started them (mod_sessions.asciidoc §Receiver
// interface PUT {url}/{country_code}/{party_id}/{session_id}; mod_cdrs.asciidoc §Receiver
// interface POST {url}), ADR 0020. A sync pass, not a queue: each pass links the sessions partners
// started by command, PUTs every linked session changed since its last push, and POSTs the CDR of
// every completed one not yet accepted. A failed push is retried by the next pass and counted on
// the partner (failures, last error); a success records the last sync. server.ts runs a pass on a
// timer; tests run it directly.
import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { businessUsers, chargers, chargingSessions, connectors, connectorTypes, ocpiPartners, ocpiSessions, stations, type OcpiPartner } from "../db/schema";
import { endpointUrl, PartnerError } from "./client";
import { sessionToCdr, type CdrPlace } from "./cdr";
import { ocpiDateTime } from "./envelope";
import { OCPI_COUNTRY_CODE, partnerToken, type OcpiServices } from "./registration";
import type { CdrToken, OcpiSession } from "./schemas";
import type { Party } from "./mapping";

/** Rows handled per pass (the next pass takes the rest). */
const PASS_LIMIT = 200;

/** Links START_SESSION commands to the sessions their chargers then started (same charger, connector and idTag, after the command). */
async function linkStartedSessions(svc: OcpiServices): Promise<void> {
  await svc.db.execute(sql`
    update ${ocpiSessions} o set session_id = s.id, updated_at = now()
    from ${chargingSessions} s
    where o.session_id is null
      and s.charger_id = o.charger_id and s.connector_number = o.connector_number and s.id_tag = o.token_uid
      and s.started_at >= o.created_at - interval '5 seconds'
      and not exists (select 1 from ${ocpiSessions} x where x.session_id = s.id)`);
}

export interface PushReport {
  sessions: number;
  cdrs: number;
  failures: number;
}

export async function pushSessionsAndCdrs(svc: OcpiServices): Promise<PushReport> {
  await linkStartedSessions(svc);
  const rows = await svc.db
    .select({ link: ocpiSessions, session: chargingSessions, partner: ocpiPartners, partyId: businessUsers.ocpiPartyId, operatorName: businessUsers.businessName })
    .from(ocpiSessions)
    .innerJoin(chargingSessions, eq(chargingSessions.id, ocpiSessions.sessionId))
    .innerJoin(ocpiPartners, and(eq(ocpiPartners.id, ocpiSessions.partnerId), eq(ocpiPartners.businessId, ocpiSessions.businessId)))
    .innerJoin(businessUsers, eq(businessUsers.id, ocpiSessions.businessId))
    .where(
      and(
        eq(ocpiPartners.status, "REGISTERED"),
        or(
          isNull(ocpiSessions.sessionPushedAt),
          gt(chargingSessions.updatedAt, ocpiSessions.sessionPushedAt),
          and(eq(chargingSessions.status, "COMPLETED"), isNull(ocpiSessions.cdrPushedAt)),
        ),
      ),
    )
    .orderBy(asc(chargingSessions.updatedAt))
    .limit(PASS_LIMIT);
  const report: PushReport = { sessions: 0, cdrs: 0, failures: 0 };
  for (const { link, session, partner, partyId, operatorName } of rows) {
    const party: Party = { countryCode: OCPI_COUNTRY_CODE, partyId: partyId ?? "", operatorName };
    const token = partnerToken(svc, partner);
    const place = await placeOf(svc, session);
    if (!token || !place) continue;
    try {
      const pushSession = link.sessionPushedAt === null || session.updatedAt > link.sessionPushedAt;
      if (pushSession) {
        const url = endpointUrl(partner.endpoints, "sessions", "RECEIVER");
        if (url) {
          const body = sessionObject(party, session, place, link.token as CdrToken, link.authorizationReference);
          await svc.client.request("PUT", `${url.replace(/\/$/, "")}/${party.countryCode}/${party.partyId}/${session.id}`, token, z.unknown(), body);
          report.sessions++;
        }
        await svc.db.update(ocpiSessions).set({ sessionPushedAt: session.updatedAt }).where(eq(ocpiSessions.id, link.id));
      }
      if (session.status === "COMPLETED" && link.cdrPushedAt === null) {
        const url = endpointUrl(partner.endpoints, "cdrs", "RECEIVER");
        if (url) {
          const cdr = sessionToCdr(party, { ...session, rateSnapshot: session.rateSnapshot ?? null }, place, link.token as CdrToken, {
            authMethod: "COMMAND",
            authorizationReference: link.authorizationReference ?? undefined,
          });
          await svc.client.request("POST", url, token, z.unknown(), cdr);
          report.cdrs++;
        }
        await svc.db.update(ocpiSessions).set({ cdrPushedAt: svc.now() }).where(eq(ocpiSessions.id, link.id));
      }
      await svc.db.update(ocpiPartners).set({ lastSyncAt: svc.now(), failures: 0, lastError: null }).where(eq(ocpiPartners.id, partner.id));
    } catch (err) {
      report.failures++;
      const message = err instanceof PartnerError ? err.message : "Error inesperado al enviar al socio.";
      await recordFailure(svc, partner, message);
      if (!(err instanceof PartnerError)) svc.logger.error({ partnerId: partner.id, err: (err as Error).message }, "ocpi: envío de sesión o CDR fallido");
    }
  }
  return report;
}

async function recordFailure(svc: OcpiServices, partner: OcpiPartner, message: string) {
  await svc.db
    .update(ocpiPartners)
    .set({ failures: sql`${ocpiPartners.failures} + 1`, lastError: message.slice(0, 300) })
    .where(eq(ocpiPartners.id, partner.id));
}

async function placeOf(svc: OcpiServices, session: typeof chargingSessions.$inferSelect): Promise<CdrPlace | null> {
  if (!session.stationId || !session.chargerId) return null;
  const [row] = await svc.db
    .select({ station: stations, standard: connectorTypes.code, format: connectors.format, powerType: connectors.powerType })
    .from(stations)
    .innerJoin(chargers, eq(chargers.id, session.chargerId))
    .leftJoin(connectors, and(eq(connectors.chargerId, chargers.id), eq(connectors.connectorId, session.connectorNumber)))
    .leftJoin(connectorTypes, eq(connectorTypes.id, connectors.connectorTypeId))
    .where(and(eq(stations.id, session.stationId), eq(stations.businessId, session.businessId)))
    .limit(1);
  if (!row) return null;
  return {
    station: row.station,
    chargerId: session.chargerId,
    connector: { connectorId: session.connectorNumber, standard: row.standard ?? "IEC_62196_T2", format: row.format ?? "SOCKET", powerType: row.powerType ?? "AC_3_PHASE" },
  };
}

/** mod_sessions §Session object: our session as the partner sees it while it runs and once it ends. */
export function sessionObject(party: Party, s: typeof chargingSessions.$inferSelect, place: CdrPlace, token: CdrToken, authorizationReference: string | null): OcpiSession {
  const ended = s.status === "COMPLETED" || s.status === "INVALID";
  const end = s.unpluggedAt ?? s.stoppedAt ?? s.chargingEndedAt;
  return {
    country_code: party.countryCode,
    party_id: party.partyId,
    id: s.id,
    start_date_time: ocpiDateTime(s.startedAt),
    ...(ended && end ? { end_date_time: ocpiDateTime(end) } : {}),
    kwh: Math.round(s.energyWh) / 1000,
    cdr_token: token,
    auth_method: "COMMAND",
    ...(authorizationReference ? { authorization_reference: authorizationReference } : {}),
    location_id: place.station.id,
    evse_uid: place.chargerId,
    connector_id: String(place.connector.connectorId),
    currency: s.rateSnapshot?.currency ?? "ARS",
    ...(ended ? { total_cost: { excl_vat: Math.round(s.totalCents - s.vatCents) / 100, incl_vat: s.totalCents / 100 } } : {}),
    status: s.status === "COMPLETED" ? "COMPLETED" : s.status === "INVALID" ? "INVALID" : "ACTIVE",
    last_updated: ocpiDateTime(s.updatedAt),
  };
}

/** Runs a pass every `intervalMs` (server.ts); returns the stop function. */
export function startPushLoop(svc: OcpiServices, intervalMs = 5_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pushSessionsAndCdrs(svc)
      .catch((err) => svc.logger.error({ err: (err as Error).message }, "ocpi: pasada de envíos fallida"))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
