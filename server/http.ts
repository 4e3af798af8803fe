import crypto from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer as createHttpServer, type RequestListener, type Server as HttpServer } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { createSecureContext } from "node:tls";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import path from "node:path";
import express, { type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import compression from "compression";
import expressStaticGzip from "express-static-gzip";
import helmet from "helmet";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import { getRequestListener } from "@hono/node-server";
import type { ViteDevServer } from "vite";
import { EnvError, type Env } from "./env";
import { bodyLimit, crossSiteGuard, isSafeMethod, MAX_BODY_BYTES, refuse } from "./security";
import { RateLimiter, rateLimitMessage } from "../infra/rate-limit";
import type { Logger } from "./logger";
import { PageScope } from "../api/page-scope";
import type { Inbox } from "../infra/mail";
import { localInboxRouter } from "./local-inbox";
import type { AppContext, ApiFetch, IdentityConfig, PublicConfig, VerifiedIdToken, createRequestContext } from "../app/lib/context";

export interface HttpDeps {
  env: Env;
  verifyIdToken: (idToken: string) => Promise<VerifiedIdToken>;
  /** Revokes an account's Firebase refresh tokens (sign-out; server/identity.ts). */
  revokeRefreshTokens?: (uid: string) => Promise<void>;
  logger: Logger;
  /** The Business API's fetch handler (embedded, mounted at /api); bindings: the page's scope and the client's address. */
  api: { fetch: (request: Request, bindings?: { pageScope?: PageScope; clientIp?: string }) => Response | Promise<Response> };
  /** The OCPI interface (ocpi/app.ts, mounted at /ocpi): partners' servers, authenticated by OCPI tokens. */
  ocpi?: { fetch: (request: Request) => Response | Promise<Response> };
  /** Local mode: the e-mails "sent", shown at /_local/inbox. */
  inbox?: Inbox;
  health: () => Promise<Record<string, "ok" | "down">>;
  /** The dashboard (React Router). Production: its server build. Development: a Vite dev server. */
  dashboard: { build: ServerBuild; clientDir: string } | { vite: ViteDevServer };
}

export function createHttpApp(deps: HttpDeps) {
  const { env, logger, health, dashboard, inbox } = deps;
  const app = express();
  app.disable("x-powered-by");
  if (env.TRUST_PROXY) app.set("trust proxy", true);

  // Request id and one structured line per request (path only: query strings may carry oobCodes).
  app.use(requestLog(logger));
  applySecurityHeaders(app, env, "vite" in dashboard);

  app.get("/healthz", async (_req, res) => {
    // Unhealthy (503) only when this node cannot serve: its database is down. The identity
    // provider is reported but does not fail the check — signed-in pages keep working without it,
    // and a Google outage must not make a load balancer pull every node at once.
    const checks = await health();
    const ok = checks.database === "ok";
    res.status(ok ? 200 : 503).set("Cache-Control", "no-store").json({ status: ok ? "ok" : "down", ...checks });
  });

  // Cross-site state changes are refused (CSRF), then bodies are capped before anything parses them.
  app.use(crossSiteGuard({ allowedOrigins: env.PUBLIC_URL ? [env.PUBLIC_URL] : [], trustProxy: env.TRUST_PROXY }));
  app.use(bodyLimit(MAX_BODY_BYTES));

  app.use(compression());

  mountApi(app, env, deps.api);
  if (deps.ocpi) mountOcpi(app, env, deps.ocpi);

  if (inbox && env.ENCHUFA_LOCAL) app.use(localInboxRouter(inbox, env.APP_NAME));

  limitDriverPages(app, env);
  mountDashboard(app, dashboard, dashboardContext(deps), logger);

  // Last resort: log with the request id, answer without internals.
  app.use((error: unknown, _req: ExpressRequest, res: ExpressResponse, _next: express.NextFunction) => {
    logger.error({ err: error, reqId: res.locals.requestId }, "error no controlado");
    if (res.headersSent) return;
    res.status(500).type("text/plain; charset=utf-8").send("Ocurrió un error inesperado. Probá de nuevo en unos minutos.");
  });

  return app;
}

/** Gives each request an id (X-Request-Id, kept from the caller when sent) and a CSP nonce, and logs one line when it ends. */
function requestLog(logger: Logger) {
  return (req: ExpressRequest, res: ExpressResponse, next: express.NextFunction) => {
    const id = (req.headers["x-request-id"] as string) || crypto.randomUUID();
    res.locals.requestId = id;
    res.setHeader("X-Request-Id", id);
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      if (req.path === "/healthz" || req.path.startsWith("/assets/")) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ reqId: id, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) }, "request");
    });
    next();
  };
}

