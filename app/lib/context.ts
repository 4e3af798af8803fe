// What server.ts hands to every loader and action (see getLoadContext there).
import "@remix-run/node";
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

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    /** True when Remix answers a single-fetch data request (JavaScript on), false for a document. */
    isDataRequest: boolean;
    apiFetch: ApiFetch;
    /** Verifies a Firebase ID token with firebase-admin (the emulator's in local mode and tests). */
    verifyIdToken: (idToken: string) => Promise<VerifiedIdToken>;
    /** Identity Toolkit endpoints: the real Google APIs, or the Auth Emulator. */
    identity: IdentityConfig;
    /** The caller's address (behind TRUST_PROXY, the forwarded one), for rate limits. */
    clientIp: string;
    apiBaseUrl: string;
    config: PublicConfig;
    /** A toast raised by an action during a document request, shown by the root loader of the same response. */
    pendingToast?: ToastMessage;
  }
}
