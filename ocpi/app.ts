// The OCPI 2.2.1 CPO interface (ADR 0020): a Hono app mounted at /ocpi, beside the
// Business API and outside its Firebase access guard. Every request is authenticated by an OCPI
// credentials token (transport_and_format.asciidoc §Authorization header) that names one partner
// of one company; everything answered is that company's. Answers are OCPI envelopes.
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { Db } from "../db/client";
import type { BusinessUser, OcpiPartner } from "../db/schema";
import type { KeyRing } from "../infra/crypto";
import type { Logger } from "../infra/logger";
import { OcpiClient, routingHeaders, SUPPORTED_VERSION, type OcpiClientOptions } from "./client";
import { envelope, isStrictOcpiDateTime, OCPI_STATUS, OcpiError, parseOcpiDateTime, withoutNulls } from "./envelope";
import { rateTariffs, stationToLocation, type Party } from "./mapping";
import { acceptRegistration, acceptUnregister, ocpiBaseUrl, OCPI_COUNTRY_CODE, ourCredentials, updateRegistration, type OcpiServices } from "./registration";
import { credentials as credentialsSchema, dateTime as dateTimeSchema } from "./schemas";
import { receiveCommand, type CommandGateway } from "./commands";
import { getToken, putToken } from "./tokens-module";
import { getLocation, listLocations, listPartnerSessions, roamingRates, findPartnerByTokenHashes, type PageQuery } from "./store";
import { sessionToCdr } from "./cdr";
import { sessionObject } from "./push";
import type { CdrToken } from "./schemas";
import { hashCredentialsToken, tokensFromHeader } from "./tokens";

export interface OcpiDeps {
  db: Db;
  keyRing: KeyRing;
  publicOrigin: string;
  logger: Logger;
  now?: () => Date;
  /** How we call partners (fetch, timeout, plain http in tests and local mode). */
  client?: OcpiClientOptions;
  /** The OCPP central system, for the Commands module; without it commands are NOT_SUPPORTED. */
  ocpp?: CommandGateway;
}

type OcpiEnv = {
  Variables: { partner: OcpiPartner; business: BusinessUser; token: string };
};
type OcpiCtx = Context<OcpiEnv>;

/** Most objects a page carries (X-Limit, transport_and_format.asciidoc §Pagination). */
export const OCPI_MAX_LIMIT = 100;
const MAX_BODY_BYTES = 256 * 1024;

/** The modules we implement, as version details lists them (version_information_endpoint.asciidoc §Endpoint). */
const MODULES: { identifier: string; role: "SENDER" | "RECEIVER"; path: string }[] = [
  { identifier: "credentials", role: "SENDER", path: "credentials" },
  { identifier: "credentials", role: "RECEIVER", path: "credentials" },
  { identifier: "locations", role: "SENDER", path: "locations" },
  { identifier: "tariffs", role: "SENDER", path: "tariffs" },
  { identifier: "sessions", role: "SENDER", path: "sessions" },
  { identifier: "cdrs", role: "SENDER", path: "cdrs" },
  { identifier: "commands", role: "RECEIVER", path: "commands" },
  { identifier: "tokens", role: "RECEIVER", path: "tokens" },
];

export function ocpiServices(deps: OcpiDeps): OcpiServices {
  return {
    db: deps.db,
    keyRing: deps.keyRing,
    client: new OcpiClient({ logger: deps.logger, ...deps.client }),
    publicOrigin: deps.publicOrigin.replace(/\/$/, ""),
    now: deps.now ?? (() => new Date()),
    logger: deps.logger,
  };
}

export function createOcpiApp(deps: OcpiDeps): Hono<OcpiEnv> {
  const svc = ocpiServices(deps);
  const versionBase = `${ocpiBaseUrl(svc.publicOrigin)}/${SUPPORTED_VERSION}`;
  const app = new Hono<OcpiEnv>().basePath("/ocpi");

  // Middleware first: request ids, the body cap and the partner's token guard every route below.
  ocpiMiddleware(app, svc);
  versionAndCredentialsRoutes(app, svc, versionBase);
  senderModuleRoutes(app, svc, versionBase);
  receiverModuleRoutes(app, svc, deps.ocpp);

  app.notFound((c) => c.json(envelope(svc.now(), undefined, OCPI_STATUS.CLIENT_ERROR, "Unknown OCPI endpoint."), 404));

  app.onError((err, c) => {
    if (err instanceof OcpiError) return c.json(envelope(svc.now(), undefined, err.statusCode, err.message), err.httpStatus);
    svc.logger.error({ path: new URL(c.req.url).pathname, err: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err) }, "ocpi: error inesperado");
    return c.json(envelope(svc.now(), undefined, OCPI_STATUS.SERVER_ERROR, "Internal error."), 500);
  });

  return app;
}