/**
 * The security headers of every answer: a CSP with the page's nonce (plus Google Maps and Firebase
 * when configured, and what Vite needs in development), HSTS in production, no framing, no sniffing.
 */
function applySecurityHeaders(app: express.Express, env: Env, dev: boolean) {
  const production = env.NODE_ENV === "production";
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as ExpressResponse).locals.cspNonce}'`;
  const maps = env.GOOGLE_MAPS_API_KEY ? ["https://maps.googleapis.com", "https://maps.gstatic.com"] : [];
  const firebase = env.FIREBASE_VAPID_KEY
    ? ["https://fcmregistrations.googleapis.com", "https://firebaseinstallations.googleapis.com"]
    : [];
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", nonce, ...maps, ...(dev ? ["'unsafe-eval'"] : [])],
          scriptSrcAttr: ["'none'"],
          styleSrc: ["'self'", "'unsafe-inline'", ...(maps.length ? ["https://fonts.googleapis.com"] : [])],
          imgSrc: ["'self'", "data:", "blob:", ...maps, "https://*.googleusercontent.com"],
          fontSrc: ["'self'", ...(maps.length ? ["https://fonts.gstatic.com"] : [])],
          connectSrc: ["'self'", ...maps, ...firebase, ...(dev ? ["ws:"] : [])],
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          // A "Pagar" form posted without JavaScript is redirected to the provider's checkout.
          formAction: ["'self'", ...paymentCheckoutOrigins(env)],
          frameAncestors: ["'none'"],
          ...(production && !env.ENCHUFA_LOCAL ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: production && !env.ENCHUFA_LOCAL ? { maxAge: 31536000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: "same-origin" },
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), payment=(), usb=(), geolocation=(self)");
    next();
  });
}

/** The Business API at /api: limited per client address first (per account inside the API, after the token). */
function mountApi(app: express.Express, env: Env, api: HttpDeps["api"]) {
  const apiPerIp = new RateLimiter("api:ip", { limit: env.ENCHUFA_LOCAL ? 60_000 : env.API_REQUESTS_PER_IP_MINUTE, windowMs: 60_000 }, { hot: true });
  app.use(async (req, res, next) => {
    if (!(req.path === "/api" || req.path.startsWith("/api/")) || req.path === "/api/openapi.json") return next();
    const verdict = await apiPerIp.hit((req.ip ?? req.socket.remoteAddress ?? "unknown").replace(/^::ffff:/, ""));
    if (verdict.ok) return next();
    res.set("Retry-After", String(Math.ceil(verdict.retryAfterMs / 1000)));
    refuse(req, res, 429, rateLimitMessage(verdict.retryAfterMs), "rate-limited");
  });

  // The client's address (behind TRUST_PROXY, the forwarded one) goes to the API for its audit log.
  const apiListener = getRequestListener((request, bindings) => {
    const incoming = (bindings as unknown as { incoming?: ExpressRequest }).incoming;
    return api.fetch(request, { clientIp: incoming?.ip ?? incoming?.socket?.remoteAddress });
  });
  app.use((req, res, next) => {
    if (req.path === "/api" || req.path.startsWith("/api/")) return void apiListener(req, res);
    next();
  });
}

/**
 * OCPI at /ocpi: roaming partners' servers. Outside the Business API and its Firebase guard; its own
 * limit per client address, its own body cap (ocpi/app.ts) and token authentication. The cross-site
 * guard lets it through: servers send neither Origin nor Sec-Fetch-Site.
 */
function mountOcpi(app: express.Express, env: Env, ocpi: NonNullable<HttpDeps["ocpi"]>) {
  const ocpiPerIp = new RateLimiter("ocpi:ip", { limit: env.OCPI_REQUESTS_PER_IP_MINUTE, windowMs: 60_000 }, { hot: true });
  const ocpiListener = getRequestListener((request) => ocpi.fetch(request));
  app.use(async (req, res, next) => {
    if (!(req.path === "/ocpi" || req.path.startsWith("/ocpi/"))) return next();
    const verdict = await ocpiPerIp.hit((req.ip ?? req.socket.remoteAddress ?? "unknown").replace(/^::ffff:/, ""));
    if (!verdict.ok) {
      res.set("Retry-After", String(Math.ceil(verdict.retryAfterMs / 1000)));
      // Every OCPI answer is an envelope, a refusal too; 2000 is its generic client error.
      res.status(429).json({ status_code: 2000, status_message: "Too many requests.", timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, "Z") });
      return;
    }
    void ocpiListener(req, res);
  });
}

