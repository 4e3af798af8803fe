// A payment is approved by its provider, never by the driver's return URL: the provider's
// notification (a webhook) or our poll only says "look", and the verdict is what the provider
// answers when asked about our payment id. A verdict for another reference, another currency
// or (on approval) another amount is ignored. Every verdict, before approval and after it
// (disputes, chargebacks, refunds made in the provider's panel), goes through the payment's state
// machine (domain/payment-lifecycle.ts) and is written conditionally on the state it was read
// in: a repeated or late one changes nothing. An approval Enchufá does not use — after the
// checkout ended, or a second payment on the same checkout — is refunded in full.
import { and, eq } from "drizzle-orm";
import { chargingSessions, payments, type Payment } from "../db/schema";
import { approvedAfterCheckout, operationSuffix } from "../domain/driver-payment";
import { formatArs } from "../domain/money";
import { paymentTransition, type LifecycleEffect, type LifecycleEvent, type LifecycleMove } from "../domain/payment-lifecycle";
import { checkMercadoPagoSignature, ProviderError, type MercadoPagoCredentials } from "../infra/payments/mercadopago";
import { UUID_RE, type PaymentsContext } from "./deps";
import { PROVIDER_NAMES } from "./labels";
import { mailCompany, notifyCompany } from "./notify";
import { mercadoPago, mercadoPagoVerdict, providerAdapter, providerCredentials, refundsAutomatically, type Verdict } from "./providers";
import { sendReceipt } from "./receipt";
import { creditRefunded } from "./invoices";
import { refund } from "./refunds";
import { remoteStart } from "./start";
import type { WebhookResult } from "./types";

/** Reads the provider's verdicts for one of our payments and applies them (a failure is logged: the next poll asks again). */
export async function pollProvider(ctx: PaymentsContext, payment: Payment): Promise<void> {
  const adapter = await providerAdapter(ctx, payment.businessId, payment.provider);
  if (!adapter) return;
  try {
    for (const verdict of await adapter.readVerdicts(payment)) await applyVerdict(ctx, payment.id, verdict);
  } catch (err) {
    ctx.logger.warn({ paymentId: payment.id, err: err instanceof Error ? err.message : String(err) }, "pago con QR: no se pudo consultar al proveedor");
  }
}

const eventOf = (v: Verdict): LifecycleEvent => (v.kind === "REFUNDED" ? { kind: "REFUNDED", refundedCents: v.refundedCents } : { kind: v.kind });

/**
 * A provider's verdict on the payment `paymentId` (its external reference), applied to the row it
 * is about: the payment itself, or the row of a second provider payment made on its checkout.
 * A partial refund reported on an approved payment is an event of its own (REFUNDED with the amount).
 */
export async function applyVerdict(ctx: PaymentsContext, paymentId: string, v: Verdict): Promise<void> {
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.id, paymentId));
  if (!payment || payment.origin !== "QR") return;
  if (v.reference !== payment.id) {
    ctx.logger.warn({ paymentId }, "pago con QR: el pago del proveedor es de otra referencia, ignorado");
    return;
  }
  if (v.currency !== "ARS") {
    ctx.logger.warn({ paymentId, currency: v.currency }, "pago con QR: el pago del proveedor no es en pesos, ignorado");
    return;
  }
  let target = payment;
  if (payment.externalId && v.externalId !== payment.externalId) {
    // Another provider payment on the same checkout: the driver paid twice, or an attempt that failed.
    const [extra] = await ctx.db.select().from(payments).where(and(eq(payments.provider, payment.provider), eq(payments.externalId, v.externalId)));
    if (extra) target = extra;
    else if (v.kind === "APPROVED") return secondPayment(ctx, payment, v);
    else return;
  }
  if (v.kind === "APPROVED" && !target.externalId && v.amountCents !== target.amountCents) {
    ctx.logger.warn({ paymentId, expected: target.amountCents, got: v.amountCents }, "pago con QR: el monto aprobado no coincide, ignorado");
    return;
  }
  // A partial refund keeps the provider's status approved: the refunded amount says it.
  const event: LifecycleEvent = v.kind === "APPROVED" && (v.refundedCents ?? 0) > target.refundedCents ? { kind: "REFUNDED", refundedCents: v.refundedCents } : eventOf(v);
  // Approved after the checkout's validity ended: late, as if the sweep had given it up already.
  const late = target.step === "PAYING" && event.kind === "APPROVED" && approvedAfterCheckout(target.createdAt, v.approvedAt ?? null);
  const step = late ? "FAILED" : (target.step ?? "PAYING");
  const m = paymentTransition({ step, status: target.status, amountCents: target.amountCents, chargedCents: target.chargedCents, refundedCents: target.refundedCents }, event);
  if (!m) return;
  await applyMove(ctx, target, m, v);
}

