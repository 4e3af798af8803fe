// The credentials handshake in both directions (credentials.asciidoc §Registration, §Updating,
// §Unregister), shared by the /ocpi interface (the partner starts: it holds our token A) and the
// Business API (the operator starts with the partner's versions URL and token A).
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { businessUsers, ocpiPartners, type BusinessUser, type OcpiPartner } from "../db/schema";
import type { KeyRing } from "../infra/crypto";
import type { Logger } from "../infra/logger";
import { endpointUrl, PartnerError, type OcpiClient, type OcpiParty } from "./client";
import { OCPI_STATUS, OcpiError } from "./envelope";
import { credentials as credentialsSchema, type Credentials } from "./schemas";
import { generateCredentialsToken, hashCredentialsToken, openPartnerToken, sealPartnerToken } from "./tokens";

/** ISO 3166-1 alpha-2 of every Enchufá operator (the issue: country AR). */
export const OCPI_COUNTRY_CODE = "AR";

export interface OcpiServices {
  db: Db;
  keyRing: KeyRing;
  client: OcpiClient;
  /** e.g. https://enchufa.example — /ocpi is under it. */
  publicOrigin: string;
  now: () => Date;
  logger: Logger;
}

export const ocpiBaseUrl = (publicOrigin: string) => `${publicOrigin.replace(/\/$/, "")}/ocpi`;
export const ocpiVersionsUrl = (publicOrigin: string) => `${ocpiBaseUrl(publicOrigin)}/versions`;

/** Our credentials object (credentials.asciidoc §Credentials object): one CPO role, AR + the company's party id. */
export function ourCredentials(svc: Pick<OcpiServices, "publicOrigin">, business: BusinessUser, token: string): Credentials {
  if (!business.ocpiPartyId) throw new OcpiError(200, OCPI_STATUS.SERVER_ERROR, "The operator has no OCPI party id yet.");
  return {
    token,
    url: ocpiVersionsUrl(svc.publicOrigin),
    roles: [
      {
        role: "CPO",
        party_id: business.ocpiPartyId,
        country_code: OCPI_COUNTRY_CODE,
        business_details: { name: business.businessName.slice(0, 100) },
      },
    ],
  };
}

/** The partner's token to call it, opened from the key ring. */
export function partnerToken(svc: Pick<OcpiServices, "keyRing">, partner: OcpiPartner): string | null {
  if (!partner.outgoingTokenEncrypted) return null;
  return openPartnerToken(svc.keyRing, partner.outgoingTokenEncrypted, { businessId: partner.businessId, partnerId: partner.id });
}

/**
 * Every request to one of a partner's functional modules (sessions, cdrs, locations, tokens,
 * command results) passes here: our token for the partner, and the routing headers of
 * transport_and_format.asciidoc §Pull and Push — from our company's party (`from` when the
 * caller has it), to the partner's. Versions and credentials are not functional modules.
 */
export async function callPartner<T extends z.ZodTypeAny>(
  svc: Pick<OcpiServices, "db" | "keyRing" | "client">,
  partner: OcpiPartner,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  target: string,
  schema: T,
  body?: unknown,
  opts: { timeoutMs?: number; from?: OcpiParty } = {},
): Promise<{ data: z.infer<T>; headers: Headers }> {
  const token = partnerToken(svc, partner);
  if (!token) throw new PartnerError("No tenemos credenciales para llamar al socio.");
  let from = opts.from;
  if (!from) {
    const [business] = await svc.db.select({ partyId: businessUsers.ocpiPartyId }).from(businessUsers).where(eq(businessUsers.id, partner.businessId));
    from = { countryCode: OCPI_COUNTRY_CODE, partyId: business?.partyId ?? "" };
  }
  const to = { countryCode: partner.countryCode ?? "", partyId: partner.partyId ?? "" };
  return svc.client.request(method, target, token, schema, body, { timeoutMs: opts.timeoutMs, routing: { from, to } });
}

