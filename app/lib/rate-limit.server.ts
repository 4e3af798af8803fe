// Rate limits of the auth forms: failed sign-ins per (account, client
// address) and per address (infra/login-throttle.ts); register, password reset and "resend the
// e-mail" per client IP and per e-mail. The sliding-window limiter and its stores
// live in infra/rate-limit.ts: in memory on one node, in PostgreSQL when several nodes share
// one (server.ts chooses at start).
import { data, type HeadersFunction } from "react-router";
import { getRateLimitStore, RateLimiter, rateLimitMessage, type RateRule } from "#infra/rate-limit";
import { LOGIN_THROTTLE_DEFAULTS, loginThrottle } from "#infra/login-throttle";

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

/** A count from the environment (server/env.ts validated it at start), or its default. */
function setting(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
}

const throttle = loginThrottle(
  setting("LOGIN_FAILURES_PER_ACCOUNT_ADDRESS", LOGIN_THROTTLE_DEFAULTS.perAccountAddress),
  setting("LOGIN_FAILURES_PER_ADDRESS", LOGIN_THROTTLE_DEFAULTS.perAddress),
);

/** The limits, by action and key kind. Sign-ins count failed attempts only. */
export const limiters = {
  /** Failed sign-ins of one account from one address, in growing tiers. */
  loginAccountAddress: throttle.accountAddress.map((rule) => new RateLimiter(`login:account-ip:${rule.windowMs / MINUTE}m`, rule)),
  /** Failed sign-ins from one address, every account together. */
  loginIp: throttle.address.map((rule) => new RateLimiter(`login:ip:${rule.windowMs / MINUTE}m`, ipRule(rule))),
  registerIp: new RateLimiter("register:ip", ipRule({ limit: 10, windowMs: 60 * MINUTE })),
  resetIp: new RateLimiter("reset:ip", ipRule({ limit: 10, windowMs: 15 * MINUTE })),
  resetEmail: new RateLimiter("reset:email", { limit: 3, windowMs: 15 * MINUTE }),
  resendIp: new RateLimiter("resend:ip", ipRule({ limit: 10, windowMs: 15 * MINUTE })),
  resendEmail: new RateLimiter("resend:email", { limit: 3, windowMs: 15 * MINUTE }),
};

type Check = { limiter: RateLimiter; key: string | undefined };

/** The sign-in limits for `email` tried from `address` (the login form, and the current password on Mi perfil). */
export function loginChecks(email: string, address: string): Check[] {
  const account = `${address} ${email.trim().toLowerCase()}`;
  return [
    ...limiters.loginAccountAddress.map((limiter) => ({ limiter, key: account })),
    ...limiters.loginIp.map((limiter) => ({ limiter, key: address })),
  ];
}

/** A correct password (or a new one) from `address` wipes that account's failures there. */
export async function clearLoginFailures(email: string, address: string): Promise<void> {
  const account = `${address} ${email.trim().toLowerCase()}`;
  await Promise.all(limiters.loginAccountAddress.map((limiter) => limiter.reset(account)));
}

/** Forget every count (tests). */
export function resetAllRateLimits(): Promise<void> {
  return getRateLimitStore().clear();
}

export interface RateLimited {
  message: string;
  retryAfterMs: number;
}

/**
 * Check (and, with `count: true`, count) several limits at once. Returns the refusal with the
 * longest wait, or undefined when every limit allows it. Nothing is counted if any limit refuses.
 */
export async function consume(checks: Check[], opts: { count: boolean }): Promise<RateLimited | undefined> {
  const active = checks.filter((c): c is { limiter: RateLimiter; key: string } => Boolean(c.key));
  // Every limit is asked: the wait is the longest of those that refuse (tiers wait longer).
  let retryAfterMs = 0;
  for (const { limiter, key } of active) {
    const verdict = await limiter.check(key);
    if (!verdict.ok) retryAfterMs = Math.max(retryAfterMs, verdict.retryAfterMs);
  }
  if (retryAfterMs > 0) return { message: rateLimitMessage(retryAfterMs), retryAfterMs };
  if (opts.count) for (const { limiter, key } of active) await limiter.hit(key);
  return undefined;
}

/** Count a failure against each key (login). */
export async function countFailure(checks: Check[]) {
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

/**
 * A route's `headers`: React Router passes only Set-Cookie from a loader's or action's answer
 * to the response unless the route says otherwise, so a 429's Retry-After (from the action, the
 * loader, or an error thrown to the boundary) is passed on here, on the page and on `.data`.
 */
export const passRetryAfter: HeadersFunction = ({ errorHeaders, actionHeaders, loaderHeaders }) => {
  const retryAfter = errorHeaders?.get("Retry-After") ?? actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};