/**
 * The public driver pages (/cargar) have no account to limit: per client address, pages and their
 * data (GET) and the "Pagar" / "Detener carga" posts separately.
 */
function limitDriverPages(app: express.Express, env: Env) {
  const driverViews = new RateLimiter("driver:ip:get", { limit: env.ENCHUFA_LOCAL ? 6_000 : 120, windowMs: 60_000 }, { hot: true });
  const driverPosts = new RateLimiter("driver:ip:post", { limit: env.ENCHUFA_LOCAL ? 1_000 : 20, windowMs: 60_000 }, { hot: true });
  app.use(async (req, res, next) => {
    if (req.path !== "/cargar" && !req.path.startsWith("/cargar/")) return next();
    const limiter = isSafeMethod(req.method) ? driverViews : driverPosts;
    const verdict = await limiter.hit((req.ip ?? req.socket.remoteAddress ?? "unknown").replace(/^::ffff:/, ""));
    if (verdict.ok) return next();
    res.set("Retry-After", String(Math.ceil(verdict.retryAfterMs / 1000)));
    refuse(req, res, 429, rateLimitMessage(verdict.retryAfterMs), "rate-limited");
  });
}

/** What each dashboard request gets: the public config, the identity service's URLs, and how it reaches the API. */
function dashboardContext({ env, api, verifyIdToken, revokeRefreshTokens }: HttpDeps) {
  const config: PublicConfig = {
    appName: env.APP_NAME,
    googleMapsApiKey: env.GOOGLE_MAPS_API_KEY,
    firebase:
      env.FIREBASE_API_KEY && env.FIREBASE_VAPID_KEY
        ? {
            apiKey: env.FIREBASE_API_KEY,
            projectId: env.FIREBASE_PROJECT_ID,
            authDomain: env.FIREBASE_AUTH_DOMAIN,
            appId: env.FIREBASE_APP_ID,
            messagingSenderId: env.FIREBASE_MESSAGING_SENDER_ID,
            vapidKey: env.FIREBASE_VAPID_KEY,
          }
        : undefined,
  };
  const apiBaseUrl = env.API_BASE_URL ?? `http://127.0.0.1:${env.PORT}/api`;
  // In-process, each dashboard request gets one PageScope: its API calls verify the token and read
  // the company once (api/page-scope.ts). Over HTTP (API_BASE_URL) every call is checked in full.
  const pageApi = (clientIp: string): { apiFetch: ApiFetch; verifyIdToken: typeof verifyIdToken } => {
    if (env.API_BASE_URL) return { apiFetch: (request) => fetch(request), verifyIdToken };
    const pageScope = new PageScope();
    return { apiFetch: async (request) => api.fetch(request, { pageScope, clientIp }), verifyIdToken: (idToken) => pageScope.verify(idToken, verifyIdToken) };
  };

  const emulator = env.FIREBASE_AUTH_EMULATOR_HOST ? `http://${env.FIREBASE_AUTH_EMULATOR_HOST}/` : "https://";
  const identity: IdentityConfig = {
    apiKey: env.FIREBASE_API_KEY ?? "local-emulator-key",
    projectId: env.FIREBASE_PROJECT_ID,
    identityToolkitUrl: `${emulator}identitytoolkit.googleapis.com`,
    secureTokenUrl: `${emulator}securetoken.googleapis.com`,
    continueUrl: env.PUBLIC_URL ? new URL("/auth", env.PUBLIC_URL).toString() : undefined,
  };

  return (req: ExpressRequest, res: ExpressResponse): AppContext => ({
    cspNonce: res.locals.cspNonce as string,
    isDataRequest: req.path.endsWith(".data"),
    ...pageApi(req.ip ?? req.socket.remoteAddress ?? "unknown"),
    apiBaseUrl,
    config,
    identity,
    revokeRefreshTokens,
    clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
  });
}

