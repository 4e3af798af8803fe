// Drivers an operator blocked from paying at its QR pages after a chargeback or a dispute, by the
// e-mail they gave at checkout (the only thing a QR payment knows of who paid: its idTag is made
// for that one payment). The operator blocks and unblocks from the payment; the checkout refuses
// a blocked e-mail before any payment or provider checkout is made.
import { and, eq } from "drizzle-orm";
import { blockedDrivers, payments, type Payment } from "../db/schema";
import type { PaymentsContext } from "./deps";

/** Statuses of a payment whose driver may be blocked: the payer disputed it or charged it back. */
export const BLOCKABLE_STATUSES: ReadonlySet<Payment["status"]> = new Set(["IN_DISPUTE", "CHARGED_BACK"]);

/** The form an e-mail is compared in: a mailbox's name is not case-sensitive in practice. */
export const blockedEmailKey = (email: string): string => email.trim().toLowerCase();

export const BLOCKED_DRIVER_MESSAGE = "Esta estación no acepta pagos con este correo. Si creés que es un error, comunicate con la estación.";

/** Whether a company blocked the driver paying with this e-mail. */
export async function isDriverBlocked(ctx: Pick<PaymentsContext, "db">, businessId: string, email: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: blockedDrivers.id })
    .from(blockedDrivers)
    .where(and(eq(blockedDrivers.businessId, businessId), eq(blockedDrivers.email, blockedEmailKey(email))))
    .limit(1);
  return Boolean(row);
}

export type BlockResult = { ok: true; payment: Payment } | { ok: false; status: 404 | 409; message: string };

/** Blocks the driver of a company's disputed or charged-back payment (again: no change). */
export async function blockDriver(ctx: Pick<PaymentsContext, "db">, businessId: string, paymentId: string): Promise<BlockResult> {
  const [payment] = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.businessId, businessId)));
  if (!payment) return { ok: false, status: 404, message: "No encontramos ese pago." };
  if (!BLOCKABLE_STATUSES.has(payment.status)) return { ok: false, status: 409, message: "Solo podés bloquear al conductor de un pago en disputa o con contracargo." };
  if (!payment.driverEmail) return { ok: false, status: 409, message: "Este pago no tiene el correo del conductor: no hay a quién bloquear." };
  await ctx.db
    .insert(blockedDrivers)
    .values({ businessId, email: blockedEmailKey(payment.driverEmail), paymentId })
    .onConflictDoNothing({ target: [blockedDrivers.businessId, blockedDrivers.email] });
  return { ok: true, payment };
}

/** Lets the driver of a company's payment pay again (not blocked: no change). */
export async function unblockDriver(ctx: Pick<PaymentsContext, "db">, businessId: string, paymentId: string): Promise<BlockResult> {
  const [payment] = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.businessId, businessId)));
  if (!payment) return { ok: false, status: 404, message: "No encontramos ese pago." };
  if (payment.driverEmail) {
    await ctx.db.delete(blockedDrivers).where(and(eq(blockedDrivers.businessId, businessId), eq(blockedDrivers.email, blockedEmailKey(payment.driverEmail))));
  }
  return { ok: true, payment };
}
