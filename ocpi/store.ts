// Database reads of the /ocpi sender modules. Every query is scoped to the company of the partner
// that asks (the partner's token names it): a partner of one operator sees nothing of another's.
import { and, asc, count, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { businessUsers, chargers, chargingSessions, connectors, connectorTypes, ocpiPartners, ocpiRemovedEvses, ocpiSessions, rates, rateSchedules, services, stationServices, stations, type OcpiPartner } from "../db/schema";
import type { CdrPlace } from "./cdr";
import type { ChargerForOcpi, ConnectorForOcpi, PendingVersion, RateForOcpi, RemovedEvse, StationForOcpi } from "./mapping";

/** Days a charger that left a station is still pulled as a REMOVED EVSE (ADR 0044; the trigger of migration 0027 prunes older rows). */
export const REMOVED_EVSE_DAYS = 30;

export interface PageQuery {
  offset: number;
  limit: number;
  dateFrom?: Date;
  dateTo?: Date;
}

/** The partner whose incoming token has one of these hashes, with its company. */
export async function findPartnerByTokenHashes(db: Db, hashes: string[]) {
  if (hashes.length === 0) return null;
  const [row] = await db
    .select({ partner: ocpiPartners, business: businessUsers })
    .from(ocpiPartners)
    .innerJoin(businessUsers, eq(businessUsers.id, ocpiPartners.businessId))
    .where(inArray(ocpiPartners.incomingTokenHash, hashes))
    .limit(1);
  return row ?? null;
}

/**
 * A location's last_updated: the latest change of the station, its chargers and their connectors
 * (a connector's status change moves it), as mod_locations.asciidoc §Location.last_updated asks.
 */
// Spelled with qualified names: drizzle drops the table prefix in a one-table select, and a bare
// "id" inside the subquery would be the charger's.
// A charger leaving the station (ocpi_removed_evses) is a change of its Location too.
const locationLastUpdated = sql<Date>`greatest("stations"."updated_at", coalesce((
  select max(greatest(c.updated_at, coalesce(k.updated_at, c.updated_at)))
  from ${chargers} c left join ${connectors} k on k.charger_id = c.id
  where c.station_id = "stations"."id"), "stations"."updated_at"), coalesce((
  select max(r.removed_at) from ${ocpiRemovedEvses} r
  where r.station_id = "stations"."id" and r.removed_at > now() - interval '${sql.raw(String(REMOVED_EVSE_DAYS))} days'), "stations"."updated_at"))`;

function dateFilters(column: SQL | typeof rates.updatedAt, q: PageQuery): SQL[] {
  const where: SQL[] = [];
  // transport_and_format.asciidoc §Pagination, mod_locations.asciidoc §GET: date_from inclusive, date_to exclusive.
  if (q.dateFrom) where.push(sql`${column} >= ${q.dateFrom.toISOString()}::timestamptz`);
  if (q.dateTo) where.push(sql`${column} < ${q.dateTo.toISOString()}::timestamptz`);
  return where;
}

export async function listLocations(db: Db, businessId: string, q: PageQuery): Promise<{ total: number; items: StationForOcpi[] }> {
  const where = and(eq(stations.businessId, businessId), eq(stations.roamingPublished, true), ...dateFilters(locationLastUpdated, q));
  const [{ total }] = await db.select({ total: count() }).from(stations).where(where);
  // Oldest first (§Pagination: "order the objects by creation date ascending"), id to break ties.
  const rows = await db
    .select({ station: stations, lastUpdated: locationLastUpdated })
    .from(stations)
    .where(where)
    .orderBy(asc(stations.createdAt), asc(stations.id))
    .offset(q.offset)
    .limit(q.limit);
  return { total, items: await withRemovedEvses(db, await withChargers(db, rows)) };
}

export async function getLocation(db: Db, businessId: string, locationId: string): Promise<StationForOcpi | null> {
  if (!/^[0-9a-f-]{36}$/i.test(locationId)) return null;
  const rows = await db
    .select({ station: stations, lastUpdated: locationLastUpdated })
    .from(stations)
    .where(and(eq(stations.id, locationId), eq(stations.businessId, businessId), eq(stations.roamingPublished, true)));
  const [item] = await withRemovedEvses(db, await withChargers(db, rows));
  return item ?? null;
}

/**
 * Stations of the company by id as OCPI sees them, published or not: the location pushes compare
 * them with what each partner holds (ocpi/locations-push.ts). Missing ids were deleted.
 */
export async function stationsForOcpi(db: Db, businessId: string, ids: string[]): Promise<StationForOcpi[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ station: stations, lastUpdated: locationLastUpdated })
    .from(stations)
    .where(and(eq(stations.businessId, businessId), inArray(stations.id, ids)));
  return withChargers(db, rows);
}

