// The driver's receipt (on the status page and by e-mail once the payment ends), and the e-mail
// telling them the station refunded them by hand.
import { and, eq, sql } from "drizzle-orm";
import { businessUsers, chargers, chargingSessions, payments, stations, type ChargingSession, type Payment } from "../db/schema";
import { formatCuit } from "../domain/cuit";
import { operationSuffix, refundOwed } from "../domain/driver-payment";
import { formatArs } from "../domain/money";
import { chargedPrice, DEFAULT_VAT_RATE_BP } from "../domain/pricing";
import { escapeHtml } from "../infra/mail";
import { NO_ID, type PaymentsContext } from "./deps";
import { pendingRefundLine, PROVIDER_NAMES } from "./labels";
import type { Receipt } from "./types";

/** The receipt's line while the fiscal voucher waits for ARCA: it follows in an e-mail of its own (invoicing/mail.ts). */
const INVOICE_PENDING_LINE = "Tu factura está en trámite con ARCA: te la enviamos por correo apenas la autorice.";

/** The receipt of a payment that ended (or waits for a refund by hand); null before that. */
export async function receiptOf(ctx: PaymentsContext, payment: Payment): Promise<Receipt | null> {
  if (payment.step !== "FINISHED" && payment.step !== "REFUNDED" && payment.step !== "REFUND_PENDING") return null;
  const [row] = await ctx.db
    .select({ business: businessUsers, station: stations, chargerName: chargers.name, session: chargingSessions })
    .from(payments)
    .innerJoin(businessUsers, eq(businessUsers.id, payments.businessId))
    .leftJoin(stations, eq(stations.id, payments.stationId))
    .leftJoin(chargers, eq(chargers.id, payments.chargerId))
    .leftJoin(chargingSessions, eq(chargingSessions.id, payments.sessionId))
    .where(eq(payments.id, payment.id));
  if (!row) return null;
  const s = row.session;
  const ended = s?.chargingEndedAt ?? s?.stoppedAt ?? null;
  return {
    ...receiptLines(s, payment.chargedCents ?? 0),
    companyName: row.business.businessName,
    cuit: row.business.cuit ? formatCuit(row.business.cuit) : null,
    stationName: row.station?.name ?? "",
    address: row.station ? `${row.station.address}, ${row.station.city}` : "",
    chargerName: row.chargerName ?? "",
    connectorNumber: payment.connectorNumber ?? 0,
    startedAt: (s?.startedAt ?? payment.createdAt).toISOString(),
    endedAt: (s?.unpluggedAt ?? s?.stoppedAt)?.toISOString() ?? null,
    energyWh: s?.energyWh ?? 0,
    chargingMinutes: s && ended ? Math.floor((ended.getTime() - s.startedAt.getTime()) / 60_000) : 0,
    idleMinutes: s?.idleMinutes ?? 0,
    prepaidCents: payment.amountCents,
    chargedCents: payment.chargedCents ?? 0,
    refundedCents: payment.refundedCents,
    pendingRefundCents: payment.step === "REFUND_PENDING" ? refundOwed(payment) : 0,
    provider: payment.provider,
    providerPaymentId: payment.externalId,
    ...(await receiptInvoiceState(ctx, payment)),
  };
}

/** The receipt's word on the fiscal voucher: its line once authorised, or that it waits for ARCA. */
async function receiptInvoiceState(ctx: PaymentsContext, payment: Payment): Promise<Pick<Receipt, "invoice" | "invoicePending">> {
  const inv = (payment.chargedCents ?? 0) > 0 ? await ctx.invoicing?.receiptInvoice(payment.id, false) : null;
  return { invoice: inv?.line ?? null, invoicePending: !!inv && !inv.line };
}

/**
 * The receipt's lines: the session's price as charged, so they add up to what the driver paid
 * to the centavo (domain/pricing chargedPrice), sessions priced before their lines were capped
 * included.
 */