/**
 * A charged-back payment's session is no longer paid: its payment status says CHARGED_BACK
 * (Contracargo), so Actividad and the dashboard's revenue stop counting it; a dispute won makes it
 * paid again. The session rollups are keyed by that status, so they follow by themselves.
 */
async function sessionFollowsChargeback(ctx: PaymentsContext, before: Payment, after: Payment): Promise<void> {
  if (!after.sessionId || before.status === after.status) return;
  const [from, to] = after.status === "CHARGED_BACK" ? (["PAID", "CHARGED_BACK"] as const) : before.status === "CHARGED_BACK" ? (["CHARGED_BACK", "PAID"] as const) : [null, null];
  if (!from) return;
  await ctx.db
    .update(chargingSessions)
    .set({ paymentStatus: to })
    .where(and(eq(chargingSessions.id, after.sessionId), eq(chargingSessions.businessId, after.businessId), eq(chargingSessions.paymentStatus, from)));
}

/** What the driver is told when a payment Enchufá did not use goes back. */
function unusedReason(p: Payment, why: string): string {
  return `${why} ${refundsAutomatically(p.provider) ? "Te devolvemos el total." : `La estación te devuelve el total por ${PROVIDER_NAMES[p.provider]}.`}`;
}

/** Writes a move conditionally on the state it was computed from, then does its effects (once: only the writer that moved it). */
async function applyMove(ctx: PaymentsContext, p: Payment, m: LifecycleMove, v: Verdict): Promise<void> {
  const n = m.next;
  const has = (e: LifecycleEffect) => m.effects.includes(e);
  const [moved] = await ctx.db
    .update(payments)
    .set({
      step: n.step,
      status: n.status,
      refundedCents: n.refundedCents,
      chargedCents: n.chargedCents,
      ...(v.kind === "APPROVED" && !p.externalId ? { externalId: v.externalId } : {}),
      ...(has("START") ? { startRequestedAt: ctx.now() } : {}),
      ...(has("NOTIFY_REJECTED") ? { failureReason: `${PROVIDER_NAMES[p.provider]} rechazó el pago. Podés intentarlo de nuevo con otro medio.` } : {}),
      ...(has("NOTIFY_CANCELLED") ? { failureReason: "El pago se canceló o venció. No te cobramos nada.", finishedAt: ctx.now() } : {}),
      ...(has("REFUND_UNUSED") ? { failureReason: unusedReason(p, "El pago se aprobó cuando ya había vencido o se había cancelado: no se usó."), finishedAt: null } : {}),
      ...(has("RECEIPT") ? { finishedAt: ctx.now(), failureReason: null, providerRefundId: null } : {}),
    })
    .where(and(eq(payments.id, p.id), eq(payments.step, p.step ?? "PAYING"), eq(payments.status, p.status), eq(payments.refundedCents, p.refundedCents)))
    .returning();
  if (!moved) return;
  ctx.logger.info({ paymentId: moved.id, from: `${p.step}/${p.status}`, to: `${moved.step}/${moved.status}` }, "pago con QR: el proveedor cambió el pago");
  await sessionFollowsChargeback(ctx, p, moved);
  await notifyMove(ctx, moved, m.effects, n.refundedCents - p.refundedCents);
  // Money that went back after the charge was invoiced calls for a credit note (the invoicing service decides how much, if any).
  if (moved.status !== p.status && (moved.status === "PARTIALLY_REFUNDED" || moved.status === "REFUNDED" || moved.status === "CHARGED_BACK")) await creditRefunded(ctx, moved.id);
  if (has("START")) {
    if (moved.chargerId) ctx.watched.add(moved.chargerId);
    await remoteStart(ctx, moved);
  }
  if (has("REFUND_UNUSED")) await refund(ctx, moved);
  if (has("RECEIPT")) await sendReceipt(ctx, moved);
}

