// Rate limiting: a sliding-window counter per key — the current fixed window plus
// the previous one, weighted by how much of it still overlaps — over a pluggable store:
//
// - MemoryRateLimitStore: one node (the default; PGlite is single-node anyway);
// - PostgresRateLimitStore: several nodes behind a load balancer share one PostgreSQL, so the
//   limits hold for the whole deployment rather than per node.
//
// The process-wide store is kept on globalThis (setRateLimitStore): server.ts picks it at start,
// and the React Router bundle, a separate copy of this module, finds the same one.
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimitHits } from "../db/schema";

export interface RateRule {
  /** Allowed hits per window. */
  limit: number;
  windowMs: number;
}

export interface RateVerdict {
  ok: boolean;
  /** Milliseconds until one more hit would be allowed (0 when ok). */
  retryAfterMs: number;
}

export interface WindowCounts {
  current: number;
  previous: number;
}

export interface RateLimitStore {
  /** Hits counted for `key` in the window starting at `windowStart` and in the one before it. */
  counts(key: string, windowStart: number, windowMs: number): Promise<WindowCounts>;
  /** Count `hits` (default one) in the window starting at `windowStart`. */
  add(key: string, windowStart: number, windowMs: number, hits?: number): Promise<void>;
  /** Forget a key (a successful login clears its failed attempts). */
  reset(key: string): Promise<void>;
  /** Forget everything (tests). */
  clear(): Promise<void>;
}

const MAX_KEYS = 50_000;

export class MemoryRateLimitStore implements RateLimitStore {
  private windows = new Map<string, Map<number, number>>();

  constructor(private readonly now: () => number = Date.now) {}

  async counts(key: string, windowStart: number, windowMs: number): Promise<WindowCounts> {
    const w = this.windows.get(key);
    return { current: w?.get(windowStart) ?? 0, previous: w?.get(windowStart - windowMs) ?? 0 };
  }

  async add(key: string, windowStart: number, windowMs: number, hits = 1): Promise<void> {
    let w = this.windows.get(key);
    if (!w) {
      if (this.windows.size >= MAX_KEYS) this.sweep(windowMs);
      w = new Map();
      this.windows.set(key, w);
    }
    w.set(windowStart, (w.get(windowStart) ?? 0) + hits);
    for (const start of w.keys()) if (start < windowStart - windowMs) w.delete(start);
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async clear(): Promise<void> {
    this.windows.clear();
  }

  private sweep(windowMs: number) {
    const now = this.now();
    for (const [key, w] of this.windows) if (Math.max(...w.keys()) < now - 2 * windowMs) this.windows.delete(key);
    // Still full (a flood of distinct keys): start over rather than grow without bound.
    if (this.windows.size >= MAX_KEYS) this.windows.clear();
  }
}

/** Counters in the `rate_limit_hits` table: one upsert per counted hit, expired rows swept now and then. */
export class PostgresRateLimitStore implements RateLimitStore {
  private writes = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async counts(key: string, windowStart: number, windowMs: number): Promise<WindowCounts> {
    const rows = await this.db
      .select({ windowStart: rateLimitHits.windowStart, hits: rateLimitHits.hits })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.key, key), sql`${rateLimitHits.windowStart} in (${windowStart}, ${windowStart - windowMs})`));
    const of = (start: number) => rows.find((r) => Number(r.windowStart) === start)?.hits ?? 0;
    return { current: of(windowStart), previous: of(windowStart - windowMs) };
  }

  async add(key: string, windowStart: number, windowMs: number, hits = 1): Promise<void> {
    const expiresAt = new Date(windowStart + 2 * windowMs);
    await this.db
      .insert(rateLimitHits)
      .values({ key, windowStart, hits, expiresAt })
      .onConflictDoUpdate({ target: [rateLimitHits.key, rateLimitHits.windowStart], set: { hits: sql`${rateLimitHits.hits} + ${hits}` } });
    if (++this.writes % 500 === 0) await this.sweep();
  }

  async reset(key: string): Promise<void> {
    await this.db.delete(rateLimitHits).where(eq(rateLimitHits.key, key));
  }

  async clear(): Promise<void> {
    await this.db.delete(rateLimitHits);
  }

  /** Delete windows that no longer count. */
  async sweep(): Promise<number> {
    const gone = await this.db.delete(rateLimitHits).where(lt(rateLimitHits.expiresAt, new Date(this.now()))).returning({ key: rateLimitHits.key });
    return gone.length;
  }
}