async function withChargers(db: Db, rows: { station: typeof stations.$inferSelect; lastUpdated: Date | string }[]): Promise<StationForOcpi[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.station.id);
  const chargerRows = await db.select().from(chargers).where(inArray(chargers.stationId, ids)).orderBy(asc(chargers.createdAt), asc(chargers.id));
  const connectorRows = chargerRows.length
    ? await db
        .select({ connector: connectors, standard: connectorTypes.code })
        .from(connectors)
        .innerJoin(connectorTypes, eq(connectorTypes.id, connectors.connectorTypeId))
        .where(inArray(
          connectors.chargerId,
          chargerRows.map((c) => c.id),
        ))
    : [];
  const facilityRows = await db
    .select({ stationId: stationServices.stationId, code: services.code })
    .from(stationServices)
    .innerJoin(services, eq(services.id, stationServices.serviceId))
    .where(and(inArray(stationServices.stationId, ids), eq(services.ocpi, true)));
  const rateIds = [...new Set(connectorRows.map((r) => r.connector.rateId).filter((id): id is string => !!id))];
  const versions = await pendingVersions(db, rateIds);
  const byCharger = new Map<string, ChargerForOcpi>();
  for (const c of chargerRows) byCharger.set(c.id, { id: c.id, enabled: c.enabled, online: c.online, updatedAt: c.updatedAt, connectors: [] });
  for (const { connector: k, standard } of connectorRows) {
    byCharger.get(k.chargerId)?.connectors.push({
      connectorId: k.connectorId,
      standard,
      format: k.format,
      powerType: k.powerType,
      maxPowerKw: k.maxPowerKw,
      rateId: k.rateId,
      pendingTariffIds: k.rateId ? (versions.get(k.rateId) ?? []).map((v) => v.id) : [],
      status: k.status,
      updatedAt: k.updatedAt,
    });
  }
  return rows.map(({ station: s, lastUpdated }) => ({
    id: s.id,
    name: s.name,
    address: s.address,
    city: s.city,
    postalCode: s.postalCode,
    country: s.country,
    latitude: s.latitude,
    longitude: s.longitude,
    parkingType: s.parkingType,
    openingHours: s.openingHours,
    timeZone: s.timeZone,
    lastUpdated: new Date(lastUpdated),
    facilities: facilityRows.filter((f) => f.stationId === s.id).map((f) => f.code),
    chargers: chargerRows.filter((c) => c.stationId === s.id).map((c) => byCharger.get(c.id)!),
  }));
}

/**
 * The pulled Locations' EVSEs that left them lately (mod_locations.asciidoc §EVSE: a removed EVSE
 * is kept with status REMOVED), with the connectors they had. Pushes do not use this: they
 * send REMOVED once from the copy each partner holds (ocpi/locations-push.ts).
 */
async function withRemovedEvses(db: Db, items: StationForOcpi[]): Promise<StationForOcpi[]> {
  if (items.length === 0) return items;
  const rows = await db
    .select()
    .from(ocpiRemovedEvses)
    .where(and(inArray(ocpiRemovedEvses.stationId, items.map((s) => s.id)), sql`${ocpiRemovedEvses.removedAt} > now() - make_interval(days => ${REMOVED_EVSE_DAYS})`))
    .orderBy(asc(ocpiRemovedEvses.removedAt), asc(ocpiRemovedEvses.chargerId));
  return items.map((s) => {
    const present = new Set(s.chargers.map((c) => c.id));
    const removed: RemovedEvse[] = rows
      .filter((r) => r.stationId === s.id && !present.has(r.chargerId))
      .map((r) => ({
        chargerId: r.chargerId,
        removedAt: r.removedAt,
        connectors: r.connectors.map(
          (k): ConnectorForOcpi => ({
            connectorId: k.connectorId,
            standard: k.standard,
            format: k.format as ConnectorForOcpi["format"],
            powerType: k.powerType as ConnectorForOcpi["powerType"],
            maxPowerKw: Number(k.maxPowerKw),
            rateId: k.rateId,
            status: "Unavailable",
            updatedAt: r.removedAt,
          }),
        ),
      }));
    return { ...s, removedEvses: removed };
  });
}

/** The rates used by a connector of a station published to roaming: the tariffs partners see. */
const rateInRoaming = sql`exists (select 1 from ${connectors} k join ${chargers} c on c.id = k.charger_id join ${stations} s on s.id = c.station_id
    where k.rate_id = ${rates.id} and s.roaming_published and s.business_id = ${rates.businessId})`;

/** A rate partners see, with its scheduled changes not yet written into it (its later Tariff versions). */
export interface RateWithVersions {
  rate: RateForOcpi;
  pending: PendingVersion[];
}