function receiptLines(s: ChargingSession | null, chargedCents: number): Pick<Receipt, "breakdown" | "bands" | "bandsEstimated"> {
  if (!s) return { breakdown: { energyCents: 0, timeCents: 0, sessionFeeCents: 0, idleCents: 0, vatCents: 0, totalCents: 0 }, bands: [], bandsEstimated: false };
  const vatIncluded = s.rateSnapshot?.vatIncluded ?? true;
  const lines = s.energyCents + s.timeCents + s.sessionFeeCents + s.idleCents;
  const priced = { energyCents: s.energyCents, timeCents: s.timeCents, sessionFeeCents: s.sessionFeeCents, idleCents: s.idleCents, subtotalCents: lines, vatCents: s.vatCents, totalCents: lines + (vatIncluded ? 0 : s.vatCents) };
  const p = chargedPrice(priced, chargedCents, { vatIncluded, vatRateBp: s.rateSnapshot?.vatRateBp ?? DEFAULT_VAT_RATE_BP });
  const bandLines = s.priceBands?.lines ?? [];
  const amounts = shareCents(
    bandLines.map((l) => l.energyCents + l.timeCents),
    p.energyCents + p.timeCents,
  );
  return {
    breakdown: { energyCents: p.energyCents, timeCents: p.timeCents, sessionFeeCents: p.sessionFeeCents, idleCents: p.idleCents, vatCents: p.vatCents, totalCents: p.totalCents },
    bands: bandLines.map((l, i) => ({ label: l.label, energyWh: Math.round(l.energyWh), minutes: Math.round(l.minutes), amountCents: amounts[i] })),
    bandsEstimated: s.priceBands?.estimated ?? false,
  };
}

/**
 * Amounts that add up to `target`: as they are when they already do; otherwise (a prepaid
 * session charged less than its price) each scaled down by its share, the centavos left going
 * one each to the largest cut fractions, ties to the earlier band, as the receipt's lines are.
 */
function shareCents(amounts: number[], target: number): number[] {
  const sum = amounts.reduce((a, b) => a + b, 0);
  if (sum === target || sum === 0) return amounts;
  const exact = amounts.map((a) => (a * target) / sum);
  const out = exact.map(Math.floor);
  let left = target - out.reduce((a, b) => a + b, 0);
  const byCut = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest);
  for (const { i } of byCut) {
    if (left <= 0) break;
    out[i] += 1;
    left -= 1;
  }
  return out;
}

/** The receipt's text, one line each (blank lines separate its parts). */
function receiptText(r: Receipt): string[] {
  const kwh = (r.energyWh / 1000).toLocaleString("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return [
    `${r.companyName}${r.cuit ? ` · CUIT ${r.cuit}` : ""}`,
    `${r.stationName} · ${r.address}`,
    `${r.chargerName} · conector ${r.connectorNumber}`,
    "",
    `Energía cargada: ${kwh} kWh`,
    `Tiempo de carga: ${r.chargingMinutes} min${r.idleMinutes ? ` · tiempo inactivo: ${r.idleMinutes} min` : ""}`,
    ...r.bands.map((b) => `${b.label}: ${(b.energyWh / 1000).toLocaleString("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} kWh · ${b.minutes} min · ${formatArs(b.amountCents)}`),
    ...(r.bandsEstimated ? ["Energía por franja estimada entre lecturas"] : []),
    `Cargo por energía ${formatArs(r.breakdown.energyCents)} · Cargo por tiempo ${formatArs(r.breakdown.timeCents)} · Cargo fijo ${formatArs(r.breakdown.sessionFeeCents)} · Penalidad ${formatArs(r.breakdown.idleCents)}`,
    `IVA incluido: ${formatArs(r.breakdown.vatCents)}`,
    "",
    `Pagaste por adelantado: ${formatArs(r.prepaidCents)} con ${PROVIDER_NAMES[r.provider]}${operationSuffix(r.providerPaymentId)}`,
    `Cobrado: ${formatArs(r.chargedCents)}`,
    `Devuelto: ${formatArs(r.refundedCents)}`,
    ...(r.pendingRefundCents > 0 ? [pendingRefundLine(r.pendingRefundCents), "Pagos360 no hace devoluciones automáticas: la estación te lo devuelve en unos días hábiles y te avisamos por correo."] : []),
  ];
}

/**
 * E-mails the receipt once: the payment is claimed (receiptSentAt) before sending, so two nodes
 * send it once; a failed send releases the claim for the next try.
 */
