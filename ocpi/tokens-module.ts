// Tokens receiver and real-time authorization (mod_tokens.asciidoc), ADR 0020 and 0021. Partners
// push their drivers' tokens (PUT, PATCH; GET returns what we hold); a token is decided locally
// when its whitelist allows it (ALWAYS, ALLOWED; ALLOWED_OFFLINE when the eMSP cannot be reached)
// and otherwise — or when unknown — at the eMSP in real time (§Real-time authorization: POST
// {tokens_url}/{token_uid}/authorize, answered with an AuthorizationInfo). The chargers ask
// through ocpi/charger-authorization.ts.
import { and, asc, eq, sql } from "drizzle-orm";
import { ocpiPartners, ocpiTokens, type OcpiPartner } from "../db/schema";
import { endpointUrl, PartnerError } from "./client";
import { isStrictOcpiDateTime, OCPI_STATUS, OcpiError, parseOcpiDateTime } from "./envelope";
import { callPartner, partnerToken, type OcpiServices } from "./registration";
import { authorizationInfo, token as tokenSchema, tokenType, type AuthorizationInfo, type OcpiToken } from "./schemas";

const typeOf = (raw: string | undefined) => {
  const parsed = tokenType.safeParse(raw ?? "RFID");
  if (!parsed.success) throw new OcpiError(200, OCPI_STATUS.INVALID_PARAMETERS, "Unknown token type.");
  return parsed.data;
};

/** The path's country and party must be the partner's own (§PUT: "SHALL be the same value"). */
function checkOwner(partner: OcpiPartner, countryCode: string, partyId: string) {
  if (countryCode.toUpperCase() !== partner.countryCode || partyId.toUpperCase() !== partner.partyId) {
    throw new OcpiError(200, OCPI_STATUS.INVALID_PARAMETERS, "country_code and party_id must be the ones you registered with.");
  }
}

async function stored(svc: OcpiServices, partner: OcpiPartner, uid: string, type: string) {
  const [row] = await svc.db
    .select()
    .from(ocpiTokens)
    .where(and(eq(ocpiTokens.partnerId, partner.id), eq(ocpiTokens.businessId, partner.businessId), eq(ocpiTokens.uid, uid), eq(ocpiTokens.type, type)))
    .limit(1);
  return row ?? null;
}

export async function getToken(svc: OcpiServices, partner: OcpiPartner, path: { countryCode: string; partyId: string; uid: string; type?: string }): Promise<OcpiToken> {
  checkOwner(partner, path.countryCode, path.partyId);
  const row = await stored(svc, partner, path.uid, typeOf(path.type));
  if (!row) throw new OcpiError(404, OCPI_STATUS.UNKNOWN_TOKEN, "Unknown token.");
  return row.token as OcpiToken;
}

/** PUT (a whole Token) or PATCH (some fields and last_updated, merged into the stored one). Returns whether it was new. */
export async function putToken(
  svc: OcpiServices,
  partner: OcpiPartner,
  path: { countryCode: string; partyId: string; uid: string; type?: string },
  body: unknown,
  patch: boolean,
): Promise<{ created: boolean }> {
  checkOwner(partner, path.countryCode, path.partyId);
  const type = typeOf(path.type);
  const existing = await stored(svc, partner, path.uid, type);
  if (patch && !existing) throw new OcpiError(404, OCPI_STATUS.UNKNOWN_TOKEN, "Unknown token.");
  if (patch && !(body && typeof body === "object" && "last_updated" in body)) throw new OcpiError(200, OCPI_STATUS.INVALID_PARAMETERS, "PATCH needs last_updated.");
  const merged = patch ? { ...(existing!.token as object), ...(body as object) } : body;
  const parsed = tokenSchema.safeParse(merged);
  if (!parsed.success) throw new OcpiError(200, OCPI_STATUS.INVALID_PARAMETERS, "Invalid Token object.");
  const t = parsed.data;
  if (t.uid !== path.uid || t.type !== type || t.country_code.toUpperCase() !== partner.countryCode || t.party_id.toUpperCase() !== partner.partyId) {
    throw new OcpiError(200, OCPI_STATUS.INVALID_PARAMETERS, "The Token does not match its URL.");
  }
  // The schema accepted it, so it parses; another spelling than the spec's is noted, not refused.
  if (!isStrictOcpiDateTime(t.last_updated)) svc.logger.warn({ partnerId: partner.id, last_updated: t.last_updated.slice(0, 64) }, "ocpi: token con last_updated fuera del formato OCPI (aceptado)");
  const values = { valid: t.valid, whitelist: t.whitelist, token: t as Record<string, unknown>, lastUpdated: parseOcpiDateTime(t.last_updated)! };
  if (existing) {
    await svc.db.update(ocpiTokens).set(values).where(eq(ocpiTokens.id, existing.id));
    return { created: false };
  }
  await svc.db.insert(ocpiTokens).values({ businessId: partner.businessId, partnerId: partner.id, uid: t.uid, type: t.type, ...values });
  return { created: true };
}

export interface AuthorizationDecision {
  allowed: AuthorizationInfo["allowed"];
  partnerId: string;
  token: OcpiToken;
  authorizationReference?: string;
  /** LOCAL: decided from the stored token; REAL_TIME: the eMSP answered. */
  source: "LOCAL" | "REAL_TIME";
}

