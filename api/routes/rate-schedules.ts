// /Business/Fees/{id}/Schedule and /Business/Fees/Reprice — rate changes that take effect at a
// chosen instant (ADR 0043). A change lists only the fields it sets, validated by the rate's own
// schema: laid over the rate as it will be then (earlier pending changes included), it must leave
// a valid rate. Sessions take the prices in force when they start (db/rate-schedules.ts); the
// sweep (api/rate-schedule-sweep.ts) writes a due change into the rate.
import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Hono } from "hono";
import type { Db } from "#db/client";
import { rates, rateSchedules, type Rate, type RateSchedule } from "#db/schema";
import { rateAsOf, repriceChanges, type RateChanges, type RateValues } from "#domain/rate-schedule";
import { rateFields } from "#contract/schemas/rate";
import { rateAfterChangeSchema, rateRepriceSchema, rateScheduleSchema, SCHEDULE_MAX_DAYS, SCHEDULE_MAX_PENDING, SCHEDULE_MESSAGES } from "#contract/schemas/rate-schedule";
import type { RateRepriceDto, RateScheduleDto, RateScheduleListDto } from "#contract/dto";
import { tenant, type ApiServices, type AppEnv, type Ctx } from "../env";
import { idParam, readJson } from "../http";
import { conflict, fieldError, notFound, pgError, validationError, zodFieldErrors } from "../problem";

const NOT_FOUND = "La tarifa";
const SCHEDULE_NOT_FOUND = "El cambio programado";
const RATE_KEYS = Object.keys(rateFields.shape) as (keyof RateValues)[];

/** A rate's own values (every field of the rate's schema), as a change may set them. */
export function rateValues(row: Rate): RateValues {
  return Object.fromEntries(RATE_KEYS.map((k) => [k, (row as Record<string, unknown>)[k] ?? null])) as unknown as RateValues;
}

/** The pending (not yet applied) changes of some rates, soonest first. */
export async function pendingSchedules(db: Db, businessId: string, rateIds: string[]): Promise<RateSchedule[]> {
  if (rateIds.length === 0) return [];
  return db
    .select()
    .from(rateSchedules)
    .where(and(eq(rateSchedules.businessId, businessId), inArray(rateSchedules.rateId, rateIds), isNull(rateSchedules.appliedAt)))
    .orderBy(asc(rateSchedules.effectiveFrom), asc(rateSchedules.id));
}

function toDto(s: RateSchedule, values: RateValues): RateScheduleDto {
  return { id: s.id, rateId: s.rateId, effectiveFrom: s.effectiveFrom.toISOString(), changes: s.changes, values, createdBy: s.createdBy, createdAt: s.createdAt.toISOString() };
}

async function findRates(db: Db, businessId: string, ids: string[]): Promise<Rate[]> {
  return db
    .select()
    .from(rates)
    .where(and(eq(rates.businessId, businessId), inArray(rates.id, ids)));
}

/** When a change may take effect: after now, within SCHEDULE_MAX_DAYS. */
function checkInstant(at: Date, now: Date) {
  if (at.getTime() <= now.getTime()) throw fieldError("effectiveFrom", SCHEDULE_MESSAGES.past);
  if (at.getTime() > now.getTime() + SCHEDULE_MAX_DAYS * 86_400_000) throw fieldError("effectiveFrom", SCHEDULE_MESSAGES.tooFar);
}

/** The rate after `changes` at `at`, validated as a rate; its field errors name the change's fields. */
function afterChange(base: RateValues, changes: RateChanges, prefix = ""): RateValues {
  const parsed = rateAfterChangeSchema.safeParse({ ...base, ...changes });
  if (!parsed.success) {
    const errors = zodFieldErrors(parsed.error);
    throw validationError(prefix ? Object.fromEntries(Object.entries(errors).map(([k, v]) => [`${prefix}${k}`, v])) : errors);
  }
  return { ...base, ...changes };
}

function actorEmail(c: Ctx): string {
  return (c.get("claims").email ?? c.get("member")?.email ?? "").toLowerCase();
}