/** The operator hears of a move (and, for a chargeback, gets an e-mail: it may need their answer to the provider). */
async function notifyMove(ctx: PaymentsContext, p: Payment, effects: LifecycleEffect[], refundedNow: number): Promise<void> {
  const provider = PROVIDER_NAMES[p.provider];
  const amount = formatArs(p.amountCents);
  const op = operationSuffix(p.externalId);
  const say = (type: Parameters<typeof notifyCompany>[2], title: string, body: string) => notifyCompany(ctx, p.businessId, type, title, body, `/payment`);
  for (const e of effects) {
    if (e === "NOTIFY_APPROVED") await say("PAYMENT_RECEIVED", "Pago recibido", `${provider}: ${amount} por una carga con QR.`);
    else if (e === "NOTIFY_REJECTED") await say("PAYMENT_FAILED", "Pago rechazado", `${provider} rechazó un pago de ${amount} por una carga con QR.`);
    else if (e === "NOTIFY_CANCELLED") await say("PAYMENT_FAILED", "Pago cancelado", `Un pago de ${amount} por una carga con QR se canceló.`);
    else if (e === "REFUND_UNUSED") await say("PAYMENT_UNUSED_REFUNDED", "Pago tardío devuelto", `${provider} aprobó un pago de ${amount}${op} cuando ya había vencido o se había cancelado: no se usó y se devuelve completo al conductor.`);
    else if (e === "NOTIFY_DISPUTED") await say("PAYMENT_DISPUTED", "Pago en disputa", `El conductor disputó un pago de ${amount} con ${provider}${op}. Respondé el reclamo desde ${provider}.`);
    else if (e === "NOTIFY_DISPUTE_WON") await say("PAYMENT_DISPUTE_WON", "Disputa resuelta a tu favor", `${provider} resolvió a tu favor la disputa de un pago de ${amount}${op}.`);
    else if (e === "NOTIFY_REFUNDED_OUTSIDE") await say("PAYMENT_REFUNDED_OUTSIDE", "Devolución desde " + provider, `Se devolvieron ${formatArs(refundedNow)} de un pago de ${amount}${op} desde ${provider}, fuera de Enchufá.`);
    else if (e === "NOTIFY_CHARGED_BACK") {
      const body = `El banco del conductor hizo un contracargo de un pago de ${amount} con ${provider}${op}: ese dinero ya no está en tu cuenta.`;
      await say("PAYMENT_CHARGED_BACK", "Contracargo", body);
      await mailCompany(ctx, p.businessId, `Contracargo de ${amount} en un pago con QR`, [body, `Podés ver el pago en Pagos y responder el reclamo desde ${provider}.`]);
    }
  }
}

/**
 * A second approved Mercado Pago payment on a checkout already paid (the driver paid from two
 * tabs): a row of its own, linked to the first, refunded in full at once. The unique provider
 * payment id makes it one row whatever the notifications and polls.
 */
async function secondPayment(ctx: PaymentsContext, first: Payment, v: Verdict): Promise<void> {
  const [extra] = await ctx.db
    .insert(payments)
    .values({
      businessId: first.businessId,
      provider: first.provider,
      amountCents: v.amountCents,
      currency: "ARS",
      status: "APPROVED",
      externalId: v.externalId,
      origin: "QR",
      step: "START_FAILED",
      stationId: first.stationId,
      chargerId: first.chargerId,
      connectorNumber: first.connectorNumber,
      driverEmail: first.driverEmail,
      checkoutId: first.checkoutId,
      chargedCents: 0,
      parentPaymentId: first.id,
      failureReason: unusedReason(first, "Pagaste dos veces la misma carga: este segundo pago no se usó."),
    })
    .onConflictDoNothing()
    .returning();
  if (!extra) return;
  ctx.logger.info({ paymentId: first.id, extraId: extra.id }, "pago con QR: segundo pago del mismo checkout, se devuelve");
  await notifyCompany(
    ctx,
    extra.businessId,
    "PAYMENT_UNUSED_REFUNDED",
    "Pago doble devuelto",
    `Un conductor pagó dos veces la misma carga con ${PROVIDER_NAMES[extra.provider]}: el segundo pago, de ${formatArs(extra.amountCents)}${operationSuffix(extra.externalId)}, se devuelve completo.`,
    `/payment`,
  );
  await refund(ctx, extra);
}

