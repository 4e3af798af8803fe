// What a company reads on nearly every page and changes rarely, computed at most once per company
// every few seconds (ADR 0011):
// - the home page's period totals. The KPIs and charts of a period (energy, sessions, revenue,
//   use, availability, per day / hour / station) aggregate up to a year of sessions: ~30 ms of
//   PostgreSQL per page with the rollups, and every open dashboard reloads them on each live
//   event (useLiveRevalidation);
// - the option lists of the filters (stations, chargers): every list page shows them, up to 500
//   rows each, and they change only when the company edits its stations or chargers.
// Entries are kept for `ttlMs` per company and key, shared by every user and tab of the company;
// past it, the next read starts a new computation and is answered with the kept value meanwhile
// (stale-while-revalidate, up to STALE_TTLS TTLs). The equipment's current state (chargers
// online, connector states, active sessions) is never kept. A write by the company through this
// API drops its entries at once, on every node that shares the database (sharedAcrossNodes).
// ttlMs 0 computes every time (the API's default: tests see writes immediately).
import type { Channels } from "../db/client";

export interface CompanyCache {
  /** The value under `key` for `businessId`, computed by `compute` when absent or older than the TTL. */
  get<T>(businessId: string, key: string, compute: () => Promise<T>): Promise<T>;
  /** The company wrote something: its entries are computed again on the next read. */
  forget(businessId: string): void;
}

/** Entries (company × key) kept at once (the oldest entry leaves first). */
const MAX_ENTRIES = 2_000;

/**
 * How many TTLs a value may be served while its new computation runs. A company's totals cost
 * ~70 ms of PostgreSQL to compute: a page that waited for them every TTL stood in that queue, and
 * with it every page the machine served meanwhile. Past this age (nobody of the company read it
 * for a while) the read waits for a new value.
 */
const STALE_TTLS = 4;

interface Entry {
  /** When its computation started. */
  at: number;
  value: Promise<unknown>;
  /** The value has arrived (a pending one is shared, never computed twice). */
  settled: boolean;
  /** A new computation runs in the background for this entry. */
  refreshing: boolean;
}

/**
 * `onRefreshError` hears a background computation that failed (nobody waits for it, so nobody
 * else would see its error).
 */
export function createCompanyCache(
  ttlMs: number,
  now: () => Date,
  maxEntries = MAX_ENTRIES,
  onRefreshError: (err: unknown, where: { businessId: string; key: string }) => void = () => {},
): CompanyCache {
  const entries = new Map<string, Entry>();

  /** Keeps `value` under `full`, shared while it is computed; a failure is not kept. */
  function keep(full: string, at: number, value: Promise<unknown>): Entry {
    const entry: Entry = { at, value, settled: false, refreshing: false };
    entries.delete(full);
    entries.set(full, entry);
    value.then(
      () => (entry.settled = true),
      () => {
        if (entries.get(full) === entry) entries.delete(full);
      },
    );
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    return entry;
  }

  /**
   * Computes `full` again while the kept entry keeps answering. The new value replaces it only if
   * nothing dropped it meanwhile (a write); a failure drops it, so the next read computes and
   * sees the error.
   */
  function refresh(full: string, stale: Entry, at: number, compute: () => Promise<unknown>) {
    stale.refreshing = true;
    const value = compute();
    value.then(
      () => {
        if (entries.get(full) === stale) keep(full, at, value).settled = true;
      },
      (err) => {
        if (entries.get(full) === stale) entries.delete(full);
        const at = full.indexOf("|");
        onRefreshError(err, { businessId: full.slice(0, at), key: full.slice(at + 1) });
      },
    );
  }

  return {
    get<T>(businessId: string, key: string, compute: () => Promise<T>): Promise<T> {
      if (ttlMs <= 0) return compute();
      const full = `${businessId}|${key}`;
      const t = now().getTime();
      const hit = entries.get(full);
      const age = hit ? t - hit.at : Infinity;
      if (hit && age < ttlMs) return hit.value as Promise<T>;
      if (hit && age < ttlMs * STALE_TTLS) {
        if (hit.settled && !hit.refreshing) refresh(full, hit, t, compute);
        return hit.value as Promise<T>;
      }
      return keep(full, t, compute()).value as Promise<T>;
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
export function sharedAcrossNodes(cache: CompanyCache, channels: Channels, onError: (err: unknown) => void): CompanyCache {
  channels.listen(COMPANY_WRITE_CHANNEL, (businessId) => cache.forget(businessId)).catch(onError);
  return {
    get: (businessId, key, compute) => cache.get(businessId, key, compute),
    forget(businessId) {
      cache.forget(businessId);
      channels.notify(COMPANY_WRITE_CHANNEL, businessId).catch(onError);
    },
  };
}