/** What we keep of the partner's credentials: its token sealed, its versions URL, its first role. */
function partnerFields(svc: Pick<OcpiServices, "keyRing">, partner: Pick<OcpiPartner, "id" | "businessId">, creds: Credentials) {
  const role = creds.roles.find((r) => r.role === "EMSP") ?? creds.roles[0];
  return {
    outgoingTokenEncrypted: sealPartnerToken(svc.keyRing, creds.token, { businessId: partner.businessId, partnerId: partner.id }),
    versionsUrl: creds.url,
    countryCode: role.country_code.toUpperCase(),
    partyId: role.party_id.toUpperCase(),
    name: role.business_details.name,
  };
}

/** Dashboard, the partner starts: a token A to hand over with our versions URL. */
export async function createInvitation(svc: OcpiServices, business: BusinessUser): Promise<{ partner: OcpiPartner; token: string }> {
  const token = generateCredentialsToken();
  const [partner] = await svc.db
    .insert(ocpiPartners)
    .values({ businessId: business.id, status: "PENDING", incomingTokenHash: hashCredentialsToken(token), incomingTokenKind: "A" })
    .returning();
  return { partner, token };
}

/**
 * Dashboard, we start (we are the Sender of credentials.asciidoc §Registration): with the partner's
 * versions URL and token A, read its 2.2.1 endpoints, POST our credentials with a new token B, keep
 * its token C. On failure nothing is kept and PartnerError is thrown.
 */
export async function registerWithPartner(svc: OcpiServices, business: BusinessUser, input: { versionsUrl: string; token: string }): Promise<OcpiPartner> {
  await svc.client.checkUrl(input.versionsUrl);
  const discovered = await svc.client.discover(input.versionsUrl, input.token);
  const credentialsUrl = endpointUrl(discovered.endpoints, "credentials", "SENDER") ?? endpointUrl(discovered.endpoints, "credentials", "RECEIVER");
  if (!credentialsUrl) throw new PartnerError("El socio no ofrece el módulo de credenciales.", undefined, OCPI_STATUS.NO_MATCHING_ENDPOINTS);
  const tokenB = generateCredentialsToken();
  const [pending] = await svc.db
    .insert(ocpiPartners)
    .values({
      businessId: business.id,
      status: "PENDING",
      incomingTokenHash: hashCredentialsToken(tokenB),
      incomingTokenKind: "C",
      versionsUrl: input.versionsUrl,
      version: discovered.version,
      endpoints: discovered.endpoints,
    })
    .returning();
  try {
    const { data: theirs } = await svc.client.request("POST", credentialsUrl, input.token, credentialsSchema, ourCredentials(svc, business, tokenB));
    // Their versions URL may differ from the one we were given: read the endpoints again with token C.
    const again = theirs.url === input.versionsUrl ? discovered : await svc.client.discover(theirs.url, theirs.token);
    const [partner] = await svc.db
      .update(ocpiPartners)
      .set({ ...partnerFields(svc, pending, theirs), status: "REGISTERED", endpoints: again.endpoints, lastSyncAt: svc.now(), failures: 0, lastError: null })
      .where(eq(ocpiPartners.id, pending.id))
      .returning();
    return partner;
  } catch (err) {
    await svc.db.delete(ocpiPartners).where(eq(ocpiPartners.id, pending.id));
    throw err;
  }
}

/**
 * /ocpi credentials POST (we are the Receiver): the partner, authenticated with token A, gives us
 * its token B and versions URL; we read its endpoints with B and answer with a new token C.
 * 405 once registered (credentials.asciidoc §POST).
 */
export async function acceptRegistration(svc: OcpiServices, business: BusinessUser, partner: OcpiPartner, body: Credentials): Promise<Credentials> {
  if (partner.incomingTokenKind !== "A") throw new OcpiError(405, OCPI_STATUS.CLIENT_ERROR, "Already registered: use PUT to update the credentials.");
  return exchange(svc, business, partner, body);
}