/** What Mercado Pago's notification carries: the webhook's data.id and type, or IPN's topic and id, and the signature headers. */
export interface MercadoPagoNotice {
  dataId?: string;
  type?: string;
  /** IPN format (?topic=payment|merchant_order&id=…): never signed. */
  topic?: string;
  id?: string;
  signature?: string;
  requestId?: string;
}

/** The provider payment ids a notification points at (a merchant order's payments are read from it). */
async function noticePayments(ctx: PaymentsContext, creds: MercadoPagoCredentials, n: MercadoPagoNotice): Promise<string[]> {
  const topic = n.type ?? n.topic;
  const id = n.dataId ?? n.id;
  if (!id || !/^[\w-]{1,64}$/.test(id)) return [];
  if (topic === "payment") return [id];
  if (topic === "merchant_order") return ((await mercadoPago(ctx, creds).getMerchantOrder(id)).payments ?? []).map((p) => String(p.id));
  return []; // other topics: nothing to do
}

/**
 * A Mercado Pago notification. A wrong signature is refused (401). Everything else — signed,
 * signed long ago (Mercado Pago retries keep the first `ts`), or unsigned (IPN, or a webhook
 * without x-signature, which Mercado Pago's own SDK allows) — is only a "look": the payment it
 * names is read back from Mercado Pago with the operator's token and applied when it is one of
 * this company's. A failed read answers 400, so Mercado Pago delivers it again (the poll covers it too).
 */
export async function mercadoPagoWebhook(ctx: PaymentsContext, businessId: string, n: MercadoPagoNotice): Promise<WebhookResult<200 | 400 | 401>> {
  if (!UUID_RE.test(businessId)) return { status: 401 };
  const creds = (await providerCredentials(ctx, businessId, "MERCADOPAGO")) as MercadoPagoCredentials | null;
  const signed = n.signature && creds?.webhookSecret ? checkMercadoPagoSignature({ signature: n.signature, requestId: n.requestId, dataId: n.dataId, secret: creds.webhookSecret }, ctx.now()) : "MISSING";
  if (signed === "INVALID" || (n.signature && !creds)) {
    ctx.logger.warn({ businessId, type: n.type, requestId: n.requestId }, "webhook de Mercado Pago con firma inválida, rechazado");
    return { status: 401 };
  }
  if (signed !== "VALID") ctx.logger.info({ businessId, topic: n.type ?? n.topic, signature: signed }, "aviso de Mercado Pago sin firma vigente: se consulta el pago");
  if (!creds?.accessToken) return { status: 200 };
  try {
    for (const id of await noticePayments(ctx, creds, n)) {
      const verdict = mercadoPagoVerdict(await mercadoPago(ctx, creds).getPayment(id));
      const reference = verdict.reference;
      if (!reference || !UUID_RE.test(reference)) continue;
      const [ours] = await ctx.db.select({ id: payments.id }).from(payments).where(and(eq(payments.id, reference), eq(payments.businessId, businessId)));
      if (ours) await applyVerdict(ctx, ours.id, verdict);
    }
  } catch (err) {
    // Mercado Pago does not know what the notice names (an unsigned notice anybody could send): nothing to retry.
    if (err instanceof ProviderError && err.status === 404) return { status: 200 };
    ctx.logger.warn({ businessId, err: err instanceof Error ? err.message : String(err) }, "webhook de Mercado Pago: no se pudo leer el pago");
    return { status: 400 };
  }
  return { status: 200 };
}

/**
 * A Pagos360 notification is unsigned: it only names a payment request, which is looked up among
 * this company's and read back from Pagos360 before anything is believed — after approval too
 * (a reversal, a refund made in Pagos360's panel).
 */
export async function pagos360Webhook(ctx: PaymentsContext, businessId: string, body: { entity_name?: unknown; entity_id?: unknown }): Promise<WebhookResult<200 | 400>> {
  if (!UUID_RE.test(businessId)) return { status: 400 };
  const entityId = typeof body.entity_id === "number" || typeof body.entity_id === "string" ? String(body.entity_id) : null;
  if (body.entity_name !== "PaymentRequest" || !entityId || !/^[\w-]{1,64}$/.test(entityId)) return { status: 200 };
  const [ours] = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.businessId, businessId), eq(payments.provider, "PAGOS360"), eq(payments.checkoutId, entityId)));
  if (ours) await pollProvider(ctx, ours);
  return { status: 200 };
}
