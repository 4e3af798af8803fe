// What partners are sent (ADR 0020, 0021): the sessions and CDRs of their drivers
// (mod_sessions.asciidoc §Receiver interface PUT {url}/{country_code}/{party_id}/{session_id};
// mod_cdrs.asciidoc §Receiver interface POST {url}), the changes of the stations published
// to them (ocpi/locations-push.ts) and of the tariffs of those stations (ocpi/tariffs-push.ts). A sync pass, not a queue: each pass links the sessions
// partners started by command, then, partner by partner, PUTs every linked session changed since
// its last push, POSTs the CDR of every completed one not yet accepted, and pushes location
// changes. A failed push is retried by a later pass and counted on the partner (failures, last
// error); a success records the last sync. server.ts runs a pass on a timer; tests run it directly.
//
// One pusher across nodes (ADR 0021): every node runs the timer, but a pass only works for the
// partners it claims — a conditional UPDATE of ocpi_partners over rows locked with FOR UPDATE
// SKIP LOCKED (as the OCPP sweeps claim chargers), holding each for CLAIM_SECONDS, renewed before
// each request and released at the end. Another node's pass skips a held partner, so a CDR is
// POSTed by one node once (a node that dies mid-pass leaves its partners to the next pass after
// the hold runs out).
import { randomUUID } from "node:crypto";
import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { businessUsers, chargers, chargingSessions, connectors, connectorTypes, ocpiPartners, ocpiSessions, stations, type OcpiAuthMethod, type OcpiPartner } from "../db/schema";
import { endpointUrl, PartnerError } from "./client";
import { chargingPeriodsOf, sessionToCdr, type CdrPlace } from "./cdr";
import { priceSession, usageFromSession } from "../domain/pricing";
import { isArgentineHoliday } from "../domain/holidays.server";
import { ocpiDateTime } from "./envelope";
import { pushLocationChanges } from "./locations-push";
import { pushTariffChanges } from "./tariffs-push";
import { callPartner, OCPI_COUNTRY_CODE, partnerToken, type OcpiServices } from "./registration";
import type { CdrToken, OcpiSession } from "./schemas";
import type { Party } from "./mapping";

/** Sessions handled per partner and pass (the next pass takes the rest). */
const PASS_LIMIT = 200;
/** Partners a pass claims at most. */
const PARTNERS_PER_PASS = 100;
/**
 * How long a pass holds a partner. Renewed before each request once RENEW_AFTER_MS have passed,
 * so the hold always outlasts the request under way (10 s timeout) by a wide margin.
 */
const CLAIM_SECONDS = 60;
const RENEW_AFTER_MS = 15_000;
/**
 * A running session is PATCHed when it has moved at least this long past the state last sent
 * (meter values come every minute or so): partners see the running energy and cost without a
 * request per reading. Its start and end are sent at once.
 */
const RUNNING_PATCH_MS = 60_000;
/** A partner that failed this often in a pass is left for the next one (it is probably down). */
const FAILURES_PER_PASS = 3;

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
  /** Requests to partners' Locations receivers (PUT of a location, PATCH of an EVSE or a location). */
  locations: number;
  /** Requests to partners' Tariffs receivers (PUT or DELETE of a tariff). */
  tariffs: number;
  failures: number;
}

/** The registered partners no other pass holds, now held by this one (`claim`). */
async function claimPartners(svc: OcpiServices, claim: string): Promise<OcpiPartner[]> {
  return svc.db
    .update(ocpiPartners)
    .set({ pushClaim: claim, pushClaimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`, updatedAt: sql`${ocpiPartners.updatedAt}` })
    .where(
      sql`${ocpiPartners.id} in (select id from ocpi_partners
            where status = 'REGISTERED' and (push_claimed_until is null or push_claimed_until < now())
            order by push_claimed_until nulls first, id
            limit ${PARTNERS_PER_PASS}
            for update skip locked)`,
    )
    .returning();
}

/** Renews this pass's hold on the partner; false when another pass holds it now. */
async function renewClaim(svc: OcpiServices, partnerId: string, claim: string): Promise<boolean> {
  const rows = await svc.db
    .update(ocpiPartners)
    .set({ pushClaimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`, updatedAt: sql`${ocpiPartners.updatedAt}` })
    .where(and(eq(ocpiPartners.id, partnerId), eq(ocpiPartners.pushClaim, claim)))
    .returning({ id: ocpiPartners.id });
  return rows.length > 0;
}

