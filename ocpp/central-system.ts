// The OCPP central system, assembled: chargers connect over WebSocket (ocpp/connection/), speak
// OCPP 1.6 (ocpp/v16/) or 2.0.1 (ocpp/v201/) — both land on the same rows — and receive the
// commands the API sends (ocpp/outbound/), wherever their socket is: several nodes may share
// one PostgreSQL, `chargers.connected_node` says which node holds a charger's socket, and a
// command for it travels over LISTEN/NOTIFY to that node. After each commit the central system
// tells the dashboards (live events) and the services that follow sessions (session events).
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Channels, Db } from "../db/client";
import type { SendPush } from "../infra/push";
import type { Logger } from "../infra/logger";
import type { ChargerAnswer, ChargerCommand, CommandProtocol, CommandReply, OcppCallSpec, PasswordDelivery } from "./commands";
import { createAuthenticator } from "./connection/authentication";
import { OCPP_PATH, OCPP_PROTOCOLS, type Client, type Session } from "./connection/client";
import { createRpcServer } from "./connection/rpc-server";
import { createSockets } from "./connection/sockets";
import { createHandlerContext } from "./handler-context";
import { DEFAULT_CALL_LIMIT, DEFAULT_CONNECTION_LIMIT, type CallLimit, type ConnectionLimit } from "./limits";
import { createLiveEvents, type LiveEvents } from "./live";
import type { MaintenanceReply, MaintenanceRequest } from "./maintenance";
import { createMessageLog } from "./message-log";
import { createPriceDisplay, type PriceDisplay } from "./price-display";
import { createRouter } from "./outbound/router";
import { createCommandSender } from "./outbound/send";
import type { RoamingAuthorizer } from "./roaming";
import { createSessionEvents, type SessionEvents } from "./session-events";
import { createBalancer } from "./smart-charging";
import { createSweep } from "./sweeps";
import { registerV16 } from "./v16";
import { registerV201 } from "./v201";

export { OCPP_PATH, OCPP_PROTOCOLS };
/** How often batched heartbeats are written. Offline detection waits 2× the interval (≥ 60 s). */
const SIGNS_OF_LIFE_FLUSH_MS = 1_000;
/**
 * How often the recent OCPP messages are written: the same rows in shorter statements, so no
 * single flush holds a core of the database long enough to show in the chargers' latency.
 */
const MESSAGE_LOG_FLUSH_MS = 250;

export interface CentralSystemOptions {
  db: Db;
  /**
   * Where readings are written (meter values, periodic transaction events, signs of life, the
   * message log): commits that do not wait for the disk on PostgreSQL (ADR 0023). Default: db.
   */
  telemetryDb?: Db;
  channels: Channels;
  logger: Logger;
  sendPush?: SendPush;
  /** This process's id in `chargers.connected_node` (default: a random UUID). */
  nodeId?: string;
  /** Idle time is charged at most this long when the unplug never arrives (default 240). */
  idleMaxMinutes?: number;
  /** How often silent chargers and forgotten idle sessions are swept (default 30 s). */
  sweepIntervalMs?: number;
  /** How long a command waits for the charger's answer (default 8 s, under the API's 10 s). */
  commandTimeoutMs?: number;
  /** How many calls one charger may make (default DEFAULT_CALL_LIMIT, ocpp/limits.ts). */
  callLimit?: CallLimit;
  /** How often a charger, and an address, may connect (default DEFAULT_CONNECTION_LIMIT, ocpp/limits.ts). */
  connectionLimit?: ConnectionLimit;
  /** Behind a load balancer: the client's address is the first of X-Forwarded-For (TRUST_PROXY). */
  trustProxy?: boolean;
  now?: () => Date;
  /**
   * Where the session events go (default: a new emitter, exposed as `events`). The services that
   * follow sessions subscribe to it.
   */
  events?: SessionEvents;
  /**
   * Roaming partners' tokens (OCPI, ADR 0021): asked about tags the company does not know at
   * stations published to roaming. The sessions they start are announced as
   * "session.partner-started" events (followPartnerSessions hands them to the partner).
   */
  roaming?: RoamingAuthorizer;
}

export interface CentralSystem {
  nodeId: string;
  live: LiveEvents;
  /** The typed session events (ocpp/session-events.ts): subscribe with `events.on(type, listener)`. */
  events: SessionEvents;
  /** The HTTP server's 'upgrade' handler for /ocpp/… (other paths are refused). */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  sendCommand(charger: { id: string; ocppIdentity: string }, command: ChargerCommand): Promise<CommandReply>;
  /**
   * Gives a connected charger a new Basic-auth password (ChangeConfiguration AuthorizationKey on
   * 1.6, SetVariables SecurityCtrlr.BasicAuthPassword on 2.0.1). `accepted` only when the
   * charger stored it; the caller applies the new hash only then.
   */
  sendPassword(charger: { id: string; ocppIdentity: string }, password: string): Promise<PasswordDelivery>;
  /** Firmware update or diagnostics upload (ocpp/maintenance.ts), in the charger's protocol. */
  sendMaintenance(charger: { id: string; ocppIdentity: string }, request: MaintenanceRequest): Promise<MaintenanceReply>;
  /**
   * One call to a charger wherever its socket is, built for the protocol it speaks (reservations,
   * the local authorization list, charging profiles: ADR 0018).
   */
  callCharger(charger: { id: string; ocppIdentity: string }, build: (protocol: CommandProtocol) => OcppCallSpec): Promise<ChargerAnswer>;
  /**
   * Shares the station's grid capacity among its charging connectors now (ADR 0018); one run per
   * station at a time. The handlers call it on starts, stops and power reports; the API after the
   * capacity changes.
   */
  rebalanceStation(stationId: string): Promise<void>;
  /**
   * The operator changed prices: connected chargers that show them and use these rates (or this
   * charger) get the price in force again (ocpp/price-display.ts). Chargers on other nodes get it
   * at their next boot or band change.
   */
  refreshPrices: PriceDisplay["refresh"];
  /** Sockets held by this node. */
  connectionCount(): number;
  /** Runs the offline / idle sweep now (tests; the timer runs it every sweepIntervalMs). */
  sweep(): Promise<void>;
  /** Writes the heartbeats noted since the last batch now (the timer does it every second). */
  flushSignsOfLife(): Promise<void>;
  /** Writes the OCPP messages noted since the last batch (ocpp/message-log.ts; the timer does it four times a second). */
  flushMessageLog(): Promise<void>;
  /** Stops accepting chargers and closes their sockets cleanly (they reconnect to another node). */
  close(): Promise<void>;
}

