// What one charger may send (issue 21, robustness): a bound on the frame size and on the rate of
// its calls, so a charger with valid credentials (or someone holding them) cannot make the
// central system read megabytes or work through thousands of calls at once. Other chargers
// have their own budgets and are unaffected.

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

/** A token bucket per connection: `take()` for each call the charger makes. */
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
    /** Calls refused since the last accepted one. */
    get refused() {
      return refusedInARow;
    },
  };
}
