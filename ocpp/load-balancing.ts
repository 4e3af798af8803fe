// Load balancing (ADR 0018): while a station has a grid capacity, whenever a session
// starts or stops there (or a charger reports its power), its capacity is shared among the
// connectors charging (domain/load-balancing) and each is sent its limit as a TxProfile
// (SetChargingProfile, 1.6 and 2.0.1). A charger that refuses profiles is remembered
// (chargers.smart_charging = false) and counted at its connectors' maximum from then on.
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { chargers, chargingSessions, connectors, stations } from "../db/schema";
import { allocate } from "../domain/load-balancing";
import { answerStatus, type ChargerAnswer, type CommandProtocol, type OcppCallSpec } from "./commands";

/** The profile id a connector's limit is sent with: the same id replaces the previous limit. */
export const profileId = (connectorNumber: number) => 1000 + connectorNumber;

/** A TxProfile limiting one transaction to `limitKw`, in the charger's protocol (W, from now on). */
export function chargingProfileCall(protocol: CommandProtocol, t: { connectorNumber: number; transactionId: number; ocppTransactionId: string | null }, limitKw: number): OcppCallSpec {
  const limit = Math.floor(limitKw * 1000);
  const period = [{ startPeriod: 0, limit }];
  if (protocol === "ocpp2.0.1") {
    return {
      method: "SetChargingProfile",
      params: {
        evseId: t.connectorNumber,
        chargingProfile: {
          id: profileId(t.connectorNumber),
          stackLevel: 0,
          chargingProfilePurpose: "TxProfile",
          chargingProfileKind: "Relative",
          transactionId: t.ocppTransactionId ?? String(t.transactionId),
          chargingSchedule: [{ id: profileId(t.connectorNumber), chargingRateUnit: "W", chargingSchedulePeriod: period }],
        },
      },
    };
  }
  return {
    method: "SetChargingProfile",
    params: {
      connectorId: t.connectorNumber,
      csChargingProfiles: {
        chargingProfileId: profileId(t.connectorNumber),
        transactionId: t.transactionId,
        stackLevel: 0,
        chargingProfilePurpose: "TxProfile",
        chargingProfileKind: "Relative",
        chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: period },
      },
    },
  };
}

/** Answers that mean "this charger does not do smart charging". */
const NOT_SMART = new Set(["Rejected", "NotSupported", "NotImplemented"]);

type Call = (charger: { id: string; ocppIdentity: string }, build: (protocol: CommandProtocol) => OcppCallSpec) => Promise<ChargerAnswer>;

/** The station of a charger, when it has a grid capacity or still shows allocations to clear. */
export async function stationToBalance(db: Db, chargerId: string): Promise<string | null> {
  const [row] = await db
    .select({ stationId: chargers.stationId, capacity: stations.gridCapacityKw })
    .from(chargers)
    .innerJoin(stations, and(eq(stations.id, chargers.stationId), eq(stations.businessId, chargers.businessId)))
    .where(eq(chargers.id, chargerId));
  if (!row?.stationId) return null;
  if (row.capacity !== null) return row.stationId;
  const [left] = await db
    .select({ id: connectors.id })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .where(and(eq(chargers.stationId, row.stationId), isNotNull(connectors.allocatedKw)))
    .limit(1);
  return left ? row.stationId : null;
}

