// /Business/ChargingStation — stations (OCPI Location) of the caller's business.
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { Hono } from "hono";
import { afterCommit } from "#db/ambient";
import type { Db } from "#db/client";
import { chargers, connectors, services as serviceTable, stations, stationServices, type Station } from "#db/schema";
import { provinceName, type ProvinceCode } from "#domain/provinces";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { idParam, likePattern, pageOffset, pageTotal, parseSort, readJson, readQuery } from "../http";
import { ApiError, conflict, notFound } from "../problem";
import { stationListQuery, stationOptionsQuery } from "#contract/schemas/queries";
import { stationInputSchema } from "#contract/schemas/station";
import { bucketCounts, emptyBuckets, pickBuckets } from "#infra/sql";
import type { Page, StationAllocationDto, StationDto, StationOptionDto } from "#contract/dto";
import { stationAllocation } from "#ocpp/load-balancing";
import { IMAGE_URL_RE, ownsImage, releaseImage } from "./images";

const NOT_FOUND = "La estación";
export const STATION_HAS_CHARGERS_MESSAGE = "La estación tiene cargadores asignados. Quitalos o movelos a otra estación antes de eliminarla.";

type Stats = { chargerCount: number; connectorCount: number; statusSummary: StationDto["statusSummary"] };

async function statsFor(db: Db, businessId: string, stationIds: string[]): Promise<Map<string, Stats>> {
  const out = new Map<string, Stats>();
  if (stationIds.length === 0) return out;
  const rows = await db
    .select({
      stationId: chargers.stationId,
      chargerCount: sql<number>`count(distinct ${chargers.id})`.mapWith(Number),
      connectorCount: sql<number>`count(${connectors.id})`.mapWith(Number),
      ...bucketCounts(),
    })
    .from(chargers)
    .leftJoin(connectors, eq(connectors.chargerId, chargers.id))
    .where(and(eq(chargers.businessId, businessId), inArray(chargers.stationId, stationIds)))
    .groupBy(chargers.stationId);
  for (const r of rows) {
    if (r.stationId) out.set(r.stationId, { chargerCount: r.chargerCount, connectorCount: r.connectorCount, statusSummary: pickBuckets(r) });
  }
  return out;
}

async function servicesFor(db: Db, stationIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (stationIds.length === 0) return out;
  const rows = await db
    .select({ stationId: stationServices.stationId, code: serviceTable.code })
    .from(stationServices)
    .innerJoin(serviceTable, eq(serviceTable.id, stationServices.serviceId))
    .where(inArray(stationServices.stationId, stationIds))
    .orderBy(asc(serviceTable.sortOrder));
  for (const r of rows) out.set(r.stationId, [...(out.get(r.stationId) ?? []), r.code]);
  return out;
}

