// The shapes every part of the central system shares about a charger's socket: the ocpp-rpc
// client as we use it, and what we keep on it once the charger is authenticated.
import ocppRpc from "ocpp-rpc";
import type { ChargerRef, OcppProtocol } from "../store";
import { OCPP_VERSIONS } from "../../domain/ocpp-protocol";

/** What an authenticated socket carries: the charger, the protocol it speaks, its last sign of life. */
export interface Session {
  ref: ChargerRef;
  protocol: OcppProtocol;
  lastTouch: number;
}

export type Client = {
  identity: string;
  session: Record<string, unknown>;
  handle(method: string, handler: (ctx: { params: unknown }) => unknown): void;
  call(method: string, params?: unknown, options?: Record<string, unknown>): Promise<unknown>;
  close(options?: { code?: number; reason?: string; awaitPending?: boolean; force?: boolean }): Promise<unknown>;
  on(event: "close", listener: () => void): void;
  on(event: "socketError", listener: (err: { code?: string }) => void): void;
  on(event: "message", listener: (event: { message: unknown; outbound: boolean }) => void): void;
};

/** Registers the answer to one call the charger makes (its params were already schema-checked). */
export type Handle = Client["handle"];

/** The session an authenticated socket carries. */
export const sessionOf = (client: Client) => client.session as unknown as Session;

// ocpp-rpc is CommonJS whose named exports Node's ESM loader cannot detect.
export const { RPCError, RPCServer, TimeoutError, createRPCError } = ocppRpc;

export const OCPP_PATH = "/ocpp";
/** The subprotocols offered, in order of preference when a charger offers both: the newest first. */
export const OCPP_PROTOCOLS: readonly OcppProtocol[] = [...OCPP_VERSIONS].reverse();
/** Commands for a charger whose socket is on another node travel on this channel. */
export const COMMAND_CHANNEL = "enchufa_ocpp_cmd";
/** The other node's answers to those commands. */
export const REPLY_CHANNEL = "enchufa_ocpp_reply";
