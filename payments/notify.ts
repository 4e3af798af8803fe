// The operator hears about their drivers' payments: a notification in the app, a web push, and
// a live event so open screens refresh.
import { afterCommit } from "../db/ambient";
import { notifications, type NotificationType } from "../db/schema";
import { pushNotification } from "../infra/push";
import type { PaymentsContext } from "./deps";

export async function notifyCompany(ctx: PaymentsContext, businessId: string, type: NotificationType, title: string, body: string, link: string): Promise<void> {
  const [row] = await ctx.db.insert(notifications).values({ businessId, type, title, body, link }).returning();
  // Browsers and live screens hear of it once it is committed (at once outside a transaction).
  await afterCommit(() => {
    void pushNotification({ db: ctx.db, logger: ctx.logger, sendPush: ctx.sendPush }, row);
    ctx.ocpp?.live.publish(businessId, { kind: "notification" });
  });
}