function toDto(row: Station, services: string[], stats: Stats | undefined): StationDto {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    city: row.city,
    province: row.province as ProvinceCode,
    provinceName: provinceName(row.province) ?? row.province,
    postalCode: row.postalCode ?? null,
    country: row.country,
    latitude: row.latitude,
    longitude: row.longitude,
    parkingType: row.parkingType ?? null,
    services,
    openingHours: row.openingHours,
    timeZone: row.timeZone,
    photoUrl: row.photoUrl ?? null,
    published: row.published,
    authorizationPolicy: row.authorizationPolicy,
    gridCapacityKw: row.gridCapacityKw ?? null,
    qrPaymentEnabled: row.qrPaymentEnabled,
    qrMinCents: row.qrMinCents,
    qrMaxCents: row.qrMaxCents,
    chargerCount: stats?.chargerCount ?? 0,
    connectorCount: stats?.connectorCount ?? 0,
    statusSummary: stats?.statusSummary ?? emptyBuckets(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Station DTOs for rows of one business, with services and counts (two batched queries). */
export async function stationDtos(db: Db, businessId: string, rows: Station[]): Promise<StationDto[]> {
  const ids = rows.map((r) => r.id);
  const [svc, stats] = await Promise.all([servicesFor(db, ids), statsFor(db, businessId, ids)]);
  return rows.map((r) => toDto(r, svc.get(r.id) ?? [], stats.get(r.id)));
}

/** The business's station or a 404 — the tenant guard for every station id. */
export async function findStation(db: Db, businessId: string, id: string): Promise<Station> {
  const [row] = await db
    .select()
    .from(stations)
    .where(and(eq(stations.id, id), eq(stations.businessId, businessId)))
    .limit(1);
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

async function serviceIds(db: Db, codes: string[]): Promise<number[]> {
  if (codes.length === 0) return [];
  const rows = await db.select({ id: serviceTable.id, code: serviceTable.code }).from(serviceTable).where(inArray(serviceTable.code, codes));
  const unknown = codes.filter((c) => !rows.some((r) => r.code === c));
  if (unknown.length > 0) {
    const msg = `Servicio desconocido: ${unknown.join(", ")}.`;
    throw new ApiError(422, "validation", "Revisá los datos ingresados.", { errors: { services: [msg] } });
  }
  return rows.map((r) => r.id);
}

async function checkPhoto(db: Db, businessId: string, photoUrl: string | null, current: string | null) {
  if (photoUrl && photoUrl !== current && IMAGE_URL_RE.test(photoUrl) && !(await ownsImage(db, businessId, photoUrl))) {
    throw new ApiError(422, "validation", "Revisá los datos ingresados.", { errors: { photoUrl: ["La imagen no existe. Subila de nuevo."] } });
  }
}

const SORT_COLUMNS = {
  name: sql`lower(${stations.name})`,
  city: sql`lower(${stations.city})`,
  province: stations.province,
  createdAt: stations.createdAt,
  updatedAt: stations.updatedAt,
} as const;

export function stationRoutes({ db, companyCache, ocpp }: ApiServices) {
  const r = new Hono<AppEnv>();

  r.get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, stationListQuery);
    const where: SQL[] = [eq(stations.businessId, b.id)];
    if (query.q) {
      const p = likePattern(query.q);
      where.push(or(ilike(stations.name, p), ilike(stations.address, p), ilike(stations.city, p))!);
    }
    if (query.province) where.push(eq(stations.province, query.province));
    if (query.published !== undefined) where.push(eq(stations.published, query.published));
    const { key, desc: isDesc } = parseSort(query.sort);
    const col = SORT_COLUMNS[key];
    const [rows, [{ total }]] = await Promise.all([
      db
        .select()
        .from(stations)
        .where(and(...where))
        .orderBy(isDesc ? desc(col) : asc(col), asc(stations.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db.select({ total: count() }).from(stations).where(and(...where)),
    ]);
    const body: Page<StationDto> = { items: await stationDtos(db, b.id, rows), total, page: query.page, pageSize: query.pageSize };
    return c.json(body);
  });

  // The stations as choices (charger forms, filters): id, name and city, without the per-station
  // counts the list computes. Registered before "/:id".
  r.get("/Options", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, stationOptionsQuery);
    const own = eq(stations.businessId, b.id);
    // Every list page's filter asks for these: kept per company for a few seconds, and dropped as
    // soon as the company writes anything (api/company-cache.ts).
    const body = await companyCache.get(b.id, `station-options|${query.page}|${query.pageSize}`, async (): Promise<Page<StationOptionDto>> => {
      const items = await db
        .select({ id: stations.id, name: stations.name, city: stations.city })
        .from(stations)
        .where(own)
        .orderBy(asc(sql`lower(${stations.name})`), asc(stations.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize));
      const total = await pageTotal(items, query, async () => (await db.select({ total: count() }).from(stations).where(own))[0].total);
      return { items, total, page: query.page, pageSize: query.pageSize };
    });
    return c.json(body);
  });

  r.get("/:id", async (c) => {
    const b = tenant(c);
    const row = await findStation(db, b.id, idParam(c, "id", NOT_FOUND));
    const [dto] = await stationDtos(db, b.id, [row]);
    return c.json(dto);
  });

  r.post("/", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, stationInputSchema);
    const ids = await serviceIds(db, input.services);
    await checkPhoto(db, b.id, input.photoUrl, null);
    const { services: _codes, ...fields } = input;
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(stations)
        .values({ ...fields, businessId: b.id, country: "ARG" })
        .returning();
      if (ids.length > 0) await tx.insert(stationServices).values(ids.map((serviceId) => ({ stationId: created.id, serviceId })));
      return created;
    });
    const [dto] = await stationDtos(db, b.id, [row]);
    return c.json(dto, 201);
  });

  r.put("/:id", async (c) => {
    const b = tenant(c);
    const current = await findStation(db, b.id, idParam(c, "id", NOT_FOUND));
    const input = await readJson(c, stationInputSchema);
    const ids = await serviceIds(db, input.services);
    await checkPhoto(db, b.id, input.photoUrl, current.photoUrl);
    const { services: _codes, ...fields } = input;
    const row = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(stations)
        .set(fields)
        .where(and(eq(stations.id, current.id), eq(stations.businessId, b.id)))
        .returning();
      await tx.delete(stationServices).where(eq(stationServices.stationId, current.id));
      if (ids.length > 0) await tx.insert(stationServices).values(ids.map((serviceId) => ({ stationId: current.id, serviceId })));
      return updated;
    });
    if (current.photoUrl && current.photoUrl !== row.photoUrl) await releaseImage(db, b.id, current.photoUrl);
    // A new grid capacity is shared among the connectors charging now (ADR 0018), once it is
    // committed: the load balancer reads it and tells the chargers, which no rollback can undo.
    if ((current.gridCapacityKw ?? null) !== (row.gridCapacityKw ?? null)) await afterCommit(() => ocpp?.rebalanceStation?.(row.id));
    const [dto] = await stationDtos(db, b.id, [row]);
    return c.json(dto);
  });

  // How the grid capacity is shared right now, per connector (ADR 0018).
  r.get("/:id/Allocation", async (c) => {
    const b = tenant(c);
    const station = await findStation(db, b.id, idParam(c, "id", NOT_FOUND));
    const rows = await stationAllocation(db, b.id, station.id);
    const charging = rows.filter((r) => r.charging);
    const body: StationAllocationDto = {
      gridCapacityKw: station.gridCapacityKw ?? null,
      allocatedKw: Math.round(charging.reduce((sum, r) => sum + (r.allocatedKw ?? r.maxPowerKw), 0) * 100) / 100,
      connectors: charging.map((r) => ({
        connectorId: r.connectorId,
        chargerId: r.chargerId,
        chargerName: r.chargerName,
        connectorNumber: r.connectorNumber,
        maxPowerKw: r.maxPowerKw,
        allocatedKw: r.allocatedKw ?? null,
        status: r.status ?? null,
        at: r.at ? r.at.toISOString() : null,
      })),
    };
    return c.json(body);
  });

  r.delete("/:id", async (c) => {
    const b = tenant(c);
    const station = await findStation(db, b.id, idParam(c, "id", NOT_FOUND));
    const [{ n }] = await db
      .select({ n: count() })
      .from(chargers)
      .where(and(eq(chargers.stationId, station.id), eq(chargers.businessId, b.id)));
    if (n > 0) throw conflict(STATION_HAS_CHARGERS_MESSAGE);
    await db.delete(stations).where(and(eq(stations.id, station.id), eq(stations.businessId, b.id)));
    await releaseImage(db, b.id, station.photoUrl);
    return c.body(null, 204);
  });

  return r;
}
