// Asking ARCA for an invoice's CAE without ever skipping or repeating a number (ADR 0048).
//
// Per company, point of sale and voucher type there is one series row. Whoever holds its lease
// (a committed holder id and expiry: it works across processes and nodes, on PGlite and on
// PostgreSQL, and no transaction stays open while ARCA answers) is the only one numbering that
// series. The holder asks FECompUltimoAutorizado, writes "invoice X asks for number N" on the
// series row and commits, then asks FECAESolicitar for N. If the answer is lost (the process
// dies, ARCA's connection drops after it authorised), the note stays: the next holder asks
// FECompUltimoAutorizado again, and a last number at or past N means ARCA authorised N for
// invoice X, which is recorded as such, with the CAE FECompConsultar reads (recover.ts), instead
// of asking a new number for it.
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { invoices, invoiceSeries, invoiceSessions, type Invoice } from "../db/schema";
import { invoiceAmounts, invoiceAmountsByRate, invoiceTypeFor, receiverConditionOf, type InvoiceAmounts, type InvoiceType } from "../domain/invoice";
import { DEFAULT_VAT_RATE_BP } from "../domain/pricing";
import { ArcaUnavailableError, type ArcaClient, type ArcaMessage, type CaeRequest, type FiscalSettings, type VoucherType } from "../domain/arca-port";
import { argentineDate, backoffMs, type InvoicingContext } from "./deps";
import { settleLostAnswer } from "./recover";

/** Another holder has the series: try again this soon (ms), without counting an attempt. */
const BUSY_RETRY_MS = 5_000;

type Series = { businessId: string; pointOfSale: number; type: InvoiceType };
type SeriesRow = typeof invoiceSeries.$inferSelect;

/**
 * One attempt at an invoice's CAE; answers the invoice as it is afterwards. Another invoice of the
 * series whose lost answer this attempt settles with its CAE is handed to `recovered`.
 */
export async function issue(ctx: InvoicingContext, invoiceId: string, recovered: (inv: Invoice) => void = () => {}): Promise<Invoice | undefined> {
  const [inv] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!inv || inv.status !== "PENDING") return inv;
  let settings: FiscalSettings | null;
  let client: ArcaClient | null;
  try {
    settings = await ctx.gateway.fiscalSettings(inv.businessId);
    client = settings ? await ctx.gateway.arcaFor(inv.businessId) : null;
  } catch (err) {
    return postpone(ctx, inv, `No pudimos leer la configuración de facturación: ${message(err)}`);
  }
  if (!settings || !client) return postpone(ctx, inv, "Falta configurar la facturación electrónica (ARCA): el comprobante espera hasta que la configures.");
  const type = await voucherType(ctx, inv, settings);
  const series: Series = { businessId: inv.businessId, pointOfSale: settings.pointOfSale, type };
  const lease = await acquire(ctx, series, inv.id);
  if (!lease) return postpone(ctx, inv, inv.lastError, BUSY_RETRY_MS);
  try {
    if (lease.pendingInvoiceId && lease.pendingNumber) {
      const settled = await settleLostAnswer(ctx, client, series, lease.pendingInvoiceId, lease.pendingNumber);
      if (settled?.cae && settled.id !== inv.id) recovered(settled);
      const [again] = await ctx.db.select().from(invoices).where(eq(invoices.id, inv.id));
      if (again?.status !== "PENDING") return again;
    }
    const number = (await client.lastAuthorized(series.pointOfSale, series.type as VoucherType)) + 1;
    const request = await caeRequest(ctx, inv, series, number, settings);
    await ctx.db
      .update(invoiceSeries)
      .set({ pendingInvoiceId: inv.id, pendingNumber: number })
      .where(and(seriesKey(series), eq(invoiceSeries.holder, inv.id)));
    const result = await client.requestCae(request);
    if (result.kind === "authorized") {
      const [done] = await ctx.db.transaction(async (tx) => {
        await tx.update(invoiceSeries).set({ pendingInvoiceId: null, pendingNumber: null }).where(seriesKey(series));
        return tx
          .update(invoices)
          .set({ status: "AUTHORIZED", number, cae: result.cae, caeDueDate: result.caeDueDate, authorizedAt: ctx.now(), nextAttemptAt: null, lastError: observationsText(result.observations) })
          .where(eq(invoices.id, inv.id))
          .returning();
      });
      ctx.logger.info({ invoiceId: inv.id, type, pointOfSale: series.pointOfSale, number }, "factura: CAE obtenido");
      return done;
    }
    await ctx.db.update(invoiceSeries).set({ pendingInvoiceId: null, pendingNumber: null }).where(seriesKey(series));
    const [rejected] = await ctx.db
      .update(invoices)
      .set({ status: "REJECTED", attempts: inv.attempts + 1, nextAttemptAt: null, lastError: `ARCA rechazó el comprobante: ${messagesText([...result.errors, ...result.observations])}` })
      .where(eq(invoices.id, inv.id))
      .returning();
    ctx.logger.warn({ invoiceId: inv.id, codes: result.errors.map((e) => e.code) }, "factura: ARCA la rechazó");
    return rejected;
  } catch (err) {
    // The number noted on the series stays: the next holder learns from ARCA whether it was authorised.
    ctx.logger.warn({ invoiceId: inv.id, err: message(err) }, "factura: ARCA no respondió, queda en cola");
    const why = err instanceof ArcaUnavailableError ? "ARCA no responde: reintentamos automáticamente." : `No pudimos pedir el CAE: ${message(err)} Reintentamos automáticamente.`;
    return postpone(ctx, inv, why);
  } finally {
    await ctx.db
      .update(invoiceSeries)
      .set({ holder: null, leaseUntil: null })
      .where(and(seriesKey(series), eq(invoiceSeries.holder, inv.id)));
  }
}

