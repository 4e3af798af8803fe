// The demo operator's vouchers: a Responsable Inscripto invoicing from its web-service point of
// sale, so every settled payment of the seeded history has its Factura B, authorised, and every
// payment money went back from its Nota de Crédito B for what went back. Numbered as ARCA numbers
// them — 1, 2, 3… per point of sale and type, in the order the payments were made, dates never
// going back — so the ARCA emulator, told of these vouchers at every start, answers the last
// number the database holds and the next live voucher takes the number after it.
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { chargingSessions, invoices, payments, type Invoice } from "../schema";
import { amountColumns, creditNoteType, creditOwed, invoiceAmounts, INVOICE_TYPES, receiverColumns, receiverDocument, type InvoiceAmounts, type InvoiceType } from "../../domain/invoice";
import { DEFAULT_VAT_RATE_BP } from "../../domain/pricing";
import { bulkInsert } from "./bulk";

/** ARCA dates a voucher in Argentina's calendar (UTC−3 all year): YYYY-MM-DD. */
const argentineDate = (at: Date) => new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
/** A CAE is due 10 days after the voucher's date. */
const caeDue = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 10 * 86_400_000).toISOString().slice(0, 10);
/** A 14-digit CAE that is the same on every reseed of the same history (made from the voucher's own series and number). */
const demoCae = (type: number, pointOfSale: number, number: number) => `7${String(pointOfSale).padStart(2, "0")}${String(type).padStart(2, "0")}${String(number).padStart(9, "0")}`;

/** Payments money went back from after they settled (their vouchers need a credit note). */
const MONEY_BACK = ["PARTIALLY_REFUNDED", "REFUNDED", "CHARGED_BACK"] as const;

/**
 * Seeds the vouchers of the company's settled payments (approved, partly or wholly refunded,
 * charged back) once: a company that already has vouchers on this point of sale keeps them (a
 * restart, or one that invoiced live). Answers how many invoices and credit notes were written.
 */
