// Which vouchers a sale needs: the invoice of a settled QR payment for what was charged, and the
// credit note of what a refund or chargeback took back after it was invoiced.
import { and, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import { chargingSessions, invoices, payments, type Invoice } from "../db/schema";
import { amountColumns, creditNoteType, creditOwed, invoiceAmounts, invoiceTypeFor, receiverColumns, receiverDocument, type InvoiceType, type Receiver } from "../domain/invoice";
import { DEFAULT_VAT_RATE_BP } from "../domain/pricing";
import { argentineDate, type InvoicingContext } from "./deps";

/** A payment whose charge is final: settled (its balance back, or owed by hand). */
const SETTLED_STEPS = ["FINISHED", "REFUND_PENDING"] as const;
/** Only payments settled this recently are invoiced by the sweep: ARCA takes service vouchers up to 10 days back, and history from before invoicing was set up is not invoiced after the fact. */
const INVOICE_WINDOW_MS = 3 * 86_400_000;

/**
 * The invoice of a settled QR payment for what was charged (not what was prepaid), once: the
 * payment's unique invoice makes a second call (another node, a retry) find the first. None for
 * a company without fiscal settings, nor for a payment that charged nothing.
 */
export async function invoiceForPayment(ctx: InvoicingContext, paymentId: string): Promise<Invoice | undefined> {
  const existing = await paymentInvoice(ctx, paymentId);
  if (existing) return existing;
  const [row] = await ctx.db
    .select({ payment: payments, startedAt: chargingSessions.startedAt, stoppedAt: chargingSessions.stoppedAt, rate: chargingSessions.rateSnapshot })
    .from(payments)
    .leftJoin(chargingSessions, eq(chargingSessions.id, payments.sessionId))
    .where(eq(payments.id, paymentId));
  const p = row?.payment;
  if (!p || p.origin !== "QR" || !SETTLED_STEPS.includes(p.step as (typeof SETTLED_STEPS)[number]) || !p.chargedCents || p.chargedCents <= 0) return undefined;
  const settings = await ctx.gateway.fiscalSettings(p.businessId);
  if (!settings) return undefined;
  const receiver: Receiver = p.buyerCuit ? { kind: "CUIT", cuit: p.buyerCuit, name: p.buyerName ?? "" } : { kind: "CONSUMIDOR_FINAL" };
  const type = invoiceTypeFor(settings.taxCondition, receiver);
  const vatRateBp = row.rate?.vatRateBp ?? DEFAULT_VAT_RATE_BP;
  const amounts = invoiceAmounts(p.chargedCents, vatRateBp, type);
  const doc = receiverDocument(receiver);
  const today = argentineDate(ctx.now());
  await ctx.db
    .insert(invoices)
    .values({
      businessId: p.businessId,
      type,
      pointOfSale: settings.pointOfSale,
      ...amountColumns(amounts),
      vatRateBp,
      ...receiverColumns(doc),
      receiverName: receiver.kind === "CUIT" ? receiver.name : null,
      paymentId: p.id,
      issueDate: today,
      serviceFrom: row.startedAt ? argentineDate(row.startedAt) : today,
      serviceTo: argentineDate(row.stoppedAt ?? p.finishedAt ?? ctx.now()),
      nextAttemptAt: ctx.now(),
    })
    .onConflictDoNothing();
  return paymentInvoice(ctx, paymentId);
}

async function paymentInvoice(ctx: InvoicingContext, paymentId: string): Promise<Invoice | undefined> {
  const [inv] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.paymentId, paymentId), isNull(invoices.creditNoteOf)));
  return inv;
}

/**
 * The credit note a refund or chargeback after invoicing calls for: what went back out of what
 * was invoiced, less what earlier credit notes credited (a partial refund, a partial note). Only
 * an authorised invoice is credited (the sweep comes back once a pending one is authorised). The
 * invoice's row is locked while the notes are counted, so two nodes write one note.
 */
