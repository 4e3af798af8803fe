// Web push for new notifications: the business's browsers registered through
// POST /Business/Notification/PushRegistration get a push when a notification is created.
// The sender (firebase-admin messaging in production, a fake in tests) is an optional API dep.
import { and, eq, inArray } from "drizzle-orm";
import { businessMembers, pushRegistrations, type Notification } from "../db/schema";
import { can } from "../domain/permissions";
import { notificationFor } from "../domain/notification-money";
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
    // Each browser gets the notification as its member's role sees it: the roles that may not see
    // payments get no money news and no amounts (domain/notification-money.ts).
    const rows = await db
      .select({ token: pushRegistrations.token, role: businessMembers.role })
      .from(pushRegistrations)
      .leftJoin(businessMembers, and(eq(businessMembers.businessId, pushRegistrations.businessId), eq(businessMembers.firebaseUid, pushRegistrations.firebaseUid)))
      .where(eq(pushRegistrations.businessId, notification.businessId));
    if (rows.length === 0) return;
    const tokens = rows.map((r) => r.token);
    const full: PushMessage = {
      notificationId: notification.id,
      type: notification.type,
      title: notification.title,
      body: notification.body,
      link: notification.link ?? null,
    };
    const restricted = notificationFor(full, false);
    const groups = [
      { message: full, tokens: rows.filter((r) => can(r.role, "payment.read")).map((r) => r.token) },
      { message: restricted, tokens: rows.filter((r) => !can(r.role, "payment.read")).map((r) => r.token) },
    ];
    const result: PushResult = { successCount: 0, failureCount: 0, unregistered: [] };
    for (const g of groups) {
      if (!g.message || g.tokens.length === 0) continue;
      const sent = await sendPush(g.tokens, g.message);
      result.successCount += sent.successCount;
      result.failureCount += sent.failureCount;
      result.unregistered.push(...sent.unregistered);
    }
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