/** The series' lease for `holder`, when nobody holds it or the last holder's lease ran out. */
async function acquire(ctx: InvoicingContext, series: Series, holder: string): Promise<SeriesRow | undefined> {
  await ctx.db.insert(invoiceSeries).values(series).onConflictDoNothing();
  const now = ctx.now();
  const [row] = await ctx.db
    .update(invoiceSeries)
    .set({ holder, leaseUntil: new Date(now.getTime() + ctx.leaseMs) })
    .where(and(seriesKey(series), or(isNull(invoiceSeries.holder), lt(invoiceSeries.leaseUntil, now))))
    .returning();
  return row;
}

function seriesKey(s: Series) {
  return and(eq(invoiceSeries.businessId, s.businessId), eq(invoiceSeries.pointOfSale, s.pointOfSale), eq(invoiceSeries.type, s.type));
}

/** The voucher's type: a credit note keeps the letter it was given; an invoice takes it from the tax condition and the receiver. */
async function voucherType(ctx: InvoicingContext, inv: Invoice, settings: FiscalSettings): Promise<InvoiceType> {
  if (inv.creditNoteOf && inv.type) return inv.type as InvoiceType;
  return invoiceTypeFor(
    settings.taxCondition,
    inv.receiverDocType === 80 ? { kind: "CUIT", cuit: inv.receiverDocNumber, name: inv.receiverName ?? "", condition: receiverConditionOf(inv.receiverVatCondition) } : { kind: "CONSUMIDOR_FINAL" },
  );
}

/** The voucher's net and VAT for its type: a monthly invoice from each session's total and rate, any other from its one total and rate. */
async function amountsOf(ctx: InvoicingContext, inv: Invoice, type: InvoiceType): Promise<InvoiceAmounts> {
  if (!inv.billingMonth) return invoiceAmounts(inv.totalCents, inv.vatRateBp ?? DEFAULT_VAT_RATE_BP, type);
  const lines = await ctx.db.select({ totalCents: invoiceSessions.totalCents, vatRateBp: invoiceSessions.vatRateBp }).from(invoiceSessions).where(eq(invoiceSessions.invoiceId, inv.id));
  return invoiceAmountsByRate(lines, type);
}

/** Fixes the voucher's type, point of sale, amounts and date on the row, and builds FECAESolicitar's detail. */
async function caeRequest(ctx: InvoicingContext, inv: Invoice, series: Series, number: number, settings: FiscalSettings): Promise<CaeRequest> {
  const amounts = await amountsOf(ctx, inv, series.type);
  // Issued today: ARCA refuses a date before the series' last voucher, and a holder numbers in order.
  const issueDate = argentineDate(ctx.now());
  await ctx.db
    .update(invoices)
    .set({ type: series.type, pointOfSale: series.pointOfSale, netCents: amounts.netCents, vatCents: amounts.vatCents, exemptCents: amounts.exemptCents, issueDate })
    .where(eq(invoices.id, inv.id));
  const associated = inv.creditNoteOf ? await associatedVoucher(ctx, inv.creditNoteOf, settings.cuit) : undefined;
  return {
    pointOfSale: series.pointOfSale,
    type: series.type as VoucherType,
    number,
    concept: 2,
    issueDate,
    serviceFrom: inv.serviceFrom <= issueDate ? inv.serviceFrom : issueDate,
    serviceTo: inv.serviceTo <= issueDate ? inv.serviceTo : issueDate,
    paymentDueDate: issueDate,
    receiverDocType: inv.receiverDocType as 80 | 96 | 99,
    receiverDocNumber: inv.receiverDocNumber,
    receiverVatConditionId: inv.receiverVatCondition,
    totalCents: amounts.totalCents,
    netCents: amounts.netCents,
    exemptCents: amounts.exemptCents,
    vatCents: amounts.vatCents,
    vat: amounts.vat,
    ...(associated ? { associated: [associated] } : {}),
  };
}

async function associatedVoucher(ctx: InvoicingContext, invoiceId: string, cuit: string): Promise<NonNullable<CaeRequest["associated"]>[number] | undefined> {
  const [orig] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!orig?.type || !orig.pointOfSale || !orig.number) return undefined;
  return { type: orig.type as VoucherType, pointOfSale: orig.pointOfSale, number: orig.number, cuit, date: orig.issueDate };
}

/** The attempt did not authorise the invoice: it waits, the next try after a growing pause. */
async function postpone(ctx: InvoicingContext, inv: Invoice, why: string | null, waitMs?: number): Promise<Invoice | undefined> {
  const attempts = waitMs === undefined ? inv.attempts + 1 : inv.attempts;
  const [row] = await ctx.db
    .update(invoices)
    .set({ attempts, nextAttemptAt: new Date(ctx.now().getTime() + (waitMs ?? backoffMs(attempts))), lastError: why })
    .where(and(eq(invoices.id, inv.id), eq(invoices.status, "PENDING")))
    .returning();
  return row ?? inv;
}

function messagesText(messages: ArcaMessage[]): string {
  return messages.length ? messages.map((m) => `${m.message} (código ${m.code})`).join(" · ") : "sin motivo informado.";
}

function observationsText(messages: ArcaMessage[]): string | null {
  return messages.length ? `Observaciones de ARCA: ${messagesText(messages)}` : null;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** How many of a company's vouchers wait for their CAE. */
export async function pendingCount(ctx: InvoicingContext, businessId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(and(eq(invoices.businessId, businessId), eq(invoices.status, "PENDING")));
  return row?.n ?? 0;
}
