// The embedded Business API: a web-standard Hono app mounted at /api.
// server.ts serves it over HTTP; the dashboard's loaders call `api.fetch(request)` in-process.
import { Hono, type ErrorHandler } from "hono";
import type { DriverPayments } from "../payments";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { accessGuard } from "./access";
import { createKeyRing } from "../infra/crypto";
import { RateLimiter, rateLimitMessage } from "../infra/rate-limit";
import type { ApiDeps, ApiServices, AppEnv, Ctx } from "./env";
import type { Logger } from "../infra/logger";
import { buildOpenApiDocument } from "./openapi";
import { boundedJsonText } from "./http";
import { ApiError, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS, databaseUnavailable, pgError, problemResponse, problemType, type Problem } from "./problem";
import { accountRoutes, signInRoutes } from "./routes/account";
import { auditRoutes } from "./routes/audit";
import { invitationLookupRoutes, invitationRoutes, joinRoutes, memberRoutes } from "./routes/team";
import { disabledMailer } from "../infra/mail";
import { activityRoutes } from "./routes/activity";
import { chargerBrandRoutes, connectorTypeRoutes, serviceRoutes } from "./routes/catalogs";
import { chargerRoutes } from "./routes/chargers";
import { chargerMaintenanceRoutes, chargerUploadRoutes } from "./routes/charger-maintenance";
import { dashboardRoutes, graphicRoutes } from "./routes/dashboard";
import { feeRoutes } from "./routes/fees";
import { holidayRoutes } from "./routes/holidays";
import { imageRoutes, publicImageRoutes } from "./routes/images";
import { notificationRoutes } from "./routes/notifications";
import { paymentAccountRoutes, paymentRoutes } from "./routes/payments";
import { fiscalRoutes } from "./routes/fiscal";
import { paymentReconciliationRoutes } from "./routes/payment-reconciliation";
import { liveRoutes } from "./routes/live";
import { businessUserRoutes } from "./routes/profile";
import { stationRoutes } from "./routes/stations";
import { accessGroupRoutes, tagRoutes } from "./routes/tags";
import { reservationRoutes } from "./routes/reservations";
import { createCompanyCache, sharedAcrossNodes } from "./company-cache";
import { driverRoutes, webhookRoutes } from "./routes/driver";
import { roamingRoutes } from "./routes/roaming";
import { invoiceRoutes } from "./routes/invoices";
import { createInvoicing } from "../invoicing";
import { createInvoicingGateway } from "../infra/arca/gateway";
import { OcpiClient } from "../ocpi/client";
import { afterCommit, ambientDb } from "../db/ambient";
import { stableReads } from "../db/write-watch";

export type { ApiDeps, TokenClaims, VerifyToken } from "./env";

const consoleLogger: Logger = {
  info: () => {},
  warn: (obj, msg) => console.warn(msg ?? "", obj),
  error: (obj, msg) => console.error(msg ?? "", obj),
};

const MAX_BODY_BYTES = 1024 * 1024;
/** Bodies checked as JSON: JSON of any flavour and plain text (what a client sends without saying). */
const JSON_LIKE_TYPE = /^\s*(application\/([\w.+-]+\+)?json|text\/plain)\b/i;
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

export function createApi(deps: ApiDeps): Hono<AppEnv> {
  const services = apiServices(deps);
  const app = new Hono<AppEnv>().basePath("/api");
  withRequestBasics(app);
  withAccessGuard(app, services, deps);
  mountPublic(app, services, deps.driverPayments);
  mountCompany(app, services, deps.driverPayments);
  app.notFound((c) =>
    problemResponse({ type: problemType("not-found"), title: "La ruta no existe.", status: 404 }, { "X-Request-Id": c.get("requestId") ?? "" }),
  );
  app.onError(apiErrorHandler(services.logger));
  return app;
}

