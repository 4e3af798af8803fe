// Enchufá's server: the dashboard (React Router), the embedded Business API at /api and /healthz,
// behind security headers, compression and graceful shutdown.
import cluster from "node:cluster";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { setToastCookieOptions } from "remix-toast";
import { parseEnv, EnvError, type Env } from "./server/env";
import { createLogger } from "./server/logger";
import { runPrimary, workerCount, workerNodeId } from "./server/cluster";
import { createRefreshTokenRevoker, createTokenVerifier, identityReachable } from "./server/identity";
import { createHttpApp, listen, readTls } from "./server/http";
import { BufferedRateLimitStore, MemoryRateLimitStore, PostgresRateLimitStore, setHotRateLimitStore, setRateLimitStore } from "./infra/rate-limit";
import { createPushSender } from "./server/push";
import { DbWebSessionStore, SingleProcessWebSessionStore, setWebSessionStore } from "./infra/web-sessions";
import { openDatabase } from "./db/client";
import { seedCatalogs } from "./db/seed/catalogs";
import { createApi } from "./api/app";
import { createOcpiApp, ocpiServices } from "./ocpi/app";
import { createChargerAuthorizer } from "./ocpi/charger-authorization";
import { followPartnerSessions } from "./ocpp/session-events";
import { pushToPartners, startPushLoop } from "./ocpi/push";
import { createKeyRing } from "./infra/crypto";
import { disabledMailer, fileInbox, httpMailer, type Inbox, type Mailer } from "./infra/mail";
import { createCentralSystem } from "./ocpp/central-system";
import { DEFAULT_CALL_LIMIT } from "./ocpp/limits";
import { createDriverPayments, startDailyReconciliation, startDriverPaymentSweep } from "./payments";
import { startImageSweep } from "./api/image-quota";
import { createInvoicing } from "./invoicing";
import { createInvoicingGateway } from "./infra/arca/gateway";
import { startRateScheduleSweep } from "./api/rate-schedule-sweep";

export interface RunningServer {
  url: string;
  env: Env;
  ocpp: Awaited<ReturnType<typeof createCentralSystem>>;
  close(): Promise<void>;
}

