// Web push through Firebase Cloud Messaging (firebase-admin), for the API's `sendPush` dep.
// Only when a service account is configured (FIREBASE_SERVICE_ACCOUNT_JSON): without one
// firebase-admin cannot authenticate to FCM, so no push is attempted.
import { cert, getApps, initializeApp } from "firebase-admin/app";
import {
  getMessaging,
  type Messaging,
  type MulticastMessage,
} from "firebase-admin/messaging";
import type { PushMessage, PushResult, SendPush } from "../infra/push";
import type { Env } from "./env";

/** FCM accepts at most 500 tokens per multicast. */
const BATCH = 500;
/** Error codes meaning the browser's token is gone for good: its registration is deleted. */
const GONE = new Set([
  "messaging/registration-token-not-registered",
  "messaging/invalid-registration-token",
]);

/** The FCM message: data only, so the service worker's onBackgroundMessage shows it (with its link). */
export function toFcmMessage(
  tokens: string[],
  message: PushMessage
): MulticastMessage {
  const data: Record<string, string> = {
    notificationId: message.notificationId,
    type: message.type,
    title: message.title,
    body: message.body,
  };
  if (message.link) data.link = message.link;
  return {
    tokens,
    data,
    webpush: { headers: { Urgency: "high", TTL: String(24 * 3600) } },
  };
}

export function createFcmSender(
  messaging: Pick<Messaging, "sendEachForMulticast">
): SendPush {
  return async (tokens, message) => {
    const result: PushResult = {
      successCount: 0,
      failureCount: 0,
      unregistered: [],
    };
    for (let i = 0; i < tokens.length; i += BATCH) {
      const batch = tokens.slice(i, i + BATCH);
      const res = await messaging.sendEachForMulticast(
        toFcmMessage(batch, message)
      );
      result.successCount += res.successCount;
      result.failureCount += res.failureCount;
      res.responses.forEach((r, j) => {
        if (!r.success && r.error && GONE.has(r.error.code))
          result.unregistered.push(batch[j]);
      });
    }
    return result;
  };
}

/** The production sender, or undefined when no service account is configured. */
export function createPushSender(env: Env): SendPush | undefined {
  if (!env.FIREBASE_SERVICE_ACCOUNT_JSON) return undefined;
  // Same app as server/identity.ts (created there first when the token verifier is built).
  const app =
    getApps()[0] ??
    initializeApp({
      projectId: env.FIREBASE_PROJECT_ID,
      credential: cert(JSON.parse(env.FIREBASE_SERVICE_ACCOUNT_JSON)),
    });
  return createFcmSender(getMessaging(app));
}