/** What every route receives: the database handle that joins an audited write's transaction, keys, clocks, senders. */
function apiServices(deps: ApiDeps): ApiServices {
  const keyRing = createKeyRing(deps.encryptionKeys);
  // The handle that joins an audited write's transaction (db/ambient.ts), however the db was opened.
  const db = ambientDb(deps.db);
  const services: ApiServices = {
    db,
    keyRing,
    publicOrigin: deps.publicOrigin?.replace(/\/$/, ""),
    logger: deps.logger ?? consoleLogger,
    autoApproveBusinesses: deps.autoApproveBusinesses ?? false,
    now: deps.now ?? (() => new Date()),
    sendPush: deps.sendPush,
    ocpp: deps.ocpp,
    companyCache: createCompanyCache(deps.companyCacheMs ?? 0, deps.now ?? (() => new Date()), undefined, (err, where) =>
      (deps.logger ?? consoleLogger).warn({ ...where, err: err instanceof Error ? err.message : String(err) }, "caché por empresa: no se pudo recalcular; la próxima lectura lo intenta de nuevo"),
    ),
    stableReads: stableReads(deps.writes),
    mailer: deps.mailer ?? disabledMailer,
    appName: deps.appName ?? "Enchufá",
    liveStreamLimits: deps.liveStreamLimits,
    imageLimits: deps.imageLimits,
    invoicing: deps.invoicing ?? createInvoicing({ db, gateway: createInvoicingGateway({ db, keyRing, config: deps.arca ?? {} }), logger: deps.logger ?? consoleLogger, now: deps.now }),
    arca: deps.arca ?? {},
    ocpi: {
      db,
      keyRing,
      client: new OcpiClient({ logger: deps.logger ?? consoleLogger, ...deps.ocpiClient }),
      publicOrigin: deps.publicOrigin?.replace(/\/$/, "") ?? "http://localhost",
      now: deps.now ?? (() => new Date()),
      logger: deps.logger ?? consoleLogger,
    },
  };
  if (deps.channels && (deps.companyCacheMs ?? 0) > 0) {
    services.companyCache = sharedAcrossNodes(services.companyCache, deps.channels, (err) => services.logger.warn({ err }, "caché por empresa: aviso entre nodos fallido"));
  }
  return services;
}

/** Request id, body size limits and bounded JSON: before anything reads the request. */
function withRequestBasics(app: Hono<AppEnv>): void {
  // Request id: the caller's (when sane) or a new one; echoed on every response.
  app.use(async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    await next();
    c.header("X-Request-Id", requestId);
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  });

  // No request body larger than 1 MiB (image uploads have their own, tighter limit and message).
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) =>
      problemResponse({ type: problemType("payload-too-large"), title: "El contenido es demasiado grande.", status: 413 }, { "X-Request-Id": c.get("requestId") }),
  });
  // Diagnostics uploads from chargers have their own cap (api/routes/charger-maintenance.ts).
  const ownBodies = (path: string) => path.startsWith("/api/Business/Images") || path.startsWith("/api/ChargerUpload/");
  app.use((c, next) => (ownBodies(c.req.path) ? next() : limitBody(c, next)));
  // Every JSON body (and any body a handler may parse as JSON: the providers' webhooks read it
  // whatever its type) is bounded in size and nesting before anything reads it, the access
  // guard's audit included. Image and diagnostics uploads are files, read as streams.
  app.use(async (c, next) => {
    const type = c.req.header("content-type") ?? "";
    if (!["GET", "HEAD", "OPTIONS"].includes(c.req.method) && !ownBodies(c.req.path) && (type === "" || JSON_LIKE_TYPE.test(type))) await boundedJsonText(c);
    await next();
  });
}

function withAccessGuard(app: Hono<AppEnv>, services: ApiServices, deps: ApiDeps): void {
  // Who may call what (api/access.ts): every endpoint has a rule or is refused; anything not
  // public needs a verified Firebase ID token, counts against the account's limit (across nodes:
  // PostgreSQL store when several share one database), is checked against the caller's role in
  // the company it acts for, and its writes are audited.
  const perAccount = new RateLimiter("api:account", { limit: deps.accountRequestsPerMinute ?? 600, windowMs: 60_000 }, { hot: true });
  const limitAccount = async (c: Ctx) => {
    const verdict = await perAccount.hit(c.get("claims").uid);
    if (!verdict.ok) {
      throw new ApiError(429, "rate-limited", rateLimitMessage(verdict.retryAfterMs), {
        headers: { "Retry-After": String(Math.ceil(verdict.retryAfterMs / 1000)) },
      });
    }
  };
  app.use(accessGuard(services, deps.verifyToken, limitAccount));
}

function mountPublic(app: Hono<AppEnv>, services: ApiServices, driverPayments: DriverPayments): void {
  // Public: the contract, the content-addressed images and what an invitation link offers.
  const openapi = buildOpenApiDocument();
  app.get("/openapi.json", (c) => c.json(openapi, 200, { "Cache-Control": "public, max-age=300" }));
  app.route("/images", publicImageRoutes(services));
  app.route("/Invitation/Lookup", invitationLookupRoutes(services));
  app.route("/ChargerUpload", chargerUploadRoutes(services));
  // Drivers paying at a connector's QR, and the providers' notifications: public routes.
  app.route("/Driver", driverRoutes(services, driverPayments));
  app.route("/Webhook", webhookRoutes(driverPayments));
}

