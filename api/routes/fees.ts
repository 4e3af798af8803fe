// /Business/Fees — rates (Tarifas) with penalties, and a price preview with domain/pricing.
import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from "drizzle-orm";
import { Hono } from "hono";
import type { Db } from "#db/client";
import { chargers, connectors, rates, type Rate } from "#db/schema";
import { isArgentineHoliday } from "#domain/holidays.server";
import { billableIdleMinutes, priceNoShow, priceSessionByBand, type RateSnapshot } from "#domain/pricing";
import { afterCommit } from "#db/ambient";
import { mergeHolidays } from "#domain/tariff-bands";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { idParam, likePattern, pageOffset, parseSort, readJson, readQuery } from "../http";
import { conflict, notFound } from "../problem";
import { rateListQuery } from "#contract/schemas/queries";
import { scheduleRoutes } from "./rate-schedules";
import { rateInputSchema, ratePreviewSchema } from "#contract/schemas/rate";
import type { Page, RateDto, RatePreviewDto } from "#contract/dto";

const NOT_FOUND = "La tarifa";
export const RATE_IN_USE_MESSAGE = "La tarifa está asignada a conectores. Asignales otra tarifa antes de eliminarla.";

async function usage(db: Db, businessId: string, rateIds: string[]): Promise<Map<string, number>> {
  if (rateIds.length === 0) return new Map();
  const rows = await db
    .select({ rateId: connectors.rateId, n: count() })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .where(and(eq(chargers.businessId, businessId), inArray(connectors.rateId, rateIds)))
    .groupBy(connectors.rateId);
  return new Map(rows.map((r) => [r.rateId!, r.n]));
}

function toDto(row: Rate, connectorCount: number): RateDto {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    pricePerKwhCents: row.pricePerKwhCents,
    pricePerMinuteCents: row.pricePerMinuteCents,
    sessionFeeCents: row.sessionFeeCents,
    vatIncluded: row.vatIncluded,
    vatRateBp: row.vatRateBp,
    idleGraceMinutes: row.idleGraceMinutes,
    idlePricePerMinuteCents: row.idlePricePerMinuteCents,
    idleMaxCents: row.idleMaxCents ?? null,
    idleActiveFrom: row.idleActiveFrom ?? null,
    idleActiveTo: row.idleActiveTo ?? null,
    noShowFeeCents: row.noShowFeeCents,
    bands: row.bands,
    localHolidays: row.localHolidays,
    connectorCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function findRate(db: Db, businessId: string, id: string): Promise<Rate> {
  const [row] = await db
    .select()
    .from(rates)
    .where(and(eq(rates.id, id), eq(rates.businessId, businessId)))
    .limit(1);
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

const SORT_COLUMNS = { name: sql`lower(${rates.name})`, pricePerKwhCents: rates.pricePerKwhCents, createdAt: rates.createdAt } as const;

export function feeRoutes(services: ApiServices) {
  const { db, now } = services;
  const r = new Hono<AppEnv>();

  r.get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, rateListQuery);
    const where: SQL[] = [eq(rates.businessId, b.id)];
    if (query.q) where.push(ilike(rates.name, likePattern(query.q)));
    const { key, desc: isDesc } = parseSort(query.sort);
    const col = SORT_COLUMNS[key];
    const [rows, [{ total }]] = await Promise.all([
      db
        .select()
        .from(rates)
        .where(and(...where))
        .orderBy(isDesc ? desc(col) : asc(col), asc(rates.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db
        .select({ total: count() })
        .from(rates)
        .where(and(...where)),
    ]);
    const used = await usage(db, b.id, rows.map((x) => x.id));
    const body: Page<RateDto> = { items: rows.map((x) => toDto(x, used.get(x.id) ?? 0)), total, page: query.page, pageSize: query.pageSize };
    return c.json(body);
  });

  scheduleRoutes(r, services);

  // Before /:id so "Preview" is not taken for an id.
  r.post("/Preview", async (c) => {
    const { rate, usage: u } = await readJson(c, ratePreviewSchema);
    // Priced as a session would be: the company's local holidays join the rate's own.
    const snapshot: RateSnapshot = { rateId: null, ...rate, localHolidays: mergeHolidays(rate.localHolidays, tenant(c).localHolidays) };
    const startedAt = u.startedAt ? new Date(u.startedAt) : now();
    const usageInput = {
      energyWh: u.energyWh,
      chargingMinutes: u.chargingMinutes,
      idleMinutes: u.idleMinutes,
      idleStartedAt: u.idleStartedAt ? new Date(u.idleStartedAt) : now(),
      startedAt,
      chargingEndedAt: new Date(startedAt.getTime() + u.chargingMinutes * 60_000),
      isHoliday: isArgentineHoliday,
    };
    const body: RatePreviewDto = {
      price: priceSessionByBand(snapshot, usageInput),
      billableIdleMinutes: billableIdleMinutes(snapshot, usageInput),
      noShow: priceNoShow(snapshot),
    };
    return c.json(body);
  });

  r.get("/:id", async (c) => {
    const b = tenant(c);
    const row = await findRate(db, b.id, idParam(c, "id", NOT_FOUND));
    const used = await usage(db, b.id, [row.id]);
    return c.json(toDto(row, used.get(row.id) ?? 0));
  });

  r.post("/", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, rateInputSchema);
    const [row] = await db
      .insert(rates)
      .values({ ...input, businessId: b.id })
      .returning();
    return c.json(toDto(row, 0), 201);
  });

  r.put("/:id", async (c) => {
    const b = tenant(c);
    const current = await findRate(db, b.id, idParam(c, "id", NOT_FOUND));
    const input = await readJson(c, rateInputSchema);
    // Sessions keep their own snapshot: changing a rate never reprices past activity.
    const [row] = await db
      .update(rates)
      .set(input)
      .where(and(eq(rates.id, current.id), eq(rates.businessId, b.id)))
      .returning();
    // The chargers that show this rate's price get the new one once it is committed.
    await afterCommit(() => void services.ocpp?.refreshPrices?.({ rateIds: [row.id] }).catch(() => {}));
    const used = await usage(db, b.id, [row.id]);
    return c.json(toDto(row, used.get(row.id) ?? 0));
  });

  r.delete("/:id", async (c) => {
    const b = tenant(c);
    const current = await findRate(db, b.id, idParam(c, "id", NOT_FOUND));
    const used = await usage(db, b.id, [current.id]);
    if ((used.get(current.id) ?? 0) > 0) throw conflict(RATE_IN_USE_MESSAGE);
    await db.delete(rates).where(and(eq(rates.id, current.id), eq(rates.businessId, b.id)));
    return c.body(null, 204);
  });

  return r;
}