export async function sendReceipt(ctx: PaymentsContext, payment: Payment): Promise<void> {
  if (!payment.driverEmail) return;
  const [claimed] = await ctx.db
    .update(payments)
    .set({ receiptSentAt: ctx.now() })
    .where(and(eq(payments.id, payment.id), sql`${payments.receiptSentAt} is null`))
    .returning();
  if (!claimed) return;
  const r = await receiptOf(ctx, claimed);
  if (!r) return;
  const lines = receiptText(r);
  // The fiscal voucher, when ARCA authorised it before the receipt goes out; otherwise it follows in an e-mail of its own.
  const invoice = r.chargedCents > 0 ? await ctx.invoicing?.receiptInvoice(payment.id, true).catch(() => null) : null;
  if (invoice?.line) lines.push("", invoice.line);
  else if (invoice) lines.push("", INVOICE_PENDING_LINE);
  const subject =
    r.chargedCents > 0
      ? `Tu carga en ${r.stationName}: ${formatArs(r.chargedCents)}`
      : r.pendingRefundCents > 0
        ? `La carga en ${r.stationName} no inició: la estación te devuelve ${formatArs(r.pendingRefundCents)}`
        : `Te devolvimos ${formatArs(r.refundedCents)}: la carga en ${r.stationName} no inició`;
  try {
    await ctx.mailer.send({
      to: payment.driverEmail,
      subject,
      text: `Comprobante de ${ctx.appName}\n\n${lines.join("\n")}\n`,
      html: `<h1>Comprobante de carga</h1>${lines.map((l) => (l ? `<p>${escapeHtml(l)}</p>` : "")).join("")}`,
      kind: "receipt",
      ...(invoice?.attachment ? { attachments: [invoice.attachment] } : {}),
    });
  } catch (err) {
    ctx.logger.warn({ paymentId: payment.id, err: err instanceof Error ? err.message : String(err) }, "pago con QR: no se pudo enviar el comprobante");
    await ctx.db.update(payments).set({ receiptSentAt: null }).where(eq(payments.id, payment.id));
  }
}

/**
 * "Te devolvimos $X": the driver hears that the station refunded them by hand, or that a payment
 * Enchufá did not use went back (`why`: paid twice, paid after the checkout ended). Not retried
 * (the refund itself is recorded).
 */
export async function sendRefundMail(ctx: PaymentsContext, payment: Payment, amount: number, why?: string): Promise<void> {
  if (!payment.driverEmail) return;
  const [row] = await ctx.db
    .select({ companyName: businessUsers.businessName, cuit: businessUsers.cuit, stationName: stations.name })
    .from(businessUsers)
    .leftJoin(stations, eq(stations.id, payment.stationId ?? NO_ID))
    .where(eq(businessUsers.id, payment.businessId));
  const provider = PROVIDER_NAMES[payment.provider];
  const lines = [
    `${row?.companyName ?? ""}${row?.cuit ? ` · CUIT ${formatCuit(row.cuit)}` : ""}`,
    `Carga con QR${row?.stationName ? ` en ${row.stationName}` : ""}`,
    "",
    ...(why ? [why] : []),
    `Te devolvimos ${formatArs(amount)} por ${provider}${operationSuffix(payment.externalId)}.`,
    `Pagaste por adelantado: ${formatArs(payment.amountCents)}`,
    `Cobrado: ${formatArs(payment.chargedCents ?? 0)}`,
    `Devuelto: ${formatArs(payment.refundedCents)}`,
    "",
    `Según tu medio de pago, puede tardar unos días hábiles en verse en tu cuenta.`,
  ];
  try {
    await ctx.mailer.send({
      to: payment.driverEmail,
      subject: `Te devolvimos ${formatArs(amount)}${row?.stationName ? `: tu carga en ${row.stationName}` : ""}`,
      text: `${ctx.appName}\n\n${lines.join("\n")}\n`,
      html: `<h1>Te devolvimos ${escapeHtml(formatArs(amount))}</h1>${lines.map((l) => (l ? `<p>${escapeHtml(l)}</p>` : "")).join("")}`,
      kind: "refund",
    });
  } catch (err) {
    ctx.logger.warn({ paymentId: payment.id, err: err instanceof Error ? err.message : String(err) }, "pago con QR: no se pudo avisar la devolución al conductor");
  }
}
