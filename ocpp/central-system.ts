// The OCPP central system (issue 8; 2.0.1 since issue 24): chargers connect to
// ws(s)://<host>/ocpp/<identity> on the dashboard's own port, offering the `ocpp2.0.1` and/or
// `ocpp1.6` subprotocol, with HTTP Basic auth (security profile 1, or 2 behind a TLS-terminating
// load balancer). ocpp-rpc validates every message against the negotiated version's JSON
// schemas (strict mode), so a malformed or unknown call gets its CALLERROR before any handler
// writes a row. 2.0.1 messages land on the same rows as 1.6 (ocpp/store201.ts, ADR 0015).
//
// Several nodes may share one PostgreSQL: `chargers.connected_node` says which node holds a
// charger's socket, and commands for it travel over LISTEN/NOTIFY to that node.
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { and, eq, isNotNull } from "drizzle-orm";
import ocppRpc from "ocpp-rpc";
import type { Channels, Db } from "../db/client";
import { chargers, connectors } from "../db/schema";
import { verifyOcppPassword } from "../infra/crypto";
import { pushNotification, type SendPush } from "../infra/push";
import type { Logger } from "../infra/logger";
import {
  errorResult,
  isSettingsCommand,
  offlineResult,
  ocppCall,
  settingsCalls,
  settingsFromAnswers,
  settingsResult,
  PASSWORD_ACCEPTED,
  passwordAnswerStatus,
  passwordCall,
  resultFromStatus,
  timeoutResult,
  type ChargerAnswer,
  type ChargerCommand,
  type CommandName,
  type CommandProtocol,
  type OcppCallSpec,
  type CommandResult,
  type PasswordDelivery,
  type SettingsCommand,
} from "./commands";
import { createLiveEvents, type LiveEvents, type LiveKind } from "./live";
import { claimReservation, expireReservations, reservationStatusUpdate } from "./reservations";
import { rebalanceStation, stationToBalance } from "./load-balancing";
import { callBudget, DEFAULT_CALL_LIMIT, DEFAULT_CONNECTION_LIMIT, keyedRate, OCPP_MAX_FRAME_BYTES, type CallLimit, type ConnectionLimit } from "./limits";
import {
  authorizationStatus,
  findChargerByIdentity,
  markOnline,
  markSocketClosed,
  openTransaction,
  recordBoot,
  recordMeterValues,
  recordStatus,
  startTransaction,
  stopTransaction,
  sweepIdleSessions,
  sweepSilentChargers,
  touchMany,
  type BootPayload,
  type ChargerAuthRow,
  type ChargerRef,
  type Created,
  type MeterValue,
  type OcppProtocol,
  type StartPayload,
  type StatusPayload,
  type StopPayload,
} from "./store";
import { createMessageLog } from "./message-log";
import { ocppValidators, outboundCallProblem } from "./validators";
import type { RoamingAuthorizer, RoamingGrant } from "./roaming";
import { maintenanceCall, maintenanceResult, recordDiagnosticsStatus, recordFirmwareStatus, unansweredMaintenance, type MaintenanceRequest, type MaintenanceResult } from "./maintenance";
import {
  bootPayload,
  meterValuesPayload,
  notifyEventSummaries,
  recordChargerEvents,
  recordStatus201,
  recordTransactionEvent,
  type Boot201,
  type MeterValue201,
  type Status201,
  type TransactionEvent201,
} from "./store201";

export const OCPP_PATH = "/ocpp";
/** The subprotocols offered, in order of preference when a charger offers both. */
export const OCPP_PROTOCOLS: readonly OcppProtocol[] = ["ocpp2.0.1", "ocpp1.6"];
const COMMAND_CHANNEL = "enchufa_ocpp_cmd";
const REPLY_CHANNEL = "enchufa_ocpp_reply";
/** How often batched heartbeats are written. Offline detection waits 2× the interval (≥ 60 s). */
const SIGNS_OF_LIFE_FLUSH_MS = 1_000;
/** How often the recent OCPP messages are written (ocpp/message-log.ts). */
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
  /** After a charger's session changed (start, reading, stop) on this node: drivers' prepaid charges (issue 23). */
  onSessionChange?: (businessId: string, chargerId: string | undefined) => void;
  /** Roaming partners' tokens (OCPI, ADR 0021): asked about tags the company does not know at stations published to roaming. */
  roaming?: RoamingAuthorizer;
}

export interface CentralSystem {
  nodeId: string;
  live: LiveEvents;
  /** The HTTP server's 'upgrade' handler for /ocpp/… (other paths are refused). */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  sendCommand(charger: { id: string; ocppIdentity: string }, command: ChargerCommand): Promise<CommandResult>;
  /**
   * Gives a connected charger a new Basic-auth password (ChangeConfiguration AuthorizationKey on
   * 1.6, SetVariables SecurityCtrlr.BasicAuthPassword on 2.0.1). `accepted` only when the
   * charger stored it; the caller applies the new hash only then.
   */
  sendPassword(charger: { id: string; ocppIdentity: string }, password: string): Promise<PasswordDelivery>;
  /** Firmware update or diagnostics upload (ocpp/maintenance.ts), in the charger's protocol. */
  sendMaintenance(charger: { id: string; ocppIdentity: string }, request: MaintenanceRequest): Promise<MaintenanceResult>;
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
  /** Sockets held by this node. */
  connectionCount(): number;
  /** Runs the offline / idle sweep now (tests; the timer runs it every sweepIntervalMs). */
  sweep(): Promise<void>;
  /** Writes the heartbeats noted since the last batch now (the timer does it every second). */
  flushSignsOfLife(): Promise<void>;
  /** Writes the OCPP messages noted since the last batch (ocpp/message-log.ts; the timer does it every second). */
  flushMessageLog(): Promise<void>;
  /** Stops accepting chargers and closes their sockets cleanly (they reconnect to another node). */
  close(): Promise<void>;
}

