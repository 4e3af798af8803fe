// The sweep: what no event moved, every few seconds on each node (each move is conditional on
// the step it leaves, so two nodes sweeping at once move a payment once).
import { and, desc, eq, inArray } from "drizzle-orm";
import { payments, type Payment } from "../db/schema";
import { CHECKOUT_VALIDITY_MS, START_TIMEOUT_MS } from "../domain/driver-payment";
import { paymentTransition } from "../domain/payment-lifecycle";
import type { Logger } from "../infra/logger";
import { pollProvider } from "./approval";
import type { PaymentsContext } from "./deps";
import { refund } from "./refunds";
import { enforceCaps } from "./settlement";
import { startFailed } from "./start";

const HOUR_MS = 3_600_000;
/** A checkout unpaid when its validity ends is given up (its preference expired then too). */
const CHECKOUT_GIVE_UP_MS = CHECKOUT_VALIDITY_MS;
/** The provider is asked about an unpaid checkout for its first hour, at most this often (ms). */
const CHECKOUT_POLL_FOR_MS = HOUR_MS;
const SWEEP_POLL_MS = 15_000;

export async function tick(ctx: PaymentsContext): Promise<void> {
  const t = ctx.now();
  const active = await ctx.db
    .selectDistinct({ chargerId: payments.chargerId })
    .from(payments)
    .where(inArray(payments.step, ["STARTING", "CHARGING", "SETTLING", "START_FAILED"]));
  ctx.watched.clear();
  for (const r of active) if (r.chargerId) ctx.watched.add(r.chargerId);
  const open = await ctx.db
    .select()
    .from(payments)
    .where(inArray(payments.step, ["PAYING", "STARTING", "SETTLING", "START_FAILED"]))
    .orderBy(desc(payments.updatedAt))
    .limit(200);
  for (const p of open) await sweepOne(ctx, p, t);
  await enforceCaps(ctx);
}

async function sweepOne(ctx: PaymentsContext, p: Payment, t: Date): Promise<void> {
  if (p.step === "PAYING") {
    const age = t.getTime() - p.createdAt.getTime();
    const giveUp = age > CHECKOUT_GIVE_UP_MS ? paymentTransition({ step: p.step, status: p.status, amountCents: p.amountCents, chargedCents: p.chargedCents, refundedCents: p.refundedCents }, { kind: "GIVE_UP" }) : null;
    if (giveUp) {
      // A payment approved after this (the provider's late verdict) is refunded in full: the life's FAILED → START_FAILED.
      await ctx.db
        .update(payments)
        .set({ step: giveUp.next.step, status: giveUp.next.status, failureReason: "El pago no se completó.", finishedAt: t })
        .where(and(eq(payments.id, p.id), eq(payments.step, "PAYING")));
    } else if (p.checkoutUrl && age < CHECKOUT_POLL_FOR_MS && Date.now() - (ctx.lastPoll.get(p.id) ?? 0) > SWEEP_POLL_MS) {
      ctx.lastPoll.set(p.id, Date.now());
      await pollProvider(ctx, p);
    }
  } else if (p.step === "STARTING" && p.startRequestedAt && t.getTime() - p.startRequestedAt.getTime() > START_TIMEOUT_MS) {
    await startFailed(ctx, p.id, "El cargador no inició la carga en 2 minutos.");
  } else if (p.step === "SETTLING" || p.step === "START_FAILED") {
    await refund(ctx, p);
  }
}

/** Sweeps every `intervalMs` (errors are logged; the next sweep tries again). The invoicing sweep runs on it too. */
export function startDriverPaymentSweep(service: { tick(): Promise<void> }, logger: Logger, intervalMs: number, failure = "pagos con QR: falló el barrido"): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    service
      .tick()
      .catch((err) => logger.error({ err: err instanceof Error ? err.message : String(err) }, failure))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
