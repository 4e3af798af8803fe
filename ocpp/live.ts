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

export async function createLiveEvents(channels: Channels, onError: (err: unknown) => void): Promise<LiveEvents> {
  const listeners = new Map<string, Set<(event: LiveEvent) => void>>();
  const stop = await channels.listen(LIVE_CHANNEL, (payload) => {
    try {
      const { b, k, c } = JSON.parse(payload) as { b: string; k: LiveKind; c?: string };
      for (const l of listeners.get(b) ?? []) l({ kind: k, ...(c ? { chargerId: c } : {}) });
    } catch (err) {
      onError(err);
    }
  });
  return {
    publish(businessId, event) {
      channels.notify(LIVE_CHANNEL, JSON.stringify({ b: businessId, k: event.kind, c: event.chargerId })).catch(onError);
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
      listeners.clear();
      await stop();
    },
  };
}