interface Session {
  ref: ChargerRef;
  protocol: OcppProtocol;
  lastTouch: number;
}


/** A charger's answer to a call, before it is read as a command's or a password's result. */
type Answer = ChargerAnswer;

type Client = {
  identity: string;
  session: Record<string, unknown>;
  handle(method: string, handler: (ctx: { params: unknown }) => unknown): void;
  call(method: string, params?: unknown, options?: Record<string, unknown>): Promise<unknown>;
  close(options?: { code?: number; reason?: string; awaitPending?: boolean; force?: boolean }): Promise<unknown>;
  on(event: "close", listener: () => void): void;
  on(event: "socketError", listener: (err: { code?: string }) => void): void;
  on(event: "message", listener: (event: { message: unknown; outbound: boolean }) => void): void;
};

type RemoteCommand = { kind: "command"; id: string; node: string; from: string; identity: string; method: string; params: Record<string, unknown> };
type RemoteDrop = { kind: "drop"; identity: string; except: string };
type RemoteReply = { id: string; node: string; answer: Answer };

// ocpp-rpc is CommonJS whose named exports Node's ESM loader cannot detect.
const { RPCError, RPCServer, TimeoutError, createRPCError } = ocppRpc;

const sha256 = (s: string) => createHash("sha256").update(s).digest();

