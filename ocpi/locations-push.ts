// Location changes pushed to partners' Locations receivers (mod_locations.asciidoc §Receiver
// interface: PUT and PATCH {url}/{country_code}/{party_id}/{location_id}[/{evse_uid}]), ADR 0021.
//
// Nothing is queued by the chargers or the dashboard: OCPP status reports and station edits
// already move the rows' updated_at, and a pass of ocpi/push.ts (every 5 s, one node per partner)
// compares each station changed since its last comparison with the Location the partner holds
// (ocpi_location_pushes) and sends only the difference:
//   - an EVSE whose status changed: PATCH of the EVSE, { status, last_updated };
//   - the station itself changed (name, address, coordinates, hours, facilities, chargers or
//     connectors added, removed or edited, published again): PUT of the whole Location, the EVSEs
//     it no longer has sent once more as REMOVED (§EVSE: REMOVED, not forgotten);
//   - no longer published: PATCH of the Location { publish: false }; deleted: its last copy PUT
//     with publish false and every EVSE REMOVED.
// A station is pushed to a partner at most every MIN_INTERVAL_MS: a charger flapping between
// statuses costs one PATCH with its latest status per interval, never one per report. A partner
// without a Locations receiver gets nothing (it pulls). A partner never pushed to gets every
// published station once (PUT).
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { ocpiLocationPushes, type OcpiPartner } from "../db/schema";
import { queryRows } from "../infra/sql";
import { endpointUrl } from "./client";
import { ocpiDateTime } from "./envelope";
import { stationToLocation, type Party } from "./mapping";
import { callPartner, partnerToken, type OcpiServices } from "./registration";
import type { Evse, Location } from "./schemas";
import { stationsForOcpi } from "./store";

/** A station is pushed to a partner at most this often (its changes meanwhile wait, coalesced). */
export const LOCATION_MIN_INTERVAL_MS = 10_000;
/** Changes are compared again this long after a comparison: clocks of several nodes, commits that land late. */
const CLOCK_MARGIN_MS = 30_000;
/** Stations compared per partner and pass (the next pass takes the rest). */
const STATIONS_PER_PASS = 100;

/** JSON with every object's keys sorted: the stored copy comes back from jsonb in another key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What decides a PUT: the Location without the statuses and times that move on their own. */
function structureOf(location: Location): string {
  const evses = (location.evses ?? [])
    .filter((e) => e.status !== "REMOVED")
    .map(({ status: _status, last_updated: _at, connectors, ...rest }) => ({ ...rest, connectors: connectors.map(({ last_updated: _c, ...k }) => k) }))
    .sort((a, b) => a.uid.localeCompare(b.uid));
  const { last_updated: _lu, evses: _e, ...fields } = location;
  return canonical({ ...fields, evses });
}

const removed = (evse: Evse, at: string): Evse => ({ ...evse, status: "REMOVED", last_updated: at });

interface Candidate extends Record<string, unknown> {
  station_id: string;
  published: boolean;
}

/**
 * One partner's location changes (its pass holds the partner: ocpi/push.ts). `stillMine` renews
 * the hold before each request and says false when another node took the partner over. Returns
 * the requests sent; throws the first failure after recording the rest as pending.
 */