async function releaseClaim(svc: OcpiServices, partnerId: string, claim: string): Promise<void> {
  await svc.db
    .update(ocpiPartners)
    .set({ pushClaim: null, pushClaimedUntil: null, updatedAt: sql`${ocpiPartners.updatedAt}` })
    .where(and(eq(ocpiPartners.id, partnerId), eq(ocpiPartners.pushClaim, claim)));
}

/** One pass: the partners this node claims get their sessions, CDRs and location changes. */
export async function pushToPartners(svc: OcpiServices): Promise<PushReport> {
  await linkStartedSessions(svc);
  const claim = randomUUID();
  const partners = await claimPartners(svc, claim);
  const report: PushReport = { sessions: 0, cdrs: 0, locations: 0, tariffs: 0, failures: 0 };
  for (const partner of partners) {
    let renewedAt = Date.now();
    const stillMine = async () => {
      if (Date.now() - renewedAt < RENEW_AFTER_MS) return true;
      renewedAt = Date.now();
      return renewClaim(svc, partner.id, claim);
    };
    try {
      const [business] = await svc.db
        .select({ partyId: businessUsers.ocpiPartyId, operatorName: businessUsers.businessName })
        .from(businessUsers)
        .where(eq(businessUsers.id, partner.businessId));
      if (!business) continue;
      const party: Party = { countryCode: OCPI_COUNTRY_CODE, partyId: business.partyId ?? "", operatorName: business.operatorName };
      const failuresBefore = report.failures;
      await pushSessions(svc, partner, party, stillMine, report);
      if (report.failures - failuresBefore >= FAILURES_PER_PASS) continue;
      // Tariffs before Locations: a connector's tariff_ids then name Tariffs the partner has.
      try {
        const sent = await pushTariffChanges(svc, partner, party, stillMine);
        report.tariffs += sent;
        if (sent > 0) await markSynced(svc, partner);
      } catch (err) {
        report.failures++;
        await recordFailure(svc, partner, err);
      }
      try {
        const sent = await pushLocationChanges(svc, partner, party, stillMine);
        report.locations += sent;
        if (sent > 0) await markSynced(svc, partner);
      } catch (err) {
        report.failures++;
        await recordFailure(svc, partner, err);
      }
    } finally {
      await releaseClaim(svc, partner.id, claim);
    }
  }
  return report;
}

async function markSynced(svc: OcpiServices, partner: OcpiPartner) {
  await svc.db.update(ocpiPartners).set({ lastSyncAt: svc.now(), failures: 0, lastError: null }).where(eq(ocpiPartners.id, partner.id));
}

/** The partner's sessions and CDRs, counted in `report`. */
async function pushSessions(svc: OcpiServices, partner: OcpiPartner, party: Party, stillMine: () => Promise<boolean>, report: PushReport): Promise<void> {
  const rows = await svc.db
    .select({ link: ocpiSessions, session: chargingSessions })
    .from(ocpiSessions)
    .innerJoin(chargingSessions, eq(chargingSessions.id, ocpiSessions.sessionId))
    .where(
      and(
        eq(ocpiSessions.partnerId, partner.id),
        eq(ocpiSessions.businessId, partner.businessId),
        or(
          isNull(ocpiSessions.sessionPushedAt),
          gt(chargingSessions.updatedAt, ocpiSessions.sessionPushedAt),
          and(eq(chargingSessions.status, "COMPLETED"), isNull(ocpiSessions.cdrPushedAt)),
        ),
      ),
    )
    .orderBy(asc(chargingSessions.updatedAt))
    .limit(PASS_LIMIT);
  const token = partnerToken(svc, partner);
  if (!token) return;
  let delivered = false;
  let failures = 0;
  for (const { link, session } of rows) {
    const place = await placeOf(svc, session);
    if (!place) continue;
    if (!(await stillMine())) break;
    try {
      const running = session.status === "ACTIVE";
      const pushSession =
        link.sessionPushedAt === null ||
        (session.updatedAt > link.sessionPushedAt && (!running || session.updatedAt.getTime() - link.sessionPushedAt.getTime() >= RUNNING_PATCH_MS));
      if (pushSession) {
        const url = endpointUrl(partner.endpoints, "sessions", "RECEIVER");
        if (url) {
          const body = sessionObject(party, session, place, link.token as CdrToken, link.authorizationReference, link.authMethod);
          const target = `${url.replace(/\/$/, "")}/${party.countryCode}/${party.partyId}/${session.id}`;
          // mod_sessions §Receiver interface: PUT a new or ended session whole; while it runs, PATCH what moves.
          if (link.sessionPushedAt !== null && running) {
            const { kwh, charging_periods, total_cost, last_updated } = body;
            await callPartner(svc, partner, "PATCH", target, z.unknown(), { kwh, charging_periods, total_cost, last_updated }, { from: party });
          } else {
            await callPartner(svc, partner, "PUT", target, z.unknown(), body, { from: party });
          }
          report.sessions++;
        }
        await svc.db.update(ocpiSessions).set({ sessionPushedAt: session.updatedAt }).where(eq(ocpiSessions.id, link.id));
      }
      if (session.status === "COMPLETED" && link.cdrPushedAt === null) {
        const url = endpointUrl(partner.endpoints, "cdrs", "RECEIVER");
        if (url) {
          const cdr = sessionToCdr(party, { ...session, rateSnapshot: session.rateSnapshot ?? null }, place, link.token as CdrToken, {
            authMethod: link.authMethod,
            authorizationReference: link.authorizationReference ?? undefined,
          });
          // Held by this pass until well after this request ends (renewed just before if needed): no other node posts it meanwhile.
          if (!(await stillMine())) break;
          await callPartner(svc, partner, "POST", url, z.unknown(), cdr, { from: party });
          report.cdrs++;
        }
        await svc.db.update(ocpiSessions).set({ cdrPushedAt: svc.now() }).where(eq(ocpiSessions.id, link.id));
      }
      delivered = true;
    } catch (err) {
      report.failures++;
      await recordFailure(svc, partner, err);
      if (++failures >= FAILURES_PER_PASS) break;
    }
  }
  // A pass without failures clears the partner's count; one with failures leaves it raised.
  if (delivered && failures === 0) await markSynced(svc, partner);
}

