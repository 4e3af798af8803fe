// The operator hears about their drivers' payments: a notification in the app, a web push, and
// a live event so open screens refresh; an e-mail to the company for what needs action (a chargeback).
import { eq } from "drizzle-orm";
import { afterCommit } from "../db/ambient";
import { businessUsers, notifications, type NotificationType } from "../db/schema";
import { escapeHtml } from "../infra/mail";
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

/** E-mails the company's address about a payment (a chargeback): after the commit, a failure only logged (the notification stays). */
export async function mailCompany(ctx: PaymentsContext, businessId: string, subject: string, lines: string[]): Promise<void> {
  const [company] = await ctx.db.select({ email: businessUsers.email }).from(businessUsers).where(eq(businessUsers.id, businessId));
  if (!company?.email) return;
  await afterCommit(async () => {
    try {
      await ctx.mailer.send({
        to: company.email,
        subject,
        text: `${ctx.appName}\n\n${lines.join("\n")}\n`,
        html: `<h1>${escapeHtml(subject)}</h1>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}`,
        kind: "payment-dispute",
      });
    } catch (err) {
      ctx.logger.warn({ businessId, err: err instanceof Error ? err.message : String(err) }, "pagos con QR: no se pudo enviar el correo a la empresa");
    }
  });
}
