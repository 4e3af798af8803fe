// Partners' tokens at our chargers (ADR 0021): the OCPP central system's RoamingAuthorizer
// (ocpp/roaming.ts). The central system asks only about tags the company does not know, at
// stations published to roaming; here that tag is
//   1. the token of a START_SESSION the partner sent for this charger (ocpi/commands.ts): the
//      partner already authorized it — accepted, the session linked to that command;
//   2. a token the partner pushed (Tokens receiver) or one an eMSP claims in real time
//      (ocpi/tokens-module.ts authorizeToken, 5 s per question): its answer decides.
// A START_SESSION's token is looked for first, every time: the command authorised it, so its
// session is COMMAND with the command's authorization_reference even when the partner pushed the
// token too, or the driver tried the card a moment before. Other answers are kept a short while per
// charger and tag in the database (ADR 0044), so the StartTransaction / TransactionEvent that follows
// an Authorize does not ask the eMSP again whichever node it reaches, and an unknown card tried
// twice asks once.
// The session an accepted token starts is the partner's: a row in ocpi_sessions, as for commands,
// so ocpi/push.ts sends its Session and CDR to that partner (auth_method WHITELIST or AUTH_REQUEST).
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { ocpiAuthorizations, ocpiPartners, ocpiSessions, type OcpiAuthMethod } from "../db/schema";
import type { TagAnswer } from "../domain/authorization";
import type { RoamingAuthorizer, RoamingGrant, RoamingRequest } from "../ocpp/roaming";
import type { OcpiServices } from "./registration";
import type { AuthorizationInfo, CdrToken } from "./schemas";
import { authorizeToken, REAL_TIME_TIMEOUT_MS } from "./tokens-module";

/** How long a START_SESSION's token is accepted at its charger (the charger starts within seconds; slow ones within a minute or two). */
const COMMAND_WINDOW_MS = 10 * 60_000;
/** How long a partner's answer is reused at the same charger (Authorize, then the start). */
const GRANT_TTL_MS = 90_000;
/** How long a refusal, or "nobody knows this tag", is reused. */
const REFUSAL_TTL_MS = 30_000;

interface PartnerGrant extends RoamingGrant {
  partnerId: string;
  authMethod: OcpiAuthMethod;
  /** The tag as the charger presented it (the session's idTag). */
  idTag: string;
  token: CdrToken;
  authorizationReference: string | null;
  /** COMMAND: the START_SESSION's row, linked to the session it starts. */
  commandRowId?: string;
}

/** §AllowedType → the OCPP answer (1.6 has no NoCredit: Invalid). */
export function tagAnswerOf(allowed: AuthorizationInfo["allowed"]): TagAnswer {
  switch (allowed) {
    case "ALLOWED":
      return "Accepted";
    case "BLOCKED":
      return "Blocked";
    case "EXPIRED":
      return "Expired";
    default:
      return "Invalid";
  }
}

/** OCPP 2.0.1 IdTokenEnumType → OCPI TokenType where it says one; otherwise any stored type. */
const tokenTypeOf = (idTokenType: string | undefined) => (idTokenType === "ISO14443" || idTokenType === "ISO15693" ? "RFID" : undefined);

