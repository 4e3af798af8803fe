import { getApps, initializeApp, cert, type App } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
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

/**
 * Verifies Firebase ID tokens with firebase-admin: signature, expiry and audience against the
 * real project; with FIREBASE_AUTH_EMULATOR_HOST set (local mode and tests only — env.ts refuses
 * it in production) the emulator's unsigned tokens.
 */
export function createTokenVerifier(env: Env) {
  const auth = getAuth(adminApp(env));
  return async (idToken: string): Promise<VerifiedToken> => {
    const decoded = await auth.verifyIdToken(idToken, /* checkRevoked */ Boolean(env.FIREBASE_SERVICE_ACCOUNT_JSON));
    return {
      uid: decoded.uid,
      email: decoded.email,
      email_verified: decoded.email_verified,
      name: decoded.name as string | undefined,
      picture: decoded.picture,
    };
  };
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