export async function startServer(options: { dev?: boolean; onDatabase?: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<void> } = {}): Promise<RunningServer> {
  const env = parseEnv();
  // Own TLS (TLS_CERT_FILE / TLS_KEY_FILE): read and checked before anything opens.
  const tls = readTls(env);
  const logger = createLogger(env.LOG_LEVEL);
  signToasts(env);
  const database = await openStores(env);
  if (options.onDatabase) await options.onDatabase(database);

  const verifyToken = createTokenVerifier(env);
  const sendPush = createPushSender(env);
  // OCPI roaming (ADR 0020 and 0021): partners are called over https on public
  // addresses only; locally and in development (the test eMSP on 127.0.0.1), plain http and
  // private addresses too — the same notion of mode as the payment providers' emulators.
  const partnersLocal = env.ENCHUFA_LOCAL || env.NODE_ENV !== "production";
  // One key ring for every module that seals or opens secrets (partners' tokens, providers'
  // credentials, ARCA certificates).
  const keyRing = createKeyRing(env.ENCRYPTION_KEY ?? []);
  const ocpiBase = {
    db: database.db,
    keyRing,
    publicOrigin: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    logger,
    client: { local: partnersLocal },
  };
  const ocpiSvc = ocpiServices(ocpiBase);
  // The OCPP central system: chargers connect on this same port at /ocpp/<identity>.
  const chargerAuthorizer = createChargerAuthorizer(ocpiSvc);
  const ocpp = await createCentralSystem({
    db: database.db,
    telemetryDb: database.telemetry,
    channels: database.channels,
    logger,
    sendPush,
    nodeId: env.NODE_ID,
    idleMaxMinutes: env.OCPP_IDLE_MAX_MINUTES,
    sweepIntervalMs: env.OCPP_SWEEP_SECONDS * 1000,
    // Per charger and per address (ocpp/limits.ts); the call budget survives reconnections.
    callLimit: { ...DEFAULT_CALL_LIMIT, burst: env.OCPP_CALL_BURST, perSecond: env.OCPP_CALLS_PER_SECOND },
    connectionLimit: { perChargerPerMinute: env.OCPP_CONNECTIONS_PER_CHARGER_MINUTE, perAddressPerMinute: env.OCPP_CONNECTIONS_PER_IP_MINUTE },
    trustProxy: env.TRUST_PROXY,
    // Partners' drivers' tokens at the chargers of stations published to roaming (ADR 0021).
    roaming: chargerAuthorizer,
  });
  // The sessions partners' tokens start are theirs: their Sessions and CDRs are pushed to them.
  followPartnerSessions(ocpp.events, chargerAuthorizer, logger);
  // E-mail (team invitations): the provider; in local mode (or development without one) the local inbox.
  let mailer: Mailer = disabledMailer;
  let inbox: Inbox | undefined;
  if (env.MAIL_PROVIDER_URL) mailer = httpMailer({ url: env.MAIL_PROVIDER_URL, token: env.MAIL_PROVIDER_TOKEN, from: env.MAIL_FROM });
  else if (env.ENCHUFA_LOCAL || env.NODE_ENV !== "production") mailer = inbox = fileInbox(path.resolve(env.DATA_DIR, "inbox"), { from: env.MAIL_FROM });
  else logger.warn("MAIL_PROVIDER_URL no está configurada: las invitaciones al equipo no se pueden enviar");
  // Electronic invoices (ADR 0048). The gateway is the one place ARCA comes in: each company's
  // fiscal settings and its ARCA client (ADR 0047); a company without settings is not invoiced.
  const arcaConfig = { wsaaUrl: env.ARCA_WSAA_URL, wsfeUrl: env.ARCA_WSFE_URL };
  const gateway = createInvoicingGateway({ db: database.db, keyRing, config: arcaConfig });
  const invoicing = createInvoicing({ db: database.db, gateway, logger, mailer, appName: env.APP_NAME, sendPush, live: ocpp.live });
  const driverPayments = createDriverPayments({
    invoicing,
    db: database.db,
    keyRing,
    logger,
    mailer,
    appName: env.APP_NAME,
    ocpp,
    sendPush,
    mercadoPagoUrl: env.MERCADOPAGO_API_URL,
    pagos360Url: env.PAGOS360_API_URL,
  });
  // Drivers' prepaid charges follow their sessions (caps, refunds) as the charger reports.
  ocpp.events.on("session.changed", ({ chargerId }) => {
    driverPayments.onSessionChange(chargerId).catch((err) => logger.error({ err: err instanceof Error ? err.message : String(err) }, "pagos con QR: no se pudo seguir la carga"));
  });
  const stopPaymentSweep = startDriverPaymentSweep(driverPayments, logger, env.PAYMENTS_SWEEP_SECONDS * 1000);
  // Vouchers waiting for ARCA (down, busy, or missed by a settlement) are retried with backoff by the same kind of sweep.
  const stopInvoiceSweep = startDriverPaymentSweep(invoicing, logger, env.PAYMENTS_SWEEP_SECONDS * 1000, "facturas: falló el barrido");
  // Every company's payments of the last 7 days against the providers' records, once a day; a new difference is notified once (ADR 0040).
  const stopReconciliation = startDailyReconciliation(driverPayments, logger);
  // Uploads nothing uses are deleted after their grace period (ADR 0028).
  const imageLimits = { maxCount: env.IMAGES_PER_COMPANY, maxBytes: env.IMAGES_MB_PER_COMPANY * 1024 * 1024, graceMs: env.UNREFERENCED_IMAGE_HOURS * 3_600_000 };
  const stopImageSweep = startImageSweep(database.db, logger, imageLimits.graceMs);
  // Scheduled rate changes are written into their rates when due (sessions take them at start anyway; ADR 0043).
  // A scheduled price that took effect reaches the screens of the chargers that show it, and is
  // pushed to roaming partners at once, not on the next 5 s pass (ocpi/tariffs-push.ts).
  const stopRateScheduleSweep = startRateScheduleSweep(database.db, logger, 30_000, (rateIds) => {
    void ocpp.refreshPrices({ rateIds }).catch(() => {});
    pushToPartners(ocpiSvc).catch((err) => logger.error({ err: err instanceof Error ? err.message : String(err) }, "ocpi: no se pudieron enviar las tarifas cambiadas"));
  });
  const api = createApi({
    driverPayments,
    invoicing,
    db: database.db,
    verifyToken,
    encryptionKeys: env.ENCRYPTION_KEY ?? [],
    autoApproveBusinesses: env.AUTO_APPROVE_BUSINESSES,
    publicOrigin: env.PUBLIC_URL,
    logger,
    sendPush,
    ocpp,
    accountRequestsPerMinute: env.ENCHUFA_LOCAL ? env.API_REQUESTS_PER_ACCOUNT_MINUTE * 50 : env.API_REQUESTS_PER_ACCOUNT_MINUTE,
    companyCacheMs: env.COMPANY_CACHE_SECONDS * 1000,
    liveStreamLimits: { perAccount: env.LIVE_STREAMS_PER_ACCOUNT, perAddress: env.LIVE_STREAMS_PER_IP },
    imageLimits,
    channels: database.channels,
    writes: database.writes,
    mailer,
    appName: env.APP_NAME,
    // OCPI roaming partners: https and public addresses only; locally, anything (ADR 0021).
    ocpiClient: { local: partnersLocal },
    arca: arcaConfig,
  });

  const health = healthCheck(env, database);
  const dashboard = await loadDashboard(options.dev);

  const ocpiApp = createOcpiApp({ ...ocpiBase, ocpp });
  // Sessions, CDRs and location changes, pushed every few seconds by one node per partner (ocpi/push.ts).
  const stopOcpiPush = startPushLoop(ocpiSvc);

  const app = createHttpApp({ env, logger, api, ocpi: ocpiApp, health, dashboard, verifyIdToken: verifyToken, revokeRefreshTokens: createRefreshTokenRevoker(env), inbox });
  const listening = await listenForRequests(app, env, tls, ocpp.handleUpgrade);
  logger.info({ url: listening.url, database: database.kind, tls: listening.protocol === "https" }, "servidor listo");

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= shutdown({ logger, listening, stops: [stopPaymentSweep, stopInvoiceSweep, stopReconciliation, stopImageSweep, stopRateScheduleSweep, stopOcpiPush], ocpp, dashboard, database }));
  return { url: listening.url, env, ocpp, close };
}

