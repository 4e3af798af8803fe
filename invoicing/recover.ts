// Vouchers ARCA authorised whose answer never reached us (the process died, the connection
// dropped after ARCA decided). ARCA numbers each point of sale and type strictly in sequence and
// only the series' holder asks for numbers (issue.ts), so a last authorised number at or past the
// one noted for an invoice means ARCA gave it that number. FECompConsultar then reads what ARCA
// holds of it — the CAE and its due date, which the PDF, the fiscal QR and the driver's e-mail
// need — and whether it is the voucher we asked for: if its amounts or receiver differ, it is not
// taken as ours; the operator is told so in Spanish instead.
import { and, asc, eq, isNotNull, isNull, lte, or } from "drizzle-orm";
import { invoices, invoiceSeries, type Invoice } from "../db/schema";
import { formatInvoiceNumber, INVOICE_TYPE_LABELS, voucherDisagreement, type InvoiceType } from "../domain/invoice";
import type { ArcaClient, AuthorizedVoucher, VoucherType } from "../domain/arca-port";
import { backoffMs, type InvoicingContext } from "./deps";

type Series = { businessId: string; pointOfSale: number; type: InvoiceType };

/** Said on a voucher recognised by its number whose CAE ARCA did not give us (yet): the sweep keeps asking. */
const CAE_MISSING = "ARCA autorizó este comprobante pero su respuesta no llegó y todavía no pudimos leer su CAE: lo volvemos a consultar automáticamente (también podés verlo en ARCA, «Comprobantes en línea»).";

/** The invoice's fields once ARCA's voucher is known to be it. */
const authorizedFrom = (v: AuthorizedVoucher) => ({ cae: v.cae, caeDueDate: v.caeDueDate, issueDate: v.issueDate, nextAttemptAt: null, lastError: null });

function mismatchText(series: { pointOfSale: number; type: InvoiceType }, number: number, differences: string[]): string {
  return (
    `ARCA tiene autorizada la ${INVOICE_TYPE_LABELS[series.type]} N° ${formatInvoiceNumber(series.pointOfSale, number)}, pero no coincide con este comprobante (${differences.join("; ")}). ` +
    "Puede haberla emitido otro sistema en este punto de venta. Revisala en ARCA («Comprobantes en línea») antes de reintentar: al reintentar se pide un número nuevo."
  );
}

/**
 * A number was asked for `invoiceId` and its answer never stored. A last number below it means
 * ARCA did not authorise it: the invoice asks again. At or past it: the invoice takes the number
 * and, from FECompConsultar, its CAE — unless ARCA's voucher is not the one we asked for. Answers
 * the invoice when this settled it.
 */
export async function settleLostAnswer(ctx: InvoicingContext, client: ArcaClient, series: Series, invoiceId: string, number: number): Promise<Invoice | undefined> {
  const last = await client.lastAuthorized(series.pointOfSale, series.type as VoucherType);
  // Asked before the transaction: ARCA unreachable here leaves the note for the next attempt.
  const voucher = last >= number ? await client.voucher(series.pointOfSale, series.type as VoucherType, number) : null;
  return ctx.db.transaction(async (tx) => {
    await tx.update(invoiceSeries).set({ pendingInvoiceId: null, pendingNumber: null }).where(and(eq(invoiceSeries.businessId, series.businessId), eq(invoiceSeries.pointOfSale, series.pointOfSale), eq(invoiceSeries.type, series.type)));
    if (last < number) return undefined;
    const [inv] = await tx.select().from(invoices).where(and(eq(invoices.id, invoiceId), eq(invoices.status, "PENDING")));
    if (!inv) return undefined;
    const differences = voucher ? voucherDisagreement(inv, voucher) : [];
    const base = { type: series.type, pointOfSale: series.pointOfSale };
    let set: Partial<typeof invoices.$inferInsert>;
    if (differences.length > 0) {
      set = { ...base, status: "REJECTED", nextAttemptAt: null, lastError: mismatchText(series, number, differences) };
      ctx.logger.warn({ invoiceId, number, differences }, "factura: el comprobante que ARCA tiene con ese número no es el pedido");
    } else if (voucher) {
      set = { ...base, status: "AUTHORIZED", number, authorizedAt: ctx.now(), ...authorizedFrom(voucher) };
      ctx.logger.warn({ invoiceId, number }, "factura: ARCA había autorizado el número; CAE leído con FECompConsultar");
    } else {
      set = { ...base, status: "AUTHORIZED", number, authorizedAt: ctx.now(), nextAttemptAt: new Date(ctx.now().getTime() + backoffMs(1)), lastError: CAE_MISSING };
      ctx.logger.warn({ invoiceId, number }, "factura: ARCA había autorizado el número pero FECompConsultar no lo devolvió");
    }
    const [row] = await tx.update(invoices).set(set).where(eq(invoices.id, invoiceId)).returning();
    return row;
  });
}

/**
 * The sweep's part: authorised vouchers still without their CAE (FECompConsultar failed or said
 * nothing when they were recognised, or they were recognised before it was asked) read it from
 * ARCA, with backoff. Calls `authorized` for each that got its CAE.
 */
export async function completeMissingCaes(ctx: InvoicingContext, authorized: (inv: Invoice) => Promise<void>): Promise<void> {
  const missing = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.status, "AUTHORIZED"), isNull(invoices.cae), isNotNull(invoices.number), or(isNull(invoices.nextAttemptAt), lte(invoices.nextAttemptAt, ctx.now()))))
    .orderBy(asc(invoices.createdAt))
    .limit(20);
  for (const inv of missing) {
    const attempts = inv.attempts + 1;
    const later = { attempts, nextAttemptAt: new Date(ctx.now().getTime() + backoffMs(attempts)), lastError: CAE_MISSING };
    try {
      const client = await ctx.gateway.arcaFor(inv.businessId);
      const voucher = client ? await client.voucher(inv.pointOfSale!, inv.type as VoucherType, inv.number!) : null;
      const differences = voucher ? voucherDisagreement(inv, voucher) : [];
      // A voucher that is not this one cannot lend it its CAE; asking again would not change ARCA's answer.
      const set = !voucher ? later : differences.length ? { nextAttemptAt: null, lastError: mismatchText({ pointOfSale: inv.pointOfSale!, type: inv.type as InvoiceType }, inv.number!, differences) } : authorizedFrom(voucher);
      const [row] = await ctx.db.update(invoices).set(set).where(and(eq(invoices.id, inv.id), isNull(invoices.cae))).returning();
      if (row?.cae) await authorized(row);
    } catch (err) {
      ctx.logger.warn({ invoiceId: inv.id, err: err instanceof Error ? err.message : String(err) }, "factura: no pudimos consultar su CAE en ARCA");
      await ctx.db.update(invoices).set(later).where(eq(invoices.id, inv.id));
    }
  }
}
