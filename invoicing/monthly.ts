// The monthly close of customers who charge with tags (ADR 0050): an access group with billing
// data and «Facturar mensualmente» gets one invoice for the sessions of its tags that ended in
// the previous Argentine month and were not paid by QR, priced as each session was (its stored
// total; its VAT from the rate snapshot's rate). The invoice then goes through the same numbering
// and queue as every voucher (issue.ts).
//
// One invoice per group and month on any number of nodes: the invoice row and its sessions are
// written in one transaction, and the unique (group, month) key makes a second close — a rerun,
// another node at the same moment — write nothing. Each session is invoiced once (it is the key
// of invoice_sessions), so a session recorded late, after its month was closed, goes into the
// next month's invoice instead of being lost.
import { and, asc, eq, gte, inArray, isNull, lt, notExists, sql } from "drizzle-orm";
import { accessGroups, chargingSessions, invoices, invoiceSessions, payments, rfidTags, type AccessGroup, type Invoice } from "../db/schema";
import { amountColumns, invoiceAmountsByRate, invoiceTypeFor, previousBillingMonth, receiverColumns, receiverDocument, type BillingMonth, type Receiver, type SaleLine } from "../domain/invoice";
import { DEFAULT_VAT_RATE_BP } from "../domain/pricing";
import type { FiscalSettings } from "../domain/arca-port";
import { argentineDate, type InvoicingContext } from "./deps";

/** How many groups one pass closes; the next pass takes the rest. */
const GROUPS_PER_PASS = 100;

/**
 * Closes the month before `now` for every group that invoices monthly and has no invoice for it
 * yet; answers the invoices it created (to be asked to ARCA by the caller).
 */
export async function closeMonth(ctx: InvoicingContext): Promise<Invoice[]> {
  const month = previousBillingMonth(ctx.now());
  const groups = await ctx.db
    .select()
    .from(accessGroups)
    .where(
      and(
        eq(accessGroups.billingMonthly, true),
        notExists(
          ctx.db
            .select({ id: invoices.id })
            .from(invoices)
            .where(and(eq(invoices.accessGroupId, accessGroups.id), eq(invoices.billingMonth, month.month), isNull(invoices.creditNoteOf))),
        ),
      ),
    )
    .orderBy(asc(accessGroups.id))
    .limit(GROUPS_PER_PASS);
  const created: Invoice[] = [];
  for (const group of groups) {
    try {
      const settings = await ctx.gateway.fiscalSettings(group.businessId);
      if (!settings) continue;
      const inv = await closeGroup(ctx, group, month, settings);
      if (inv) created.push(inv);
    } catch (err) {
      ctx.logger.warn({ groupId: group.id, month: month.month, err: err instanceof Error ? err.message : String(err) }, "factura mensual: no se pudo cerrar el mes del grupo");
    }
  }
  return created;
}

/**
 * The group's invoice for `month`, with the sessions it covers, in one transaction; undefined
 * when the group charged nothing to invoice or another close wrote the month first.
 */
export async function closeGroup(ctx: InvoicingContext, group: AccessGroup, month: BillingMonth, settings: FiscalSettings): Promise<Invoice | undefined> {
  if (!group.billingMonthly || !group.billingCuit || !group.billingName || !group.billingTaxCondition) return undefined;
  const receiver: Receiver = { kind: "CUIT", cuit: group.billingCuit, name: group.billingName, condition: group.billingTaxCondition };
  return ctx.db.transaction(async (tx) => {
    const sessions = await sessionsToInvoice(tx, group, month);
    if (sessions.length === 0) return undefined;
    const lines: SaleLine[] = sessions.map((s) => ({ totalCents: s.totalCents, vatRateBp: s.rate?.vatRateBp ?? DEFAULT_VAT_RATE_BP }));
    const type = invoiceTypeFor(settings.taxCondition, receiver);
    const amounts = invoiceAmountsByRate(lines, type);
    const rates = new Set(lines.map((l) => l.vatRateBp));
    const doc = receiverDocument(receiver);
    const firstDay = sessions.map((s) => argentineDate(s.stoppedAt)).reduce((a, b) => (a < b ? a : b));
    const [inv] = await tx
      .insert(invoices)
      .values({
        businessId: group.businessId,
        type,
        pointOfSale: settings.pointOfSale,
        ...amountColumns(amounts),
        vatRateBp: rates.size === 1 ? lines[0].vatRateBp : null,
        ...receiverColumns(doc),
        receiverName: receiver.name,
        accessGroupId: group.id,
        billingMonth: month.month,
        issueDate: argentineDate(ctx.now()),
        serviceFrom: firstDay < month.month ? firstDay : month.month,
        serviceTo: month.lastDay,
        nextAttemptAt: ctx.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!inv) return undefined;
    await tx.insert(invoiceSessions).values(sessions.map((s, i) => ({ sessionId: s.id, invoiceId: inv.id, totalCents: s.totalCents, vatRateBp: lines[i].vatRateBp })));
    ctx.logger.info({ invoiceId: inv.id, groupId: group.id, month: month.month, sessions: sessions.length }, "factura mensual: creada");
    return inv;
  });
}

type Tx = Parameters<Parameters<InvoicingContext["db"]["transaction"]>[0]>[0];

/**
 * The group's sessions a close of `month` invoices: ended (COMPLETED) with something to charge,
 * by a tag of the group, not paid by QR, not invoiced yet, and ended before the month's end —
 * in the month, or in the one before it and recorded after that month was closed — and not
 * before monthly invoicing was switched on.
 */
async function sessionsToInvoice(tx: Tx, group: AccessGroup, month: BillingMonth) {
  const monthBefore = previousBillingMonth(month.start);
  const since = group.billingSince && group.billingSince > monthBefore.start ? group.billingSince : monthBefore.start;
  const tags = tx
    .select({ idTag: sql`lower(${rfidTags.idTag})` })
    .from(rfidTags)
    .where(and(eq(rfidTags.businessId, group.businessId), eq(rfidTags.groupId, group.id)));
  const rows = await tx
    .select({ id: chargingSessions.id, totalCents: chargingSessions.totalCents, stoppedAt: chargingSessions.stoppedAt, rate: chargingSessions.rateSnapshot })
    .from(chargingSessions)
    .where(
      and(
        eq(chargingSessions.businessId, group.businessId),
        eq(chargingSessions.status, "COMPLETED"),
        gte(chargingSessions.stoppedAt, since),
        lt(chargingSessions.stoppedAt, month.end),
        sql`${chargingSessions.totalCents} > 0`,
        inArray(sql`lower(${chargingSessions.idTag})`, tags),
        notExists(tx.select({ id: payments.id }).from(payments).where(and(eq(payments.sessionId, chargingSessions.id), eq(payments.origin, "QR")))),
        notExists(tx.select({ id: invoiceSessions.sessionId }).from(invoiceSessions).where(eq(invoiceSessions.sessionId, chargingSessions.id))),
      ),
    )
    .orderBy(asc(chargingSessions.stoppedAt), asc(chargingSessions.id));
  return rows.filter((r): r is typeof r & { stoppedAt: Date } => r.stoppedAt !== null);
}
