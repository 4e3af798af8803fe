// /Business/Notification — the business's notifications and its browsers' push registrations.
import { and, count, desc, eq, isNull, notInArray, type SQL } from "drizzle-orm";
import { Hono } from "hono";
import { notifications, pushRegistrations, type Notification } from "#db/schema";
import { MONEY_NOTIFICATION_TYPES, notificationFor } from "#domain/notification-money";
import { seesMoney } from "../access";
import { tenant, type ApiServices, type AppEnv, type Ctx } from "../env";
import { idParam, iso, pageOffset, readJson, readQuery } from "../http";
import { notFound } from "../problem";
import { pushRegistrationSchema } from "#contract/schemas/notification";
import { notificationListQuery } from "#contract/schemas/queries";
import type { NotificationDto, NotificationPage, PushRegistrationDto } from "#contract/dto";

const NOT_FOUND = "La notificación";

/** As the caller's role sees it: without money for the roles that may not see payments (null: not theirs to see). */
function toDto(n: Notification, money: boolean): NotificationDto | null {
  return notificationFor({ id: n.id, type: n.type, title: n.title, body: n.body, link: n.link ?? null, readAt: iso(n.readAt), createdAt: n.createdAt.toISOString() }, money);
}

/** The company's notifications the caller's role receives (money news only for the roles that may see payments). */
function visible(c: Ctx, businessId: string): SQL[] {
  const where: SQL[] = [eq(notifications.businessId, businessId)];
  if (!seesMoney(c)) where.push(notInArray(notifications.type, [...MONEY_NOTIFICATION_TYPES]));
  return where;
}

/** What the unread count is read from (a company's removal deletes its notifications). */
const UNREAD_TABLES = ["notifications", "business_users"] as const;

export function notificationRoutes({ db, now, stableReads }: ApiServices) {
  const r = new Hono<AppEnv>();

  // Every page's bell: kept until a statement writes a notification (the embedded database), per
  // company and per what the caller's role is shown.
  const unreadCount = (c: Ctx, businessId: string) =>
    stableReads.get(UNREAD_TABLES, `unread:${businessId}:${seesMoney(c)}`, async () => {
      const [{ n }] = await db
        .select({ n: count() })
        .from(notifications)
        .where(and(...visible(c, businessId), isNull(notifications.readAt)));
      return n;
    });

  r.get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, notificationListQuery);
    const where = visible(c, b.id);
    if (query.unread) where.push(isNull(notifications.readAt));
    const [rows, [{ total }], unread] = await Promise.all([
      db
        .select()
        .from(notifications)
        .where(and(...where))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db
        .select({ total: count() })
        .from(notifications)
        .where(and(...where)),
      unreadCount(c, b.id),
    ]);
    const money = seesMoney(c);
    const body: NotificationPage = { items: rows.flatMap((n) => toDto(n, money) ?? []), total, page: query.page, pageSize: query.pageSize, unread };
    return c.json(body);
  });

  r.get("/UnreadCount", async (c) => c.json({ unread: await unreadCount(c, tenant(c).id) }));

  r.post("/ReadAll", async (c) => {
    const b = tenant(c);
    const updated = await db
      .update(notifications)
      .set({ readAt: now() })
      .where(and(...visible(c, b.id), isNull(notifications.readAt)))
      .returning({ id: notifications.id });
    return c.json({ updated: updated.length, unread: 0 });
  });

  r.post("/PushRegistration", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, pushRegistrationSchema);
    const createTime = input.createTime === undefined ? now() : new Date(input.createTime);
    const values = {
      businessId: b.id,
      firebaseUid: c.get("claims").uid,
      createTime,
      auth: input.auth ?? null,
      p256dh: input.p256dh ?? null,
      endpoint: input.endpoint ?? null,
      swScope: input.swScope ?? null,
      vapidKey: input.vapidKey ?? null,
    };
    // Upsert by token. A browser that signs in with another company moves its token there.
    const [row] = await db
      .insert(pushRegistrations)
      .values({ token: input.token, ...values })
      .onConflictDoUpdate({ target: pushRegistrations.token, set: { ...values, updatedAt: now() } })
      .returning();
    const body: PushRegistrationDto = { id: row.id, token: row.token, createTime: row.createTime.toISOString() };
    return c.json(body);
  });

  r.post("/:id/Read", async (c) => {
    const b = tenant(c);
    const id = idParam(c, "id", NOT_FOUND);
    const [row] = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.id, id), ...visible(c, b.id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    let result = row;
    if (!row.readAt) {
      [result] = await db
        .update(notifications)
        .set({ readAt: now() })
        .where(and(eq(notifications.id, id), eq(notifications.businessId, b.id)))
        .returning();
    }
    // The row is one the caller's role receives (visible above): never null here.
    return c.json({ ...toDto(result, seesMoney(c)), unread: await unreadCount(c, b.id) });
  });

  return r;
}