type Database = Awaited<ReturnType<typeof openDatabase>>;
type Dashboard = Parameters<typeof createHttpApp>[0]["dashboard"];

/**
 * Flash toasts are signed with the session's secrets (remix-toast's own default is a public
 * constant), so a cookie set by anyone else is not shown as our message.
 */
function signToasts(env: Env) {
  const sessionSecrets = (env.SESSION_SECRET ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  setToastCookieOptions({ secure: env.NODE_ENV === "production" && !env.ENCHUFA_LOCAL, ...(sessionSecrets.length ? { secrets: sessionSecrets } : {}) });
}

/** The database with its catalogs, and the stores kept in it: rate limits and the dashboard's sign-ins. */
async function openStores(env: Env): Promise<Database> {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolMax: env.DATABASE_POOL_MAX, preparedStatements: env.DATABASE_PREPARED_STATEMENTS });
  await seedCatalogs(database.db);
  // Rate limits hold across nodes when they share PostgreSQL; one node (PGlite) counts in memory.
  const limits = database.kind === "postgres" ? new PostgresRateLimitStore(database.db) : new MemoryRateLimitStore();
  setRateLimitStore(limits);
  // The API's per-account limit is hit by every API call of every page: cached and batched.
  if (database.kind === "postgres") setHotRateLimitStore(new BufferedRateLimitStore(limits));
  // The dashboard's sign-ins live in the database (PGlite too): they survive restarts, and a
  // sign-out holds on every node (ADR 0027). The embedded database has one process, which sees
  // every sign-out: it remembers the live ones instead of asking on every page.
  const webSessions = new DbWebSessionStore(database.db);
  setWebSessionStore(database.kind === "pglite" ? new SingleProcessWebSessionStore(webSessions) : webSessions);
  return database;
}

