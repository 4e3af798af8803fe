// Money back to the driver: the unused balance after a charge (SETTLING → FINISHED), the whole
// amount when it never started (START_FAILED → REFUNDED), through the provider's refund call.
// A provider without one (Pagos360) leaves it owed by the operator (REFUND_PENDING) until the
// operator refunds it by hand and records it here. Each move is a conditional update on the step
// it leaves; a refund call carries an idempotency key derived from our payment id, so a retry
// after a lost answer gives one refund.
import { and, eq } from "drizzle-orm";
import { payments, stations, type Payment } from "../db/schema";
import { operationSuffix, refundOwed, type DriverStep } from "../domain/driver-payment";
import { formatArs } from "../domain/money";
import { ProviderError } from "../infra/payments/mercadopago";
import { NO_ID, type PaymentsContext } from "./deps";
import { PROVIDER_NAMES } from "./labels";
import { notifyCompany } from "./notify";
import { providerAdapter, refundsAutomatically } from "./providers";
import { afterCommit } from "../db/ambient";
import { invoiceSettled } from "./invoices";
import { sendReceipt, sendRefundMail } from "./receipt";
import type { RecordRefundResult } from "./types";

const PAYMENT_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The status of a payment once `refunded` of it went back (a dispute or chargeback keeps its own). */
export function refundedStatus(p: Payment, refunded: number): Payment["status"] {
  if (p.status === "IN_DISPUTE" || p.status === "CHARGED_BACK") return p.status;
  return refunded >= p.amountCents ? "REFUNDED" : refunded > 0 ? "PARTIALLY_REFUNDED" : "APPROVED";
}

/**
 * Refunds what a settled or failed payment still owes the driver, then ends it and sends the
 * receipt. Only a refund the provider reports approved counts: one in process is read back by
 * the sweep (its id is kept), a rejected one leaves the money owed by the operator
 * (REFUND_PENDING, told to them). A failure leaves the step as it was, with a message for the
 * driver: the sweep tries again. A charged-back payment owes nothing more: the bank gave it back.
 */
export async function refund(ctx: PaymentsContext, payment: Payment): Promise<void> {
  if (ctx.busy.has(payment.id)) return;
  ctx.busy.add(payment.id);
  try {
    const charged = payment.chargedCents ?? 0;
    const owed = payment.status === "CHARGED_BACK" ? 0 : payment.amountCents - charged - payment.refundedCents;
    const full = charged === 0;
    if (owed > 0 && !refundsAutomatically(payment.provider)) {
      // No refund call to make: owed by the operator, once — never retried by the sweep.
      await refundOwedByHand(ctx, payment, owed, full);
      return;
    }
    if (owed > 0) {
      if (!payment.externalId) throw new ProviderError("El pago no tiene id del proveedor.", 502);
      const adapter = await providerAdapter(ctx, payment.businessId, payment.provider);
      if (!adapter?.refund) throw new ProviderError("La cuenta del proveedor ya no está conectada.", 409);
      const outcome =
        payment.providerRefundId && adapter.readRefund
          ? await adapter.readRefund(payment.externalId, payment.providerRefundId)
          : await adapter.refund(payment.externalId, full ? undefined : owed, `enchufa-refund-${payment.id}`);
      if (outcome.status === "IN_PROCESS") {
        await ctx.db
          .update(payments)
          .set({ providerRefundId: outcome.refundId, failureReason: `${PROVIDER_NAMES[payment.provider]} está procesando tu reintegro: te avisamos cuando se acredite.` })
          .where(and(eq(payments.id, payment.id), eq(payments.step, payment.step!)));
        return;
      }
      if (outcome.status === "REJECTED") {
        await refundRejected(ctx, payment, owed, full);
        return;
      }
    }
    const next: DriverStep = payment.step === "START_FAILED" ? "REFUNDED" : "FINISHED";
    const unused = payment.step === "START_FAILED" && !payment.startRequestedAt;
    const refunded = payment.refundedCents + Math.max(0, owed);
    const [done] = await ctx.db
      .update(payments)
      .set({ step: next, refundedCents: refunded, status: refundedStatus(payment, refunded), providerRefundId: null, finishedAt: ctx.now(), ...(payment.step === "SETTLING" ? { failureReason: null } : {}) })
      .where(and(eq(payments.id, payment.id), eq(payments.step, payment.step!)))
      .returning();
    if (!done) return;
    if (owed > 0) {
      await notifyCompany(ctx, done.businessId, "PAYMENT_REFUNDED", full ? "Pago devuelto" : "Saldo devuelto", `Devolvimos ${formatArs(owed)} de un pago de ${formatArs(done.amountCents)} por una carga con QR${full && unused ? " que no se usó" : full ? " que no pudo iniciar" : ""}.`, `/payment`);
    }
    // A payment never asked to start (approved late, or paid twice) has no charge to receipt: the driver is told why it went back.
    if (unused && owed > 0) await sendRefundMail(ctx, done, owed, done.failureReason?.replace(/ Te devolvemos el total\.$/, "") ?? undefined);
    else {
      // The invoice first, so that a voucher ARCA authorises at once goes with the receipt.
      if ((done.chargedCents ?? 0) > 0) await invoiceSettled(ctx, done.id);
      await sendReceipt(ctx, done);
    }
  } catch (err) {
    const message = "No pudimos hacer el reintegro todavía: lo volvemos a intentar en unos minutos.";
    ctx.logger.warn({ paymentId: payment.id, err: err instanceof Error ? err.message : String(err) }, "pago con QR: reintegro pendiente");
    await ctx.db.update(payments).set({ failureReason: message }).where(eq(payments.id, payment.id));
  } finally {
    ctx.busy.delete(payment.id);
  }
}

