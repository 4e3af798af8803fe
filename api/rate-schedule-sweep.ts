// Writes due scheduled rate changes into their rates (ADR 0043). Sessions do not wait for it —
// they take the changes due when they start from db/rate-schedules.ts — but the rate itself, its
// screens, exports and roaming tariffs converge on the new prices within one sweep. Each change
// is claimed (`applied_at`) in the same transaction that writes the rate and its audit entry, so
// two nodes sweeping at once apply it once. The entry's actor is the system, not a person.
import { and, asc, eq, isNull, lte } from "drizzle-orm";
import type { Db } from "../db/client";
import { inTransaction, ambientDb } from "../db/ambient";
import { auditLog, rates, rateSchedules } from "../db/schema";
import type { Logger } from "../infra/logger";
import { auditSnapshot, diffSnapshots } from "./audit";

/** The audit log's actor for what the system does on its own. */
export const SYSTEM_ACTOR = { uid: "system", email: "sistema@enchufa" } as const;

/** How many due changes one sweep applies at most (the next sweep takes the rest). */
const BATCH = 200;

/** Applies the changes due at `now`, oldest first; answers the ids of the rates changed. */
export async function applyDueRateSchedules(db: Db, now: Date, logger?: Logger): Promise<string[]> {
  const due = await db
    .select({ id: rateSchedules.id, rateId: rateSchedules.rateId, businessId: rateSchedules.businessId })
    .from(rateSchedules)
    .where(and(isNull(rateSchedules.appliedAt), lte(rateSchedules.effectiveFrom, now)))
    .orderBy(asc(rateSchedules.effectiveFrom))
    .limit(BATCH);
  const changed: string[] = [];
  const seen = new Set<string>();
  for (const d of due) {
    if (seen.has(d.rateId)) continue;
    seen.add(d.rateId);
    try {
      if (await applyRate(db, d.businessId, d.rateId, now)) changed.push(d.rateId);
    } catch (err) {
      logger?.error({ err: err instanceof Error ? err.message : String(err), rateId: d.rateId }, "tarifas: no se pudo aplicar un cambio programado");
    }
  }
  return changed;
}

/** One rate's due changes, in one transaction with its audit entry; false when another node took them. */
async function applyRate(db: Db, businessId: string, rateId: string, now: Date): Promise<boolean> {
  return inTransaction(db, async () => {
    const tx = ambientDb(db);
    const before = await auditSnapshot(tx, businessId, "rate", rateId);
    const claimed = await tx
      .update(rateSchedules)
      .set({ appliedAt: now })
      .where(and(eq(rateSchedules.rateId, rateId), isNull(rateSchedules.appliedAt), lte(rateSchedules.effectiveFrom, now)))
      .returning({ effectiveFrom: rateSchedules.effectiveFrom, changes: rateSchedules.changes });
    if (claimed.length === 0) return false;
    claimed.sort((a, b) => a.effectiveFrom.getTime() - b.effectiveFrom.getTime());
    const set = Object.assign({}, ...claimed.map((x) => x.changes)) as Record<string, unknown>;
    await tx
      .update(rates)
      .set(set)
      .where(and(eq(rates.id, rateId), eq(rates.businessId, businessId)));
    const after = await auditSnapshot(tx, businessId, "rate", rateId);
    await tx.insert(auditLog).values({
      businessId,
      at: now,
      actorUid: SYSTEM_ACTOR.uid,
      actorEmail: SYSTEM_ACTOR.email,
      actorRole: null,
      action: "rate.schedule_apply",
      resourceType: "rate",
      resourceId: rateId,
      resourceLabel: (after?.name as string | undefined) ?? null,
      changes: diffSnapshots(before, after),
    });
    return true;
  });
}

/** Sweeps every `intervalMs`; `onApplied` gets the rates changed (to push their tariffs). */
export function startRateScheduleSweep(db: Db, logger: Logger, intervalMs: number, onApplied?: (rateIds: string[]) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    applyDueRateSchedules(db, new Date(), logger)
      .then((ids) => {
        if (ids.length > 0) onApplied?.(ids);
      })
      .catch((err) => logger.error({ err: err instanceof Error ? err.message : String(err) }, "tarifas: falló el barrido de cambios programados"))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