/** A successful OCPI answer: the envelope with status 1000 and `data`. */
function okAnswer<T>(svc: OcpiServices, c: OcpiCtx, data: T) {
  return c.json(envelope(svc.now(), data));
}

/** Every request: the ids echoed back, the body capped, and the partner found by its token (a token A opens only registration). */
function ocpiMiddleware(app: Hono<OcpiEnv>, svc: OcpiServices) {
  // transport_and_format.asciidoc §Request headers: X-Request-ID and X-Correlation-ID are echoed.
  app.use(async (c, next) => {
    await next();
    const id = /^[A-Za-z0-9._:-]{1,64}$/;
    const requestId = c.req.header("x-request-id");
    const correlationId = c.req.header("x-correlation-id");
    c.header("X-Request-ID", requestId && id.test(requestId) ? requestId : crypto.randomUUID());
    if (correlationId && id.test(correlationId)) c.header("X-Correlation-ID", correlationId);
    c.header("Cache-Control", "no-store");
    // transport_and_format.asciidoc §Pull and Push: every answer of a functional module says who
    // answers (our company) and to whom (who asked: the request's own from-headers through a hub,
    // else the partner the token names). Versions and credentials are not functional modules.
    const partner = c.get("partner") as OcpiPartner | undefined;
    const business = c.get("business") as BusinessUser | undefined;
    if (partner && business && isFunctionalModule(new URL(c.req.url).pathname)) {
      const party = /^[A-Za-z0-9]{1,3}$/;
      const askerCountry = c.req.header("ocpi-from-country-code");
      const askerParty = c.req.header("ocpi-from-party-id");
      const viaHeaders = askerCountry && askerParty && party.test(askerCountry) && party.test(askerParty);
      const headers = routingHeaders({
        from: { countryCode: OCPI_COUNTRY_CODE, partyId: business.ocpiPartyId ?? "" },
        to: viaHeaders ? { countryCode: askerCountry.toUpperCase(), partyId: askerParty.toUpperCase() } : { countryCode: partner.countryCode ?? "", partyId: partner.partyId ?? "" },
      });
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
    }
  });

  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json(envelope(svc.now(), undefined, OCPI_STATUS.CLIENT_ERROR, "Request body too large."), 413),
    }),
  );

  // Authentication: the token's hash finds the partner. A token A opens only versions and
  // credentials (transport_and_format.asciidoc §Authorization header: 401 otherwise).
  app.use(async (c, next) => {
    const hashes = tokensFromHeader(c.req.header("authorization")).map(hashCredentialsToken);
    const found = await findPartnerByTokenHashes(svc.db, hashes);
    if (!found || found.business.status !== "ACTIVE") throw new OcpiError(401, OCPI_STATUS.CLIENT_ERROR, "Unauthorized: missing or unknown credentials token.");
    const path = new URL(c.req.url).pathname;
    const registrationOnly = path === "/ocpi/versions" || path === `/ocpi/${SUPPORTED_VERSION}` || path === `/ocpi/${SUPPORTED_VERSION}/credentials`;
    if (found.partner.incomingTokenKind === "A" && !registrationOnly) {
      throw new OcpiError(401, OCPI_STATUS.CLIENT_ERROR, "Unauthorized: the registration token only opens versions and credentials.");
    }
    c.set("partner", found.partner);
    c.set("business", found.business);
    c.set("token", tokensFromHeader(c.req.header("authorization")).find((t) => hashCredentialsToken(t) === found.partner.incomingTokenHash) ?? "");
    await next();
  });
}

/** A path of a functional module: under the version, and neither its details nor credentials. */
const isFunctionalModule = (path: string) => {
  const prefix = `/ocpi/${SUPPORTED_VERSION}/`;
  return path.startsWith(prefix) && !path.startsWith(`${prefix}credentials`);
};

/**
 * A partner's JSON body (commands, tokens, credentials), null members read as absent
 * (ocpi/envelope.ts withoutNulls). Not JSON → HTTP 400 (status_codes.asciidoc).
 */
async function readBody(c: OcpiCtx): Promise<unknown> {
  try {
    return withoutNulls(await c.req.json());
  } catch {
    throw new OcpiError(400, OCPI_STATUS.INVALID_PARAMETERS, "The body is not valid JSON.");
  }
}