/** The dashboard: Vite's middleware in development; the build's assets and public files, then its pages, in production. */
function mountDashboard(app: express.Express, dashboard: HttpDeps["dashboard"], appContext: (req: ExpressRequest, res: ExpressResponse) => AppContext, logger: Logger) {
  // The request context is made by the build's own copy of app/lib/context (exported by
  // entry.server.tsx): its keys are module objects, and this file's bundle has another copy.
  const handlerFor = (build: ServerBuild, mode: "development" | "production") => {
    const { createRequestContext: toContext } = build.entry.module as unknown as { createRequestContext: typeof createRequestContext };
    return dashboardHandler(createRequestHandler(build, mode), (req, res) => toContext(appContext(req, res)), logger);
  };

  if ("vite" in dashboard) {
    const { vite } = dashboard;
    app.use(vite.middlewares);
    app.all("*", async (req, res, next) => {
      try {
        const build = (await vite.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
        return handlerFor(build, "development")(req, res, next);
      } catch (error) {
        next(error);
      }
    });
  } else {
    const { clientDir, build } = dashboard;
    // Hashed assets: the brotli or gzip file the build wrote next to each one (compression skips
    // an answer that is already encoded), cached for a year.
    app.use(
      "/assets",
      expressStaticGzip(path.join(clientDir, "assets"), {
        enableBrotli: true,
        orderPreference: ["br", "gzip"],
        index: false,
        serveStatic: { immutable: true, maxAge: "1y", index: false },
      }),
    );
    // The other public files (favicon, robots.txt, the push service worker, images) are few and
    // known when the server starts: only their paths reach the static middleware, so a page
    // request is not first looked up on disk (an fs.stat per page, ~4 % of a page's CPU).
    const publicFiles = listPublicFiles(clientDir);
    const servePublic = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));
    app.all("*", handlerFor(build, "production"));
  }
}

/**
 * Where the providers' checkouts are: Mercado Pago's and Pagos360's sites, or the local emulator
 * (its origin, only outside production — server/env.ts refuses an emulator URL there).
 */
export function paymentCheckoutOrigins(env: Pick<Env, "MERCADOPAGO_API_URL" | "PAGOS360_API_URL">): string[] {
  const out = new Set(["https://www.mercadopago.com.ar", "https://sandbox.mercadopago.com.ar", "https://www.mercadopago.com", "https://checkout.pagos360.com"]);
  for (const url of [env.MERCADOPAGO_API_URL, env.PAGOS360_API_URL]) if (url) out.add(new URL(url).origin);
  return [...out];
}

