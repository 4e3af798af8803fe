// What one charger may send: a bound on the frame size and on the rate of
// its calls, so a charger with valid credentials (or someone holding them) cannot make the
// central system read megabytes or work through thousands of calls at once. Other chargers
// have their own budgets and are unaffected. The call budget belongs to the charger's identity,
// not to its socket: reconnecting does not refill it. How often an identity (once authenticated)
// and an address (every attempt) may open a connection is bounded too.

/**
 * The largest frame a charger may send: 1 MiB. The largest legitimate inbound messages are a
 * MeterValues with many samples or a device-model report part (tens of KB); the WebSocket
 * library closes a larger frame with 1009 (Message Too Big) before reading it whole.
 */
export const OCPP_MAX_FRAME_BYTES = 1024 * 1024;

export interface CallLimit {
  /** Calls that may arrive in a burst (a boot sends one StatusNotification per connector). */
  burst: number;
  /** Calls per second sustained. A well-behaved charger waits for each answer (OCPP-J §4.1.1). */
  perSecond: number;
  /** Calls refused in a row before the socket is closed (1008, policy violation). */
  closeAfterRefused: number;
}

export const DEFAULT_CALL_LIMIT: CallLimit = { burst: 60, perSecond: 10, closeAfterRefused: 200 };

export type CallVerdict = "accept" | "refuse" | "close";

/** A token bucket per charger identity (kept across its connections): `take()` for each call it makes. */
export function callBudget(limit: CallLimit, clock: () => number = () => performance.now()) {
  let tokens = limit.burst;
  let last = clock();
  let refusedInARow = 0;
  return {
    take(): CallVerdict {
      const t = clock();
      tokens = Math.min(limit.burst, tokens + ((t - last) / 1000) * limit.perSecond);
      last = t;
      if (tokens >= 1) {
        tokens -= 1;
        refusedInARow = 0;
        return "accept";
      }
      refusedInARow += 1;
      return refusedInARow > limit.closeAfterRefused ? "close" : "refuse";
    },
    /** It refilled completely: forgetting it changes nothing. */
    get full() {
      return Math.min(limit.burst, tokens + ((clock() - last) / 1000) * limit.perSecond) >= limit.burst;
    },
    /** Calls refused since the last accepted one. */
    get refused() {
      return refusedInARow;
    },
  };
}

/** Connections that may be opened per minute (a burst of as many, refilled over the minute). */
export interface ConnectionLimit {
  /** Per charger identity, counted once it authenticated (a stranger cannot lock a charger out). */
  perChargerPerMinute: number;
  /**
   * Per client address, every attempt (wrong passwords and unknown identities included). Behind
   * a load balancer or a site's NAT many chargers share one address: generous on purpose.
   */
  perAddressPerMinute: number;
}

export const DEFAULT_CONNECTION_LIMIT: ConnectionLimit = { perChargerPerMinute: 10, perAddressPerMinute: 600 };

/** Buckets kept before the full ones are dropped on the next insert (addresses are unauthenticated). */
const MAX_KEYED_BUCKETS = 100_000;

/**
 * One token bucket per key (an identity, an address): `take(key)` is false beyond `perMinute` in
 * a burst and the refill of `perMinute` a minute. A bucket that refilled completely is the same
 * as none: `prune()` drops those.
 */
export function keyedRate(perMinute: number, clock: () => number = () => performance.now()) {
  const perMs = perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; last: number }>();
  const refilled = (b: { tokens: number; last: number }, t: number) => Math.min(perMinute, b.tokens + (t - b.last) * perMs);
  function prune() {
    const t = clock();
    for (const [key, b] of buckets) if (refilled(b, t) >= perMinute) buckets.delete(key);
  }
  return {
    take(key: string): boolean {
      const t = clock();
      let b = buckets.get(key);
      if (!b) {
        if (buckets.size >= MAX_KEYED_BUCKETS) prune();
        b = { tokens: perMinute, last: t };
        buckets.set(key, b);
      }
      b.tokens = refilled(b, t);
      b.last = t;
      if (b.tokens < 1) return false;
      b.tokens -= 1;
      return true;
    },
    prune,
    get size() {
      return buckets.size;
    },
  };
}