/** The versions and the credentials module: registration (POST), its update (PUT) and unregistering (DELETE). */
function versionAndCredentialsRoutes(app: Hono<OcpiEnv>, svc: OcpiServices, versionBase: string) {
  const ok = <T>(c: OcpiCtx, data: T) => okAnswer(svc, c, data);
  // version_information_endpoint.asciidoc ------------------------------------------------------
  app.get("/versions", (c) => ok(c, [{ version: SUPPORTED_VERSION, url: versionBase }]));
  app.get(`/${SUPPORTED_VERSION}`, (c) =>
    ok(c, {
      version: SUPPORTED_VERSION,
      endpoints: MODULES.map((m) => ({ identifier: m.identifier, role: m.role, url: `${versionBase}/${m.path}` })),
    }),
  );

  // credentials.asciidoc §Interfaces and endpoints ---------------------------------------------
  const readCredentials = async (c: OcpiCtx) => {
    const parsed = credentialsSchema.safeParse(await readBody(c));
    if (!parsed.success) throw new OcpiError(200, OCPI_STATUS.INVALID_PARAMETERS, "Invalid credentials object.");
    return parsed.data;
  };
  const credentialsPath = `/${SUPPORTED_VERSION}/credentials`;
  app.get(credentialsPath, (c) => ok(c, ourCredentials(svc, c.get("business"), c.get("token"))));
  app.post(credentialsPath, async (c) => {
    if (c.get("partner").incomingTokenKind !== "A") throw new OcpiError(405, OCPI_STATUS.CLIENT_ERROR, "Already registered: use PUT.");
    const body = await readCredentials(c);
    return ok(c, await acceptRegistration(svc, c.get("business"), c.get("partner"), body));
  });
  app.put(credentialsPath, async (c) => {
    if (c.get("partner").incomingTokenKind !== "C") throw new OcpiError(405, OCPI_STATUS.CLIENT_ERROR, "Not registered: use POST.");
    const body = await readCredentials(c);
    return ok(c, await updateRegistration(svc, c.get("business"), c.get("partner"), body));
  });
  app.delete(credentialsPath, async (c) => {
    await acceptUnregister(svc, c.get("partner"));
    return c.json(envelope(svc.now(), undefined));
  });
}

/** The modules partners pull from: locations (with their EVSEs and connectors) and tariffs, in pages. */
function senderModuleRoutes(app: Hono<OcpiEnv>, svc: OcpiServices, versionBase: string) {
  const ok = <T>(c: OcpiCtx, data: T) => okAnswer(svc, c, data);
  // Sender modules: paginated lists (transport_and_format.asciidoc §Pagination) ---------------
  const party = (c: OcpiCtx): Party => ({
    countryCode: OCPI_COUNTRY_CODE,
    partyId: c.get("business").ocpiPartyId ?? "",
    operatorName: c.get("business").businessName,
  });
  const page = <T>(c: OcpiCtx, module: string, q: PageQuery, total: number, data: T[]) => {
    c.header("X-Total-Count", String(total));
    c.header("X-Limit", String(OCPI_MAX_LIMIT));
    if (q.offset + data.length < total) {
      const next = new URLSearchParams({ offset: String(q.offset + data.length), limit: String(q.limit) });
      const dateFrom = c.req.query("date_from");
      const dateTo = c.req.query("date_to");
      if (dateFrom) next.set("date_from", dateFrom);
      if (dateTo) next.set("date_to", dateTo);
      c.header("Link", `<${versionBase}/${module}?${next}>; rel="next"`);
    }
    return ok(c, data);
  };

  app.get(`/${SUPPORTED_VERSION}/locations`, async (c) => {
    const q = pageQuery(c, svc);
    const { total, items } = await listLocations(svc.db, c.get("business").id, q);
    return page(c, "locations", q, total, items.map((s) => stationToLocation(party(c), s)));
  });
  // mod_locations.asciidoc §GET Object: a location, one of its EVSEs or connectors.
  app.get(`/${SUPPORTED_VERSION}/locations/:locationId/:evseUid?/:connectorId?`, async (c) => {
    const { locationId, evseUid, connectorId } = c.req.param();
    const station = await getLocation(svc.db, c.get("business").id, locationId);
    if (!station) throw new OcpiError(404, OCPI_STATUS.UNKNOWN_LOCATION, "Unknown location.");
    const location = stationToLocation(party(c), station);
    if (!evseUid) return ok(c, location);
    // Its EVSEs as the Location lists them: a removed one is answered with status REMOVED.
    const evse = location.evses?.find((e) => e.uid.toLowerCase() === evseUid.toLowerCase());
    if (!evse) throw new OcpiError(404, OCPI_STATUS.UNKNOWN_LOCATION, "Unknown EVSE.");
    if (!connectorId) return ok(c, evse);
    const connector = evse.connectors.find((k) => k.id === connectorId);
    if (!connector) throw new OcpiError(404, OCPI_STATUS.UNKNOWN_LOCATION, "Unknown connector.");
    return ok(c, connector);
  });

  // mod_tariffs §Sender interface: every version of every roaming rate (rateTariffs), date_from and
  // date_to bounding each one's last_updated.
  app.get(`/${SUPPORTED_VERSION}/tariffs`, async (c) => {
    const q = pageQuery(c, svc);
    const all = (await roamingRates(svc.db, c.get("business").id)).flatMap(({ rate, pending }) => rateTariffs(party(c), rate, pending));
    const inWindow = all.filter((t) => {
      const at = Date.parse(t.last_updated);
      return (!q.dateFrom || at >= q.dateFrom.getTime()) && (!q.dateTo || at < q.dateTo.getTime());
    });
    return page(c, "tariffs", q, inWindow.length, inWindow.slice(q.offset, q.offset + q.limit));
  });

  // mod_sessions.asciidoc §Sender interface and mod_cdrs.asciidoc §Sender interface: the partner's
  // drivers' sessions and CDRs, the same objects the pushes send, so a partner that missed pushes
  // reconciles by pulling.
  app.get(`/${SUPPORTED_VERSION}/sessions`, async (c) => {
    const q = pageQuery(c, svc);
    const { total, items } = await listPartnerSessions(svc.db, c.get("partner"), q, false);
    const data = items.map(({ link, session, place }) => sessionObject(party(c), session, place, link.token as CdrToken, link.authorizationReference, link.authMethod));
    return page(c, "sessions", q, total, data);
  });
  app.get(`/${SUPPORTED_VERSION}/cdrs`, async (c) => {
    const q = pageQuery(c, svc);
    const { total, items } = await listPartnerSessions(svc.db, c.get("partner"), q, true);
    const data = items.map(({ link, session, place }) =>
      sessionToCdr(party(c), { ...session, rateSnapshot: session.rateSnapshot ?? null }, place, link.token as CdrToken, {
        authMethod: link.authMethod,
        authorizationReference: link.authorizationReference ?? undefined,
      }),
    );
    return page(c, "cdrs", q, total, data);
  });
}

