// A payment is approved by its provider, never by the driver's return URL: the provider's
// notification (a webhook) or our poll only says "look", and the verdict is what the provider
// answers when asked about our payment id. A verdict for another reference or another amount is
// ignored; a repeated one finds the payment moved on (each move is conditional on PAYING).
import { and, eq, sql } from "drizzle-orm";
import { payments, type Payment } from "../db/schema";
import { formatArs } from "../domain/money";
import { verifyMercadoPagoSignature, type MercadoPagoCredentials } from "../infra/payments/mercadopago";
import { UUID_RE, type PaymentsContext } from "./deps";
import { PROVIDER_NAMES } from "./labels";
import { notifyCompany } from "./notify";
import { mercadoPago, mercadoPagoVerdict, providerAdapter, providerCredentials, type Verdict } from "./providers";
import { remoteStart } from "./start";
import type { WebhookResult } from "./types";

/** Reads the provider's verdict for one of our payments and applies it (a failure is logged: the next poll asks again). */
export async function pollProvider(ctx: PaymentsContext, payment: Payment): Promise<void> {
  const adapter = await providerAdapter(ctx, payment.businessId, payment.provider);
  if (!adapter) return;
  try {
    const verdict = await adapter.readVerdict(payment);
    if (verdict) await applyVerdict(ctx, payment.id, verdict);
  } catch (err) {
    ctx.logger.warn({ paymentId: payment.id, err: err instanceof Error ? err.message : String(err) }, "pago con QR: no se pudo consultar al proveedor");
  }
}

/**
 * PAYING → STARTING on an approval of the whole amount (then the remote start); a rejection
 * keeps the payment open (the checkout lets the driver try another card); a cancellation ends it.
 */
export async function applyVerdict(ctx: PaymentsContext, paymentId: string, v: Verdict): Promise<void> {
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.id, paymentId));
  if (!payment || payment.origin !== "QR") return;
  if (v.reference !== payment.id) {
    ctx.logger.warn({ paymentId }, "pago con QR: el pago del proveedor es de otra referencia, ignorado");
    return;
  }
  if (payment.step !== "PAYING") return; // already moved on: a repeated notification
  if (v.status === "APPROVED") {
    if (v.amountCents !== payment.amountCents) {
      ctx.logger.warn({ paymentId, expected: payment.amountCents, got: v.amountCents }, "pago con QR: el monto aprobado no coincide, ignorado");
      return;
    }
    const [moved] = await ctx.db
      .update(payments)
      .set({ status: "APPROVED", externalId: v.externalId, step: "STARTING", startRequestedAt: ctx.now() })
      .where(and(eq(payments.id, paymentId), eq(payments.step, "PAYING")))
      .returning();
    if (!moved) return;
    if (moved.chargerId) ctx.watched.add(moved.chargerId);
    await notifyCompany(ctx, moved.businessId, "PAYMENT_RECEIVED", "Pago recibido", `${PROVIDER_NAMES[moved.provider]}: ${formatArs(moved.amountCents)} por una carga con QR.`, `/payment`);
    await remoteStart(ctx, moved);
  } else if (v.status === "REJECTED") {
    const [moved] = await ctx.db
      .update(payments)
      .set({ status: "REJECTED", failureReason: `${PROVIDER_NAMES[payment.provider]} rechazó el pago. Podés intentarlo de nuevo con otro medio.` })
      .where(and(eq(payments.id, paymentId), eq(payments.step, "PAYING"), sql`${payments.status} <> 'REJECTED'`))
      .returning();
    if (moved) await notifyCompany(ctx, moved.businessId, "PAYMENT_FAILED", "Pago rechazado", `${PROVIDER_NAMES[moved.provider]} rechazó un pago de ${formatArs(moved.amountCents)} por una carga con QR.`, `/payment`);
  } else if (v.status === "CANCELLED") {
    const [moved] = await ctx.db
      .update(payments)
      .set({ status: "CANCELLED", step: "FAILED", failureReason: "El pago se canceló o venció. No te cobramos nada.", finishedAt: ctx.now() })
      .where(and(eq(payments.id, paymentId), eq(payments.step, "PAYING")))
      .returning();
    if (moved) await notifyCompany(ctx, moved.businessId, "PAYMENT_FAILED", "Pago cancelado", `Un pago de ${formatArs(moved.amountCents)} por una carga con QR se canceló.`, `/payment`);
  }
}

/** What Mercado Pago's webhook carries: the signed payment id and topic, and the signature headers. */
export interface MercadoPagoNotice {
  dataId?: string;
  type?: string;
  signature?: string;
  requestId?: string;
}

/**
 * A Mercado Pago notification: refused (401) unless signed with the company's webhook secret;
 * then the payment it names is read back and applied when it is one of this company's. A failed
 * read answers 400, so Mercado Pago delivers it again (the poll covers it too).
 */
export async function mercadoPagoWebhook(ctx: PaymentsContext, businessId: string, n: MercadoPagoNotice): Promise<WebhookResult<200 | 400 | 401>> {
  if (!UUID_RE.test(businessId)) return { status: 401 };
  const creds = (await providerCredentials(ctx, businessId, "MERCADOPAGO")) as MercadoPagoCredentials | null;
  if (!creds?.webhookSecret || !verifyMercadoPagoSignature({ signature: n.signature, requestId: n.requestId, dataId: n.dataId, secret: creds.webhookSecret }, ctx.now())) {
    ctx.logger.warn({ businessId, type: n.type, requestId: n.requestId }, "webhook de Mercado Pago con firma inválida, rechazado");
    return { status: 401 };
  }
  if (n.type !== "payment" || !n.dataId) return { status: 200 }; // other topics: nothing to do
  try {
    const verdict = mercadoPagoVerdict(await mercadoPago(ctx, creds).getPayment(n.dataId));
    const reference = verdict.reference;
    if (!reference || !UUID_RE.test(reference)) return { status: 200 };
    const [ours] = await ctx.db.select({ id: payments.id }).from(payments).where(and(eq(payments.id, reference), eq(payments.businessId, businessId)));
    if (!ours) return { status: 200 };
    await applyVerdict(ctx, ours.id, verdict);
  } catch (err) {
    ctx.logger.warn({ businessId, err: err instanceof Error ? err.message : String(err) }, "webhook de Mercado Pago: no se pudo leer el pago");
    return { status: 400 };
  }
  return { status: 200 };
}

/**
 * A Pagos360 notification is unsigned: it only names a payment request, which is looked up among
 * this company's and read back from Pagos360 before anything is believed.
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
