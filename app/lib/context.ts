// What server.ts hands to every loader and action (see getLoadContext in server/http.ts).
//
// React Router's middleware (future.v8_middleware) makes `context` a RouterContextProvider: the
// server puts one AppContext in it per request, and a loader or action reads it with appContext().
import { createContext, RouterContextProvider } from "react-router";
import type { ToastMessage } from "remix-toast";

/** A transport to the Business API: in-process (the embedded API) or HTTP (API_BASE_URL). */
export type ApiFetch = (request: Request) => Promise<Response>;

export interface VerifiedIdToken {
  uid: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

export interface IdentityConfig {
  apiKey: string;
  projectId: string;
  /** e.g. https://identitytoolkit.googleapis.com or http://127.0.0.1:9099/identitytoolkit.googleapis.com */
  identityToolkitUrl: string;
  /** e.g. https://securetoken.googleapis.com or http://127.0.0.1:9099/securetoken.googleapis.com */
  secureTokenUrl: string;
  /** Where Firebase e-mail links should come back to (…/auth), when known. */
  continueUrl?: string;
}

export interface PublicConfig {
  appName: string;
  googleMapsApiKey?: string;
  firebase?: { apiKey: string; projectId: string; authDomain?: string; messagingSenderId?: string; appId?: string; vapidKey?: string };
}

/** What every loader and action may use of the server, for one request. */
export interface AppContext {
  cspNonce: string;
  /** True when React Router answers a single-fetch data request (JavaScript on), false for a document. */
  isDataRequest: boolean;
  apiFetch: ApiFetch;
  /** Verifies a Firebase ID token with firebase-admin (the emulator's in local mode and tests). */
  verifyIdToken: (idToken: string) => Promise<VerifiedIdToken>;
  /**
   * Revokes the account's Firebase refresh tokens (firebase-admin), so tokens copied out of a
   * cookie stop working too; absent where the server cannot (no credentials), and in tests.
   */
  revokeRefreshTokens?: (uid: string) => Promise<void>;
  /** Identity Toolkit endpoints: the real Google APIs, or the Auth Emulator. */
  identity: IdentityConfig;
  /** The caller's address (behind TRUST_PROXY, the forwarded one), for rate limits. */
  clientIp: string;
  apiBaseUrl: string;
  config: PublicConfig;
}

/** The `context` of a loader or action (Route.LoaderArgs["context"]). */
export type RequestContext = Readonly<RouterContextProvider>;

const appKey = createContext<AppContext>();
/** A toast raised by an action during a document request, shown by the root loader of the same response. */
const pendingToastKey = createContext<ToastMessage | null>(null);
/** The company this request acts for (the session's choice): sent to the API as X-Enchufa-Business. */
const companyKey = createContext<string | null>(null);

/** The request's context, as the server (or a test) builds it. */
export function createRequestContext(app: AppContext): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(appKey, app);
  return context;
}

export const appContext = (context: RequestContext): AppContext => context.get(appKey);
export const pendingToast = (context: RequestContext): ToastMessage | null => context.get(pendingToastKey);
export const setPendingToast = (context: RequestContext, toast: ToastMessage): void => context.set(pendingToastKey, toast);

export const chosenCompany = (context: RequestContext): string | null => context.get(companyKey);
export const setChosenCompany = (context: RequestContext, businessId: string | null): void => context.set(companyKey, businessId);