/** /ocpi credentials PUT: new token and/or endpoints; 405 before registration (credentials.asciidoc §PUT). */
export async function updateRegistration(svc: OcpiServices, business: BusinessUser, partner: OcpiPartner, body: Credentials): Promise<Credentials> {
  if (partner.incomingTokenKind !== "C" || partner.status !== "REGISTERED") throw new OcpiError(405, OCPI_STATUS.CLIENT_ERROR, "Not registered: use POST to register.");
  return exchange(svc, business, partner, body);
}

async function exchange(svc: OcpiServices, business: BusinessUser, partner: OcpiPartner, body: Credentials): Promise<Credentials> {
  let discovered: Awaited<ReturnType<OcpiClient["discover"]>>;
  try {
    discovered = await svc.client.discover(body.url, body.token);
  } catch (err) {
    const code = err instanceof PartnerError && err.statusCode === OCPI_STATUS.UNSUPPORTED_VERSION ? OCPI_STATUS.UNSUPPORTED_VERSION : OCPI_STATUS.CLIENT_API_ERROR;
    // credentials.asciidoc §Errors during registration: 3001 in the answer to the POST.
    throw new OcpiError(200, code, `Unable to use the client's API: ${(err as Error).message}`);
  }
  const tokenC = generateCredentialsToken();
  await svc.db
    .update(ocpiPartners)
    .set({
      ...partnerFields(svc, partner, body),
      status: "REGISTERED",
      incomingTokenHash: hashCredentialsToken(tokenC),
      incomingTokenKind: "C",
      version: discovered.version,
      endpoints: discovered.endpoints,
      lastSyncAt: svc.now(),
      failures: 0,
      lastError: null,
    })
    .where(and(eq(ocpiPartners.id, partner.id), eq(ocpiPartners.businessId, business.id)));
  return ourCredentials(svc, business, tokenC);
}

/** /ocpi credentials DELETE: the partner unregisters; its tokens are dropped, the row stays UNREGISTERED. */
export async function acceptUnregister(svc: OcpiServices, partner: OcpiPartner): Promise<void> {
  if (partner.incomingTokenKind !== "C" || partner.status !== "REGISTERED") throw new OcpiError(405, OCPI_STATUS.CLIENT_ERROR, "Not registered.");
  await svc.db
    .update(ocpiPartners)
    .set({ status: "UNREGISTERED", incomingTokenHash: null, outgoingTokenEncrypted: null, endpoints: [] })
    .where(and(eq(ocpiPartners.id, partner.id), eq(ocpiPartners.businessId, partner.businessId)));
}

/**
 * Dashboard: remove a partner. A registered one is told first (DELETE on its credentials
 * endpoint, credentials.asciidoc §DELETE); a partner that cannot be reached is removed anyway.
 * Returns whether the partner acknowledged.
 */
export async function removePartner(svc: OcpiServices, businessId: string, partnerId: string): Promise<{ found: boolean; notified: boolean }> {
  const [partner] = await svc.db
    .select()
    .from(ocpiPartners)
    .where(and(eq(ocpiPartners.id, partnerId), eq(ocpiPartners.businessId, businessId)));
  if (!partner) return { found: false, notified: false };
  let notified = false;
  const token = partner.status === "REGISTERED" ? partnerToken(svc, partner) : null;
  const target = endpointUrl(partner.endpoints, "credentials", "SENDER") ?? endpointUrl(partner.endpoints, "credentials", "RECEIVER");
  if (token && target) {
    try {
      await svc.client.request("DELETE", target, token, z.unknown());
      notified = true;
    } catch (err) {
      svc.logger.warn({ partnerId, err: (err as Error).message }, "ocpi: el socio no confirmó la baja");
    }
  }
  await svc.db.delete(ocpiPartners).where(and(eq(ocpiPartners.id, partnerId), eq(ocpiPartners.businessId, businessId)));
  return { found: true, notified };
}
