import crypto from "node:crypto";
import path from "node:path";
import express, { type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import compression from "compression";
import helmet from "helmet";
import { createRequestHandler } from "@remix-run/express";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "@remix-run/node";
import type { ViteDevServer } from "vite";
import type { Env } from "./env";
import type { Logger } from "./logger";
import type { ApiFetch, IdentityConfig, PublicConfig, VerifiedIdToken } from "../app/lib/context";

export interface HttpDeps {
  env: Env;
  verifyIdToken: (idToken: string) => Promise<VerifiedIdToken>;
  logger: Logger;
  /** The Business API's fetch handler (embedded, mounted at /api). */
  api: { fetch: (request: Request) => Response | Promise<Response> };
  health: () => Promise<Record<string, "ok" | "down">>;
  /** Production: the built Remix server. Development: a Vite dev server. */
  remix: { build: ServerBuild; clientDir: string } | { vite: ViteDevServer };
}

const MAX_BODY_BYTES = 1024 * 1024; // issue 10: JSON and multipart capped at 1 MB before parsing

export function createHttpApp({ env, logger, api, health, remix, verifyIdToken }: HttpDeps) {
  const app = express();
  const production = env.NODE_ENV === "production";
  const dev = "vite" in remix;
  app.disable("x-powered-by");
  if (env.TRUST_PROXY) app.set("trust proxy", true);

  // Request id and one structured line per request (path only: query strings may carry oobCodes).
  app.use((req, res, next) => {
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
  });

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
          formAction: ["'self'"],
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

  app.get("/healthz", async (_req, res) => {
    const checks = await health();
    const ok = Object.values(checks).every((v) => v === "ok");
    res.status(ok ? 200 : 503).set("Cache-Control", "no-store").json({ status: ok ? "ok" : "down", ...checks });
  });

  // Body size cap before anything parses a body.
  app.use((req, res, next) => {
    const length = Number(req.headers["content-length"] ?? 0);
    if (length > MAX_BODY_BYTES) {
      res.status(413).type("application/problem+json").json({
        type: "about:blank",
        title: "El contenido enviado es demasiado grande (máximo 1 MB).",
        status: 413,
      });
      return;
    }
    next();
  });

  app.use(compression());

  const apiListener = getRequestListener((request) => api.fetch(request));
  app.use((req, res, next) => {
    if (req.path === "/api" || req.path.startsWith("/api/")) return void apiListener(req, res);
    next();
  });

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
  const apiFetch: ApiFetch = env.API_BASE_URL ? (request) => fetch(request) : async (request) => api.fetch(request);

  const emulator = env.FIREBASE_AUTH_EMULATOR_HOST ? `http://${env.FIREBASE_AUTH_EMULATOR_HOST}/` : "https://";
  const identity: IdentityConfig = {
    apiKey: env.FIREBASE_API_KEY ?? "local-emulator-key",
    projectId: env.FIREBASE_PROJECT_ID,
    identityToolkitUrl: `${emulator}identitytoolkit.googleapis.com`,
    secureTokenUrl: `${emulator}securetoken.googleapis.com`,
    continueUrl: env.PUBLIC_URL ? new URL("/auth", env.PUBLIC_URL).toString() : undefined,
  };

  const getLoadContext = (req: ExpressRequest, res: ExpressResponse) => ({
    cspNonce: res.locals.cspNonce as string,
    isDataRequest: req.path.endsWith(".data"),
    apiFetch,
    apiBaseUrl,
    config,
    verifyIdToken,
    identity,
    clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
  });

  if ("vite" in remix) {
    app.use(remix.vite.middlewares);
    app.all("*", async (req, res, next) => {
      try {
        const build = (await remix.vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild;
        return createRequestHandler({ build, mode: "development", getLoadContext })(req, res, next);
      } catch (error) {
        next(error);
      }
    });
  } else {
    const { clientDir } = remix;
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
    app.all("*", createRequestHandler({ build: remix.build, mode: "production", getLoadContext }));
  }

  // Last resort: log with the request id, answer without internals.
  app.use((error: unknown, _req: ExpressRequest, res: ExpressResponse, _next: express.NextFunction) => {
    logger.error({ err: error, reqId: res.locals.requestId }, "error no controlado");
    if (res.headersSent) return;
    res.status(500).type("text/plain; charset=utf-8").send("Ocurrió un error inesperado. Probá de nuevo en unos minutos.");
  });

  return app;
}
