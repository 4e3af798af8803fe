import { getApps, initializeApp, cert, type App } from "firebase-admin/app";
import { getAuth, type DecodedIdToken } from "firebase-admin/auth";
import type { Env } from "./env";

export interface VerifiedToken {
  uid: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

function adminApp(env: Env): App {
  const existing = getApps()[0];
  if (existing) return existing;
  const options: Parameters<typeof initializeApp>[0] = { projectId: env.FIREBASE_PROJECT_ID };
  if (env.FIREBASE_SERVICE_ACCOUNT_JSON) options.credential = cert(JSON.parse(env.FIREBASE_SERVICE_ACCOUNT_JSON));
  return initializeApp(options);
}

/** How long a page waits for the revocation check (firebase-admin retries a 503 for ~7 s and sets no timeout of its own). */
export const REVOCATION_TIMEOUT_MS = 3000;
/**
 * How long a token the provider confirmed (not revoked, account enabled) is trusted without asking
 * again (ADR 0008). Every request still checks it locally (signature, expiry, audience); only the
 * provider round trip is skipped, so a revocation or a disabled account takes effect within this.
 */
export const REVOCATION_RECHECK_MS = 30_000;
/** Bound on the tokens remembered for REVOCATION_RECHECK_MS (the oldest are forgotten first). */
export const REVOCATION_CACHE_SIZE = 5_000;
/** After the provider failed to answer, how long tokens are checked locally only. */
export const PROVIDER_RETRY_AFTER_MS = 30_000;

/** firebase-admin's error codes for "the provider could not be reached" (not "the token is bad"). */
const UNREACHABLE = new Set(["app/network-error", "app/network-timeout", "auth/internal-error"]);
const providerUnreachable = (error: unknown) => UNREACHABLE.has((error as { code?: string } | null)?.code ?? "");

type IdTokenVerifier = {
  verifyJWT(idToken: string, isEmulator: boolean): Promise<DecodedIdToken>;
};

const toVerified = (decoded: DecodedIdToken): VerifiedToken => ({
  uid: decoded.uid,
  email: decoded.email,
  email_verified: decoded.email_verified,
  name: decoded.name as string | undefined,
  picture: decoded.picture,
});

/**
 * Verifies Firebase ID tokens with firebase-admin: signature, expiry and audience against the
 * real project; with FIREBASE_AUTH_EMULATOR_HOST set (local mode and tests only — env.ts refuses
 * it in production) the emulator's unsigned tokens.
 *
 * The revocation check (always made against the emulator; with a service account against
 * Firebase) is the only part that needs the provider. When the provider cannot be reached or
 * does not answer within REVOCATION_TIMEOUT_MS, a token that passes every local check is
 * accepted, so signed-in operators keep working through an identity outage until their token
 * needs a refresh; a provider that answers "revoked" or "disabled" is always obeyed.
 */
export function createTokenVerifier(env: Env, { cacheSize = REVOCATION_CACHE_SIZE }: { cacheSize?: number } = {}) {
  const auth = getAuth(adminApp(env));
  const checkRevoked = Boolean(env.FIREBASE_SERVICE_ACCOUNT_JSON);
  const emulator = Boolean(env.FIREBASE_AUTH_EMULATOR_HOST);
  const locally = async (idToken: string): Promise<DecodedIdToken> => {
    // Real tokens: the public keys are cached, and without checkRevoked nothing else is asked.
    if (!emulator) return auth.verifyIdToken(idToken, false);
    // Emulator tokens: firebase-admin always asks the emulator from verifyIdToken, so use its
    // own verifier (the same content checks) directly. Missing in some future version → refuse.
    const verifier = (auth as unknown as { idTokenVerifier?: IdTokenVerifier }).idTokenVerifier;
    if (!verifier) throw new Error("firebase-admin: idTokenVerifier no disponible");
    return verifier.verifyJWT(idToken, true);
  };
  // After the provider failed to answer, the next checks skip it for a while (a circuit
  // breaker): otherwise every request of a page would wait REVOCATION_TIMEOUT_MS again.
  let providerDownUntil = 0;
  const skipProvider = async (idToken: string) => {
    providerDownUntil = Date.now() + PROVIDER_RETRY_AFTER_MS;
    return toVerified(await locally(idToken));
  };
  // Tokens the provider confirmed, by token, with when: insertion order is age order.
  const confirmed = new Map<string, number>();
  const remember = (idToken: string) => {
    confirmed.delete(idToken);
    confirmed.set(idToken, Date.now());
    if (confirmed.size > cacheSize) confirmed.delete(confirmed.keys().next().value!);
  };
  return async (idToken: string): Promise<VerifiedToken> => {
    if (Date.now() < providerDownUntil) return toVerified(await locally(idToken));
    const checkedAt = confirmed.get(idToken);
    if (checkedAt !== undefined && Date.now() - checkedAt < REVOCATION_RECHECK_MS) return toVerified(await locally(idToken));
    const full = auth.verifyIdToken(idToken, checkRevoked).then((decoded) => {
      remember(idToken);
      return decoded;
    });
    full.catch(() => {}); // may settle after the deadline below; its outcome is then ignored
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), REVOCATION_TIMEOUT_MS)));
    try {
      const decoded = await Promise.race([full, deadline]);
      return decoded === "late" ? await skipProvider(idToken) : toVerified(decoded);
    } catch (error) {
      if (!providerUnreachable(error)) {
        confirmed.delete(idToken);
        throw error;
      }
      return await skipProvider(idToken);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * Revokes every Firebase refresh token of an account (sign-out, ADR 0027): tokens copied out of
 * a cookie no longer refresh, and its ID tokens fail the revocation check (always made against
 * the emulator; against Firebase with a service account). Needs admin credentials: a service
 * account, the platform's own, or the emulator. Without any, undefined: sign-out then ends the
 * server-side session only.
 */
export function createRefreshTokenRevoker(env: Env): ((uid: string) => Promise<void>) | undefined {
  if (!env.FIREBASE_SERVICE_ACCOUNT_JSON && !env.FIREBASE_AUTH_EMULATOR_HOST && !env.GOOGLE_APPLICATION_CREDENTIALS) return undefined;
  const auth = getAuth(adminApp(env));
  return (uid) => auth.revokeRefreshTokens(uid);
}

/** Whether the identity provider answers (used by /healthz). */
export async function identityReachable(env: Env, timeoutMs = 3000): Promise<boolean> {
  const url = env.FIREBASE_AUTH_EMULATOR_HOST
    ? `http://${env.FIREBASE_AUTH_EMULATOR_HOST}/emulator/v1/projects/${env.FIREBASE_PROJECT_ID}/config`
    : "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com";
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return res.ok;
  } catch {
    return false;
  }
}
