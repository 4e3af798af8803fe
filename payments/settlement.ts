// A paid charge while it runs and once it ends. The central system prices the session when it
// closes and moves its payment CHARGING → SETTLING with what was charged (never above what was
// prepaid), under the session's lock; here the charge is stopped when its cost reaches what was
// prepaid or the driver asks, and a settled payment's balance goes back to the driver.
import { and, eq, inArray, sql } from "drizzle-orm";
import { chargingSessions, payments, stations, type Payment } from "../db/schema";
import { costSoFar } from "../domain/driver-payment";
import { isArgentineHoliday } from "../domain/holidays.server";
import type { PaymentsContext } from "./deps";
import { refund } from "./refunds";
import { paymentCharger } from "./start";
import { byToken } from "./status";
import type { StopResult } from "./types";

/** The driver's stop button, authorised by the secret of their link. */
export async function stop(ctx: PaymentsContext, paymentId: string, token: string): Promise<StopResult> {
  const payment = await byToken(ctx, paymentId, token);
  if (!payment) return { ok: false, message: "El enlace no es válido." };
  if (payment.step !== "CHARGING" || !payment.sessionId) return { ok: false, message: "La carga ya no está en curso." };
  return requestStop(ctx, payment, "driver");
}

async function requestStop(ctx: PaymentsContext, payment: Payment, why: "driver" | "cap"): Promise<StopResult> {
  const charger = await paymentCharger(ctx, payment);
  if (!charger || !ctx.ocpp) return { ok: false, message: "No pudimos comunicarnos con el cargador." };
  await ctx.db.update(payments).set({ stopRequestedAt: ctx.now() }).where(eq(payments.id, payment.id));
  const result = await ctx.ocpp.sendCommand(charger, { command: "RemoteStopTransaction", connectorId: payment.connectorNumber! });
  ctx.logger.info({ paymentId: payment.id, why, outcome: result.outcome }, "pago con QR: detención remota");
  return result.outcome === "accepted"
    ? { ok: true, message: "Pedimos al cargador que detenga la carga." }
    : { ok: false, message: "El cargador no respondió. Probá de nuevo o desenchufá el vehículo." };
}

/** Stops the charges whose cost reached what was prepaid (one charger's after its readings; all of them on the sweep). */
export async function enforceCaps(ctx: PaymentsContext, chargerId?: string): Promise<void> {
  const rows = await ctx.db
    .select({ payment: payments, session: chargingSessions, timeZone: stations.timeZone })
    .from(payments)
    .innerJoin(chargingSessions, eq(chargingSessions.id, payments.sessionId))
    .leftJoin(stations, eq(stations.id, chargingSessions.stationId))
    .where(and(eq(payments.step, "CHARGING"), eq(chargingSessions.status, "ACTIVE"), sql`${payments.stopRequestedAt} is null`, ...(chargerId ? [eq(payments.chargerId, chargerId)] : [])))
    .limit(200);
  for (const { payment, session, timeZone } of rows) {
    const cost = costSoFar(session.rateSnapshot, session, ctx.now(), timeZone ?? undefined, isArgentineHoliday);
    if (cost && cost.totalCents >= payment.amountCents) await requestStop(ctx, payment, "cap");
  }
}

/** After a charger's session changed (a reading, a start, a stop): its caps and refunds at once. */
export async function onSessionChange(ctx: PaymentsContext, chargerId: string | undefined): Promise<void> {
  // Every reading of every charger comes here: only a charger with a QR payment under way costs a query.
  if (!chargerId || !ctx.watched.has(chargerId)) return;
  await enforceCaps(ctx, chargerId);
  const due = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.chargerId, chargerId), inArray(payments.step, ["SETTLING", "START_FAILED"])))
    .limit(20);
  for (const p of due) await refund(ctx, p);
}