/** Seconds an eMSP has to answer a real-time authorization: a driver waits at the charger (ADR 0021). */
export const REAL_TIME_TIMEOUT_MS = 5_000;

type Asked = { kind: "answer"; info: AuthorizationInfo } | { kind: "unknown" } | { kind: "unreachable" };

async function askPartner(
  svc: OcpiServices,
  partner: OcpiPartner,
  uid: string,
  type: string,
  location: { locationId: string; evseUid?: string } | undefined,
  timeoutMs: number,
): Promise<Asked> {
  const url = endpointUrl(partner.endpoints, "tokens", "SENDER");
  const credentials = partnerToken(svc, partner);
  if (!url || !credentials) return { kind: "unknown" };
  const body = location ? { location_id: location.locationId, ...(location.evseUid ? { evse_uids: [location.evseUid] } : {}) } : undefined;
  try {
    const target = `${url.replace(/\/$/, "")}/${encodeURIComponent(uid)}/authorize?type=${type}`;
    const { data } = await callPartner(svc, partner, "POST", target, authorizationInfo, body, { timeoutMs });
    return { kind: "answer", info: data };
  } catch (err) {
    // 2004: not this eMSP's token; anything else (timeout included): it could not answer.
    if (err instanceof PartnerError && err.statusCode === OCPI_STATUS.UNKNOWN_TOKEN) return { kind: "unknown" };
    svc.logger.warn({ partnerId: partner.id, err: (err as Error).message }, "ocpi: autorización en tiempo real sin respuesta");
    return { kind: "unreachable" };
  }
}

/**
 * May this token charge at this location (a station of the company)? mod_tokens.asciidoc
 * §WhitelistType decides a stored token: not valid → BLOCKED; ALWAYS and ALLOWED → allowed
 * locally (ALLOWED lets the CPO choose: locally costs the driver no wait); ALLOWED_OFFLINE → asked
 * in real time, allowed when the eMSP cannot answer; NEVER → only in real time. A token nobody
 * pushed is asked of every registered eMSP with a Tokens sender at once (§Real-time
 * authorization), the first in registration order that claims it deciding. Every question waits
 * at most `timeoutMs` (5 s). Null: nobody knows the token. `type` narrows the stored token's type
 * (default: any, RFID first) and is the type asked in real time (default RFID).
 */
export async function authorizeToken(
  svc: OcpiServices,
  businessId: string,
  uid: string,
  opts: { type?: string; location?: { locationId: string; evseUid?: string }; timeoutMs?: number } = {},
): Promise<AuthorizationDecision | null> {
  const type = opts.type === undefined ? undefined : typeOf(opts.type);
  const timeoutMs = opts.timeoutMs ?? REAL_TIME_TIMEOUT_MS;
  const [known] = await svc.db
    .select({ row: ocpiTokens, partner: ocpiPartners })
    .from(ocpiTokens)
    .innerJoin(ocpiPartners, and(eq(ocpiPartners.id, ocpiTokens.partnerId), eq(ocpiPartners.businessId, ocpiTokens.businessId)))
    .where(and(eq(ocpiTokens.businessId, businessId), sql`lower(${ocpiTokens.uid}) = lower(${uid})`, eq(ocpiPartners.status, "REGISTERED"), type ? eq(ocpiTokens.type, type) : undefined))
    .orderBy(sql`${ocpiTokens.type} = 'RFID' desc`, asc(ocpiTokens.createdAt))
    .limit(1);
  if (known) {
    const { row, partner } = known;
    const t = row.token as OcpiToken;
    const local = (allowed: AuthorizationDecision["allowed"]): AuthorizationDecision => ({ allowed, partnerId: partner.id, token: t, source: "LOCAL" });
    if (!row.valid) return local("BLOCKED");
    if (row.whitelist === "ALWAYS" || row.whitelist === "ALLOWED") return local("ALLOWED");
    const asked = await askPartner(svc, partner, row.uid, row.type, opts.location, timeoutMs);
    if (asked.kind === "answer") return { allowed: asked.info.allowed, partnerId: partner.id, token: asked.info.token, authorizationReference: asked.info.authorization_reference, source: "REAL_TIME" };
    // The eMSP cannot be reached: ALLOWED_OFFLINE may charge, NEVER may not (§WhitelistType).
    return local(asked.kind === "unreachable" && row.whitelist === "ALLOWED_OFFLINE" ? "ALLOWED" : "NOT_ALLOWED");
  }
  const partners = await svc.db
    .select()
    .from(ocpiPartners)
    .where(and(eq(ocpiPartners.businessId, businessId), eq(ocpiPartners.status, "REGISTERED")))
    .orderBy(asc(ocpiPartners.createdAt), asc(ocpiPartners.id));
  const askable = partners.filter((p) => endpointUrl(p.endpoints, "tokens", "SENDER"));
  const answers = await Promise.all(askable.map((p) => askPartner(svc, p, uid, type ?? "RFID", opts.location, timeoutMs)));
  for (const [i, asked] of answers.entries()) {
    if (asked.kind === "answer") {
      return { allowed: asked.info.allowed, partnerId: askable[i].id, token: asked.info.token, authorizationReference: asked.info.authorization_reference, source: "REAL_TIME" };
    }
  }
  return null;
}