/**
 * A store in front of another, for a limit counted on every request (the API's per-account
 * limit: a page that makes six API calls would otherwise pay twelve round trips to PostgreSQL
 * for it). Counts read from the inner store are reused for `maxAgeMs`, and hits are written in
 * batches every `flushMs`. Hits counted here and not yet written are part of every answer, so
 * this node never undercounts itself; other nodes' hits show within maxAgeMs — fine for a brake
 * on volume, not for the strict login limits, which use the inner store directly.
 */
export class BufferedRateLimitStore implements RateLimitStore {
  private cache = new Map<string, { at: number; windowStart: number; counts: WindowCounts }>();
  private pending = new Map<string, { key: string; windowStart: number; windowMs: number; hits: number }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly inner: RateLimitStore,
    private readonly options: { maxAgeMs?: number; flushMs?: number; now?: () => number } = {},
  ) {}

  private now() {
    return (this.options.now ?? Date.now)();
  }

  private static pendingId(key: string, windowStart: number) {
    return `${key}\u0000${windowStart}`;
  }

  private pendingHits(key: string, windowStart: number) {
    return this.pending.get(BufferedRateLimitStore.pendingId(key, windowStart))?.hits ?? 0;
  }

  async counts(key: string, windowStart: number, windowMs: number): Promise<WindowCounts> {
    let entry = this.cache.get(key);
    if (!entry || entry.windowStart !== windowStart || this.now() - entry.at > (this.options.maxAgeMs ?? 1000)) {
      const counts = await this.inner.counts(key, windowStart, windowMs);
      if (this.cache.size >= MAX_KEYS) this.cache.clear();
      entry = { at: this.now(), windowStart, counts };
      this.cache.set(key, entry);
    }
    return {
      current: entry.counts.current + this.pendingHits(key, windowStart),
      previous: entry.counts.previous + this.pendingHits(key, windowStart - windowMs),
    };
  }

  async add(key: string, windowStart: number, windowMs: number, hits = 1): Promise<void> {
    const id = BufferedRateLimitStore.pendingId(key, windowStart);
    const entry = this.pending.get(id);
    if (entry) entry.hits += hits;
    else this.pending.set(id, { key, windowStart, windowMs, hits });
    this.timer ??= setTimeout(() => void this.flush().catch(storeFailed), this.options.flushMs ?? 1000);
    this.timer.unref?.();
  }

  /** Writes the pending hits (the timer calls it; tests may too). Unwritten hits at exit are lost: a brake, not a record. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.pending.entries()].map(([id, e]) => ({ id, ...e }));
    await Promise.all(batch.map((e) => this.inner.add(e.key, e.windowStart, e.windowMs, e.hits)));
    // Now in the inner store: no longer pending, and cached counts from before are stale.
    for (const e of batch) {
      const left = (this.pending.get(e.id)?.hits ?? 0) - e.hits;
      if (left > 0) this.pending.get(e.id)!.hits = left;
      else this.pending.delete(e.id);
      this.cache.delete(e.key);
    }
  }

  async reset(key: string): Promise<void> {
    for (const [id, e] of this.pending) if (e.key === key) this.pending.delete(id);
    this.cache.delete(key);
    await this.inner.reset(key);
  }

  async clear(): Promise<void> {
    this.pending.clear();
    this.cache.clear();
    await this.inner.clear();
  }
}

const STORE = Symbol.for("enchufa.rateLimitStore");
const HOT_STORE = Symbol.for("enchufa.rateLimitStore.hot");
type WithStore = typeof globalThis & { [STORE]?: RateLimitStore; [HOT_STORE]?: RateLimitStore };

/** The process-wide store (server.ts sets PostgreSQL when DATABASE_URL is used). */
export function setRateLimitStore(store: RateLimitStore | undefined) {
  (globalThis as WithStore)[STORE] = store;
}

