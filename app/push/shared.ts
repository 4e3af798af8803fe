// Shared by the browser registration, the components (rendered on the server too: keep
// this module free of browser-only code) and the action that stores the record.
import type { PublicConfig } from "~/lib/context";

export type FirebaseWebConfig = NonNullable<PublicConfig["firebase"]>;

/** The route whose action stores the record (intent=push-register). */
export const PUSH_ACTION = "/notification";
export const PUSH_INTENT = "push-register";

/** Push needs the whole Firebase web config and the VAPID key (server/http.ts sets it only then). */
export function isPushConfigured(config: PublicConfig["firebase"] | null | undefined): config is FirebaseWebConfig & { vapidKey: string } {
  return Boolean(config?.apiKey && config.projectId && config.vapidKey && config.messagingSenderId && config.appId);
}

/** Whether this browser can do web push at all (false on the server). */
export function pushSupported(): boolean {
  return typeof window !== "undefined" && "Notification" in window && "serviceWorker" in navigator && "PushManager" in window;
}