/**
 * The provider rejected the refund: the money is still owed. The payment waits for the operator
 * (REFUND_PENDING, as for a provider without a refund call), who is told why; not retried, so a
 * refused refund is not attempted again and again.
 */
async function refundRejected(ctx: PaymentsContext, payment: Payment, owed: number, full: boolean): Promise<void> {
  const provider = PROVIDER_NAMES[payment.provider];
  const [pending] = await ctx.db
    .update(payments)
    .set({ step: "REFUND_PENDING", providerRefundId: null, failureReason: `${provider} rechazó el reintegro: la estación te devuelve ${formatArs(owed)} y te avisamos por correo.` })
    .where(and(eq(payments.id, payment.id), eq(payments.step, payment.step!)))
    .returning();
  if (!pending) return;
  ctx.logger.warn({ paymentId: pending.id, owedCents: owed }, "pago con QR: el proveedor rechazó el reintegro, queda a cargo de la empresa");
  await notifyCompany(
    ctx,
    pending.businessId,
    "PAYMENT_REFUND_PENDING",
    "Devolución rechazada",
    `${provider} rechazó la devolución de ${formatArs(owed)} de un pago de ${formatArs(pending.amountCents)}${operationSuffix(pending.externalId)}${full ? "" : " (saldo no usado)"}. Se le sigue debiendo al conductor: devolvéselo desde ${provider} y registralo en Pagos.`,
    `/payment?step=REFUND_PENDING&refund=${pending.id}`,
  );
}

/**
 * SETTLING / START_FAILED → REFUND_PENDING for a provider without a refund call (Pagos360): the
 * receipt goes out with what is owed, and the operator is told to refund it by hand and record
 * it. A conditional update on the step it leaves: one notification and one receipt, whatever
 * the nodes and sweeps; REFUND_PENDING is not swept, so the provider is never asked again.
 */
