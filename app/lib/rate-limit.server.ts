// In-memory rate limits for the auth forms (issue 4): per client IP and per e-mail on login,
// register, password reset and "resend the e-mail". A sliding-window counter per key (the
// current fixed window plus the previous one, weighted by how much of it still overlaps), so
// memory is two numbers per key and there is no burst at window edges.
//
// Per process: with several app nodes each one counts on its own, which still bounds an
// attacker to N × limit. A shared store (Postgres) can replace `RateLimiter` behind the
// same interface when that matters.
import { data } from "@remix-run/node";

export interface RateRule {
  /** Allowed hits per window. */
  limit: number;
  windowMs: number;
}

interface Counter {
  windowStart: number;
  current: number;
  previous: number;
}

export interface RateVerdict {
  ok: boolean;
  /** Milliseconds until one more hit would be allowed (0 when ok). */
  retryAfterMs: number;
}

const MAX_KEYS = 50_000;

export class RateLimiter {
  private counters = new Map<string, Counter>();

  constructor(
    public readonly name: string,
    public readonly rule: RateRule,
    private readonly now: () => number = Date.now,
  ) {}

  private counter(key: string): Counter {
    const now = this.now();
    const { windowMs } = this.rule;
    const windowStart = now - (now % windowMs);
    let c = this.counters.get(key);
    if (!c) {
      if (this.counters.size >= MAX_KEYS) this.sweep();
      c = { windowStart, current: 0, previous: 0 };
      this.counters.set(key, c);
    } else if (c.windowStart !== windowStart) {
      // One window later the current count becomes the previous one; more than that, both are old.
      c.previous = windowStart - c.windowStart === windowMs ? c.current : 0;
      c.current = 0;
      c.windowStart = windowStart;
    }
    return c;
  }

  /** The weighted count in the sliding window ending now. */
  private weighted(c: Counter): number {
    const elapsed = (this.now() - c.windowStart) / this.rule.windowMs;
    return c.current + c.previous * (1 - elapsed);
  }

  private retryAfter(c: Counter): number {
    const { windowMs, limit } = this.rule;
    const now = this.now();
    // Allowed again once the older window's weight has decayed so that weighted + 1 <= limit.
    if (c.current + 1 > limit) {
      // Not within this window: in the next one, `current` becomes the decaying part.
      const fraction = Math.max(0, 1 - (limit - 1) / c.current);
      return Math.max(Math.ceil(c.windowStart + windowMs + fraction * windowMs - now), 1000);
    }
    const fraction = Math.max(0, 1 - (limit - c.current - 1) / Math.max(c.previous, 1));
    return Math.max(Math.ceil(c.windowStart + fraction * windowMs - now), 1000);
  }

  /** Whether one more hit would be allowed, without counting it. */
  check(key: string): RateVerdict {
    const c = this.counter(key);
    if (this.weighted(c) + 1 <= this.rule.limit) return { ok: true, retryAfterMs: 0 };
    return { ok: false, retryAfterMs: this.retryAfter(c) };
  }

  /** Count one hit; answers whether it was allowed (a refused hit is not counted). */
  hit(key: string): RateVerdict {
    const verdict = this.check(key);
    if (verdict.ok) this.counter(key).current += 1;
    return verdict;
  }

  /** Forget a key (a successful login clears its failed attempts). */
  reset(key: string) {
    this.counters.delete(key);
  }

  clear() {
    this.counters.clear();
  }

  /** Drop keys whose windows are over. */
  private sweep() {
    const now = this.now();
    for (const [key, c] of this.counters) {
      if (now - c.windowStart >= 2 * this.rule.windowMs) this.counters.delete(key);
    }
    // Still full (a flood of distinct keys): start over rather than grow without bound.
    if (this.counters.size >= MAX_KEYS) this.counters.clear();
  }
}

const MINUTE = 60_000;

/**
 * Local mode (ENCHUFA_LOCAL=1) serves one person and the browser tests, all from 127.0.0.1:
 * per-IP limits are multiplied there, so hundreds of test logins share the address. Per
 * e-mail limits stay as they are.
 */
function ipRule(rule: RateRule): RateRule {
  return process.env.ENCHUFA_LOCAL === "1" ? { ...rule, limit: rule.limit * 50 } : rule;
}

/** The limits, by action and key kind. Login counts failed attempts only. */
export const limiters = {
  loginIp: new RateLimiter("login:ip", ipRule({ limit: 30, windowMs: 15 * MINUTE })),
  loginEmail: new RateLimiter("login:email", { limit: 8, windowMs: 15 * MINUTE }),
  registerIp: new RateLimiter("register:ip", ipRule({ limit: 10, windowMs: 60 * MINUTE })),
  resetIp: new RateLimiter("reset:ip", ipRule({ limit: 10, windowMs: 15 * MINUTE })),
  resetEmail: new RateLimiter("reset:email", { limit: 3, windowMs: 15 * MINUTE }),
  resendIp: new RateLimiter("resend:ip", ipRule({ limit: 10, windowMs: 15 * MINUTE })),
  resendEmail: new RateLimiter("resend:email", { limit: 3, windowMs: 15 * MINUTE }),
};

export function resetAllRateLimits() {
  for (const limiter of Object.values(limiters)) limiter.clear();
}

export function rateLimitMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / MINUTE));
  return `Demasiados intentos. Esperá ${minutes === 1 ? "1 minuto" : `${minutes} minutos`} y probá de nuevo.`;
}

export interface RateLimited {
  message: string;
  retryAfterMs: number;
}

/**
 * Check (and, with `count: true`, count) several limits at once. Returns the first refusal,
 * or undefined when every limit allows it. Nothing is counted if any limit refuses.
 */
export function consume(checks: { limiter: RateLimiter; key: string | undefined }[], opts: { count: boolean }): RateLimited | undefined {
  const active = checks.filter((c): c is { limiter: RateLimiter; key: string } => Boolean(c.key));
  for (const { limiter, key } of active) {
    const verdict = limiter.check(key);
    if (!verdict.ok) return { message: rateLimitMessage(verdict.retryAfterMs), retryAfterMs: verdict.retryAfterMs };
  }
  if (opts.count) for (const { limiter, key } of active) limiter.hit(key);
  return undefined;
}

/** Count a failure against each key (login). */
export function countFailure(checks: { limiter: RateLimiter; key: string | undefined }[]) {
  for (const { limiter, key } of checks) if (key) limiter.hit(key);
}

/** Headers for a 429: Retry-After in seconds. */
export function retryAfterHeaders(limited: RateLimited): HeadersInit {
  return { "Retry-After": String(Math.max(1, Math.ceil(limited.retryAfterMs / 1000))) };
}

/** A 429 answer with the Spanish message, for callers that have nothing else to return. */
export function tooManyRequests<T extends object>(limited: RateLimited, payload: T) {
  return data({ ...payload, rateLimited: limited.message }, { status: 429, headers: retryAfterHeaders(limited) });
}
