// Electronic invoices (ARCA WSFEv1): every settled QR payment gets its voucher for what was
// charged, a refund or chargeback after it its credit note; numbers are sequential per point of
// sale and type across nodes (issue.ts, ADR 0048), and a voucher ARCA could not take waits in the
// queue (status PENDING, next attempt with backoff) for the sweep.
//
// The service is built once per process (server.ts) with the gateway to ARCA — the only wiring
// point of the real client; tests pass an in-memory fake. Payments call it when a payment settles
// and when money goes back; the sweep catches whatever those calls missed.
import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import { invoices, type Invoice } from "../db/schema";
import { formatInvoiceNumber, INVOICE_TYPE_LABELS, type InvoiceType } from "../domain/invoice";
import type { MailAttachment } from "../infra/mail";
import { invoicingContext, type InvoicingContext, type InvoicingDeps } from "./deps";
import { issue, pendingCount } from "./issue";
import { warnExpiringCertificates } from "./certificates";
import { completeMissingCaes } from "./recover";
import { invoiceAttachment, invoiceLine, sendInvoiceMail } from "./mail";
import { invoicePdf, invoicePdfData } from "./pdf";
import { closeMonth } from "./monthly";
import { creditNoteForPayment, invoiceForPayment, paymentsToCredit, paymentsToInvoice } from "./sales";

export type { InvoicingDeps } from "./deps";
export { invoiceLine } from "./mail";

export interface ReceiptInvoice {
  id: string;
  businessId: string;
  line: string | null;
  attachment?: MailAttachment;
}

export interface Invoicing {
  /** A payment settled: its invoice, asked to ARCA now (queued when ARCA is down). */
  paymentSettled(paymentId: string): Promise<Invoice | undefined>;
  /** Money of a payment went back (refund, chargeback): the credit note it calls for, asked now. */
  paymentRefunded(paymentId: string): Promise<Invoice | undefined>;
  /** One attempt at a pending voucher's CAE. */
  issue(invoiceId: string): Promise<Invoice | undefined>;
  /** The operator asks again for a rejected or waiting voucher: due now. Null when it is not theirs or already authorised. */
  retry(businessId: string, invoiceId: string): Promise<Invoice | null>;
  pendingCount(businessId: string): Promise<number>;
  /** A company's authorised voucher as a PDF; null when it is not theirs, not authorised, or settings are gone. */
  pdf(businessId: string, invoiceId: string): Promise<{ filename: string; bytes: Buffer } | null>;
  /**
   * What the driver's receipt says of the payment's invoice: once authorised its line ("Factura B
   * N° 0003-00000042 · CAE …"), with its PDF when asked; while ARCA has not authorised it (queued,
   * or rejected until the operator retries) `line` is null. Null when the payment has no invoice.
   */
  receiptInvoice(paymentId: string, withPdf: boolean): Promise<ReceiptInvoice | null>;
  /** The monthly close of the access groups that invoice monthly (ADR 0050): last month's invoices, asked to ARCA now. */
  closeMonth(): Promise<Invoice[]>;
  /** One pass of the sweep: missing invoices and credit notes, the monthly close now and then, the vouchers due, CAEs still missing, certificates about to expire. */
  tick(): Promise<void>;
}

/** How often a process tries the monthly close: groups whose month had nothing to invoice are looked at again this often. */
const MONTHLY_CLOSE_EVERY_MS = 15 * 60_000;

export function createInvoicing(deps: InvoicingDeps): Invoicing {
  const ctx = invoicingContext(deps);
  const issueAndMail = async (id: string) => {
    const recovered: Invoice[] = [];
    const inv = await issue(ctx, id, (r) => recovered.push(r));
    if (inv?.status === "AUTHORIZED") await sendInvoiceMail(ctx, inv);
    // A voucher whose lost answer this attempt recovered reaches its driver too, now that it has its CAE.
    for (const r of recovered) await sendInvoiceMail(ctx, r);
    return inv;
  };
  const closeAndIssue = async () => {
    const created = await closeMonth(ctx);
    const issued: Invoice[] = [];
    for (const inv of created) issued.push((await issueAndMail(inv.id)) ?? inv);
    return issued;
  };
  let nextCloseAt = 0;
  const closeNowAndThen = async () => {
    if (ctx.now().getTime() < nextCloseAt) return;
    nextCloseAt = ctx.now().getTime() + MONTHLY_CLOSE_EVERY_MS;
    await closeMonth(ctx);
  };
  return {
    async paymentSettled(paymentId) {
      const inv = await invoiceForPayment(ctx, paymentId);
      return inv?.status === "PENDING" ? issueAndMail(inv.id) : inv;
    },
    async paymentRefunded(paymentId) {
      const note = await creditNoteForPayment(ctx, paymentId);
      return note ? issueAndMail(note.id) : undefined;
    },
    issue: issueAndMail,
    retry: (businessId, invoiceId) => retry(ctx, businessId, invoiceId),
    pendingCount: (businessId) => pendingCount(ctx, businessId),
    closeMonth: closeAndIssue,
    tick: async () => {
      await tick(ctx, issueAndMail, closeNowAndThen);
      await completeMissingCaes(ctx, (inv) => sendInvoiceMail(ctx, inv));
      await warnExpiringCertificates(ctx);
    },
    async pdf(businessId, invoiceId) {
      const settings = await ctx.gateway.fiscalSettings(businessId);
      const data = settings ? await invoicePdfData(ctx.db, businessId, invoiceId, settings.taxCondition) : undefined;
      if (!data) return null;
      const inv = data.invoice;
      return { filename: `${INVOICE_TYPE_LABELS[inv.type as InvoiceType].replace(/ /g, "-")}-${formatInvoiceNumber(inv.pointOfSale ?? 0, inv.number ?? 0)}.pdf`, bytes: await invoicePdf(data) };
    },
    async receiptInvoice(paymentId, withPdf) {
      const [inv] = await ctx.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.paymentId, paymentId), isNull(invoices.creditNoteOf)));
      if (!inv) return null;
      if (inv.status !== "AUTHORIZED") return { id: inv.id, businessId: inv.businessId, line: null };
      const attachment = withPdf ? await invoiceAttachment(ctx, inv) : undefined;
      return { id: inv.id, businessId: inv.businessId, line: invoiceLine(inv), ...(attachment ? { attachment } : {}) };
    },
  };
}

async function retry(ctx: InvoicingContext, businessId: string, invoiceId: string): Promise<Invoice | null> {
  const [row] = await ctx.db
    .update(invoices)
    .set({ status: "PENDING", nextAttemptAt: ctx.now() })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.businessId, businessId), or(eq(invoices.status, "PENDING"), eq(invoices.status, "REJECTED"))))
    .returning();
  return row ?? null;
}

async function tick(ctx: InvoicingContext, issueOne: (id: string) => Promise<unknown>, close: () => Promise<void>): Promise<void> {
  for (const paymentId of await paymentsToInvoice(ctx)) await invoiceForPayment(ctx, paymentId);
  for (const paymentId of await paymentsToCredit(ctx)) await creditNoteForPayment(ctx, paymentId);
  // The invoices the close creates are due now: the pass below asks ARCA for them.
  await close();
  const due = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.status, "PENDING"), or(isNull(invoices.nextAttemptAt), lte(invoices.nextAttemptAt, ctx.now()))))
    .orderBy(asc(invoices.createdAt))
    .limit(50);
  for (const { id } of due) {
    try {
      await issueOne(id);
    } catch (err) {
      ctx.logger.warn({ invoiceId: id, err: err instanceof Error ? err.message : String(err) }, "factura: falló un intento");
    }
  }
}
