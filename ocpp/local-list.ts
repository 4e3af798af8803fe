// The company's RFID tags pushed to a charger as its local authorization list (ADR 0018):
// OCPP 1.6 SendLocalList / GetLocalListVersion and their 2.0.1 equivalents, always a Full update.
// Each tag goes with the answer Authorize would give at that charger's station (domain/authorization),
// so a charger that is offline decides like Enchufá: a blocked card stays blocked, an expired one
// expired, one whose group does not cover the station Invalid where the station only takes
// registered cards.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { accessGroups, chargers, rfidTags, stations } from "../db/schema";
import { decideAuthorization, localDate, type KnownTag, type TagAnswer } from "../domain/authorization";
import { DEFAULT_TIME_ZONE } from "../domain/pricing";
import type { CommandProtocol, OcppCallSpec } from "./commands";

/** The most tags one list carries (chargers hold a few thousand at most). */
export const LOCAL_LIST_MAX = 5_000;

export interface LocalListEntry {
  idTag: string;
  status: TagAnswer;
  /** Last valid day (YYYY-MM-DD) of an Accepted tag that expires. */
  expiresOn: string | null;
}

/** The first instant after a tag's last valid day (Argentina has no DST: -03:00). */
export function expiryInstant(expiresOn: string): string {
  const next = new Date(`${expiresOn}T00:00:00-03:00`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

/** The Full SendLocalList of `entries` as version `version`, in the charger's protocol. */
export function sendLocalListCall(protocol: CommandProtocol, version: number, entries: LocalListEntry[]): OcppCallSpec {
  if (protocol === "ocpp2.0.1") {
    // 2.0.1 lists hold at least one entry: a Full update without the list is how it is emptied.
    if (entries.length === 0) return { method: "SendLocalList", params: { versionNumber: version, updateType: "Full" } };
    return {
      method: "SendLocalList",
      params: {
        versionNumber: version,
        updateType: "Full",
        localAuthorizationList: entries.map((e) => ({
          idToken: { idToken: e.idTag, type: "ISO14443" },
          idTokenInfo: { status: e.status, ...(e.status === "Accepted" && e.expiresOn ? { cacheExpiryDateTime: expiryInstant(e.expiresOn) } : {}) },
        })),
      },
    };
  }
  return {
    method: "SendLocalList",
    params: {
      listVersion: version,
      updateType: "Full",
      localAuthorizationList: entries.map((e) => ({ idTag: e.idTag, idTagInfo: { status: e.status, ...(e.status === "Accepted" && e.expiresOn ? { expiryDate: expiryInstant(e.expiresOn) } : {}) } })),
    },
  };
}

export function getLocalListVersionCall(_protocol: CommandProtocol): OcppCallSpec {
  return { method: "GetLocalListVersion", params: {} };
}

/** The version a GetLocalListVersion answer gives (1.6 listVersion: 0 no list, -1 not supported; 2.0.1 versionNumber). */
export function versionFromAnswer(response: unknown): number | undefined {
  const r = response as { listVersion?: unknown; versionNumber?: unknown } | undefined;
  const v = r?.versionNumber ?? r?.listVersion;
  return typeof v === "number" && Number.isInteger(v) ? v : undefined;
}

/** What one tag answers at a station (pure). */
export function entryFor(tag: KnownTag & { idTag: string }, station: { id: string | null; policy: "OPEN" | "KNOWN_TAGS" }, today: string): LocalListEntry {
  const status = decideAuthorization({ chargerBlocked: false, stationId: station.id, policy: station.policy, tag, today });
  return { idTag: tag.idTag, status, expiresOn: tag.expiresOn };
}

/**
 * The list for one of the company's chargers: every tag with its answer at the charger's station,
 * by idTag. `tooMany` when the company has more than LOCAL_LIST_MAX tags (nothing is sent).
 */
export async function buildLocalList(db: Db, businessId: string, chargerId: string, now: Date): Promise<{ entries: LocalListEntry[]; tooMany: boolean } | null> {
  const [charger] = await db
    .select({ stationId: chargers.stationId, policy: stations.authorizationPolicy, timeZone: stations.timeZone })
    .from(chargers)
    .leftJoin(stations, and(eq(stations.id, chargers.stationId), eq(stations.businessId, businessId)))
    .where(and(eq(chargers.id, chargerId), eq(chargers.businessId, businessId)));
  if (!charger) return null;
  const stationId = charger.stationId ?? null;
  const rows = await db
    .select({
      idTag: rfidTags.idTag,
      blocked: rfidTags.blocked,
      expiresOn: rfidTags.expiresOn,
      groupId: accessGroups.id,
      allStations: accessGroups.allStations,
      inGroup: stationId
        ? sql<boolean>`exists (select 1 from access_group_stations g where g.group_id = ${accessGroups.id} and g.station_id = ${stationId})`.mapWith(Boolean)
        : sql<boolean>`false`.mapWith(Boolean),
    })
    .from(rfidTags)
    .leftJoin(accessGroups, and(eq(accessGroups.id, rfidTags.groupId), eq(accessGroups.businessId, businessId)))
    .where(eq(rfidTags.businessId, businessId))
    .orderBy(sql`lower(${rfidTags.idTag})`)
    .limit(LOCAL_LIST_MAX + 1);
  if (rows.length > LOCAL_LIST_MAX) return { entries: [], tooMany: true };
  const today = localDate(now, charger.timeZone ?? DEFAULT_TIME_ZONE);
  const station = { id: stationId, policy: charger.policy ?? "OPEN" };
  const entries = rows.map((r) =>
    entryFor(
      {
        idTag: r.idTag,
        blocked: r.blocked,
        expiresOn: r.expiresOn ?? null,
        group: r.groupId ? { allStations: r.allStations ?? true, stationIds: r.inGroup && stationId ? [stationId] : [], rateId: null } : null,
      },
      station,
      today,
    ),
  );
  return { entries, tooMany: false };
}