export async function pushLocationChanges(svc: OcpiServices, partner: OcpiPartner, party: Party, stillMine: () => Promise<boolean>): Promise<number> {
  const url = endpointUrl(partner.endpoints, "locations", "RECEIVER")?.replace(/\/$/, "");
  if (!url || !party.partyId) return 0;
  const scanStart = svc.now();
  const candidates = await queryRows<Candidate>(
    svc.db,
    // Longest uncompared first, so a busy network cannot starve the rest of the stations.
    sql`select * from (
        select s.id as station_id, s.roaming_published as published, l.synced_at
        from stations s
        left join ocpi_location_pushes l on l.partner_id = ${partner.id} and l.station_id = s.id
        where s.business_id = ${partner.businessId}
          and (s.roaming_published or l.station_id is not null)
          and (l.synced_at is null or l.pending or greatest(s.updated_at, coalesce((
                select max(greatest(c.updated_at, coalesce(k.updated_at, c.updated_at)))
                from chargers c left join connectors k on k.charger_id = c.id
                where c.station_id = s.id), s.updated_at)) > l.synced_at)
        union all
        select l.station_id, false, l.synced_at from ocpi_location_pushes l
        where l.partner_id = ${partner.id} and not exists (select 1 from stations s where s.id = l.station_id)
        ) c
        order by synced_at nulls first, station_id
        limit ${STATIONS_PER_PASS}`,
  );
  if (candidates.length === 0) return 0;
  const ids = candidates.map((c) => c.station_id);
  const [current, states] = await Promise.all([
    stationsForOcpi(svc.db, partner.businessId, ids),
    svc.db
      .select()
      .from(ocpiLocationPushes)
      .where(and(eq(ocpiLocationPushes.partnerId, partner.id), inArray(ocpiLocationPushes.stationId, ids))),
  ]);
  const stationById = new Map(current.map((s) => [s.id, s]));
  const stateById = new Map(states.map((s) => [s.stationId, s]));
  const syncedAt = new Date(scanStart.getTime() - CLOCK_MARGIN_MS);
  const base = `${url}/${party.countryCode}/${party.partyId}`;
  let sent = 0;

  const save = (stationId: string, values: Partial<typeof ocpiLocationPushes.$inferInsert>) =>
    svc.db
      .insert(ocpiLocationPushes)
      .values({ partnerId: partner.id, stationId, businessId: partner.businessId, ...values })
      .onConflictDoUpdate({ target: [ocpiLocationPushes.partnerId, ocpiLocationPushes.stationId], set: values });
  const credentials = partnerToken(svc, partner);
  if (!credentials) return 0;
  const send = async (method: "PUT" | "PATCH", path: string, body: unknown) => {
    if (!(await stillMine())) throw new PartnerHandedOver();
    await callPartner(svc, partner, method, `${base}/${path}`, z.unknown(), body, { from: party });
    sent++;
  };

  for (const { station_id: stationId, published } of candidates) {
    const state = stateById.get(stationId);
    const stored = (state?.location ?? null) as Location | null;
    const station = stationById.get(stationId);
    const now = svc.now();
    const at = ocpiDateTime(now);
    const tooSoon = state?.pushedAt != null && now.getTime() - state.pushedAt.getTime() < LOCATION_MIN_INTERVAL_MS;
    try {
      if (!station || !published) {
        // Deleted, or no longer published: the partner is told once, then it is forgotten (deleted) or kept as hidden.
        if (stored?.publish) {
          if (tooSoon) {
            await save(stationId, { pending: true });
            continue;
          }
          const hidden: Location = station
            ? { ...stored, publish: false, last_updated: at }
            : { ...stored, publish: false, evses: (stored.evses ?? []).map((e) => removed(e, at)), last_updated: at };
          if (station) await send("PATCH", stationId, { publish: false, last_updated: at });
          else await send("PUT", stationId, hidden);
          if (station) await save(stationId, { location: hidden, pushedAt: now, syncedAt, pending: false });
        } else if (station) {
          await save(stationId, { syncedAt, pending: false });
        }
        if (!station) await svc.db.delete(ocpiLocationPushes).where(and(eq(ocpiLocationPushes.partnerId, partner.id), eq(ocpiLocationPushes.stationId, stationId)));
        continue;
      }
      const location = stationToLocation(party, station);
      const evses = location.evses ?? [];
      const structural = !stored || structureOf(stored) !== structureOf(location);
      const changed = structural ? [] : evses.filter((e) => stored.evses?.find((s) => s.uid === e.uid)?.status !== e.status);
      if (!structural && changed.length === 0) {
        await save(stationId, { syncedAt, pending: false });
        continue;
      }
      if (tooSoon) {
        await save(stationId, { pending: true });
        continue;
      }
      if (structural) {
        // EVSEs the partner holds that the station no longer has: REMOVED (once; the next PUT drops them).
        const gone = (stored?.evses ?? []).filter((e) => e.status !== "REMOVED" && !evses.some((x) => x.uid === e.uid)).map((e) => removed(e, at));
        const whole: Location = { ...location, evses: [...evses, ...gone] };
        await send("PUT", stationId, whole);
        await save(stationId, { location: whole, pushedAt: now, syncedAt, pending: false });
      } else {
        const next: Location = { ...stored, evses: (stored.evses ?? []).map((e) => ({ ...e })) };
        for (const evse of changed) {
          await send("PATCH", `${stationId}/${evse.uid}`, { status: evse.status, last_updated: evse.last_updated });
          const held = next.evses!.find((e) => e.uid === evse.uid)!;
          held.status = evse.status;
          held.last_updated = evse.last_updated;
        }
        await save(stationId, { location: next, pushedAt: now, syncedAt, pending: false });
      }
    } catch (err) {
      // Compared again on the next pass (by this node or another), whatever was sent of it.
      await save(stationId, { pending: true });
      if (err instanceof PartnerHandedOver) return sent;
      throw err;
    }
  }
  return sent;
}

/** Another node holds the partner now: this pass stops. */
export class PartnerHandedOver extends Error {
  override name = "PartnerHandedOver";
}
