// The sockets this node holds: one live connection per charger identity (the newest wins, here
// and on every other node), each frame into the charger's recent messages, the online and
// offline marks, the call budget of each charger, and the signs of life written in batches.
import { eq } from "drizzle-orm";
import type { Channels, Db } from "../../db/client";
import { chargers } from "../../db/schema";
import type { Logger } from "../../infra/logger";
import { callBudget, OCPP_MAX_FRAME_BYTES, type CallLimit } from "../limits";
import type { LiveKind } from "../live";
import type { createMessageLog } from "../message-log";
import { markOnline, markSocketClosed, type ChargerRef, type Created } from "../store";
import { COMMAND_CHANNEL, createRPCError, sessionOf, type Client, type Handle, type Session } from "./client";
import { createSignsOfLife } from "./signs-of-life";

/** Another node took a charger's socket: this node closes its own (without an offline mark). */
export type RemoteDrop = { kind: "drop"; identity: string; except: string };

export type Announce = (businessId: string, kind: LiveKind, chargerId: string | undefined, created?: Created) => void;

export interface Sockets {
  /** Identity → its socket on this node. */
  connections: Map<string, Client>;
  /** Set once the node shuts down: a socket closing then leaves no offline mark. */
  shuttingDown(): void;
  isClosing(): boolean;
  /** A socket ocpp-rpc accepted: registers it, its handlers (`register`) and its online mark. */
  onClient(client: Client): Promise<void>;
  /** Any message counts as a sign of life; noted at most every 30 s outside heartbeats, written in the next batch. */
  noteSignOfLife(session: Session, force: boolean): void;
  /** `client.handle` with the charger's call budget, for both protocols. */
  budgetedHandler(client: Client, ref: ChargerRef): Handle;
  /** Writes the signs of life noted since the last batch, after the batch in flight. */
  flushSignsOfLife(): Promise<void>;
  /** Closes this node's socket of a charger the sweep found silent. */
  dropCharger(chargerId: string): void;
  /** Budgets that refilled completely, of chargers not connected, are the same as none: dropped. */
  pruneBudgets(): void;
}

export function createSockets(o: {
  db: Db;
  telemetry: Db;
  channels: Channels;
  logger: Logger;
  nodeId: string;
  now: () => Date;
  /** Identity → its socket on this node (shared with the router, which calls through it). */
  connections: Map<string, Client>;
  callLimit: CallLimit;
  messageLog: ReturnType<typeof createMessageLog>;
  announce: Announce;
  /** The handlers of the protocol the socket speaks. */
  register(client: Client, session: Session): void;
  /** After the online mark: the charger's power limits are sent again. */
  connected(ref: ChargerRef): void;
}): Sockets {
  const { db, logger, nodeId, messageLog } = o;
  const { connections } = o;
  /** Identity → its call budget, kept across its connections (a reconnection does not refill it). */
  const callBudgets = new Map<string, ReturnType<typeof callBudget>>();
  const signs = createSignsOfLife({ telemetry: o.telemetry, logger, now: o.now, connections, messageLog });
  /** Identity → the offline mark of its socket that just closed, still being written. */
  const closingMarks = new Map<string, Promise<void>>();
  let closing = false;

  /** The socket closed: its offline mark, unless a newer socket owns the charger or the node shuts down. */
  function onClose(client: Client, ref: ChargerRef, onlineMarked: () => Promise<unknown>) {
    const identity = ref.ocppIdentity;
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
    const closed = onlineMarked()
      .then(() => markSocketClosed(db, ref, nodeId))
      .then(
        (created) => o.announce(ref.businessId, "charger", ref.id, created),
        (err) => logger.error({ identity, err: String(err) }, "OCPP: no se pudo registrar la desconexión"),
      );
    // A reconnection to this node waits for this offline mark, so it cannot land after the online one.
    closingMarks.set(identity, closed);
    void closed.finally(() => {
      if (closingMarks.get(identity) === closed) closingMarks.delete(identity);
    });
  }

  async function onClient(client: Client) {
    const session = sessionOf(client);
    const { ref } = session;
    const identity = ref.ocppIdentity;
    const previous = connections.get(identity);
    connections.set(identity, client);
    // One live connection per identity: the newest wins, here and on every other node.
    if (previous) void previous.close({ code: 4000, reason: "Replaced by a new connection" });
    void o.channels.notify(COMMAND_CHANNEL, JSON.stringify({ kind: "drop", identity, except: nodeId } satisfies RemoteDrop)).catch(() => {});

    // Every frame, both ways, into the charger's recent messages (troubleshooting).
    const pendingCalls = new Map<string, string>();
    client.on("message", ({ message, outbound }) => messageLog.note(ref, message, outbound, pendingCalls));
    // The WebSocket library closes an oversized frame with 1009 itself and reports it here.
    client.on("socketError", (err: { code?: string }) => {
      if (err.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") logger.warn({ identity, maxBytes: OCPP_MAX_FRAME_BYTES }, "OCPP: mensaje demasiado grande, conexión cerrada");
    });
    // This socket's online mark (set below, before any event can arrive). Its offline mark waits
    // for it: a socket that closes at once must not leave the charger online after it.
    let onlineMarked: Promise<unknown> = Promise.resolve();
    client.on("close", () => onClose(client, ref, () => onlineMarked));

    o.register(client, session);
    const marking = (async () => {
      await closingMarks.get(identity);
      const created = await markOnline(db, ref, nodeId, o.now(), session.protocol);
      o.announce(ref.businessId, "charger", ref.id, created);
    })();
    onlineMarked = marking.catch(() => {});
    try {
      await marking;
      o.connected(ref);
      logger.info({ identity, protocol: session.protocol }, "OCPP: cargador conectado");
    } catch (err) {
      logger.error({ identity, err: String(err) }, "OCPP: no se pudo registrar la conexión");
    }
  }

  /**
   * Beyond the charger's call budget (ocpp/limits.ts) a call is answered with a CALLERROR, and a
   * charger that keeps going is disconnected.
   */
  function budgetedHandler(client: Client, ref: ChargerRef): Handle {
    const budget = callBudgets.get(ref.ocppIdentity) ?? callBudget(o.callLimit);
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

  return {
    connections,
    shuttingDown: () => void (closing = true),
    isClosing: () => closing,
    onClient,
    noteSignOfLife: signs.note,
    budgetedHandler,
    flushSignsOfLife: signs.flush,
    dropCharger(chargerId) {
      const client = [...connections.entries()].find(([, cl]) => sessionOf(cl).ref.id === chargerId);
      if (client) {
        connections.delete(client[0]);
        void client[1].close({ force: true });
      }
    },
    pruneBudgets() {
      for (const [identity, budget] of callBudgets) if (budget.full && !connections.has(identity)) callBudgets.delete(identity);
    },
  };
}
