// Web push for new notifications (issue 7): the business's browsers registered through
// POST /Business/Notification/PushRegistration get a push when a notification is created.
// The sender (firebase-admin messaging in production, a fake in tests) is an optional API dep.
import { eq, inArray } from "drizzle-orm";
import { pushRegistrations, type Notification } from "../db/schema";
import type { Db } from "../db/client";
import type { Logger } from "./logger";

export interface PushMessage {
  notificationId: string;
  type: string;
  title: string;
  body: string;
  /** In-app path opened when the notification is clicked. */
  link: string | null;
}

export interface PushResult {
  successCount: number;
  failureCount: number;
  /** Tokens the messaging provider reports as no longer registered: they are deleted. */
  unregistered: string[];
}

/** Sends one message to many browser tokens. Must not log the tokens. */
export type SendPush = (
  tokens: string[],
  message: PushMessage
) => Promise<PushResult>;

/**
 * Pushes a just-created notification to every browser of its business. Never throws: a push
 * failure must not fail the request that created the notification. Call it after the insert
 * is committed.
 */
export async function pushNotification(
  services: { db: Db; logger: Logger; sendPush?: SendPush },
  notification: Notification
): Promise<void> {
  const { db, logger, sendPush } = services;
  if (!sendPush) return;
  try {
    const rows = await db
      .select({ token: pushRegistrations.token })
      .from(pushRegistrations)
      .where(eq(pushRegistrations.businessId, notification.businessId));
    if (rows.length === 0) return;
    const tokens = rows.map((r) => r.token);
    const result = await sendPush(tokens, {
      notificationId: notification.id,
      type: notification.type,
      title: notification.title,
      body: notification.body,
      link: notification.link ?? null,
    });
    const stale = result.unregistered.filter((t) => tokens.includes(t));
    if (stale.length)
      await db
        .delete(pushRegistrations)
        .where(inArray(pushRegistrations.token, stale));
    logger.info(
      {
        notificationId: notification.id,
        sent: result.successCount,
        failed: result.failureCount,
        removed: stale.length,
      },
      "push de notificación enviado"
    );
  } catch (err) {
    logger.warn(
      {
        notificationId: notification.id,
        err: err instanceof Error ? err.message : String(err),
      },
      "no se pudo enviar el push de la notificación"
    );
  }
}
