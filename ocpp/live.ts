// Live events for the dashboards (charger/station lists, home): "something changed for this
// company". Published through the database's channels, so a browser connected to one node
// hears about a charger whose socket is on another.
import type { Channels } from "../db/client";

export const LIVE_CHANNEL = "enchufa_live";

export type LiveKind = "charger" | "connector" | "session" | "notification";

export interface LiveEvent {
  kind: LiveKind;
  chargerId?: string;
}

export interface LiveEvents {
  publish(businessId: string, event: LiveEvent): void;
  /** Events of one company; returns the unsubscribe function. */
  subscribe(businessId: string, listener: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

/** How long events are gathered before one NOTIFY carries them (a dashboard refresh, not a control loop). */
export const LIVE_BATCH_MS = 200;
/** PostgreSQL caps a NOTIFY payload at 8,000 bytes. */
const MAX_PAYLOAD = 7_000;

type Wire = { b: string; k: LiveKind; c?: string };

/**
 * Events are coalesced for LIVE_BATCH_MS and published as JSON arrays, so thousands of chargers
 * reporting meter values cost a few NOTIFYs per second instead of one database round trip per
 * message (repeats of the same company, kind and charger within a batch are sent once).
 */
export async function createLiveEvents(
  channels: Channels,
  onError: (err: unknown, what: "payload" | "publish") => void,
): Promise<LiveEvents> {
  const listeners = new Map<string, Set<(event: LiveEvent) => void>>();
  const deliver = ({ b, k, c }: Wire) => {
    for (const l of listeners.get(b) ?? []) l({ kind: k, ...(c ? { chargerId: c } : {}) });
  };
  const stop = await channels.listen(LIVE_CHANNEL, (payload) => {
    try {
      const parsed = JSON.parse(payload) as Wire | Wire[];
      // (A single object: a node still on the previous version.)
      for (const event of Array.isArray(parsed) ? parsed : [parsed]) deliver(event);
    } catch (err) {
      onError(err, "payload");
    }
  });

  const pending = new Map<string, Wire>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const flush = () => {
    timer = undefined;
    const events = [...pending.values()];
    pending.clear();
    let chunk: Wire[] = [];
    let size = 2;
    const send = () => {
      if (chunk.length) channels.notify(LIVE_CHANNEL, JSON.stringify(chunk)).catch((err) => onError(err, "publish"));
      chunk = [];
      size = 2;
    };
    for (const e of events) {
      const bytes = JSON.stringify(e).length + 1;
      if (size + bytes > MAX_PAYLOAD) send();
      chunk.push(e);
      size += bytes;
    }
    send();
  };

  return {
    publish(businessId, event) {
      if (closed) return;
      const wire: Wire = { b: businessId, k: event.kind, ...(event.chargerId ? { c: event.chargerId } : {}) };
      pending.set(`${wire.b}|${wire.k}|${wire.c ?? ""}`, wire);
      timer ??= setTimeout(flush, LIVE_BATCH_MS);
    },
    subscribe(businessId, listener) {
      let set = listeners.get(businessId);
      if (!set) listeners.set(businessId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(businessId);
      };
    },
    async close() {
      // Shutting down: the dashboards' streams close too, and the pool is about to.
      closed = true;
      clearTimeout(timer);
      pending.clear();
      listeners.clear();
      await stop();
    },
  };
}
