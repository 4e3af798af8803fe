// The home page's period totals, computed at most once per company and period every few seconds
// (issue 9, ADR 0011).
//
// The KPIs and charts of a period (energy, sessions, revenue, use, availability, per day / hour /
// station) aggregate up to a year of sessions: ~30 ms of PostgreSQL per page with the rollups,
// and every open dashboard reloads them on each live event (useLiveRevalidation). They are kept
// here for `ttlMs` per company and period, shared by every user and tab of the company; the
// equipment's current state (chargers online, connector states, active sessions) is never kept.
// A write by the company through this API drops its entries at once, on every node that shares
// the database (sharedAcrossNodes). ttlMs 0 computes every time (the API's default: tests see writes
// immediately).
import type { Channels } from "../db/client";

export interface PeriodCache {
  /** The value under `key` for `businessId`, computed by `compute` when absent or older than the TTL. */
  get<T>(businessId: string, key: string, compute: () => Promise<T>): Promise<T>;
  /** The company wrote something: its entries are computed again on the next read. */
  forget(businessId: string): void;
}

/** Companies × periods kept at once (the oldest entry leaves first). */
const MAX_ENTRIES = 2_000;

export function createPeriodCache(ttlMs: number, now: () => Date, maxEntries = MAX_ENTRIES): PeriodCache {
  const entries = new Map<string, { at: number; value: Promise<unknown> }>();

  return {
    get<T>(businessId: string, key: string, compute: () => Promise<T>): Promise<T> {
      if (ttlMs <= 0) return compute();
      const full = `${businessId}|${key}`;
      const t = now().getTime();
      const hit = entries.get(full);
      if (hit && t - hit.at < ttlMs) return hit.value as Promise<T>;
      // The promise is kept, so requests that arrive while it is computed share it.
      const value = compute();
      entries.delete(full);
      entries.set(full, { at: t, value });
      value.catch(() => {
        if (entries.get(full)?.value === value) entries.delete(full); // a failure is not kept
      });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return value;
    },
    forget(businessId) {
      if (ttlMs <= 0) return;
      // A computation still running keeps serving the requests that already wait for it; the
      // next request starts a new one.
      const prefix = `${businessId}|`;
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}

/** Nodes sharing a database tell each other which company wrote (payload: its id). */
export const COMPANY_WRITE_CHANNEL = "enchufa_company_write";

/**
 * The cache of one node, told about the writes made on every node: a company that renames a
 * station through one process (or replica) sees it in the KPIs another one serves, within the
 * time a NOTIFY takes, not the TTL.
 */
export function sharedAcrossNodes(cache: PeriodCache, channels: Channels, onError: (err: unknown) => void): PeriodCache {
  channels.listen(COMPANY_WRITE_CHANNEL, (businessId) => cache.forget(businessId)).catch(onError);
  return {
    get: (businessId, key, compute) => cache.get(businessId, key, compute),
    forget(businessId) {
      cache.forget(businessId);
      channels.notify(COMPANY_WRITE_CHANNEL, businessId).catch(onError);
    },
  };
}
