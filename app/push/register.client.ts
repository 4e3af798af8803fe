// Registers this browser for web push with Firebase Cloud Messaging.
// Browser-only (.client): firebase/app and firebase/messaging are imported dynamically, so only
// a page that actually registers downloads them. Success or failure is only logged.
import type { PublicConfig } from "~/lib/context";
import { isPushConfigured, PUSH_ACTION, PUSH_INTENT, type FirebaseWebConfig } from "./shared";

export { pushSupported } from "./shared";

export type { FirebaseWebConfig } from "./shared";

export const PUSH_SW_PATH = "/firebase-messaging-sw.js";
/** The scope Firebase Messaging itself uses for its service worker. */
export const PUSH_SW_SCOPE = "/firebase-cloud-messaging-push-scope";
/** The push token is refreshed after 7 days. */
export const PUSH_REFRESH_MS = 7 * 24 * 60 * 60 * 1000;
export const PUSH_STORAGE_KEY = "enchufa.push";

/** The push registration record a browser keeps. */
export interface PushRecord {
  token: string;
  /** Epoch milliseconds. */
  createTime: number;
  auth: string | null;
  p256dh: string | null;
  endpoint: string | null;
  swScope: string;
  vapidKey: string;
}

/** What this browser remembers about its last successful registration. */
export interface StoredPush {
  token: string;
  createTime: number;
  vapidKey: string;
  /** Who it was registered for (a browser shared by two accounts registers again). */
  account: string;
}

/** Just what the record needs from a PushSubscription. */
export interface SubscriptionLike {
  endpoint: string;
  toJSON(): { endpoint?: string; keys?: Record<string, string> };
}

export interface PushDeps {
  now(): number;
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  /** Registers the service worker and returns what getToken needs plus the push subscription. */
  registerServiceWorker(url: string, scope: string): Promise<ServiceWorkerRegistration>;
  getToken(config: FirebaseWebConfig, registration: ServiceWorkerRegistration): Promise<string>;
  getSubscription(registration: ServiceWorkerRegistration): Promise<SubscriptionLike | null>;
  /** Posts the record to the app (which stores it through the API). True when stored. */
  post(record: PushRecord): Promise<boolean>;
  log: Pick<Console, "info" | "warn">;
}

export type PushOutcome = "unconfigured" | "fresh" | "registered" | "failed";

/** Register again when nothing is stored, the key or account changed, or it is 7+ days old. */
export function needsRefresh(stored: StoredPush | null, now: number, vapidKey: string, account: string): boolean {
  if (!stored || !stored.token) return true;
  if (stored.vapidKey !== vapidKey || stored.account !== account) return true;
  if (!Number.isFinite(stored.createTime) || stored.createTime > now) return true;
  return now - stored.createTime >= PUSH_REFRESH_MS;
}

export function readStored(storage: Pick<Storage, "getItem">): StoredPush | null {
  try {
    const raw = storage.getItem(PUSH_STORAGE_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<StoredPush>;
    if (typeof v.token !== "string" || typeof v.createTime !== "number" || typeof v.vapidKey !== "string" || typeof v.account !== "string") return null;
    return v as StoredPush;
  } catch {
    return null;
  }
}

/** The service worker URL: it cannot read the page, so the Firebase config travels in the query. */
export function serviceWorkerUrl(config: FirebaseWebConfig): string {
  const q = new URLSearchParams({
    apiKey: config.apiKey,
    projectId: config.projectId,
    messagingSenderId: config.messagingSenderId ?? "",
    appId: config.appId ?? "",
  });
  return `${PUSH_SW_PATH}?${q}`;
}

export function toPushRecord(token: string, subscription: SubscriptionLike | null, vapidKey: string, createTime: number): PushRecord {
  const json = subscription?.toJSON();
  return {
    token,
    createTime,
    auth: json?.keys?.auth ?? null,
    p256dh: json?.keys?.p256dh ?? null,
    endpoint: subscription?.endpoint ?? json?.endpoint ?? null,
    swScope: PUSH_SW_SCOPE,
    vapidKey,
  };
}

/**
 * Registers (or refreshes) this browser's push token. The caller has already checked that the
 * user granted notification permission. Never throws; the outcome is logged and returned.
 */
export async function registerPush(
  config: PublicConfig["firebase"] | null | undefined,
  deps: PushDeps,
  options: { account: string; force?: boolean },
): Promise<PushOutcome> {
  if (!isPushConfigured(config)) return "unconfigured";
  const now = deps.now();
  if (!options.force && !needsRefresh(readStored(deps.storage), now, config.vapidKey, options.account)) return "fresh";
  try {
    const registration = await deps.registerServiceWorker(serviceWorkerUrl(config), PUSH_SW_SCOPE);
    const token = await deps.getToken(config, registration);
    if (!token) throw new Error("Firebase no devolvió un token");
    const record = toPushRecord(token, await deps.getSubscription(registration), config.vapidKey, now);
    if (!(await deps.post(record))) throw new Error("el servidor no guardó el registro");
    const stored: StoredPush = {
      token,
      createTime: now,
      vapidKey: config.vapidKey,
      account: options.account,
    };
    deps.storage.setItem(PUSH_STORAGE_KEY, JSON.stringify(stored));
    deps.log.info("Notificaciones push: navegador registrado.");
    return "registered";
  } catch (err) {
    deps.log.warn("Notificaciones push: no se pudo registrar el navegador.", err instanceof Error ? err.message : err);
    return "failed";
  }
}

/** Whether this browser can do web push at all. */

/** The real dependencies: the browser's service worker and Firebase Messaging, imported on demand. */
export function browserPushDeps(): PushDeps {
  return {
    now: () => Date.now(),
    storage: window.localStorage,
    // Firebase's getToken waits for this worker to activate (`ready` would not: the page is outside its scope).
    registerServiceWorker: (url, scope) => navigator.serviceWorker.register(url, { scope }),
    getToken: async (config, registration) => {
      const [{ initializeApp, getApps }, { getMessaging, getToken, isSupported }] = await Promise.all([import("firebase/app"), import("firebase/messaging")]);
      if (!(await isSupported())) throw new Error("este navegador no admite Firebase Messaging");
      const app =
        getApps()[0] ??
        initializeApp({
          apiKey: config.apiKey,
          projectId: config.projectId,
          authDomain: config.authDomain,
          messagingSenderId: config.messagingSenderId,
          appId: config.appId,
        });
      return getToken(getMessaging(app), {
        vapidKey: config.vapidKey,
        serviceWorkerRegistration: registration,
      });
    },
    getSubscription: (registration) => registration.pushManager.getSubscription(),
    // The action stores it through the API with the user's token (the browser never holds it).
    post: async (record) => {
      const body = new FormData();
      body.set("intent", PUSH_INTENT);
      body.set("record", JSON.stringify(record));
      // React Router single fetch: the action's own status comes back on the .data request.
      const res = await fetch(`${PUSH_ACTION}.data`, {
        method: "POST",
        body,
        credentials: "same-origin",
      });
      return res.ok;
    },
    log: console,
  };
}
