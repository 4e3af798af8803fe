// The simulated charger of `npm run bench:ocpp` (ocpp-worker.ts): OCPP-J as a charger's firmware
// speaks it, with nothing else. ocpp-rpc's RPCClient allocates an AbortController, timers and
// promises per call; 2,500 of them per process cost a third of a core and 20–50 ms GC pauses,
// and since the simulated chargers share the machine with the server they time, those pauses
// showed up in the latencies they reported.
import WebSocket from "ws";

/** What a simulated charger needs of its connection, whichever client implements it. */
export interface Client {
  connect(): Promise<unknown>;
  call(method: string, params: unknown): Promise<unknown>;
  once(event: "close", listener: () => void): unknown;
  close(opts: { force: boolean }): Promise<unknown>;
}

/** A call the charger sent and is waiting for: its answer settles it, or the sweep times it out. */
interface Pending {
  resolve: (payload: unknown) => void;
  reject: (err: Error) => void;
  at: number;
}

export const CALL_TIMEOUT_MS = 30_000;
const PING_INTERVAL_MS = 30_000;
/** Every open lean charger, for the worker's one timer that times out calls and sends pings. */
export const leanChargers = new Set<LeanCharger>();

/**
 * OCPP-J as a charger's firmware speaks it: [2, id, action, payload] out, [3, id, payload] or
 * [4, id, code, description, details] back; the server's own calls are answered NotImplemented,
 * as RPCClient does without a handler. Basic auth with the identity, the subprotocol offered,
 * no compression (the server offers none), a WebSocket ping every 30 s.
 */
export class LeanCharger {
  private ws: WebSocket | null = null;
  private next = 0;
  private readonly pending = new Map<string, Pending>();
  private closeListener: (() => void) | null = null;
  lastPing = Date.now();

  constructor(private readonly opts: { endpoint: string; identity: string; password: string; protocol: string }) {}

  connect(): Promise<void> {
    const { endpoint, identity, password, protocol } = this.opts;
    const ws = new WebSocket(`${endpoint}/${encodeURIComponent(identity)}`, [protocol], {
      headers: { authorization: `Basic ${Buffer.from(`${identity}:${password}`).toString("base64")}` },
      perMessageDeflate: false,
    });
    this.ws = ws;
    return new Promise((resolve, reject) => {
      // A refused upgrade (401 for a wrong password) is an 'error' too ("Unexpected server response").
      ws.once("error", reject);
      ws.once("open", () => {
        ws.off("error", reject);
        ws.on("error", () => {}); // a reset socket closes; 'close' does the rest
        ws.on("message", (data) => this.onMessage(data as Buffer));
        ws.once("close", () => this.onClose());
        leanChargers.add(this);
        resolve();
      });
    });
  }

  call(method: string, params: unknown): Promise<unknown> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error("not connected"));
    const id = String(++this.next);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, at: Date.now() });
      ws.send(JSON.stringify([2, id, method, params]));
    });
  }

  once(_event: "close", listener: () => void) {
    this.closeListener = listener;
    return this;
  }

  async close(_opts: { force: boolean }) {
    this.ws?.terminate();
  }

  /** The worker's sweep: calls unanswered for 30 s fail, and a ping goes out every 30 s. */
  tick(now: number) {
    for (const [id, p] of this.pending) {
      if (now - p.at < CALL_TIMEOUT_MS) break; // insertion order: the rest are newer
      this.pending.delete(id);
      p.reject(new Error("timeout"));
    }
    if (now - this.lastPing >= PING_INTERVAL_MS) {
      this.lastPing = now;
      this.ws?.ping();
    }
  }

  private onMessage(data: Buffer) {
    let frame: unknown;
    try {
      frame = JSON.parse(data.toString("utf8"));
    } catch {
      return;
    }
    if (!Array.isArray(frame)) return;
    const [type, id] = frame as [number, string];
    if (type === 2) {
      this.ws?.send(JSON.stringify([4, id, "NotImplemented", `Unable to handle '${String(frame[2])}' calls`, {}]));
      return;
    }
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (type === 3) p.resolve(frame[2]);
    else p.reject(new Error(String(frame[2])));
  }

  private onClose() {
    leanChargers.delete(this);
    for (const p of this.pending.values()) p.reject(new Error("closed"));
    this.pending.clear();
    this.closeListener?.();
  }
}
