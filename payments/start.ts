// An approved payment starts its charge: a remote start to the charger, which has a couple of
// minutes to start the session; a charger that refuses or never starts gives the driver their
// money back.
import { and, eq } from "drizzle-orm";
import { chargers, payments, type Payment } from "../db/schema";
import type { PaymentsContext } from "./deps";
import { PROVIDER_NAMES } from "./labels";
import { refundsAutomatically } from "./providers";
import { refund } from "./refunds";

/** The charger a payment was made at, as the central system addresses it. */
export async function paymentCharger(ctx: PaymentsContext, payment: Payment) {
  const [charger] = await ctx.db.select({ id: chargers.id, ocppIdentity: chargers.ocppIdentity }).from(chargers).where(eq(chargers.id, payment.chargerId!));
  return charger;
}

export async function remoteStart(ctx: PaymentsContext, payment: Payment): Promise<void> {
  const charger = await paymentCharger(ctx, payment);
  if (!charger || !ctx.ocpp) return startFailed(ctx, payment.id, "No pudimos comunicarnos con el cargador.");
  const result = await ctx.ocpp.sendCommand(charger, { command: "RemoteStartTransaction", connectorId: payment.connectorNumber!, idTag: payment.idTag! });
  ctx.logger.info({ paymentId: payment.id, outcome: result.outcome }, "pago con QR: inicio remoto");
  // A charger that did not answer in time may still start: the start timeout decides.
  if (result.outcome === "accepted" || result.outcome === "timeout") return;
  await startFailed(ctx, payment.id, result.outcome === "offline" ? "El cargador se desconectó antes de iniciar la carga." : "El cargador no aceptó iniciar la carga.");
}

/** STARTING → START_FAILED with the reason and who gives the money back, then the full refund. */
export async function startFailed(ctx: PaymentsContext, paymentId: string, reason: string): Promise<void> {
  const [current] = await ctx.db.select({ provider: payments.provider }).from(payments).where(eq(payments.id, paymentId));
  if (!current) return;
  const then = refundsAutomatically(current.provider) ? "Te devolvemos el total." : `La estación te devuelve el total por ${PROVIDER_NAMES[current.provider]}.`;
  const [moved] = await ctx.db
    .update(payments)
    .set({ step: "START_FAILED", failureReason: `${reason} ${then}`, chargedCents: 0 })
    .where(and(eq(payments.id, paymentId), eq(payments.step, "STARTING")))
    .returning();
  if (moved) await refund(ctx, moved);
}