/** The modules partners push to: their drivers' tokens, and commands to our chargers. */
function receiverModuleRoutes(app: Hono<OcpiEnv>, svc: OcpiServices, ocpp: OcpiDeps["ocpp"]) {
  const ok = <T>(c: OcpiCtx, data: T) => okAnswer(svc, c, data);
  // mod_tokens.asciidoc §CPO Receiver interface: {url}/{country_code}/{party_id}/{token_uid}[?type=].
  const tokenPath = `/${SUPPORTED_VERSION}/tokens/:countryCode/:partyId/:uid`;
  const pathOf = (c: OcpiCtx) => ({ ...c.req.param(), type: c.req.query("type") }) as { countryCode: string; partyId: string; uid: string; type?: string };
  app.get(tokenPath, async (c) => ok(c, await getToken(svc, c.get("partner"), pathOf(c))));
  const writeToken = (patch: boolean) => async (c: OcpiCtx) => {
    const { created } = await putToken(svc, c.get("partner"), pathOf(c), await readBody(c), patch);
    // status_codes.asciidoc: 201 when created, 200 when updated.
    return c.json(envelope(svc.now(), undefined), created ? 201 : 200);
  };
  app.put(tokenPath, writeToken(false));
  app.patch(tokenPath, writeToken(true));

  // mod_commands.asciidoc §Receiver interface: POST {url}/{command}.
  app.post(`/${SUPPORTED_VERSION}/commands/:command`, async (c) => {
    const { response } = await receiveCommand(svc, ocpp, c.get("partner"), c.get("business"), c.req.param("command"), await readBody(c));
    return ok(c, response);
  });
}

const pageParams = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).default(OCPI_MAX_LIMIT),
  date_from: dateTimeSchema.optional(),
  date_to: dateTimeSchema.optional(),
});

/**
 * offset, limit (capped at X-Limit), date_from (inclusive) and date_to (exclusive); 2001 when
 * malformed. Dates are read liberally (types.asciidoc §DateTime is UTC: no zone means UTC) and a
 * spelling other than the spec's is logged.
 */
function pageQuery(c: OcpiCtx, svc: OcpiServices): PageQuery {
  const parsed = pageParams.safeParse(c.req.query());
  if (!parsed.success) throw new OcpiError(200, OCPI_STATUS.INVALID_PARAMETERS, "Invalid offset, limit, date_from or date_to.");
  const { offset, limit, date_from: from, date_to: to } = parsed.data;
  for (const value of [from, to]) {
    if (value && !isStrictOcpiDateTime(value)) svc.logger.warn({ partnerId: c.get("partner").id, value: value.slice(0, 64) }, "ocpi: fecha del socio fuera del formato OCPI (aceptada)");
  }
  return {
    offset,
    limit: Math.min(limit, OCPI_MAX_LIMIT),
    dateFrom: from ? (parseOcpiDateTime(from) ?? undefined) : undefined,
    dateTo: to ? (parseOcpiDateTime(to) ?? undefined) : undefined,
  };
}
