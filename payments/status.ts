// The driver's status page: their payment, found by its id and the secret of their link, with
// the charge so far and the receipt once it ends.
import { and, eq } from "drizzle-orm";
import { chargers, chargingSessions, payments, stations, type Payment } from "../db/schema";
import { costSoFar } from "../domain/driver-payment";
import { pollProvider } from "./approval";
import { NO_ID, UUID_RE, type PaymentsContext } from "./deps";
import { linkTokenMatches } from "./link";
import { receiptOf } from "./receipt";
import type { PaymentView } from "./types";

/** How often the return page may ask the provider itself while no notification came (ms). */
const PAGE_POLL_MS = 5_000;

/** A QR payment whose link secret is `token`; null for any other id or secret. */
export async function byToken(ctx: PaymentsContext, paymentId: string, token: string): Promise<Payment | null> {
  if (!UUID_RE.test(paymentId) || !token) return null;
  const [payment] = await ctx.db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.origin, "QR")));
  if (!payment || !linkTokenMatches(payment.accessTokenHash, token)) return null;
  return payment;
}

/** The charge of a payment as the page shows it: so far while it runs, its total once closed. */
async function sessionView(ctx: PaymentsContext, payment: Payment): Promise<PaymentView["session"]> {
  if (!payment.sessionId) return null;
  const [s] = await ctx.db
    .select({ s: chargingSessions, timeZone: stations.timeZone })
    .from(chargingSessions)
    .leftJoin(stations, eq(stations.id, chargingSessions.stationId))
    .where(eq(chargingSessions.id, payment.sessionId));
  if (!s) return null;
  const closed = s.s.status === "COMPLETED" || s.s.status === "INVALID";
  const price = closed ? null : costSoFar(s.s.rateSnapshot, s.s, ctx.now(), s.timeZone ?? undefined);
  const end = s.s.stoppedAt ?? ctx.now();
  return {
    startedAt: s.s.startedAt.toISOString(),
    stoppedAt: s.s.stoppedAt?.toISOString() ?? null,
    energyWh: s.s.energyWh,
    minutes: Math.floor((end.getTime() - s.s.startedAt.getTime()) / 60_000),
    costCents: closed ? s.s.totalCents : price ? Math.min(price.totalCents, payment.amountCents) : null,
    status: s.s.status,
    price,
  };
}

/** The PDF of a QR payment's authorised invoice, found by the payment's id and its link's secret: the driver needs no sign-in, and nobody else gets it. */
export async function invoicePdf(ctx: PaymentsContext, paymentId: string, token: string): Promise<{ filename: string; bytes: Buffer } | null> {
  const payment = await byToken(ctx, paymentId, token);
  if (!payment || !ctx.invoicing) return null;
  const inv = await ctx.invoicing.receiptInvoice(payment.id, false);
  if (!inv?.line) return null;
  return ctx.invoicing.pdf(inv.businessId, inv.id);
}

export async function view(ctx: PaymentsContext, paymentId: string, token: string): Promise<PaymentView | null> {
  let payment = await byToken(ctx, paymentId, token);
  if (!payment) return null;
  // The return page asks the provider itself while no notification has come.
  if (payment.step === "PAYING" && payment.checkoutUrl && Date.now() - (ctx.lastPoll.get(payment.id) ?? 0) > PAGE_POLL_MS) {
    ctx.lastPoll.set(payment.id, Date.now());
    await pollProvider(ctx, payment);
    payment = (await byToken(ctx, paymentId, token)) ?? payment;
  }
  const [place] = await ctx.db
    .select({ stationName: stations.name, chargerName: chargers.name })
    .from(chargers)
    .leftJoin(stations, eq(stations.id, chargers.stationId))
    .where(eq(chargers.id, payment.chargerId ?? NO_ID));
  const session = await sessionView(ctx, payment);
  return {
    id: payment.id,
    provider: payment.provider,
    step: payment.step ?? "PAYING",
    status: payment.status,
    amountCents: payment.amountCents,
    chargedCents: payment.chargedCents,
    refundedCents: payment.refundedCents,
    checkoutUrl: payment.step === "PAYING" ? payment.checkoutUrl : null,
    failureReason: payment.failureReason,
    stationName: place?.stationName ?? "",
    chargerName: place?.chargerName ?? "",
    connectorNumber: payment.connectorNumber ?? 0,
    createdAt: payment.createdAt.toISOString(),
    session,
    canStop: payment.step === "CHARGING" && session?.status === "ACTIVE",
    stopRequested: payment.stopRequestedAt !== null,
    receipt: await receiptOf(ctx, payment),
  };
}