export async function seedDemoInvoices(db: Db, opts: { businessId: string; pointOfSale: number }): Promise<{ invoices: number; creditNotes: number }> {
  const [already] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.businessId, opts.businessId), eq(invoices.pointOfSale, opts.pointOfSale)))
    .limit(1);
  if (already) return { invoices: 0, creditNotes: 0 };
  const rows = await db
    .select({ payment: payments, startedAt: chargingSessions.startedAt, stoppedAt: chargingSessions.stoppedAt, rate: chargingSessions.rateSnapshot })
    .from(payments)
    .leftJoin(chargingSessions, eq(chargingSessions.id, payments.sessionId))
    .where(and(eq(payments.businessId, opts.businessId), inArray(payments.status, ["APPROVED", ...MONEY_BACK]), isNull(payments.parentPaymentId)))
    .orderBy(asc(payments.createdAt), asc(payments.id));
  // Numbered in the order the payments settled: a later number never carries an earlier date.
  const settledAt = (p: (typeof rows)[number]["payment"]) => (p.finishedAt ?? p.createdAt).getTime();
  rows.sort((a, b) => settledAt(a.payment) - settledAt(b.payment));
  const consumer = receiverDocument({ kind: "CONSUMIDOR_FINAL" });
  // What an invoice and a credit note share once authorised: their number on this point of sale, CAE and amounts.
  const authorized = (type: InvoiceType, number: number, issueDate: string, amounts: InvoiceAmounts) => ({
    businessId: opts.businessId,
    type,
    pointOfSale: opts.pointOfSale,
    number,
    status: "AUTHORIZED" as const,
    cae: demoCae(type, opts.pointOfSale, number),
    caeDueDate: caeDue(issueDate),
    ...amountColumns(amounts),
    issueDate,
  });
  const planned: (typeof invoices.$inferInsert)[] = [];
  const notes: { invoice: typeof invoices.$inferInsert; vatRateBp: number; at: Date; cents: number }[] = [];
  for (const { payment: p, startedAt, stoppedAt, rate } of rows) {
    // What was charged: a QR payment's charge (the rest went back as its unused balance), a session payment's amount.
    const charged = p.origin === "QR" ? (p.chargedCents ?? 0) : p.amountCents;
    if (charged <= 0) continue;
    const type: InvoiceType = INVOICE_TYPES.FACTURA_B;
    const vatRateBp = rate?.vatRateBp ?? DEFAULT_VAT_RATE_BP;
    const amounts = invoiceAmounts(charged, vatRateBp, type);
    const issueDate = argentineDate(p.finishedAt ?? p.createdAt);
    const number = planned.length + 1;
    const invoice = {
      id: crypto.randomUUID(),
      ...authorized(type, number, issueDate, amounts),
      vatRateBp,
      ...receiverColumns(consumer),
      paymentId: p.id,
      serviceFrom: startedAt ? argentineDate(startedAt) : issueDate,
      serviceTo: stoppedAt ? argentineDate(stoppedAt) : issueDate,
      authorizedAt: p.finishedAt ?? p.createdAt,
      createdAt: p.finishedAt ?? p.createdAt,
      updatedAt: p.finishedAt ?? p.createdAt,
    };
    planned.push(invoice);
    const back = creditOwed({ amountCents: p.amountCents, chargedCents: charged, refundedCents: p.refundedCents, chargedBack: p.status === "CHARGED_BACK" }, amounts.totalCents, 0);
    if (back > 0) notes.push({ invoice, vatRateBp, at: p.updatedAt, cents: back });
  }
  // Credit notes are their own series, numbered in the order the money went back.
  notes.sort((a, b) => a.at.getTime() - b.at.getTime());
  const creditNotes = notes.map(({ invoice, vatRateBp, at, cents }, i) => {
    const type = creditNoteType(invoice.type as InvoiceType);
    const amounts = invoiceAmounts(cents, vatRateBp, type);
    const number = i + 1;
    const issueDate = argentineDate(at);
    return {
      ...authorized(type, number, issueDate, amounts),
      vatRateBp: invoice.vatRateBp,
      receiverDocType: invoice.receiverDocType,
      receiverDocNumber: invoice.receiverDocNumber,
      receiverVatCondition: invoice.receiverVatCondition,
      paymentId: invoice.paymentId,
      creditNoteOf: invoice.id,
      serviceFrom: invoice.serviceFrom,
      serviceTo: invoice.serviceTo,
      authorizedAt: at,
      createdAt: at,
      updatedAt: at,
    };
  });
  await db.transaction(async (tx) => {
    await bulkInsert(tx, invoices, planned);
    await bulkInsert(tx, invoices, creditNotes);
  });
  return { invoices: planned.length, creditNotes: creditNotes.length };
}

/** The company's authorised vouchers as ARCA holds them (series, number, CAE, total in pesos), for the emulator to know at start. */
export async function authorizedVouchers(db: Db, businessId: string): Promise<Pick<Invoice, "type" | "pointOfSale" | "number" | "cae" | "caeDueDate" | "totalCents" | "netCents" | "vatCents" | "exemptCents" | "receiverDocType" | "receiverDocNumber" | "issueDate" | "authorizedAt">[]> {
  return db
    .select({
      type: invoices.type, pointOfSale: invoices.pointOfSale, number: invoices.number, cae: invoices.cae, caeDueDate: invoices.caeDueDate,
      totalCents: invoices.totalCents, netCents: invoices.netCents, vatCents: invoices.vatCents, exemptCents: invoices.exemptCents,
      receiverDocType: invoices.receiverDocType, receiverDocNumber: invoices.receiverDocNumber, issueDate: invoices.issueDate, authorizedAt: invoices.authorizedAt,
    })
    .from(invoices)
    .where(and(eq(invoices.businessId, businessId), eq(invoices.status, "AUTHORIZED")))
    .orderBy(asc(invoices.type), asc(invoices.number));
}
