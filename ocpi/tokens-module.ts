// Tokens receiver and real-time authorization (mod_tokens.asciidoc), ADR 0020. Partners push
// their drivers' tokens (PUT, PATCH; GET returns what we hold); a token is decided locally when
// its whitelist allows it (ALWAYS; ALLOWED and ALLOWED_OFFLINE when the eMSP cannot be reached)
// and otherwise — or when unknown — at the eMSP in real time (§Real-time authorization: POST
// {tokens_url}/{token_uid}/authorize, answered with an AuthorizationInfo).
import { and, eq } from "drizzle-orm";
import { ocpiPartners, ocpiTokens, type OcpiPartner } from "../db/schema";
import { endpointUrl, PartnerError } from "./client";
import { OCPI_STATUS, OcpiError } from "./envelope";
import { partnerToken, type OcpiServices } from "./registration";
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
  const values = { valid: t.valid, whitelist: t.whitelist, token: t as Record<string, unknown>, lastUpdated: new Date(t.last_updated.endsWith("Z") ? t.last_updated : `${t.last_updated}Z`) };
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

async function askPartner(svc: OcpiServices, partner: OcpiPartner, uid: string, type: string, location?: { locationId: string; evseUid?: string }): Promise<AuthorizationInfo | null> {
  const url = endpointUrl(partner.endpoints, "tokens", "SENDER");
  const credentials = partnerToken(svc, partner);
  if (!url || !credentials) return null;
  const body = location ? { location_id: location.locationId, ...(location.evseUid ? { evse_uids: [location.evseUid] } : {}) } : undefined;
  try {
    const { data } = await svc.client.request("POST", `${url.replace(/\/$/, "")}/${encodeURIComponent(uid)}/authorize?type=${type}`, credentials, authorizationInfo, body);
    return data;
  } catch (err) {
    // 2004: not this eMSP's token; anything else: it could not answer.
    if (err instanceof PartnerError && err.statusCode === OCPI_STATUS.UNKNOWN_TOKEN) return null;
    throw err;
  }
}

/**
 * May this token charge at this location (a station of the company)? Its stored copy decides when
 * the whitelist allows it; else the eMSP that owns it (the one that pushed it, or — unknown — each
 * registered partner with a Tokens sender in turn) is asked. Null: nobody knows the token.
 */
export async function authorizeToken(
  svc: OcpiServices,
  businessId: string,
  uid: string,
  opts: { type?: string; location?: { locationId: string; evseUid?: string } } = {},
): Promise<AuthorizationDecision | null> {
  const type = typeOf(opts.type);
  const partners = await svc.db.select().from(ocpiPartners).where(and(eq(ocpiPartners.businessId, businessId), eq(ocpiPartners.status, "REGISTERED")));
  const known = await svc.db.select().from(ocpiTokens).where(and(eq(ocpiTokens.businessId, businessId), eq(ocpiTokens.uid, uid), eq(ocpiTokens.type, type))).limit(1);
  const mine = known[0] ? partners.find((p) => p.id === known[0].partnerId) : undefined;
  if (known[0] && mine) {
    const t = known[0].token as OcpiToken;
    if (!known[0].valid) return { allowed: "BLOCKED", partnerId: mine.id, token: t, source: "LOCAL" };
    if (known[0].whitelist === "ALWAYS") return { allowed: "ALLOWED", partnerId: mine.id, token: t, source: "LOCAL" };
    try {
      const info = await askPartner(svc, mine, uid, type, opts.location);
      if (info) return { allowed: info.allowed, partnerId: mine.id, token: info.token, authorizationReference: info.authorization_reference, source: "REAL_TIME" };
    } catch (err) {
      svc.logger.warn({ partnerId: mine.id, err: (err as Error).message }, "ocpi: autorización en tiempo real sin respuesta");
    }
    // The eMSP could not answer: a whitelist ALLOWED or ALLOWED_OFFLINE token may charge (§WhitelistType).
    return known[0].whitelist === "NEVER" ? { allowed: "NOT_ALLOWED", partnerId: mine.id, token: t, source: "LOCAL" } : { allowed: "ALLOWED", partnerId: mine.id, token: t, source: "LOCAL" };
  }
  for (const partner of partners) {
    try {
      const info = await askPartner(svc, partner, uid, type, opts.location);
      if (info) return { allowed: info.allowed, partnerId: partner.id, token: info.token, authorizationReference: info.authorization_reference, source: "REAL_TIME" };
    } catch (err) {
      svc.logger.warn({ partnerId: partner.id, err: (err as Error).message }, "ocpi: autorización en tiempo real sin respuesta");
    }
  }
  return null;
}
