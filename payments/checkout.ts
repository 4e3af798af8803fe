// "Pagar": one payment per checkout form's one-time key, then the provider's checkout page. A
// double click or a resubmitted form gets the same payment and the same checkout; provider calls
// are made outside database transactions.
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { chargers, payments, stations, type Payment } from "../db/schema";
import { paymentIdTag } from "../domain/driver-payment";
import { formatArs } from "../domain/money";
import { ProviderError } from "../infra/payments/mercadopago";
import { BLOCKED_DRIVER_MESSAGE, isDriverBlocked } from "./blocked-drivers";
import { chargePoint, locateConnector } from "./charge-point";
import type { PaymentsContext } from "./deps";
import { PROVIDER_NAMES } from "./labels";
import { existingLinkToken, linkToken, sha256 } from "./link";
import { providerAdapter } from "./providers";
import type { CheckoutInput, CheckoutResult } from "./types";

export async function checkout(ctx: PaymentsContext, input: CheckoutInput): Promise<CheckoutResult> {
  const [existing] = await ctx.db.select().from(payments).where(eq(payments.requestKey, input.requestKey)).limit(1);
  if (existing) {
    const token = existingLinkToken(ctx.keyRing, input.requestKey, existing.accessTokenHash);
    // Made under a key no longer configured: the link went out then; nothing to give again.
    if (!token) return { ok: false, status: 409, message: "Ese pago ya se inició. Abrí el enlace de la página de pago o del correo." };
    if (existing.checkoutUrl) return { ok: true, paymentId: existing.id, token, checkoutUrl: existing.checkoutUrl, created: false };
    return openCheckout(ctx, existing, input.origin, token);
  }
  const token = linkToken(ctx.keyRing, input.requestKey);
  const info = await chargePoint(ctx, input.identity, input.connectorNumber);
  if (!info) return { ok: false, status: 404, message: "No encontramos ese cargador." };
  if (info.unavailable) return { ok: false, status: 409, message: info.unavailable };
  if (!info.providers.includes(input.provider)) return { ok: false, status: 400, field: "provider", message: "Elegí un medio de pago de la estación." };
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < info.minCents || input.amountCents > info.maxCents) {
    return { ok: false, status: 400, field: "amount", message: `Elegí un monto entre ${formatArs(info.minCents)} y ${formatArs(info.maxCents)}.` };
  }
  const row = await locateConnector(ctx, input.identity, input.connectorNumber);
  if (!row) return { ok: false, status: 404, message: "No encontramos ese cargador." };
  // A driver the station blocked (after a chargeback or a dispute) starts no payment.
  if (await isDriverBlocked(ctx, row.businessId, input.email)) return { ok: false, status: 400, field: "email", message: BLOCKED_DRIVER_MESSAGE };
  const [created] = await ctx.db
    .insert(payments)
    .values({
      businessId: row.businessId,
      provider: input.provider,
      amountCents: input.amountCents,
      currency: "ARS",
      status: "PENDING",
      origin: "QR",
      step: "PAYING",
      stationId: row.station.id,
      chargerId: row.chargerId,
      connectorNumber: input.connectorNumber,
      idTag: paymentIdTag(randomBytes(16).toString("hex")),
      requestKey: input.requestKey,
      accessTokenHash: sha256(token),
      driverEmail: input.email,
      buyerCuit: input.buyerCuit ?? null,
      buyerName: input.buyerCuit ? (input.buyerName ?? null) : null,
    })
    .onConflictDoNothing({ target: payments.requestKey })
    .returning();
  if (!created) return checkout(ctx, input); // the same form, posted twice at once: the other insert won
  return openCheckout(ctx, created, input.origin, token);
}

/** Opens the provider's checkout for a payment and keeps its address (the first one opened wins). */
async function openCheckout(ctx: PaymentsContext, payment: Payment, origin: string, token: string): Promise<CheckoutResult> {
  const adapter = await providerAdapter(ctx, payment.businessId, payment.provider);
  if (!adapter) return { ok: false, status: 409, message: "La estación ya no tiene ese medio de pago conectado." };
  const [place] = await ctx.db
    .select({ stationName: stations.name, chargerName: chargers.name })
    .from(chargers)
    .leftJoin(stations, eq(stations.id, chargers.stationId))
    .where(eq(chargers.id, payment.chargerId!));
  const title = `Carga en ${place?.stationName ?? "la estación"} · ${place?.chargerName ?? "cargador"} · conector ${payment.connectorNumber}`;
  const backUrl = `${origin}/cargar/pago/${payment.id}?t=${token}`;
  try {
    const { checkoutId, checkoutUrl } = await adapter.createCheckout(payment, { title, backUrl, origin });
    if (!/^https?:\/\//.test(checkoutUrl)) throw new ProviderError("El proveedor no devolvió una dirección de pago.", 502);
    await ctx.db.update(payments).set({ checkoutId, checkoutUrl }).where(and(eq(payments.id, payment.id), sql`${payments.checkoutUrl} is null`));
    return { ok: true, paymentId: payment.id, token, checkoutUrl, created: true };
  } catch (err) {
    ctx.logger.warn({ paymentId: payment.id, provider: payment.provider, err: err instanceof Error ? err.message : String(err) }, "pago con QR: no se pudo abrir el checkout");
    return { ok: false, status: 502, message: `${PROVIDER_NAMES[payment.provider]} no responde en este momento. Probá de nuevo en unos minutos.` };
  }
}