export function createChargerAuthorizer(svc: OcpiServices, opts: { timeoutMs?: number } = {}): RoamingAuthorizer {
  const timeoutMs = opts.timeoutMs ?? REAL_TIME_TIMEOUT_MS;

  /** The answer any node gave for this tag at this charger, while it lasts; undefined when none. */
  async function remembered(req: RoamingRequest): Promise<PartnerGrant | null | undefined> {
    const [row] = await svc.db
      .select({ grant: ocpiAuthorizations.grant })
      .from(ocpiAuthorizations)
      .where(
        and(
          eq(ocpiAuthorizations.chargerId, req.chargerId),
          eq(ocpiAuthorizations.idTag, req.idTag.toLowerCase()),
          eq(ocpiAuthorizations.businessId, req.businessId),
          sql`${ocpiAuthorizations.expiresAt} > now()`,
        ),
      );
    if (!row) return undefined;
    return row.grant ? (row.grant as unknown as PartnerGrant) : null;
  }

  /** Keeps the answer for every node (the database's clock decides when it runs out); expired ones go. */
  async function remember(req: RoamingRequest, grant: PartnerGrant | null): Promise<void> {
    const ttl = grant?.status === "Accepted" ? GRANT_TTL_MS : REFUSAL_TTL_MS;
    const expiresAt = sql`now() + make_interval(secs => ${ttl / 1000})`;
    await svc.db
      .insert(ocpiAuthorizations)
      .values({ chargerId: req.chargerId, idTag: req.idTag.toLowerCase(), businessId: req.businessId, grant: grant as unknown as Record<string, unknown> | null, expiresAt })
      .onConflictDoUpdate({ target: [ocpiAuthorizations.chargerId, ocpiAuthorizations.idTag], set: { grant: grant as unknown as Record<string, unknown> | null, expiresAt, businessId: req.businessId } });
    await svc.db.delete(ocpiAuthorizations).where(and(eq(ocpiAuthorizations.businessId, req.businessId), lt(ocpiAuthorizations.expiresAt, sql`now()`)));
  }

  async function fromCommand(req: RoamingRequest): Promise<PartnerGrant | null> {
    const [row] = await svc.db
      .select({ id: ocpiSessions.id, partnerId: ocpiSessions.partnerId, token: ocpiSessions.token, authorizationReference: ocpiSessions.authorizationReference })
      .from(ocpiSessions)
      .innerJoin(ocpiPartners, and(eq(ocpiPartners.id, ocpiSessions.partnerId), eq(ocpiPartners.status, "REGISTERED")))
      .where(
        and(
          eq(ocpiSessions.businessId, req.businessId),
          eq(ocpiSessions.chargerId, req.chargerId),
          eq(ocpiSessions.authMethod, "COMMAND"),
          sql`lower(${ocpiSessions.tokenUid}) = lower(${req.idTag})`,
          gt(ocpiSessions.createdAt, new Date(svc.now().getTime() - COMMAND_WINDOW_MS)),
        ),
      )
      .orderBy(desc(ocpiSessions.createdAt))
      .limit(1);
    if (!row) return null;
    return { status: "Accepted", partnerId: row.partnerId, authMethod: "COMMAND", idTag: req.idTag, token: row.token as CdrToken, authorizationReference: row.authorizationReference, commandRowId: row.id };
  }

  async function decide(req: RoamingRequest): Promise<PartnerGrant | null> {
    const decision = await authorizeToken(svc, req.businessId, req.idTag, {
      type: tokenTypeOf(req.idTokenType),
      location: { locationId: req.stationId, evseUid: req.chargerId },
      timeoutMs,
    });
    if (!decision) return null;
    const t = decision.token;
    return {
      status: tagAnswerOf(decision.allowed),
      partnerId: decision.partnerId,
      authMethod: decision.source === "LOCAL" ? "WHITELIST" : "AUTH_REQUEST",
      idTag: req.idTag,
      token: { country_code: t.country_code, party_id: t.party_id, uid: t.uid, type: t.type, contract_id: t.contract_id },
      authorizationReference: decision.authorizationReference?.slice(0, 36) ?? null,
    };
  }

  return {
    async authorize(req) {
      try {
        const command = await fromCommand(req);
        if (command) return command;
        const hit = await remembered(req);
        // The same tag in another case (the start after the Authorize): the session keeps its own idTag.
        if (hit !== undefined) return hit && { ...hit, idTag: req.idTag };
        const grant = await decide(req);
        // Not kept: the next question asks again; the partner's answer stands for this one.
        await remember(req, grant).catch((err: Error) => svc.logger.error({ chargerId: req.chargerId, err: err.message }, "ocpi: no se pudo guardar la respuesta del socio"));
        return grant;
      } catch (err) {
        // Our own failure (the database): no partner's answer — the station's policy decides.
        svc.logger.error({ chargerId: req.chargerId, err: (err as Error).message }, "ocpi: no se pudo autorizar el token de un socio");
        return null;
      }
    },

    async sessionStarted(roamingGrant, session) {
      const grant = roamingGrant as PartnerGrant;
      if (grant.commandRowId) {
        // The START_SESSION's row (ocpi/push.ts would link it on its next pass too).
        await svc.db
          .update(ocpiSessions)
          .set({ sessionId: session.id })
          .where(and(eq(ocpiSessions.id, grant.commandRowId), isNull(ocpiSessions.sessionId), sql`not exists (select 1 from ${ocpiSessions} x where x.session_id = ${session.id})`));
        return;
      }
      const [partner] = await svc.db.select({ businessId: ocpiPartners.businessId }).from(ocpiPartners).where(eq(ocpiPartners.id, grant.partnerId));
      if (!partner) return;
      await svc.db
        .insert(ocpiSessions)
        .values({
          businessId: partner.businessId,
          partnerId: grant.partnerId,
          chargerId: session.chargerId,
          connectorNumber: session.connectorNumber,
          tokenUid: grant.idTag.slice(0, 36),
          token: grant.token,
          authorizationReference: grant.authorizationReference,
          authMethod: grant.authMethod,
          sessionId: session.id,
        })
        .onConflictDoNothing({ target: ocpiSessions.sessionId });
    },
  };
}
