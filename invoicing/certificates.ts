// The operator hears that their ARCA certificate expires, before ARCA starts refusing it: a
// notification (in the app, by web push, on open screens) and an e-mail to the company, once
// CERTIFICATE_WARNING_DAYS before, once more when it has expired (domain/fiscal-certificate.ts).
// `expiry_warned_at` marks the warning sent; a new certificate clears it. The mark is set by a
// conditional update, so with several nodes sweeping, one sends it.
import { and, eq, isNotNull, isNull, lt, lte, or } from "drizzle-orm";
import { businessUsers, fiscalSettings, notifications, type Notification } from "../db/schema";
import { CERTIFICATE_WARNING_DAYS, certificateWarningDue, type CertificateWarning } from "../domain/fiscal-certificate";
import { escapeHtml } from "../infra/mail";
import { pushNotification } from "../infra/push";
import type { InvoicingContext } from "./deps";

const day = (at: Date) => at.toLocaleDateString("es-AR", { timeZone: "America/Argentina/Buenos_Aires", day: "2-digit", month: "2-digit", year: "numeric" });

function warningText(kind: CertificateWarning, expiresAt: Date): { title: string; body: string } {
  if (kind === "EXPIRING") {
    return {
      title: "El certificado de ARCA vence pronto",
      body: `El certificado de factura electrónica vence el ${day(expiresAt)}. Generá uno nuevo en ARCA («Administración de certificados digitales») y subilo en Facturación antes de esa fecha: con el certificado vencido, los comprobantes quedan en espera.`,
    };
  }
  return {
    title: "Venció el certificado de ARCA",
    body: `El certificado de factura electrónica venció el ${day(expiresAt)}: ARCA no autoriza comprobantes hasta que subas uno nuevo en Facturación. Los cobros siguen y sus comprobantes esperan en la cola.`,
  };
}

/** One pass: every company whose certificate warning is due gets it, once. */
export async function warnExpiringCertificates(ctx: InvoicingContext): Promise<void> {
  const now = ctx.now();
  const horizon = new Date(now.getTime() + CERTIFICATE_WARNING_DAYS * 86_400_000);
  const due = await ctx.db
    .select({ businessId: fiscalSettings.businessId, expiresAt: fiscalSettings.certificateExpiresAt, warnedAt: fiscalSettings.expiryWarnedAt })
    .from(fiscalSettings)
    .where(
      and(
        isNotNull(fiscalSettings.certificateEncrypted),
        lte(fiscalSettings.certificateExpiresAt, horizon),
        // Not warned yet, or warned before it expired (the second warning is owed once it has).
        or(isNull(fiscalSettings.expiryWarnedAt), and(lte(fiscalSettings.certificateExpiresAt, now), lt(fiscalSettings.expiryWarnedAt, fiscalSettings.certificateExpiresAt))),
      ),
    );
  for (const row of due) {
    const kind = row.expiresAt ? certificateWarningDue(row.expiresAt, row.warnedAt, now) : null;
    if (!kind || !row.expiresAt) continue;
    try {
      await warn(ctx, row.businessId, kind, row.expiresAt, row.warnedAt);
    } catch (err) {
      ctx.logger.warn({ businessId: row.businessId, err: err instanceof Error ? err.message : String(err) }, "facturación: no se pudo avisar el vencimiento del certificado");
    }
  }
}

async function warn(ctx: InvoicingContext, businessId: string, kind: CertificateWarning, expiresAt: Date, warnedAt: Date | null): Promise<void> {
  const { title, body } = warningText(kind, expiresAt);
  const row = await ctx.db.transaction(async (tx) => {
    // Only if nobody marked it since it was read (another node's sweep) and the certificate is the same.
    const [claimed] = await tx
      .update(fiscalSettings)
      .set({ expiryWarnedAt: ctx.now() })
      .where(
        and(
          eq(fiscalSettings.businessId, businessId),
          eq(fiscalSettings.certificateExpiresAt, expiresAt),
          warnedAt ? eq(fiscalSettings.expiryWarnedAt, warnedAt) : isNull(fiscalSettings.expiryWarnedAt),
        ),
      )
      .returning({ id: fiscalSettings.id });
    if (!claimed) return null;
    const [n] = await tx.insert(notifications).values({ businessId, type: kind === "EXPIRING" ? "FISCAL_CERTIFICATE_EXPIRING" : "FISCAL_CERTIFICATE_EXPIRED", title, body, link: "/fiscal" }).returning();
    return n;
  });
  if (!row) return;
  ctx.logger.info({ businessId, kind }, "facturación: aviso de vencimiento del certificado");
  await deliver(ctx, row);
}

/** The notification reaches browsers and open screens, and the company's e-mail; failures are only logged (the notification stays). */
async function deliver(ctx: InvoicingContext, n: Notification): Promise<void> {
  void pushNotification({ db: ctx.db, logger: ctx.logger, sendPush: ctx.sendPush }, n);
  ctx.live?.publish(n.businessId, { kind: "notification" });
  if (!ctx.mailer) return;
  const [company] = await ctx.db.select({ email: businessUsers.email }).from(businessUsers).where(eq(businessUsers.id, n.businessId));
  if (!company?.email) return;
  try {
    await ctx.mailer.send({
      to: company.email,
      subject: n.title,
      text: `${ctx.appName ?? "Enchufá"}\n\n${n.body}\n`,
      html: `<h1>${escapeHtml(n.title)}</h1><p>${escapeHtml(n.body)}</p>`,
      kind: "fiscal-certificate",
    });
  } catch (err) {
    ctx.logger.warn({ businessId: n.businessId, err: err instanceof Error ? err.message : String(err) }, "facturación: no se pudo enviar el aviso del certificado por correo");
  }
}