export async function createCentralSystem(options: CentralSystemOptions): Promise<CentralSystem> {
  const { db, channels, logger } = options;
  const telemetry = options.telemetryDb ?? db;
  const nodeId = options.nodeId ?? randomUUID();
  const now = options.now ?? (() => new Date());
  const commandTimeoutMs = options.commandTimeoutMs ?? 8_000;

  const live = await createLiveEvents(channels, (err, what) =>
    logger.warn({ err: String(err) }, what === "payload" ? "OCPP: evento en vivo inválido" : "OCPP: no se pudo avisar a las pantallas en vivo"),
  );
  const events =
    options.events ?? createSessionEvents((err, event) => logger.error({ type: event.type, err: err instanceof Error ? err.message : String(err) }, "OCPP: un servicio no pudo seguir la carga"));
  const messageLog = createMessageLog(telemetry, now);
  const connections = new Map<string, Client>();
  const router = await createRouter({ db, channels, logger, nodeId, commandTimeoutMs, connections });
  const balancer = createBalancer({ db, logger, deliver: router.deliver, now });
  const prices = createPriceDisplay({ db, logger, deliver: router.deliver, now });
  const ctx = createHandlerContext({ db, telemetry, logger, now, live, events, balancer, prices, sendPush: options.sendPush, roaming: options.roaming });
  const sockets = createSockets({
    db,
    telemetry,
    channels,
    logger,
    nodeId,
    now,
    connections,
    callLimit: options.callLimit ?? DEFAULT_CALL_LIMIT,
    messageLog,
    announce: ctx.announce,
    connected: balancer.reapplyLimits,
    register(client: Client, session: Session) {
      const link = { ref: session.ref, session, handle: sockets.budgetedHandler(client, session.ref), seen: async (force = false) => sockets.noteSignOfLife(session, force) };
      if (session.protocol === "ocpp2.0.1") registerV201(ctx, link);
      else registerV16(ctx, link);
    },
  });
  const authenticator = createAuthenticator({ db, logger, live, connectionLimit: options.connectionLimit ?? DEFAULT_CONNECTION_LIMIT, trustProxy: options.trustProxy });
  const rpc = createRpcServer({ logger, commandTimeoutMs, authenticator, onClient: (client) => void sockets.onClient(client) });
  const commands = createCommandSender(db, router);
  const sweep = createSweep({ db, nodeId, now, idleMaxMinutes: options.idleMaxMinutes ?? 240, sockets, authenticator, announce: ctx.announce });

  // The timers' and the shutdown's flushes: a failure is logged, the next batch tries again.
  const flushLogged = () => sockets.flushSignsOfLife().catch((err) => logger.error({ err: String(err) }, "OCPP: no se pudieron guardar las señales de vida"));
  const flushMessageLog = () => messageLog.flush().catch((err) => logger.error({ err: String(err) }, "OCPP: no se pudieron guardar los mensajes recientes"));
  const flushTimer = setInterval(() => void flushLogged(), SIGNS_OF_LIFE_FLUSH_MS);
  flushTimer.unref();
  const messageLogTimer = setInterval(() => void flushMessageLog(), MESSAGE_LOG_FLUSH_MS);
  messageLogTimer.unref();
  const timer = setInterval(() => {
    sweep().catch((err) => logger.error({ err: String(err) }, "OCPP: falló el barrido de cargadores sin señal"));
  }, options.sweepIntervalMs ?? 30_000);
  timer.unref();

  return {
    nodeId,
    live,
    events,
    handleUpgrade: (request, socket, head) => rpc.handleUpgrade(request, socket, head, sockets.isClosing()),
    ...commands,
    callCharger: router.deliver,
    rebalanceStation: balancer.rebalance,
    refreshPrices: prices.refresh,
    connectionCount: () => connections.size,
    sweep,
    flushSignsOfLife: sockets.flushSignsOfLife,
    flushMessageLog: () => messageLog.flush(),
    async close() {
      if (sockets.isClosing()) return;
      sockets.shuttingDown();
      clearInterval(timer);
      prices.close();
      await rpc.close().catch(() => {});
      clearInterval(flushTimer);
      clearInterval(messageLogTimer);
      await flushLogged();
      await flushMessageLog();
      // Wait for the close handlers' writes (connected_node) before the database goes away.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await router.close();
      await live.close();
    },
  };
}