/** URL paths of the files under the client build, outside the hashed `assets/` folder. */
export function listPublicFiles(clientDir: string): Set<string> {
  if (!existsSync(clientDir)) return new Set();
  const files = readdirSync(clientDir, { recursive: true, withFileTypes: true });
  const paths = files
    .filter((entry) => entry.isFile())
    .map((entry) => "/" + path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .filter((url) => !url.startsWith("/assets/"));
  return new Set(paths);
}

/** Documents and single-fetch data: no route defers data, so their bodies are whole (ADR 0010). */
const WHOLE_BODY = /^text\/(html|x-script)\b/i;
/** Below this, compressing saves less than it costs (the threshold `compression` uses too). */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Compresses a whole page in one synchronous call: brotli at quality 2 (for a 108 KB page 0.24 ms
 * and 17.1 KB, against 0.58 ms and 16.1 KB at the quality 4 `compression` streams with, and 22 KB
 * for gzip 6), else gzip 4. `compression` leaves the answer alone once Content-Encoding is set.
 */
export function encodeWhole(req: ExpressRequest, res: ExpressResponse, body: Buffer): Buffer {
  res.vary("Accept-Encoding");
  if (body.length < COMPRESS_MIN_BYTES) return setLength(res, body);
  // Brotli whenever accepted (browsers list it last, after gzip, with the same weight).
  const encoding = req.acceptsEncodings("br") ? "br" : req.acceptsEncodings("gzip");
  if (encoding === "br") {
    res.setHeader("Content-Encoding", "br");
    return setLength(
      res,
      brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    );
  }
  if (encoding === "gzip") {
    res.setHeader("Content-Encoding", "gzip");
    return setLength(res, gzipSync(body, { level: 4 }));
  }
  return setLength(res, body);
}

function setLength(res: ExpressResponse, body: Buffer): Buffer {
  res.setHeader("Content-Length", String(body.length));
  return body;
}

/** The connection closed before the whole answer was sent: the client went away. */
function clientGone(res: ExpressResponse): boolean {
  return !res.writableFinished && (res.destroyed || res.socket === null || res.socket.destroyed);
}

type DashboardHandler = (request: Request, context: RouterContextProvider) => Promise<Response>;
type GetLoadContext = (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider;

/**
 * @react-router/express's adapter, except that a body already read (and capped) by bodyLimit is
 * handed over from `res.locals.body` instead of the request stream.
 */
function dashboardHandler(handle: DashboardHandler, getLoadContext: GetLoadContext, logger: Logger) {
  return async (req: ExpressRequest, res: ExpressResponse, next: express.NextFunction) => {
    try {
      const controller = new AbortController();
      let finished = false;
      res.on("finish", () => (finished = true));
      res.on("close", () => {
        if (!finished) controller.abort();
      });
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(key, v);
        else if (value !== undefined) headers.set(key, value);
      }
      const forwardedPort = req.get("X-Forwarded-Host")?.split(":")[1];
      const hostPort = req.get("host")?.split(":")[1];
      const port = [forwardedPort, hostPort].map((p) => Number.parseInt(p ?? "", 10)).find(Number.isSafeInteger);
      const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
      const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
      if (req.method !== "GET" && req.method !== "HEAD") {
        const buffered = res.locals.body as Buffer | undefined;
        if (buffered) {
          init.body = new Uint8Array(buffered) as Uint8Array<ArrayBuffer>;
          headers.delete("transfer-encoding");
          headers.set("content-length", String(buffered.length));
        } else {
          init.body = createReadableStreamFromReadable(req);
          init.duplex = "half";
        }
      }
      const response = await handle(new Request(url, init), getLoadContext(req, res));
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      const type = response.headers.get("Content-Type") ?? "";
      if (/text\/event-stream/i.test(type)) res.flushHeaders();
      if (response.body && WHOLE_BODY.test(type) && !response.headers.has("Content-Encoding")) {
        // A page or its data: complete in memory already (entry.server.tsx), compressed in one call.
        const body = Buffer.from(await response.arrayBuffer());
        res.end(req.method === "HEAD" ? undefined : encodeWhole(req, res, body));
      } else if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
    } catch (error) {
      // The browser left before the answer was complete (a closed tab, a page left while its live
      // events streamed): nothing failed on this side, and nobody is there to answer.
      if (clientGone(res)) return logger.debug({ reqId: res.locals.requestId, path: req.path, err: error instanceof Error ? error.message : String(error) }, "el cliente cerró la conexión antes del final de la respuesta");
      next(error);
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Listening: plain HTTP (TLS at the load balancer), or the node's own TLS for a small install

export type AppServer = HttpServer | HttpsServer;

/** A certificate (chain) and its private key, PEM. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/**
 * The certificate and key of TLS_CERT_FILE / TLS_KEY_FILE, or undefined when they are not set.
 * Read (and checked as a pair) before anything else starts: a file that cannot be read, or a key
 * that does not match the certificate, stops the start with the reason in Spanish.
 */
export function readTls(env: Pick<Env, "TLS_CERT_FILE" | "TLS_KEY_FILE">): TlsFiles | undefined {
  if (!env.TLS_CERT_FILE || !env.TLS_KEY_FILE) return undefined;
  const read = (key: "TLS_CERT_FILE" | "TLS_KEY_FILE", file: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new EnvError([`${key}: no se pudo leer ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`]);
    }
  };
  const files = { cert: read("TLS_CERT_FILE", env.TLS_CERT_FILE), key: read("TLS_KEY_FILE", env.TLS_KEY_FILE) };
  try {
    createSecureContext(files);
  } catch (err) {
    throw new EnvError([`TLS_CERT_FILE / TLS_KEY_FILE: el certificado o la clave no sirven (${err instanceof Error ? err.message : String(err)})`]);
  }
  return files;
}

/**
 * Listens on env.PORT / env.HOST: HTTPS (and so wss:// for /ocpp, on the same port) with the
 * node's own certificate, HTTP without one. TLS 1.2 at least; HTTP/1.1, which OCPP's WebSocket
 * upgrade needs.
 */
export function listen(app: RequestListener, env: Pick<Env, "PORT" | "HOST">, tls?: TlsFiles): Promise<{ server: AppServer; protocol: "http" | "https" }> {
  const server: AppServer = tls ? createHttpsServer({ ...tls, minVersion: "TLSv1.2" }, app) : createHttpServer(app);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.PORT, env.HOST, () => {
      server.off("error", reject);
      resolve({ server, protocol: tls ? "https" : "http" });
    });
  });
}
