// Rate limits of the auth forms (issue 4, issue 10): per client IP and per e-mail on login,
// register, password reset and "resend the e-mail". The sliding-window limiter and its stores
// live in infra/rate-limit.ts: in memory on one node, in PostgreSQL when several nodes share
// one (server.ts chooses at start).
import { data } from "react-router";
import { getRateLimitStore, RateLimiter, rateLimitMessage, type RateRule } from "#infra/rate-limit";

export { RateLimiter, rateLimitMessage, type RateRule };

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

/** Forget every count (tests). */
export function resetAllRateLimits(): Promise<void> {
  return getRateLimitStore().clear();
}

export interface RateLimited {
  message: string;
  retryAfterMs: number;
}

/**
 * Check (and, with `count: true`, count) several limits at once. Returns the first refusal,
 * or undefined when every limit allows it. Nothing is counted if any limit refuses.
 */
export async function consume(checks: { limiter: RateLimiter; key: string | undefined }[], opts: { count: boolean }): Promise<RateLimited | undefined> {
  const active = checks.filter((c): c is { limiter: RateLimiter; key: string } => Boolean(c.key));
  for (const { limiter, key } of active) {
    const verdict = await limiter.check(key);
    if (!verdict.ok) return { message: rateLimitMessage(verdict.retryAfterMs), retryAfterMs: verdict.retryAfterMs };
  }
  if (opts.count) for (const { limiter, key } of active) await limiter.hit(key);
  return undefined;
}

/** Count a failure against each key (login). */
export async function countFailure(checks: { limiter: RateLimiter; key: string | undefined }[]) {
  for (const { limiter, key } of checks) if (key) await limiter.hit(key);
}

/** Headers for a 429: Retry-After in seconds. */
export function retryAfterHeaders(limited: RateLimited): HeadersInit {
  return { "Retry-After": String(Math.max(1, Math.ceil(limited.retryAfterMs / 1000))) };
}

/** A 429 answer with the Spanish message, for callers that have nothing else to return. */
export function tooManyRequests<T extends object>(limited: RateLimited, payload: T) {
  return data({ ...payload, rateLimited: limited.message }, { status: 429, headers: retryAfterHeaders(limited) });
}