/** The pending scheduled changes of these rates (applied_at null: due ones the sweep has not written yet included), oldest first. */
async function pendingVersions(db: Db, rateIds: string[]): Promise<Map<string, PendingVersion[]>> {
  const byRate = new Map<string, PendingVersion[]>();
  if (rateIds.length === 0) return byRate;
  const rows = await db
    .select({ id: rateSchedules.id, rateId: rateSchedules.rateId, effectiveFrom: rateSchedules.effectiveFrom, changes: rateSchedules.changes, updatedAt: rateSchedules.updatedAt })
    .from(rateSchedules)
    .where(and(inArray(rateSchedules.rateId, rateIds), isNull(rateSchedules.appliedAt)))
    .orderBy(asc(rateSchedules.effectiveFrom));
  for (const { rateId, ...v } of rows) byRate.set(rateId, [...(byRate.get(rateId) ?? []), v]);
  return byRate;
}

/**
 * Every rate of the company used by a connector of a station published to roaming, with its
 * pending versions, oldest rate first: the Tariffs partners pull and are pushed. A company has
 * tens of rates, so the whole set is read and the Tariffs are paged in memory.
 */
export async function roamingRates(db: Db, businessId: string): Promise<RateWithVersions[]> {
  const rows = await db
    .select()
    .from(rates)
    .where(and(eq(rates.businessId, businessId), rateInRoaming))
    .orderBy(asc(rates.createdAt), asc(rates.id));
  const pending = await pendingVersions(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((rate) => ({ rate, pending: pending.get(rate.id) ?? [] }));
}

/** A session of the partner's drivers with where it happened, as the Sessions and CDRs modules show it. */
export interface PartnerSessionRow {
  link: typeof ocpiSessions.$inferSelect;
  session: typeof chargingSessions.$inferSelect;
  place: CdrPlace;
}

/**
 * The sessions of this partner's drivers (those linked to it in ocpi_sessions), in pages, for the
 * Sessions and CDRs Sender interfaces: `completed` keeps only the ones that have a CDR. date_from
 * and date_to bound last_updated (the session's last change); oldest first. Sessions whose
 * station was deleted have no location to report and are left out.
 */
export async function listPartnerSessions(db: Db, partner: OcpiPartner, q: PageQuery, completed: boolean): Promise<{ total: number; items: PartnerSessionRow[] }> {
  const where = and(
    eq(ocpiSessions.partnerId, partner.id),
    eq(ocpiSessions.businessId, partner.businessId),
    eq(chargingSessions.businessId, partner.businessId),
    isNotNull(chargingSessions.chargerId),
    ...(completed ? [eq(chargingSessions.status, "COMPLETED")] : []),
    ...dateFilters(sql`${chargingSessions.updatedAt}`, q),
  );
  const from = () =>
    db
      .select({ link: ocpiSessions, session: chargingSessions, station: stations, standard: connectorTypes.code, format: connectors.format, powerType: connectors.powerType })
      .from(ocpiSessions)
      .innerJoin(chargingSessions, eq(chargingSessions.id, ocpiSessions.sessionId))
      .innerJoin(stations, and(eq(stations.id, chargingSessions.stationId), eq(stations.businessId, partner.businessId)))
      .leftJoin(connectors, and(eq(connectors.chargerId, chargingSessions.chargerId), eq(connectors.connectorId, chargingSessions.connectorNumber)))
      .leftJoin(connectorTypes, eq(connectorTypes.id, connectors.connectorTypeId));
  const [{ total }] = await db
    .select({ total: count() })
    .from(ocpiSessions)
    .innerJoin(chargingSessions, eq(chargingSessions.id, ocpiSessions.sessionId))
    .innerJoin(stations, and(eq(stations.id, chargingSessions.stationId), eq(stations.businessId, partner.businessId)))
    .where(where);
  const rows = await from().where(where).orderBy(asc(chargingSessions.startedAt), asc(chargingSessions.id)).offset(q.offset).limit(q.limit);
  return {
    total,
    items: rows.map((r) => ({
      link: r.link,
      session: r.session,
      place: placeOf(r),
    })),
  };
}

/** Where a session happened, for its Session and CDR objects; connector details default to a Type 2 socket when the connector is gone. */
export function placeOf(row: { session: typeof chargingSessions.$inferSelect; station: typeof stations.$inferSelect; standard: string | null; format: CdrPlace["connector"]["format"] | null; powerType: CdrPlace["connector"]["powerType"] | null }): CdrPlace {
  return {
    station: row.station,
    chargerId: row.session.chargerId ?? "",
    connector: { connectorId: row.session.connectorNumber, standard: row.standard ?? "IEC_62196_T2", format: row.format ?? "SOCKET", powerType: row.powerType ?? "AC_3_PHASE" },
  };
}
