// Where a call to a charger goes: its socket on this node, the node that holds it (over the
// database's LISTEN/NOTIFY, `chargers.connected_node` says which), or nowhere. Several nodes may
// share one PostgreSQL; a caller never needs to know which node the charger is on.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Channels, Db } from "../../db/client";
import { chargers } from "../../db/schema";
import type { Logger } from "../../infra/logger";
import { passwordAnswerStatus, type ChargerAnswer } from "../commands";
import type { OcppProtocol } from "../store";
import { outboundCallProblem } from "../validators";
import { COMMAND_CHANNEL, REPLY_CHANNEL, RPCError, sessionOf, TimeoutError, type Client } from "../connection/client";
import type { RemoteDrop } from "../connection/sockets";

type RemoteCommand = { kind: "command"; id: string; node: string; from: string; identity: string; method: string; params: Record<string, unknown> };
type RemoteReply = { id: string; node: string; answer: ChargerAnswer };

/** Where the charger's socket is (here, another node, or nowhere), with the protocol it speaks. */
export type Target = { kind: "local"; client: Client; protocol: OcppProtocol } | { kind: "remote"; node: string; protocol: OcppProtocol } | { kind: "offline" };

export type ChargerKey = { id: string; ocppIdentity: string };
export type Deliver = (charger: ChargerKey, build: (protocol: OcppProtocol) => { method: string; params: Record<string, unknown> }) => Promise<ChargerAnswer>;

export interface Router {
  locate(charger: ChargerKey): Promise<Target>;
  callTarget(target: Target, identity: string, method: string, params: Record<string, unknown>): Promise<ChargerAnswer>;
  /** Sends one call to the charger wherever its socket is, built for the protocol it speaks. */
  deliver: Deliver;
  /** Stops listening to the other nodes. */
  close(): Promise<void>;
}

export async function createRouter(o: { db: Db; channels: Channels; logger: Logger; nodeId: string; commandTimeoutMs: number; connections: Map<string, Client> }): Promise<Router> {
  const { db, channels, logger, nodeId, commandTimeoutMs, connections } = o;
  const pendingReplies = new Map<string, (answer: ChargerAnswer) => void>();

  async function callLocal(client: Client, method: string, params: Record<string, unknown>): Promise<ChargerAnswer> {
    // A call of ours that breaks the schema is our bug, not the charger's refusal: it is not sent,
    // it is logged as an error (the rule broken, no values: it may carry a password or tags), and
    // the caller gets "error", which the screens never word as the charger's answer.
    const { protocol, ref } = sessionOf(client);
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

  async function callRemote(node: string, identity: string, method: string, params: Record<string, unknown>): Promise<ChargerAnswer> {
    const id = randomUUID();
    const reply = new Promise<ChargerAnswer>((resolve) => {
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

  async function locate(charger: ChargerKey): Promise<Target> {
    const local = connections.get(charger.ocppIdentity);
    if (local) return { kind: "local", client: local, protocol: sessionOf(local).protocol };
    const [row] = await db.select({ online: chargers.online, node: chargers.connectedNode, protocol: chargers.ocppProtocol }).from(chargers).where(eq(chargers.id, charger.id));
    if (!row?.online || !row.node || row.node === nodeId) return { kind: "offline" };
    return { kind: "remote", node: row.node, protocol: row.protocol === "ocpp2.0.1" ? "ocpp2.0.1" : "ocpp1.6" };
  }

  async function callTarget(target: Target, identity: string, method: string, params: Record<string, unknown>): Promise<ChargerAnswer> {
    if (target.kind === "offline") return { kind: "offline" };
    if (target.kind === "local") return callLocal(target.client, method, params);
    try {
      return await callRemote(target.node, identity, method, params);
    } catch (err) {
      logger.error({ identity, err: String(err) }, "OCPP: no se pudo enviar el comando a otro nodo");
      return { kind: "error" };
    }
  }

  const deliver: Deliver = async (charger, build) => {
    const target = await locate(charger);
    if (target.kind === "offline") return { kind: "offline" };
    const { method, params } = build(target.protocol);
    return callTarget(target, charger.ocppIdentity, method, params);
  };

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
    const run: Promise<ChargerAnswer> = client ? callLocal(client, message.method, message.params) : Promise.resolve({ kind: "offline" });
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

  return {
    locate,
    callTarget,
    deliver,
    async close() {
      await stopCommands();
      await stopReplies();
    },
  };
}