function mountCompany(app: Hono<AppEnv>, services: ApiServices, driverPayments: DriverPayments): void {
  // A company that writes (renames a station, removes a charger…) sees it in its KPIs, charts and
  // filters at once: its cached entries are dropped once the write is committed (api/company-cache.ts).
  app.use(async (c, next) => {
    await next();
    const business = c.get("business");
    if (business && !["GET", "HEAD", "OPTIONS"].includes(c.req.method)) await afterCommit(() => services.companyCache.forget(business.id));
  });

  // Each route's caller, role and company status are checked by the access guard from its entry
  // in contract/endpoints.ts; the mounts only place the routers. Joining a company with an
  // invitation (any verified account) answers POST /Business/Member before the team's routes.
  const routers: [string, Hono<AppEnv>][] = [
    ["/Account/Business", accountRoutes(services)],
    ["/Account/SignIn", signInRoutes(services)],
    ["/Business/Member", joinRoutes(services)],
    ["/Business/BusinessUser", businessUserRoutes(services)],
    ["/Business/Images", imageRoutes(services)],
    ["/Business/ChargingStation", stationRoutes(services)],
    ["/Business/Charger", chargerRoutes(services).route("/", chargerMaintenanceRoutes(services))],
    ["/Business/Service", serviceRoutes(services)],
    ["/Business/ChargerBrand", chargerBrandRoutes(services)],
    ["/Driver/ConnectorType", connectorTypeRoutes(services)],
    ["/Business/Fees", feeRoutes(services)],
    ["/Business/Holidays", holidayRoutes(services)],
    ["/Business/Tag", tagRoutes(services)],
    ["/Business/AccessGroup", accessGroupRoutes(services)],
    ["/Business/Reservation", reservationRoutes(services)],
    ["/Business/Activity", activityRoutes(services)],
    ["/Business/Dashboard", dashboardRoutes(services)],
    ["/Business/Graphic", graphicRoutes(services)],
    ["/Business/Notification", notificationRoutes(services)],
    ["/Business/Live", liveRoutes(services)],
    ["/Business/Payments/Reconciliation", paymentReconciliationRoutes(services, driverPayments)],
    ["/Business/Payments", paymentRoutes(services, driverPayments)],
    ["/Business/Fiscal", fiscalRoutes(services)],
    ["/MercadoPago/BusinessUser", paymentAccountRoutes(services, "MERCADOPAGO")],
    ["/Pagos360/BusinessUser", paymentAccountRoutes(services, "PAGOS360")],
    ["/Business/Member", memberRoutes(services)],
    ["/Business/Invitation", invitationRoutes(services)],
    ["/Business/Audit", auditRoutes(services)],
    ["/Business/Roaming", roamingRoutes(services)],
    ["/Business/Invoice", invoiceRoutes(services)],
  ];
  for (const [prefix, router] of routers) app.route(prefix, router);
}

/** Any error as problem+json: the API's own, a malformed request, a constraint, a database down, or a 500 with only an id. */
function apiErrorHandler(logger: ApiServices["logger"]): ErrorHandler<AppEnv> {
  return (err, c) => {
    const requestId = c.get("requestId") ?? crypto.randomUUID();
    const headers = { "X-Request-Id": requestId };
    if (err instanceof ApiError) return problemResponse(err.toProblem(), { ...headers, ...err.options.headers });
    if (err instanceof HTTPException) {
      const status = err.status;
      const title = status === 413 ? "El contenido es demasiado grande." : status < 500 ? "Solicitud inválida." : "Ocurrió un error inesperado.";
      return problemResponse({ type: problemType(status === 413 ? "payload-too-large" : "validation"), title, status }, headers);
    }
    const pg = pgError(err);
    if (pg?.code === "23505") {
      return problemResponse({ type: problemType("conflict"), title: "Ya existe un registro con esos datos.", status: 409 }, headers);
    }
    if (pg?.code === "23503") {
      return problemResponse({ type: problemType("conflict"), title: "El registro está en uso o hace referencia a datos que no existen.", status: 409 }, headers);
    }
    if (databaseUnavailable(err)) {
      logger.error({ requestId, method: c.req.method, path: new URL(c.req.url).pathname, err: describeError(err) }, "API: la base de datos no responde");
      return problemResponse(
        { type: problemType("unavailable"), title: UNAVAILABLE_MESSAGE, status: 503, requestId },
        { ...headers, "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
      );
    }
    logger.error(
      { requestId, method: c.req.method, path: new URL(c.req.url).pathname, err: describeError(err) },
      "error inesperado en la API",
    );
    const problem: Problem = {
      type: problemType("internal"),
      title: "Ocurrió un error inesperado.",
      status: 500,
      detail: `Si el problema continúa, indicá este código a soporte: ${requestId}`,
      requestId,
    };
    return problemResponse(problem, headers);
  };
}

function describeError(err: unknown): object {
  if (err instanceof Error) {
    const pg = pgError(err);
    // Message, SQL text and stack only: no request data, query parameters or tokens in the log.
    const cause = (err as { cause?: unknown }).cause;
    const query = (err as { query?: unknown }).query;
    if (typeof query === "string" && cause instanceof Error) {
      return { name: cause.name, message: cause.message, query, stack: cause.stack, ...(pg ? { pgCode: pg.code } : {}) };
    }
    return { name: err.name, message: err.message, stack: err.stack, ...(pg ? { pgCode: pg.code } : {}) };
  }
  return { value: String(err) };
}
