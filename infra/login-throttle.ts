// How often a password may be tried (the login form and the password change of Mi perfil).
//
// Failures are counted per (account, client address) and per client address, never per account
// alone: a limit on the account by itself lets anyone who knows an operator's e-mail lock them
// out from everywhere, while the owner's own address stays clean under these keys. Each key has
// tiers over longer windows with larger limits, so the wait grows as failures keep coming: up to
// a minute after the first burst, then up to 15 minutes, then up to an hour.
import type { RateRule } from "./rate-limit";

const MINUTE = 60_000;

/** LOGIN_FAILURES_PER_ACCOUNT_ADDRESS and LOGIN_FAILURES_PER_ADDRESS when unset. */
export const LOGIN_THROTTLE_DEFAULTS = { perAccountAddress: 5, perAddress: 30 } as const;

export interface LoginThrottle {
  /** Failures of one account from one address: `perAccountAddress` a minute, ×2 in 15 minutes, ×4 in an hour. */
  accountAddress: RateRule[];
  /** Failures from one address, every account together: `perAddress` in 15 minutes, ×4 in an hour. */
  address: RateRule[];
}

export function loginThrottle(perAccountAddress: number = LOGIN_THROTTLE_DEFAULTS.perAccountAddress, perAddress: number = LOGIN_THROTTLE_DEFAULTS.perAddress): LoginThrottle {
  return {
    accountAddress: [
      { limit: perAccountAddress, windowMs: MINUTE },
      { limit: perAccountAddress * 2, windowMs: 15 * MINUTE },
      { limit: perAccountAddress * 4, windowMs: 60 * MINUTE },
    ],
    address: [
      { limit: perAddress, windowMs: 15 * MINUTE },
      { limit: perAddress * 4, windowMs: 60 * MINUTE },
    ],
  };
}