async function recordFailure(svc: OcpiServices, partner: OcpiPartner, err: unknown) {
  const message = err instanceof PartnerError ? err.message : "Error inesperado al enviar al socio.";
  if (!(err instanceof PartnerError)) svc.logger.error({ partnerId: partner.id, err: (err as Error).message }, "ocpi: envío al socio fallido");
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

/**
 * mod_sessions §Session object: our session as the partner sees it while it runs and once it
 * ends, with its charging periods and cost so far (mod_sessions §Session: total_cost, charging_periods)
 * as of its last update — priced by domain/pricing like the closed session will be.
 */
export function sessionObject(
  party: Party,
  s: typeof chargingSessions.$inferSelect,
  place: CdrPlace,
  token: CdrToken,
  authorizationReference: string | null,
  authMethod: OcpiAuthMethod = "COMMAND",
): OcpiSession {
  const ended = s.status === "COMPLETED" || s.status === "INVALID";
  const end = s.unpluggedAt ?? s.stoppedAt ?? s.chargingEndedAt;
  const asOf = ended ? (end ?? s.updatedAt) : s.updatedAt;
  const rate = s.rateSnapshot ?? null;
  const { periods } = chargingPeriodsOf({ ...s, rateSnapshot: rate }, asOf, place.station.timeZone);
  let cost = { totalCents: s.totalCents, vatCents: s.vatCents };
  if (!ended) {
    // A rate with bands prices by the station's local hours and the holiday calendar, as the closed session will be.
    const usage = { ...usageFromSession({ ...s, stoppedAt: s.stoppedAt ?? asOf, timeZone: place.station.timeZone }), isHoliday: isArgentineHoliday };
    cost = rate ? priceSession(rate, usage) : { totalCents: 0, vatCents: 0 };
  }
  return {
    country_code: party.countryCode,
    party_id: party.partyId,
    id: s.id,
    start_date_time: ocpiDateTime(s.startedAt),
    ...(ended && end ? { end_date_time: ocpiDateTime(end) } : {}),
    kwh: Math.round(s.energyWh) / 1000,
    cdr_token: token,
    auth_method: authMethod,
    ...(authorizationReference ? { authorization_reference: authorizationReference } : {}),
    location_id: place.station.id,
    evse_uid: place.chargerId,
    connector_id: String(place.connector.connectorId),
    currency: rate?.currency ?? "ARS",
    charging_periods: periods,
    total_cost: { excl_vat: Math.round(cost.totalCents - cost.vatCents) / 100, incl_vat: cost.totalCents / 100 },
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
    pushToPartners(svc)
      .catch((err) => svc.logger.error({ err: (err as Error).message }, "ocpi: pasada de envíos fallida"))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