export function getRateLimitStore(): RateLimitStore {
  return ((globalThis as WithStore)[STORE] ??= new MemoryRateLimitStore());
}

/** The store for limits counted on every request (`{ hot: true }`): by default the same one. */
export function setHotRateLimitStore(store: RateLimitStore | undefined) {
  (globalThis as WithStore)[HOT_STORE] = store;
}

function getHotRateLimitStore(): RateLimitStore {
  return (globalThis as WithStore)[HOT_STORE] ?? getRateLimitStore();
}

/**
 * One limit (name + rule) over the process-wide store, or a given one. Keys are namespaced by
 * the limiter's name, so limiters share a store without colliding.
 */
export class RateLimiter {
  constructor(
    public readonly name: string,
    public readonly rule: RateRule,
    /** `hot`: counted on every request, over the hot store (BufferedRateLimitStore with PostgreSQL). */
    private readonly options: { store?: RateLimitStore; now?: () => number; hot?: boolean } = {},
  ) {}

  private get store() {
    return this.options.store ?? (this.options.hot ? getHotRateLimitStore() : getRateLimitStore());
  }

  private now() {
    return (this.options.now ?? Date.now)();
  }

  private window() {
    const now = this.now();
    return { now, start: now - (now % this.rule.windowMs) };
  }

  /**
   * Whether one more hit would be allowed, without counting it. A store that cannot answer
   * (the database is down) lets the request through: the limit is a brake, not a gate, and the
   * request will meet the same outage anyway.
   */
  async check(key: string): Promise<RateVerdict> {
    const { now, start } = this.window();
    let c: WindowCounts;
    try {
      c = await this.store.counts(`${this.name}:${key}`, start, this.rule.windowMs);
    } catch (err) {
      storeFailed(err);
      return { ok: true, retryAfterMs: 0 };
    }
    const elapsed = (now - start) / this.rule.windowMs;
    if (c.current + c.previous * (1 - elapsed) + 1 <= this.rule.limit) return { ok: true, retryAfterMs: 0 };
    return { ok: false, retryAfterMs: this.retryAfter(c, now, start) };
  }

  /** Count one hit; answers whether it was allowed (a refused hit is not counted). */
  async hit(key: string): Promise<RateVerdict> {
    const verdict = await this.check(key);
    if (verdict.ok) await this.count(key);
    return verdict;
  }

  /** Count one hit whatever the verdict (a failed login attempt). */
  async count(key: string): Promise<void> {
    await this.store.add(`${this.name}:${key}`, this.window().start, this.rule.windowMs).catch(storeFailed);
  }

  async reset(key: string): Promise<void> {
    await this.store.reset(`${this.name}:${key}`);
  }

  private retryAfter(c: WindowCounts, now: number, windowStart: number): number {
    const { windowMs, limit } = this.rule;
    // Allowed again once the older window's weight has decayed so that weighted + 1 <= limit.
    if (c.current + 1 > limit) {
      // Not within this window: in the next one, `current` becomes the decaying part.
      const fraction = Math.max(0, 1 - (limit - 1) / c.current);
      return Math.max(Math.ceil(windowStart + windowMs + fraction * windowMs - now), 1000);
    }
    const fraction = Math.max(0, 1 - (limit - c.current - 1) / Math.max(c.previous, 1));
    return Math.max(Math.ceil(windowStart + fraction * windowMs - now), 1000);
  }
}

let lastWarning = 0;
function storeFailed(err: unknown) {
  if (Date.now() - lastWarning < 60_000) return;
  lastWarning = Date.now();
  console.warn("[rate-limit] el almacén de límites no respondió; se deja pasar:", err instanceof Error ? err.message : String(err));
}

export function rateLimitMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Demasiados intentos. Esperá ${minutes === 1 ? "1 minuto" : `${minutes} minutos`} y probá de nuevo.`;
}