export async function creditNoteForPayment(ctx: InvoicingContext, paymentId: string): Promise<Invoice | undefined> {
  return ctx.db.transaction(async (tx) => {
    const [inv] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.paymentId, paymentId), isNull(invoices.creditNoteOf), eq(invoices.status, "AUTHORIZED")))
      .for("update");
    if (!inv?.type || inv.number === null) return undefined;
    const [p] = await tx.select().from(payments).where(eq(payments.id, paymentId));
    if (!p) return undefined;
    const [credited] = await tx
      .select({ cents: sql<number>`coalesce(sum(${invoices.totalCents}), 0)::int` })
      .from(invoices)
      .where(and(eq(invoices.creditNoteOf, inv.id), ne(invoices.status, "REJECTED")));
    const owed = creditOwed({ amountCents: p.amountCents, chargedCents: p.chargedCents ?? 0, refundedCents: p.refundedCents, chargedBack: p.status === "CHARGED_BACK" }, inv.totalCents, credited?.cents ?? 0);
    if (owed <= 0) return undefined;
    const type = creditNoteType(inv.type as InvoiceType);
    const amounts = invoiceAmounts(owed, inv.vatRateBp ?? DEFAULT_VAT_RATE_BP, type);
    const today = argentineDate(ctx.now());
    const [note] = await tx
      .insert(invoices)
      .values({
        businessId: inv.businessId,
        type,
        pointOfSale: inv.pointOfSale,
        ...amountColumns(amounts),
        vatRateBp: inv.vatRateBp,
        receiverDocType: inv.receiverDocType,
        receiverDocNumber: inv.receiverDocNumber,
        receiverName: inv.receiverName,
        receiverVatCondition: inv.receiverVatCondition,
        paymentId,
        creditNoteOf: inv.id,
        issueDate: today,
        serviceFrom: inv.serviceFrom,
        serviceTo: inv.serviceTo,
        nextAttemptAt: ctx.now(),
      })
      .returning();
    return note;
  });
}

/** Settled payments of the last days without their invoice (a node that died before invoicing one, a hook that failed). */
export async function paymentsToInvoice(ctx: InvoicingContext): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.origin, "QR"),
        inArray(payments.step, [...SETTLED_STEPS]),
        gt(payments.chargedCents, 0),
        gt(payments.finishedAt, new Date(ctx.now().getTime() - INVOICE_WINDOW_MS)),
        sql`not exists (select 1 from ${invoices} where ${invoices.paymentId} = ${payments.id} and ${invoices.creditNoteOf} is null)`,
      ),
    )
    .limit(50);
  return rows.map((r) => r.id);
}

/** Payments with an authorised invoice that money went back from, in the last month: each is checked for a credit note owed. */
export async function paymentsToCredit(ctx: InvoicingContext): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: payments.id })
    .from(payments)
    .innerJoin(invoices, and(eq(invoices.paymentId, payments.id), isNull(invoices.creditNoteOf), eq(invoices.status, "AUTHORIZED")))
    .where(
      and(
        inArray(payments.status, ["PARTIALLY_REFUNDED", "REFUNDED", "CHARGED_BACK"]),
        gt(payments.updatedAt, new Date(ctx.now().getTime() - 30 * 86_400_000)),
        // domain/invoice creditOwed, in SQL: what went back of what was invoiced exceeds what was credited.
        sql`least(case when ${payments.status} = 'CHARGED_BACK' then ${invoices.totalCents} else greatest(0, ${payments.refundedCents} - (${payments.amountCents} - coalesce(${payments.chargedCents}, 0))) end, ${invoices.totalCents})
          > coalesce((select sum(c.total_cents) from ${invoices} c where c.credit_note_of = ${invoices.id} and c.status <> 'REJECTED'), 0)`,
      ),
    )
    .limit(50);
  return rows.map((r) => r.id);
}
