// The WebSocket server chargers connect to: ws(s)://<host>/ocpp/<identity> on the dashboard's
// own port, offering the `ocpp2.0.1` and/or `ocpp1.6` subprotocol. ocpp-rpc validates every
// message against the negotiated version's JSON schemas (strict mode), so a malformed or unknown
// call gets its CALLERROR before any handler writes a row.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "../../infra/logger";
import { OCPP_MAX_FRAME_BYTES } from "../limits";
import { ocppValidators } from "../validators";
import type { Authenticator } from "./authentication";
import { OCPP_PATH, OCPP_PROTOCOLS, RPCServer, type Client } from "./client";

export interface RpcServer {
  /** The HTTP server's 'upgrade' handler: /ocpp/… only, and nothing once the node shuts down. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, closing: boolean): void;
  /** Closes every socket cleanly (1001): the chargers reconnect to another node. */
  close(): Promise<void>;
}

export function createRpcServer(o: { logger: Logger; commandTimeoutMs: number; authenticator: Authenticator; onClient(client: Client): void }): RpcServer {
  const rpc = new RPCServer({
    protocols: [...OCPP_PROTOCOLS],
    strictMode: true,
    // CALLERRORs name what was invalid, never echo the request's values (ocpp/validators.ts).
    strictModeValidators: ocppValidators,
    callTimeoutMs: o.commandTimeoutMs,
    pingIntervalMs: 30_000,
    deferPingsOnActivity: true,
    respondWithDetailedErrors: false,
    maxBadMessages: 10,
    // A larger frame closes the socket with 1009 before it is read whole (ocpp/limits.ts).
    wssOptions: { maxPayload: OCPP_MAX_FRAME_BYTES },
  });
  rpc.on("error", (err: Error) => o.logger.warn({ err: err.message }, "OCPP: error del servidor WebSocket"));
  rpc.auth((accept, reject, handshake) => o.authenticator.authenticate(accept as never, reject, handshake as never));
  rpc.on("client", (client: Client) => o.onClient(client));
  return {
    handleUpgrade(request, socket, head, closing) {
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      if (closing || !path.startsWith(`${OCPP_PATH}/`)) {
        socket.end(`HTTP/1.1 ${closing ? "503 Service Unavailable" : "404 Not Found"}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      void rpc.handleUpgrade(request, socket as never, head);
    },
    close: () => rpc.close({ code: 1001, reason: "Server shutting down", awaitPending: true }).then(() => {}),
  };
}