/** /healthz's checks: the database and the identity provider, each "ok" or "down". */
function healthCheck(env: Env, database: Database) {
  return async () => {
    const [db, identity] = await Promise.all([
      database.ping().then(() => "ok" as const, () => "down" as const),
      identityReachable(env).then((ok) => (ok ? ("ok" as const) : ("down" as const))),
    ]);
    return { database: db, identity };
  };
}

/** The dashboard: a Vite dev server in development, the built server bundle (BUILD_DIR, default build/) otherwise. */
async function loadDashboard(dev: boolean | undefined): Promise<Dashboard> {
  if (dev) {
    const vite = await import("vite");
    return { vite: await vite.createServer({ server: { middlewareMode: true } }) };
  }
  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as ServerBuild;
  return { build, clientDir: path.join(buildDir, "client") };
}

/**
 * Plain HTTP behind a TLS-terminating load balancer; HTTPS (wss:// for chargers) with
 * TLS_CERT_FILE/TLS_KEY_FILE. Chargers' WebSocket upgrades go to `onUpgrade`. Once `drain()` is
 * called, every answer closes its connection instead of keeping it alive.
 */
async function listenForRequests(app: Parameters<typeof listen>[0], env: Env, tls: ReturnType<typeof readTls>, onUpgrade: RunningServer["ocpp"]["handleUpgrade"]) {
  const { server, protocol } = await listen(app, env, tls);
  server.keepAliveTimeout = 65_000;
  let draining = false;
  server.on("request", (_req, res) => {
    if (draining) res.shouldKeepAlive = false;
  });
  server.on("upgrade", onUpgrade);
  const address = server.address();
  const port = address && typeof address === "object" ? address.port : env.PORT;
  const url = `${protocol}://${env.HOST === "0.0.0.0" ? "127.0.0.1" : env.HOST}:${port}`;
  return {
    server,
    protocol,
    url,
    drain: () => {
      draining = true;
    },
  };
}

/**
 * In-flight requests finish; chargers get a clean close (1001) and reconnect elsewhere. Keep-alive
 * connections are closed as soon as they go idle (a response finishing now says
 * `Connection: close`); whatever still hangs after 8 s is cut so the process exits within the
 * orchestrator's 10 s. The background loops (`stops`) stop first, the database closes last.
 */
async function shutdown({
  logger,
  listening: { server, drain },
  stops,
  ocpp,
  dashboard,
  database,
}: {
  logger: ReturnType<typeof createLogger>;
  listening: Awaited<ReturnType<typeof listenForRequests>>;
  stops: (() => void)[];
  ocpp: RunningServer["ocpp"];
  dashboard: Dashboard;
  database: Database;
}) {
  logger.info("cerrando: no se aceptan conexiones nuevas");
  drain();
  for (const stop of stops) stop();
  const sweep = setInterval(() => server.closeIdleConnections(), 200);
  const cut = setTimeout(() => server.closeAllConnections(), 8_000);
  await Promise.all([
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }),
    ocpp.close(),
  ]);
  clearInterval(sweep);
  clearTimeout(cut);
  if ("vite" in dashboard) await dashboard.vite.close();
  await database.close();
  logger.info("cerrado");
}

/**
 * Run as a process: exit 1 on bad configuration, finish in-flight work on SIGTERM/SIGINT. With
 * PostgreSQL and more than one core (WEB_CONCURRENCY), this process only supervises one server
 * process per core (server/cluster.ts, ADR 0011) and returns nothing.
 */
export async function main(options: { dev?: boolean } = {}): Promise<RunningServer | undefined> {
  if (!options.dev && cluster.isPrimary) {
    let env: Env;
    try {
      env = parseEnv();
    } catch (error) {
      console.error(error instanceof EnvError ? error.message : error);
      process.exit(1);
    }
    const workers = workerCount(env);
    if (workers > 1) {
      runPrimary({ workers, workerEnv: (index) => workerNodeId(env.NODE_ID, index), logger: createLogger(env.LOG_LEVEL) });
      return undefined;
    }
  }
  let running: RunningServer;
  try {
    running = await startServer(options);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    console.error("No se pudo iniciar el servidor:", error);
    process.exit(1);
  }
  const stop = (signal: string) => {
    console.log(`Recibida ${signal}, cerrando…`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  return running;
}

const invokedDirectly = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) void main({ dev: process.argv.includes("--dev") });