export async function createCentralSystem(options: CentralSystemOptions): Promise<CentralSystem> {
  const { db, channels, logger, sendPush } = options;
  const telemetry = options.telemetryDb ?? db;
  const nodeId = options.nodeId ?? randomUUID();
  const now = options.now ?? (() => new Date());
  const idleMaxMinutes = options.idleMaxMinutes ?? 240;
  const commandTimeoutMs = options.commandTimeoutMs ?? 8_000;
  const callLimit = options.callLimit ?? DEFAULT_CALL_LIMIT;
  const connectionLimit = options.connectionLimit ?? DEFAULT_CONNECTION_LIMIT;
  /** Identity → its call budget, kept across its connections (a reconnection does not refill it). */
  const callBudgets = new Map<string, ReturnType<typeof callBudget>>();
  const connectsPerCharger = keyedRate(connectionLimit.perChargerPerMinute);
  const connectsPerAddress = keyedRate(connectionLimit.perAddressPerMinute);

  const live = await createLiveEvents(channels, (err, what) =>
    logger.warn({ err: String(err) }, what === "payload" ? "OCPP: evento en vivo inválido" : "OCPP: no se pudo avisar a las pantallas en vivo"),
  );
  const connections = new Map<string, Client>();
  const pendingReplies = new Map<string, (answer: Answer) => void>();
  // A verified password is remembered (as a digest, with the hash it matched) so reconnects
  // (and hashes written with scrypt before ADR 0005) are not verified again; rotating the
  // password changes the hash and voids the entry.
  const verified = new Map<string, { hash: string; digest: Buffer }>();
  /** Charger id → its latest sign of life not yet written (see touchMany). */
  const signsOfLife = new Map<string, Date>();
  const messageLog = createMessageLog(telemetry, now);
  /** Identity → the offline mark of its socket that just closed, still being written. */
  const closing_ = new Map<string, Promise<void>>();
  /** Charger id → when its station was last found without a grid capacity (load balancing). */
  const noCapacity = new Map<string, number>();
  let closing = false;

  const rpc = new RPCServer({
    protocols: [...OCPP_PROTOCOLS],
    strictMode: true,
    // CALLERRORs name what was invalid, never echo the request's values (ocpp/validators.ts).
    strictModeValidators: ocppValidators,
    callTimeoutMs: commandTimeoutMs,
    pingIntervalMs: 30_000,
    deferPingsOnActivity: true,
    respondWithDetailedErrors: false,
    maxBadMessages: 10,
    // A larger frame closes the socket with 1009 before it is read whole (ocpp/limits.ts).
    wssOptions: { maxPayload: OCPP_MAX_FRAME_BYTES },
  });
  rpc.on("error", (err: Error) => logger.warn({ err: err.message }, "OCPP: error del servidor WebSocket"));

  const { roaming } = options;
  /** A partner's token started the session: it is the partner's (its Sessions and CDR are pushed to it). */
  async function partnerSession(grant: RoamingGrant, session: { id: string; chargerId: string; connectorNumber: number }) {
    try {
      await roaming?.sessionStarted(grant, session);
    } catch (err) {
      logger.error({ sessionId: session.id, err: err instanceof Error ? err.message : String(err) }, "OCPP: no se pudo asignar la carga al socio de roaming");
    }
  }

  /** After a commit: push the notifications and tell the dashboards. */
  const announce = (businessId: string, kind: LiveKind, chargerId: string | undefined, created?: Created) => {
    for (const n of created?.notifications ?? []) {
      void pushNotification({ db, logger, sendPush }, n);
    }
    live.publish(businessId, { kind, chargerId });
    if (created?.notifications.length) live.publish(businessId, { kind: "notification" });
    if (kind === "session" || kind === "connector") options.onSessionChange?.(businessId, chargerId);
  };

  /** Whether `password` is the one `hash` was made of, through the cache under `key`. */
  async function sameAs(key: string, hash: string, password: string): Promise<boolean> {
    const digest = sha256(password);
    const known = verified.get(key);
    if (known && known.hash === hash) return timingSafeEqual(known.digest, digest);
    const ok = await verifyOcppPassword(password, hash);
    if (ok) verified.set(key, { hash, digest });
    return ok;
  }

  /**
   * Which of the charger's passwords this is: the current one, or the one before a rotation the
   * charger accepted but may not use yet (ADR 0031).
   */
  async function passwordMatches(row: ChargerAuthRow, password: string): Promise<"current" | "previous" | false> {
    if (row.passwordHash && (await sameAs(row.id, row.passwordHash, password))) return "current";
    if (row.previousPasswordHash && (await sameAs(`${row.id}:previous`, row.previousPasswordHash, password))) return "previous";
    return false;
  }

  /**
   * The charger connected with its current password: the one before it (kept since a rotation)
   * stops opening. Only if the current password is still the one it used (a rotation may have
   * happened meanwhile).
   */
  async function retirePreviousPassword(row: ChargerAuthRow) {
    if (!row.previousPasswordHash || !row.passwordHash) return;
    await db
      .update(chargers)
      .set({ ocppPreviousPasswordHash: null })
      .where(and(eq(chargers.id, row.id), eq(chargers.ocppPasswordHash, row.passwordHash)));
    verified.delete(`${row.id}:previous`);
    logger.info({ identity: row.ocppIdentity }, "OCPP: el cargador se conectó con la contraseña nueva; la anterior dejó de valer");
    live.publish(row.businessId, { kind: "charger", chargerId: row.id });
  }

  /** The client's address: the socket's, or behind a trusted proxy the first X-Forwarded-For. */
  function clientAddress(handshake: { remoteAddress?: string; headers: Record<string, string | string[] | undefined> }): string {
    const forwarded = options.trustProxy ? String(handshake.headers["x-forwarded-for"] ?? "").split(",")[0].trim() : "";
    return (forwarded || handshake.remoteAddress || "unknown").replace(/^::ffff:/, "");
  }

  rpc.auth(async (accept, reject, handshake) => {
    const ip = clientAddress(handshake);
    const log = { identity: handshake.identity, ip };
    try {
      if (handshake.endpoint !== OCPP_PATH) return reject(404, "Not found");
      // Every attempt from an address counts, before any database read (floods, password guessing).
      if (!connectsPerAddress.take(ip)) {
        logger.warn(log, "OCPP: demasiadas conexiones desde la misma dirección, rechazada");
        return reject(429, "Too many connections");
      }
      const protocol = OCPP_PROTOCOLS.find((p) => handshake.protocols.has(p));
      if (!protocol) {
        logger.warn(log, "OCPP: conexión sin el subprotocolo ocpp2.0.1 ni ocpp1.6, rechazada");
        return reject(400, "Subprotocol ocpp2.0.1 or ocpp1.6 required");
      }
      const row = await findChargerByIdentity(db, handshake.identity);
      const password = handshake.password?.toString("utf8");
      const matched = row && password ? await passwordMatches(row, password) : false;
      if (!row || !matched) {
        logger.warn({ ...log, known: Boolean(row) }, "OCPP: autenticación rechazada");
        return reject(401, "Unauthorized");
      }
      // Counted once authenticated: someone without the password cannot use up a charger's connections.
      if (!connectsPerCharger.take(row.ocppIdentity)) {
        logger.warn(log, "OCPP: el cargador se reconecta demasiado seguido, conexión rechazada");
        return reject(429, "Too many connections");
      }
      if (matched === "current") await retirePreviousPassword(row);
      else logger.info(log, "OCPP: el cargador se conectó con la contraseña anterior; la nueva sigue pendiente");
      const ref: ChargerRef = { id: row.id, businessId: row.businessId, name: row.name, ocppIdentity: row.ocppIdentity };
      accept({ ref, protocol, lastTouch: 0 } satisfies Session, protocol);
    } catch (err) {
      logger.error({ ...log, err: err instanceof Error ? err.message : String(err) }, "OCPP: error al autenticar");
      reject(503, "Service unavailable");
    }
  });

  rpc.on("client", (client: Client) => void onClient(client));

  async function onClient(client: Client) {
    const session = client.session as unknown as Session;
    const { ref } = session;
    const identity = ref.ocppIdentity;
    const previous = connections.get(identity);
    connections.set(identity, client);
    // One live connection per identity: the newest wins, here and on every other node.
    if (previous) void previous.close({ code: 4000, reason: "Replaced by a new connection" });
    void channels.notify(COMMAND_CHANNEL, JSON.stringify({ kind: "drop", identity, except: nodeId } satisfies RemoteDrop)).catch(() => {});

    // Every frame, both ways, into the charger's recent messages (troubleshooting, issue 25).
    const pendingCalls = new Map<string, string>();
    client.on("message", ({ message, outbound }) => messageLog.note(ref, message, outbound, pendingCalls));
    // The WebSocket library closes an oversized frame with 1009 itself and reports it here.
    client.on("socketError", (err: { code?: string }) => {
      if (err.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") logger.warn({ identity, maxBytes: OCPP_MAX_FRAME_BYTES }, "OCPP: mensaje demasiado grande, conexión cerrada");
    });
    // This socket's online mark (set below, before any event can arrive). Its offline mark waits
    // for it: a socket that closes at once must not leave the charger online after it.
    let onlineMarked: Promise<unknown> = Promise.resolve();
    client.on("close", () => {
      messageLog.forget(ref.id);
      if (connections.get(identity) !== client) return; // replaced: the new socket owns the charger
      connections.delete(identity);
      if (closing) {
        // A clean shutdown: the charger reconnects elsewhere; the sweep marks it offline if not.
        void db
          .update(chargers)
          .set({ connectedNode: null })
          .where(eq(chargers.id, ref.id))
          .catch(() => {});
        return;
      }
      const closed = onlineMarked.then(() => markSocketClosed(db, ref, nodeId)).then(
        (created) => announce(ref.businessId, "charger", ref.id, created),
        (err) => logger.error({ identity, err: String(err) }, "OCPP: no se pudo registrar la desconexión"),
      );
      // A reconnection to this node waits for this offline mark, so it cannot land after the online one.
      closing_.set(identity, closed);
      void closed.finally(() => {
        if (closing_.get(identity) === closed) closing_.delete(identity);
      });
    });

    if (session.protocol === "ocpp2.0.1") register201(client, session);
    else register(client, session);
    const marking = (async () => {
      await closing_.get(identity);
      const created = await markOnline(db, ref, nodeId, now(), session.protocol);
      announce(ref.businessId, "charger", ref.id, created);
    })();
    onlineMarked = marking.catch(() => {});
    try {
      await marking;
      reapplyLimits(ref);
      logger.info({ identity, protocol: session.protocol }, "OCPP: cargador conectado");
    } catch (err) {
      logger.error({ identity, err: String(err) }, "OCPP: no se pudo registrar la conexión");
    }
  }

  /** Any message counts as a sign of life; noted at most every 30 s outside heartbeats, written in the next batch. */
  async function noteSignOfLife(session: Session, force: boolean) {
    const t = now();
    if (!force && t.getTime() - session.lastTouch < 30_000) return;
    session.lastTouch = t.getTime();
    signsOfLife.set(session.ref.id, t);
  }

  /**
   * `client.handle` with the charger's call budget (ocpp/limits.ts), for both protocols: beyond
   * it a call is answered with a CALLERROR, and a charger that keeps going is disconnected.
   */
  function budgetedHandler(client: Client, ref: ChargerRef): Client["handle"] {
    const budget = callBudgets.get(ref.ocppIdentity) ?? callBudget(callLimit);
    callBudgets.set(ref.ocppIdentity, budget);
    return (method, handler) =>
      client.handle(method, (ctx) => {
        const verdict = budget.take();
        if (verdict === "accept") return handler(ctx);
        if (budget.refused === 1) logger.warn({ identity: ref.ocppIdentity, method }, "OCPP: demasiados mensajes, se rechazan");
        if (verdict === "close") {
          logger.warn({ identity: ref.ocppIdentity, refused: budget.refused }, "OCPP: demasiados mensajes, conexión cerrada");
          void client.close({ code: 1008, reason: "Too many messages" });
        }
        throw createRPCError("GenericError", "Rate limit exceeded", {});
      });
  }

  function register(client: Client, session: Session) {
    const { ref } = session;
    const handle = budgetedHandler(client, ref);
    const seen = (force = false) => noteSignOfLife(session, force);

    handle("BootNotification", async ({ params }) => {
      const { accepted, interval } = await recordBoot(db, ref, params as BootPayload, now());
      session.lastTouch = now().getTime();
      live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
      return { status: accepted ? "Accepted" : "Rejected", currentTime: now().toISOString(), interval };
    });

    handle("Heartbeat", async () => {
      await seen(true);
      return { currentTime: now().toISOString() };
    });

    handle("StatusNotification", async ({ params }) => {
      const created = await recordStatus(db, ref, params as StatusPayload, now());
      await seen();
      announce(ref.businessId, "connector", ref.id, created);
      return {};
    });

    handle("Authorize", async ({ params }) => {
      await seen();
      return { idTagInfo: { status: await authorizationStatus(db, ref, (params as { idTag?: string }).idTag, now(), roaming) } };
    });

    handle("StartTransaction", async ({ params }) => {
      const p = params as StartPayload;
      const { transactionId, sessionId, status, reserved, created, roaming: grant } = await startTransaction(db, ref, p, now(), roaming);
      if (sessionId && grant) await partnerSession(grant, { id: sessionId, chargerId: ref.id, connectorNumber: p.connectorId });
      // The reserving tag's session uses its reservation (issue 25, ADR 0018).
      if (sessionId && status === "Accepted" && reserved) await claimReservation(db, ref, { connectorNumber: p.connectorId, idTag: p.idTag, reservationId: p.reservationId, sessionId, at: now() });
      if (sessionId && status === "Accepted") balanceAfter(ref, "session");
      await seen();
      announce(ref.businessId, "session", ref.id, created);
      return { transactionId, idTagInfo: { status } };
    });

    handle("MeterValues", async ({ params }) => {
      const attached = await recordMeterValues(telemetry, ref, params as { connectorId: number; transactionId?: number; meterValue: MeterValue[] }, now());
      await seen();
      if (attached) {
        live.publish(ref.businessId, { kind: "session", chargerId: ref.id });
        options.onSessionChange?.(ref.businessId, ref.id);
        balanceAfter(ref, "power");
      }
      return {};
    });

    handle("StopTransaction", async ({ params }) => {
      const p = params as StopPayload;
      const { found, created } = await stopTransaction(db, ref, p, now());
      await seen();
      if (!found) logger.warn({ identity: ref.ocppIdentity, transactionId: p.transactionId }, "OCPP: StopTransaction de una transacción desconocida");
      else balanceAfter(ref, "session");
      announce(ref.businessId, "session", ref.id, created);
      // The same answer for a first and a repeated stop.
      return p.idTag ? { idTagInfo: { status: "Accepted" } } : {};
    });

    // Messages we accept but have nothing to store for yet: answered as OCPP requires.
    handle("DataTransfer", async () => ({ status: "UnknownVendorId" }));
    handle("DiagnosticsStatusNotification", async ({ params }) => {
      await keep(ref, "DiagnosticsStatusNotification", params);
      await recordDiagnosticsStatus(db, ref, params as { status: string });
      live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
      return {};
    });
    handle("FirmwareStatusNotification", async ({ params }) => {
      await keep(ref, "FirmwareStatusNotification", params);
      await recordFirmwareStatus(db, ref, (params as { status: string }).status, now());
      live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
      return {};
    });
  }

  /** A status report kept as a charger event: its summary is the status it gives. */
  async function keep(ref: ChargerRef, kind: string, params: unknown, summary?: string, at?: string) {
    const p = params as { status?: string; type?: string };
    await recordChargerEvents(db, ref, [{ kind, summary: summary ?? p.status ?? p.type ?? kind, payload: params, at }], now());
    live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
  }

  /** OCPP 2.0.1: the same rows and live events as 1.6 (store201 does the mapping). */
  function register201(client: Client, session: Session) {
    const { ref } = session;
    const handle = budgetedHandler(client, ref);
    const seen = (force = false) => noteSignOfLife(session, force);

    handle("BootNotification", async ({ params }) => {
      const { accepted, interval } = await recordBoot(db, ref, bootPayload(params as Boot201), now());
      session.lastTouch = now().getTime();
      live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
      return { status: accepted ? "Accepted" : "Rejected", currentTime: now().toISOString(), interval };
    });

    handle("Heartbeat", async () => {
      await seen(true);
      return { currentTime: now().toISOString() };
    });

    handle("StatusNotification", async ({ params }) => {
      const created = await recordStatus201(db, ref, params as Status201, now());
      await seen();
      announce(ref.businessId, "connector", ref.id, created);
      return {};
    });

    handle("Authorize", async ({ params }) => {
      await seen();
      const { idToken } = params as { idToken?: { idToken?: string; type?: string } };
      return { idTokenInfo: { status: await authorizationStatus(db, ref, idToken?.idToken, now(), roaming, idToken?.type) } };
    });

    handle("TransactionEvent", async ({ params }) => {
      const p = params as TransactionEvent201;
      const result = await recordTransactionEvent({ db, telemetry }, ref, p, now(), roaming);
      if (result.roamingStart) {
        const { grant, sessionId, connectorNumber } = result.roamingStart;
        await partnerSession(grant, { id: sessionId, chargerId: ref.id, connectorNumber });
      }
      await seen();
      if (result.duplicate) logger.info({ identity: ref.ocppIdentity, transactionId: p.transactionInfo.transactionId, seqNo: p.seqNo }, "OCPP: TransactionEvent repetido, ignorado");
      else balanceAfter(ref, p.eventType === "Updated" ? "power" : "session");
      let created = result.created;
      if (result.connectorStatus) {
        const { connectorId, status, at } = result.connectorStatus;
        const moved = await recordStatus(db, ref, { connectorId, status, errorCode: "NoError", timestamp: at.toISOString() }, now());
        created = { notifications: [...created.notifications, ...moved.notifications] };
        live.publish(ref.businessId, { kind: "connector", chargerId: ref.id });
      }
      announce(ref.businessId, "session", ref.id, created);
      return p.idToken ? { idTokenInfo: { status: result.tokenStatus } } : {};
    });

    handle("MeterValues", async ({ params }) => {
      const attached = await recordMeterValues(telemetry, ref, meterValuesPayload(params as { evseId: number; meterValue: MeterValue201[] }), now());
      await seen();
      if (attached) {
        live.publish(ref.businessId, { kind: "session", chargerId: ref.id });
        options.onSessionChange?.(ref.businessId, ref.id);
        balanceAfter(ref, "power");
      }
      return {};
    });

    handle("NotifyEvent", async ({ params }) => {
      await recordChargerEvents(db, ref, notifyEventSummaries(params as Parameters<typeof notifyEventSummaries>[0]), now());
      await seen();
      live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
      return {};
    });

    handle("SecurityEventNotification", async ({ params }) => {
      const p = params as { type: string; timestamp: string; techInfo?: string };
      await keep(ref, "SecurityEventNotification", params, p.techInfo ? `${p.type}: ${p.techInfo}` : p.type, p.timestamp);
      await seen();
      return {};
    });

    handle("FirmwareStatusNotification", async ({ params }) => {
      await keep(ref, "FirmwareStatusNotification", params);
      await recordFirmwareStatus(db, ref, (params as { status: string }).status, now());
      live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
      await seen();
      return {};
    });

    handle("LogStatusNotification", async ({ params }) => {
      await keep(ref, "LogStatusNotification", params);
      await recordDiagnosticsStatus(db, ref, params as { status: string; requestId?: number });
      live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
      await seen();
      return {};
    });

    handle("NotifyReport", async ({ params }) => {
      const p = params as { requestId: number; seqNo: number; tbc?: boolean; reportData?: unknown[] };
      const n = p.reportData?.length ?? 0;
      await keep(ref, "NotifyReport", params, `Informe ${p.requestId}, parte ${p.seqNo}${p.tbc ? " (sigue)" : ""}: ${n} ${n === 1 ? "variable" : "variables"}`);
      await seen();
      return {};
    });

    handle("ReservationStatusUpdate", async ({ params }) => {
      const created = await reservationStatusUpdate(db, ref, params as { reservationId: number; reservationUpdateStatus: string }, now());
      await seen();
      announce(ref.businessId, "session", ref.id, created);
      return {};
    });

    handle("DataTransfer", async () => ({ status: "UnknownVendorId" }));
  }

  async function callLocal(client: Client, method: string, params: Record<string, unknown>): Promise<Answer> {
    // A call of ours that breaks the schema is our bug, not the charger's refusal: it is not sent,
    // it is logged as an error (the rule broken, no values: it may carry a password or tags), and
    // the caller gets "error", which the screens never word as the charger's answer.
    const { protocol, ref } = client.session as unknown as Session;
    const problem = outboundCallProblem(protocol, method, params);
    if (problem) {
      logger.error({ identity: ref.ocppIdentity, protocol, method, problem }, "OCPP: un mensaje nuestro no cumple el esquema del protocolo; no se envió");
      return { kind: "error" };
    }
    try {
      const response = (await client.call(method, params, { callTimeoutMs: commandTimeoutMs })) as Record<string, unknown> | undefined;
      return { kind: "answer", status: method === "SetVariables" ? passwordAnswerStatus(response) : (response?.status as string | undefined), response };
    } catch (err) {
      if (err instanceof TimeoutError) return { kind: "timeout" };
      if (err instanceof RPCError) return { kind: "rpc-error", code: err.rpcErrorCode };
      // The socket closed while we waited.
      return { kind: "offline" };
    }
  }

  async function callRemote(node: string, identity: string, method: string, params: Record<string, unknown>): Promise<Answer> {
    const id = randomUUID();
    const reply = new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => {
        pendingReplies.delete(id);
        resolve({ kind: "timeout" });
      }, commandTimeoutMs + 1_000);
      pendingReplies.set(id, (answer) => {
        clearTimeout(timer);
        pendingReplies.delete(id);
        resolve(answer);
      });
    });
    const message: RemoteCommand = { kind: "command", id, node, from: nodeId, identity, method, params };
    await channels.notify(COMMAND_CHANNEL, JSON.stringify(message));
    return reply;
  }

  /** Where the charger's socket is (here, another node, or nowhere), with the protocol it speaks. */
  type Target = { kind: "local"; client: Client; protocol: OcppProtocol } | { kind: "remote"; node: string; protocol: OcppProtocol } | { kind: "offline" };

  async function locate(charger: { id: string; ocppIdentity: string }): Promise<Target> {
    const local = connections.get(charger.ocppIdentity);
    if (local) return { kind: "local", client: local, protocol: (local.session as unknown as Session).protocol };
    const [row] = await db.select({ online: chargers.online, node: chargers.connectedNode, protocol: chargers.ocppProtocol }).from(chargers).where(eq(chargers.id, charger.id));
    if (!row?.online || !row.node || row.node === nodeId) return { kind: "offline" };
    return { kind: "remote", node: row.node, protocol: row.protocol === "ocpp2.0.1" ? "ocpp2.0.1" : "ocpp1.6" };
  }

  async function callTarget(target: Target, identity: string, method: string, params: Record<string, unknown>): Promise<Answer> {
    if (target.kind === "offline") return { kind: "offline" };
    if (target.kind === "local") return callLocal(target.client, method, params);
    try {
      return await callRemote(target.node, identity, method, params);
    } catch (err) {
      logger.error({ identity, err: String(err) }, "OCPP: no se pudo enviar el comando a otro nodo");
      return { kind: "error" };
    }
  }

  /** Sends one call to the charger wherever its socket is (here, another node, or nowhere). */
  async function deliver(charger: { id: string; ocppIdentity: string }, build: (protocol: OcppProtocol) => { method: string; params: Record<string, unknown> }): Promise<Answer> {
    const target = await locate(charger);
    if (target.kind === "offline") return { kind: "offline" };
    const { method, params } = build(target.protocol);
    return callTarget(target, charger.ocppIdentity, method, params);
  }

  // Load balancing (ADR 0018): one run per station at a time, queued behind the previous one.
  const balancing = new Map<string, Promise<void>>();
  function rebalance(stationId: string): Promise<void> {
    const run = (balancing.get(stationId) ?? Promise.resolve())
      .then(() => rebalanceStation(db, stationId, deliver, now))
      .catch((err) => logger.error({ stationId, err: String(err) }, "OCPP: no se pudo repartir la capacidad de la estación"));
    balancing.set(stationId, run);
    void run.then(() => {
      if (balancing.get(stationId) === run) balancing.delete(stationId);
    });
    return run;
  }
  /** After a charger's start, stop or power report: its station is rebalanced once the answer is out. */
  const lastPowerBalance = new Map<string, number>();
  /**
   * A charger that (re)connects at a station with a grid capacity gets its connectors' limits
   * again (ADR 0018): a reboot or a lost connection may have dropped its TxProfiles, and until they
   * are back it could draw its maximum. Its allocations are marked unsent, so the rebalance sends
   * them even when they did not change; other chargers are not asked anything.
   */
  function reapplyLimits(ref: ChargerRef) {
    stationToBalance(db, ref.id)
      .then(async (stationId) => {
        if (!stationId) return;
        await db.update(connectors).set({ allocationStatus: null }).where(and(eq(connectors.chargerId, ref.id), isNotNull(connectors.allocatedKw)));
        await rebalance(stationId);
      })
      .catch((err) => logger.error({ identity: ref.ocppIdentity, err: String(err) }, "OCPP: no se pudieron reenviar los límites de potencia al reconectarse"));
  }

  function balanceAfter(ref: ChargerRef, reason: "session" | "power") {
    if (reason === "power") {
      const t = Date.now();
      if (t - (lastPowerBalance.get(ref.id) ?? 0) < 60_000) return;
      // Most stations have no capacity: a power report there asks again only every 10 minutes.
      if (t - (noCapacity.get(ref.id) ?? 0) < 600_000) return;
      lastPowerBalance.set(ref.id, t);
    }
    setTimeout(() => {
      stationToBalance(db, ref.id)
        .then((stationId) => {
          if (stationId) noCapacity.delete(ref.id);
          else noCapacity.set(ref.id, Date.now());
          return stationId ? rebalance(stationId) : undefined;
        })
        .catch((err) => logger.error({ identity: ref.ocppIdentity, err: String(err) }, "OCPP: no se pudo repartir la capacidad de la estación"));
    }, 0);
  }

  const stopCommands = await channels.listen(COMMAND_CHANNEL, (payload) => {
    let message: RemoteCommand | RemoteDrop;
    try {
      message = JSON.parse(payload) as RemoteCommand | RemoteDrop;
    } catch {
      return;
    }
    if (message.kind === "drop") {
      const client = message.except !== nodeId ? connections.get(message.identity) : undefined;
      if (client) {
        connections.delete(message.identity); // the other node owns it now: no offline mark
        void client.close({ code: 4000, reason: "Replaced by a new connection" });
      }
      return;
    }
    if (message.node !== nodeId) return;
    const client = connections.get(message.identity);
    const run: Promise<Answer> = client ? callLocal(client, message.method, message.params) : Promise.resolve({ kind: "offline" });
    void run.then((answer) => channels.notify(REPLY_CHANNEL, JSON.stringify({ id: message.id, node: message.from, answer } satisfies RemoteReply)).catch(() => {}));
  });

  const stopReplies = await channels.listen(REPLY_CHANNEL, (payload) => {
    try {
      const reply = JSON.parse(payload) as RemoteReply;
      if (reply.node === nodeId) pendingReplies.get(reply.id)?.(reply.answer);
    } catch {
      // not ours
    }
  });

  /** A command's result when the charger did not answer with a status. */
  function unanswered(command: CommandName, answer: Exclude<Answer, { kind: "answer" }>): CommandResult {
    switch (answer.kind) {
      case "rpc-error":
        return resultFromStatus(command, answer.code === "NotImplemented" ? "NotImplemented" : "Rejected");
      case "timeout":
        return timeoutResult(command);
      case "offline":
        return offlineResult(command);
      case "error":
        return errorResult(command);
    }
  }

  async function sendCommand(charger: { id: string; ocppIdentity: string }, command: ChargerCommand): Promise<CommandResult> {
    if (isSettingsCommand(command)) return sendSettings(charger, command);
    let open: Awaited<ReturnType<typeof openTransaction>>;
    if (command.command === "RemoteStopTransaction") {
      open = await openTransaction(db, charger.id, command.connectorId);
      if (!open) return { command: command.command, outcome: "rejected", message: "No hay una carga en curso en ese conector." };
    }
    const answer = await deliver(charger, (protocol) => ocppCall(command, protocol, open));
    return answer.kind === "answer" ? resultFromStatus(command.command, answer.status) : unanswered(command.command, answer);
  }

  /**
   * The report and the intervals: one call or several (1.6 sets one key per call) to the same
   * socket. A call left unanswered ends the command; what was answered before it is kept in the
   * result (an interval the charger already took is still reported).
   */
  async function sendSettings(charger: { id: string; ocppIdentity: string }, command: SettingsCommand): Promise<CommandResult> {
    const target = await locate(charger);
    if (target.kind === "offline") return offlineResult(command.command);
    const plan = settingsCalls(command, target.protocol);
    if (!Array.isArray(plan)) return plan;
    const responses: unknown[] = [];
    for (const call of plan) {
      const answer = await callTarget(target, charger.ocppIdentity, call.method, call.params);
      if (answer.kind !== "answer") {
        const failed = unanswered(command.command, answer);
        const settings = settingsFromAnswers(command, target.protocol, responses);
        return Object.keys(settings).length ? { ...failed, settings } : failed;
      }
      responses.push(answer.response);
    }
    return settingsResult(command, target.protocol, responses);
  }

  async function sendPassword(charger: { id: string; ocppIdentity: string }, password: string): Promise<PasswordDelivery> {
    const answer = await deliver(charger, (protocol) => passwordCall(protocol, password));
    switch (answer.kind) {
      case "answer":
        return { outcome: answer.status && PASSWORD_ACCEPTED.has(answer.status) ? "accepted" : "rejected", status: answer.status };
      case "rpc-error":
        return { outcome: "rejected", status: answer.code };
      default:
        return { outcome: answer.kind };
    }
  }

  async function sendMaintenance(charger: { id: string; ocppIdentity: string }, request: MaintenanceRequest): Promise<MaintenanceResult> {
    const target = await locate(charger);
    if (target.kind === "offline") return unansweredMaintenance(request, "offline");
    const { method, params } = maintenanceCall(request, target.protocol);
    const answer = await callTarget(target, charger.ocppIdentity, method, params);
    switch (answer.kind) {
      case "answer":
        return maintenanceResult(request, target.protocol, answer.response);
      case "rpc-error":
        return unansweredMaintenance(request, "rejected", answer.code);
      default:
        return unansweredMaintenance(request, answer.kind);
    }
  }

  /**
   * Writes the signs of life noted since the last flush (one statement per 1,000 chargers). A
   * charger that is no longer there was deleted while connected: its socket is closed, so it
   * stops writing into the message log of a charger nobody can see.
   */
  async function writeSignsOfLife() {
    if (signsOfLife.size === 0) return;
    const batch = [...signsOfLife];
    signsOfLife.clear();
    const found = await touchMany(telemetry, batch);
    if (found.size === batch.length) return;
    const gone = new Set(batch.flatMap(([id]) => (found.has(id) ? [] : [id])));
    for (const [identity, client] of connections) {
      const { ref } = client.session as unknown as Session;
      if (!gone.has(ref.id)) continue;
      logger.info({ identity }, "OCPP: el cargador fue eliminado; se cierra su conexión");
      connections.delete(identity);
      void client.close({ code: 1008, reason: "Charger removed" });
    }
    await messageLog.discard([...gone]);
  }
  /**
   * One flush at a time, each after the one in flight: a caller (the sweep, the shutdown) then
   * sees the timer's writes too, e.g. a sign of life taken just before, or a deleted charger's
   * messages being discarded.
   */
  let signsFlush: Promise<void> = Promise.resolve();
  function flushSignsOfLife(): Promise<void> {
    const run = signsFlush.catch(() => {}).then(writeSignsOfLife);
    signsFlush = run;
    return run;
  }
  /** The timer's and the shutdown's flush: a failure is logged, the next batch tries again. */
  const flushLogged = () => flushSignsOfLife().catch((err) => logger.error({ err: String(err) }, "OCPP: no se pudieron guardar las señales de vida"));
  const flushMessageLog = () => messageLog.flush().catch((err) => logger.error({ err: String(err) }, "OCPP: no se pudieron guardar los mensajes recientes"));
  const flushTimer = setInterval(() => void flushLogged(), SIGNS_OF_LIFE_FLUSH_MS);
  flushTimer.unref();
  // The message log is written four times a second: the same rows in shorter statements, so no
  // single flush holds a core of the database long enough to show in the chargers' latency.
  const messageLogTimer = setInterval(() => void flushMessageLog(), MESSAGE_LOG_FLUSH_MS);
  messageLogTimer.unref();

  /** Budgets and counters that refilled completely are the same as none: dropped. */
  function pruneLimits() {
    for (const [identity, budget] of callBudgets) if (budget.full && !connections.has(identity)) callBudgets.delete(identity);
    connectsPerCharger.prune();
    connectsPerAddress.prune();
  }

  async function sweep() {
    pruneLimits();
    await flushSignsOfLife();
    const t = now();
    const silent = await sweepSilentChargers(db, t);
    for (const c of silent.offline) {
      if (c.node === nodeId) {
        const client = [...connections.entries()].find(([, cl]) => (cl.session as unknown as Session).ref.id === c.id);
        if (client) {
          connections.delete(client[0]);
          void client[1].close({ force: true });
        }
      }
    }
    const byBusiness = new Map<string, Created>();
    for (const n of silent.created.notifications) byBusiness.set(n.businessId, { notifications: [...(byBusiness.get(n.businessId)?.notifications ?? []), n] });
    for (const [businessId, created] of byBusiness) announce(businessId, "charger", undefined, created);
    const idle = await sweepIdleSessions(db, t, { idleMaxMinutes });
    for (const n of idle.notifications) announce(n.businessId, "session", undefined, { notifications: [n] });
    // Reservations past their expiry, with their no-show fee (ADR 0018).
    const expired = await expireReservations(db, t);
    for (const n of expired.notifications) announce(n.businessId, "session", undefined, { notifications: [n] });
  }

  const timer = setInterval(() => {
    sweep().catch((err) => logger.error({ err: String(err) }, "OCPP: falló el barrido de cargadores sin señal"));
  }, options.sweepIntervalMs ?? 30_000);
  timer.unref();

  return {
    nodeId,
    live,
    handleUpgrade(request, socket, head) {
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      if (closing || !path.startsWith(`${OCPP_PATH}/`)) {
        socket.end(`HTTP/1.1 ${closing ? "503 Service Unavailable" : "404 Not Found"}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      void rpc.handleUpgrade(request, socket as never, head);
    },
    sendCommand,
    sendPassword,
    sendMaintenance,
    callCharger: deliver,
    rebalanceStation: rebalance,
    connectionCount: () => connections.size,
    sweep,
    flushSignsOfLife,
    flushMessageLog: () => messageLog.flush(),
    async close() {
      if (closing) return;
      closing = true;
      clearInterval(timer);
      await rpc.close({ code: 1001, reason: "Server shutting down", awaitPending: true }).catch(() => {});
      clearInterval(flushTimer);
      clearInterval(messageLogTimer);
      await flushLogged();
      await flushMessageLog();
      // Wait for the close handlers' writes (connected_node) before the database goes away.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await stopCommands();
      await stopReplies();
      await live.close();
    },
  };
}
