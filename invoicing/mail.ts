// The driver gets their voucher's PDF by e-mail: attached to the receipt when the invoice was
// authorised before the receipt went out, else (ARCA was down, the voucher waited in the queue)
// in an e-mail of its own once it is authorised.
import { eq } from "drizzle-orm";
import { payments, type Invoice } from "../db/schema";
import { formatInvoiceNumber, INVOICE_TYPE_LABELS, type InvoiceType } from "../domain/invoice";
import { escapeHtml, type MailAttachment } from "../infra/mail";
import type { InvoicingContext } from "./deps";
import { invoicePdf, invoicePdfData } from "./pdf";

/** "Factura B N° 0003-00000042 · CAE 76123456789012": how the receipt names the voucher. */
export function invoiceLine(inv: Pick<Invoice, "type" | "pointOfSale" | "number" | "cae">): string {
  const label = `${INVOICE_TYPE_LABELS[inv.type as InvoiceType]} N° ${formatInvoiceNumber(inv.pointOfSale ?? 0, inv.number ?? 0)}`;
  return inv.cae ? `${label} · CAE ${inv.cae}` : label;
}

/** The PDF of an authorised voucher as an e-mail attachment; undefined when it cannot be made. */
export async function invoiceAttachment(ctx: InvoicingContext, inv: Invoice): Promise<MailAttachment | undefined> {
  const settings = await ctx.gateway.fiscalSettings(inv.businessId);
  if (!settings) return undefined;
  const data = await invoicePdfData(ctx.db, inv.businessId, inv.id, settings.taxCondition);
  if (!data) return undefined;
  const pdf = await invoicePdf(data);
  const name = `${INVOICE_TYPE_LABELS[inv.type as InvoiceType].replace(/ /g, "-")}-${formatInvoiceNumber(inv.pointOfSale ?? 0, inv.number ?? 0)}.pdf`;
  return { filename: name, contentType: "application/pdf", contentBase64: pdf.toString("base64") };
}

/** A voucher authorised after the driver's receipt went out: its own e-mail with the PDF. Not retried (it stays on the receipt page). */
export async function sendInvoiceMail(ctx: InvoicingContext, inv: Invoice): Promise<void> {
  if (!ctx.mailer || !inv.paymentId) return;
  const [p] = await ctx.db.select({ driverEmail: payments.driverEmail, receiptSentAt: payments.receiptSentAt }).from(payments).where(eq(payments.id, inv.paymentId));
  // Before the receipt, the receipt carries it.
  if (!p?.driverEmail || !p.receiptSentAt) return;
  try {
    const attachment = await invoiceAttachment(ctx, inv);
    if (!attachment) return;
    const line = invoiceLine(inv);
    await ctx.mailer.send({
      to: p.driverEmail,
      subject: `Tu ${line.split(" · ")[0]}`,
      text: `${ctx.appName ?? "Enchufá"}\n\n${line}\n\nTe adjuntamos el comprobante de tu carga.\n`,
      html: `<p>${escapeHtml(line)}</p><p>Te adjuntamos el comprobante de tu carga.</p>`,
      kind: "invoice",
      attachments: [attachment],
    });
  } catch (err) {
    ctx.logger.warn({ invoiceId: inv.id, err: err instanceof Error ? err.message : String(err) }, "factura: no se pudo enviar por correo");
  }
}