async function refundOwedByHand(ctx: PaymentsContext, payment: Payment, owed: number, full: boolean): Promise<void> {
  const [pending] = await ctx.db
    .update(payments)
    // A start that failed keeps its reason, now saying the station refunds it (a reason written as "Te devolvemos el total" is reworded).
    .set({ step: "REFUND_PENDING", failureReason: payment.step === "SETTLING" ? null : (payment.failureReason?.replace(/ Te devolvemos el total\.$/, ` La estación te devuelve el total por ${PROVIDER_NAMES[payment.provider]}.`) ?? null) })
    .where(and(eq(payments.id, payment.id), eq(payments.step, payment.step!)))
    .returning();
  if (!pending) return;
  ctx.logger.info({ paymentId: pending.id, owedCents: owed }, "pago con QR: devolución pendiente, a cargo de la empresa");
  if ((pending.chargedCents ?? 0) > 0) await invoiceSettled(ctx, pending.id);
  const [place] = await ctx.db.select({ stationName: stations.name }).from(stations).where(eq(stations.id, pending.stationId ?? NO_ID));
  const provider = PROVIDER_NAMES[pending.provider];
  await notifyCompany(
    ctx,
    pending.businessId,
    "PAYMENT_REFUND_PENDING",
    "Devolución pendiente",
    `Tenés que devolver ${formatArs(owed)} de un pago de ${formatArs(pending.amountCents)} con ${provider}${operationSuffix(pending.externalId)} por una carga con QR${place?.stationName ? ` en ${place.stationName}` : ""}${full ? " que no pudo iniciar" : ""}. ${provider} no hace devoluciones automáticas: devolvéselo desde ${provider} y registralo en Pagos.`,
    `/payment?step=REFUND_PENDING&refund=${pending.id}`,
  );
  await sendReceipt(ctx, pending);
}

/**
 * The operator refunded a driver by hand (Pagos360) and records it: REFUND_PENDING → FINISHED
 * (REFUNDED when nothing was charged), the refunded amount (what is owed unless said otherwise:
 * more than 0 and at most what is owed), an e-mail to the driver, a notification. Scoped to the
 * company; a second call finds nothing owed (409), so a retry cannot record it twice.
 */
export async function recordRefund(ctx: PaymentsContext, businessId: string, paymentId: string, amountCents?: number): Promise<RecordRefundResult> {
  const notFound = { ok: false, status: 404, message: "El pago no existe." } as const;
  if (!PAYMENT_ID_RE.test(paymentId)) return notFound;
  const [payment] = await ctx.db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.businessId, businessId)));
  if (!payment) return notFound;
  // A provider that refunds by itself has nothing to record, unless it refused a refund (REFUND_PENDING).
  if (payment.origin === "QR" && refundsAutomatically(payment.provider) && payment.step !== "REFUND_PENDING") {
    return { ok: false, status: 409, message: `${PROVIDER_NAMES[payment.provider]} devuelve los saldos automáticamente: no hay nada que registrar.` };
  }
  const owed = refundOwed(payment);
  if (payment.origin !== "QR" || payment.step !== "REFUND_PENDING" || owed <= 0) {
    return { ok: false, status: 409, message: "Este pago no tiene una devolución pendiente." };
  }
  const amount = amountCents ?? owed;
  if (!Number.isSafeInteger(amount) || amount <= 0) return { ok: false, status: 422, field: "amountCents", message: "Ingresá el monto que devolviste: tiene que ser mayor que cero." };
  if (amount > owed) return { ok: false, status: 422, field: "amountCents", message: `No podés registrar más de lo que se debe: ${formatArs(owed)}.` };
  const refunded = payment.refundedCents + amount;
  const [done] = await ctx.db
    .update(payments)
    .set({
      step: (payment.chargedCents ?? 0) === 0 && !payment.sessionId ? "REFUNDED" : "FINISHED",
      refundedCents: refunded,
      status: refundedStatus(payment, refunded),
      finishedAt: ctx.now(),
    })
    .where(and(eq(payments.id, payment.id), eq(payments.businessId, businessId), eq(payments.step, "REFUND_PENDING"), eq(payments.refundedCents, payment.refundedCents)))
    .returning();
  if (!done) return { ok: false, status: 409, message: "Este pago no tiene una devolución pendiente." };
  ctx.logger.info({ paymentId: done.id, refundedCents: amount }, "pago con QR: devolución registrada por la empresa");
  await notifyCompany(
    ctx,
    done.businessId,
    "PAYMENT_REFUNDED",
    "Devolución registrada",
    `Registraste la devolución de ${formatArs(amount)} de un pago de ${formatArs(done.amountCents)} con ${PROVIDER_NAMES[done.provider]}${operationSuffix(done.externalId)} por una carga con QR.`,
    `/payment`,
  );
  // The driver hears of it once it is recorded for good (the refund is an audited write: api/access.ts).
  await afterCommit(() => sendRefundMail(ctx, done, amount));
  return { ok: true, payment: done };
}