async function insertSchedule(db: Db, values: typeof rateSchedules.$inferInsert, pending: readonly RateSchedule[]): Promise<RateSchedule> {
  if (pending.filter((s) => s.rateId === values.rateId).length >= SCHEDULE_MAX_PENDING) throw conflict(SCHEDULE_MESSAGES.full, { effectiveFrom: [SCHEDULE_MESSAGES.full] });
  try {
    const [row] = await db.insert(rateSchedules).values(values).returning();
    return row;
  } catch (err) {
    if (pgError(err)?.constraint === "rate_schedules_rate_instant") throw conflict(SCHEDULE_MESSAGES.taken, { effectiveFrom: [SCHEDULE_MESSAGES.taken] });
    throw err;
  }
}

/** Registers the schedule and reprice routes on the rates' router (before its `/:id` routes). */
export function scheduleRoutes(r: Hono<AppEnv>, { db, now }: ApiServices) {
  r.post("/Reprice", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, rateRepriceSchema);
    checkInstant(input.effectiveFrom, now());
    const ids = [...new Set(input.rateIds)];
    const rows = await findRates(db, b.id, ids);
    if (rows.length !== ids.length) throw fieldError("rateIds", SCHEDULE_MESSAGES.rates);
    const pending = await pendingSchedules(db, b.id, ids);
    const byName = [...rows].sort((x, y) => x.name.localeCompare(y.name, "es"));
    const items: RateRepriceDto["items"] = [];
    for (const row of byName) {
      const before = rateAsOf(rateValues(row), pending.filter((s) => s.rateId === row.id), input.effectiveFrom);
      const changes = input.percent !== undefined ? repriceChanges(before, input.percent) : input.pricePerKwhCents !== before.pricePerKwhCents ? { pricePerKwhCents: input.pricePerKwhCents! } : {};
      const after = afterChange(before, changes);
      items.push({ rateId: row.id, name: row.name, before, after, changes, scheduleId: null });
    }
    if (!input.preview) {
      for (const item of items) {
        if (Object.keys(item.changes).length === 0) continue;
        const row = await insertSchedule(db, { businessId: b.id, rateId: item.rateId, effectiveFrom: input.effectiveFrom, changes: item.changes, createdBy: actorEmail(c) }, pending);
        item.scheduleId = row.id;
      }
    }
    const body: RateRepriceDto = { preview: input.preview, effectiveFrom: input.effectiveFrom.toISOString(), items };
    return c.json(body, input.preview ? 200 : 201);
  });

  r.get("/:id/Schedule", async (c) => {
    const b = tenant(c);
    const [row] = await findRates(db, b.id, [idParam(c, "id", NOT_FOUND)]);
    if (!row) throw notFound(NOT_FOUND);
    const pending = await pendingSchedules(db, b.id, [row.id]);
    const t = now();
    const base = rateValues(row);
    const body: RateScheduleListDto = {
      current: rateAsOf(base, pending, t),
      items: pending.filter((s) => s.effectiveFrom > t).map((s) => toDto(s, rateAsOf(base, pending, s.effectiveFrom))),
    };
    return c.json(body);
  });

  r.post("/:id/Schedule", async (c) => {
    const b = tenant(c);
    const [row] = await findRates(db, b.id, [idParam(c, "id", NOT_FOUND)]);
    if (!row) throw notFound(NOT_FOUND);
    const { effectiveFrom, ...fields } = await readJson(c, rateScheduleSchema);
    checkInstant(effectiveFrom, now());
    const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as RateChanges;
    const pending = await pendingSchedules(db, b.id, [row.id]);
    const values = afterChange(rateAsOf(rateValues(row), pending, effectiveFrom), changes);
    const created = await insertSchedule(db, { businessId: b.id, rateId: row.id, effectiveFrom, changes, createdBy: actorEmail(c) }, pending);
    return c.json(toDto(created, values), 201);
  });

  r.delete("/:id/Schedule/:scheduleId", async (c) => {
    const b = tenant(c);
    const rateId = idParam(c, "id", NOT_FOUND);
    const scheduleId = idParam(c, "scheduleId", SCHEDULE_NOT_FOUND);
    // Only a pending change can be cancelled: one in force is part of the rate now (edit the rate).
    const [gone] = await db
      .delete(rateSchedules)
      .where(and(eq(rateSchedules.id, scheduleId), eq(rateSchedules.rateId, rateId), eq(rateSchedules.businessId, b.id), isNull(rateSchedules.appliedAt), gt(rateSchedules.effectiveFrom, now())))
      .returning({ id: rateSchedules.id });
    if (!gone) throw notFound(SCHEDULE_NOT_FOUND);
    return c.body(null, 204);
  });
}