/** Shares the station's capacity among its charging connectors and sends the limits that changed. */
export async function rebalanceStation(db: Db, stationId: string, call: Call, now: () => Date): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const [station] = await db.select({ capacity: stations.gridCapacityKw }).from(stations).where(eq(stations.id, stationId));
    const rows = await db
      .select({
        connectorId: connectors.id,
        connectorNumber: connectors.connectorId,
        maxKw: connectors.maxPowerKw,
        allocatedKw: connectors.allocatedKw,
        allocationStatus: connectors.allocationStatus,
        allocatedTransactionId: connectors.allocatedTransactionId,
        chargerId: chargers.id,
        ocppIdentity: chargers.ocppIdentity,
        online: chargers.online,
        smart: chargers.smartCharging,
        transactionId: chargingSessions.transactionId,
        ocppTransactionId: chargingSessions.ocppTransactionId,
      })
      .from(connectors)
      .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
      .leftJoin(chargingSessions, and(eq(chargingSessions.connectorId, connectors.id), eq(chargingSessions.status, "ACTIVE")))
      .where(eq(chargers.stationId, stationId));
    // An allocation sent for an earlier session on the connector is not this one's: its TxProfile
    // ended with that transaction, so the new session is treated as not yet sent anything.
    const charging = (station?.capacity != null ? rows.filter((r) => r.transactionId !== null) : []).map((r) =>
      r.allocatedTransactionId === r.transactionId ? r : { ...r, allocatedKw: null, allocationStatus: null },
    );
    const chargingIds = new Set(charging.map((r) => r.connectorId));
    // Connectors no longer charging (or no capacity any more) give their allocation back.
    const stale = rows.filter((r) => !chargingIds.has(r.connectorId) && (r.allocatedKw !== null || r.allocationStatus !== null)).map((r) => r.connectorId);
    if (stale.length) {
      await db.update(connectors).set({ allocatedKw: null, allocationStatus: null, allocatedAt: null, allocatedTransactionId: null }).where(inArray(connectors.id, stale));
    }
    if (charging.length === 0) return;

    // An offline charger cannot be told anything: it counts at its maximum, like one without smart charging.
    const limits = allocate(
      station!.capacity!,
      charging.map((r) => ({ id: r.connectorId, maxKw: r.maxKw, smart: r.online && r.smart !== false })),
    );
    // Lower limits first, so the sum stays under the capacity while they change.
    const changes = charging
      .filter((r) => limits.has(r.connectorId) && (limits.get(r.connectorId) !== r.allocatedKw || r.allocationStatus !== "Accepted"))
      .sort((a, b) => limits.get(a.connectorId)! - (a.allocatedKw ?? a.maxKw) - (limits.get(b.connectorId)! - (b.allocatedKw ?? b.maxKw)));
    let refused = false;
    for (const r of changes) {
      const limit = limits.get(r.connectorId)!;
      const answer = await call({ id: r.chargerId, ocppIdentity: r.ocppIdentity }, (protocol) =>
        chargingProfileCall(protocol, { connectorNumber: r.connectorNumber, transactionId: r.transactionId!, ocppTransactionId: r.ocppTransactionId }, limit),
      );
      const status = answerStatus(answer);
      const accepted = status === "Accepted";
      await db
        .update(connectors)
        .set({ allocatedKw: accepted ? limit : null, allocationStatus: status, allocatedAt: now(), allocatedTransactionId: r.transactionId })
        .where(eq(connectors.id, r.connectorId));
      if (accepted && r.smart !== true) await db.update(chargers).set({ smartCharging: true }).where(eq(chargers.id, r.chargerId));
      if (NOT_SMART.has(status)) {
        await db.update(chargers).set({ smartCharging: false }).where(eq(chargers.id, r.chargerId));
        refused = true;
      }
    }
    // Connectors without limits are counted at their maximum: the others' share changes.
    for (const r of charging.filter((x) => !limits.has(x.connectorId) && (x.allocatedKw !== null || x.allocationStatus === "Accepted"))) {
      await db
        .update(connectors)
        .set({ allocatedKw: null, allocationStatus: r.online ? "NotSupported" : "offline", allocatedAt: now(), allocatedTransactionId: r.transactionId })
        .where(eq(connectors.id, r.connectorId));
    }
    if (!refused) return;
  }
}

/** The station's allocation for its screen: each connector's, when it was sent for the session charging there. */
export async function stationAllocation(db: Db, businessId: string, stationId: string) {
  const rows = await db
    .select({
      connectorId: connectors.id,
      chargerId: chargers.id,
      chargerName: chargers.name,
      connectorNumber: connectors.connectorId,
      maxPowerKw: connectors.maxPowerKw,
      allocatedKw: connectors.allocatedKw,
      status: connectors.allocationStatus,
      at: connectors.allocatedAt,
      allocatedTransactionId: connectors.allocatedTransactionId,
      sessionTransactionId: sql<number | null>`(select s.transaction_id from charging_sessions s where s.connector_id = ${connectors.id} and s.status = 'ACTIVE' limit 1)`.mapWith((v) =>
        v == null ? null : Number(v),
      ),
    })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .where(and(eq(chargers.stationId, stationId), eq(chargers.businessId, businessId)))
    .orderBy(sql`lower(${chargers.name})`, connectors.connectorId);
  return rows.map(({ allocatedTransactionId, sessionTransactionId, ...r }) => {
    const charging = sessionTransactionId !== null;
    const current = charging && allocatedTransactionId === sessionTransactionId;
    return { ...r, charging, allocatedKw: current ? r.allocatedKw : null, status: current ? r.status : null, at: current ? r.at : null };
  });
}
