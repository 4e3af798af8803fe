// Smart charging on the wire (ADR 0018): when a station's grid capacity is shared among its
// charging connectors, and the charging profiles that carry each connector's share. The
// sharing itself is ocpp/load-balancing.ts; this module decides when it runs — one run per
// station at a time, after starts, stops and power reports, and when a charger reconnects.
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { connectors } from "../db/schema";
import type { Logger } from "../infra/logger";
import { rebalanceStation, stationToBalance } from "./load-balancing";
import type { Deliver } from "./outbound/router";
import type { ChargerRef } from "./store";

export interface Balancer {
  /** Shares the station's capacity now, queued behind the run in flight for the same station. */
  rebalance(stationId: string): Promise<void>;
  /** After a charger's start, stop or power report: its station is rebalanced once the answer is out. */
  balanceAfter(ref: ChargerRef, reason: "session" | "power"): void;
  /** A charger (re)connected: its connectors' limits are sent again. */
  reapplyLimits(ref: ChargerRef): void;
}

/** A power report asks for a rebalance at most this often per charger. */
const POWER_REBALANCE_MS = 60_000;
/** Most stations have no capacity: a power report there asks again only this often. */
const NO_CAPACITY_RECHECK_MS = 600_000;

export function createBalancer(o: { db: Db; logger: Logger; deliver: Deliver; now: () => Date }): Balancer {
  const { db, logger } = o;
  const balancing = new Map<string, Promise<void>>();
  const lastPowerBalance = new Map<string, number>();
  /** Charger id → when its station was last found without a grid capacity. */
  const noCapacity = new Map<string, number>();

  function rebalance(stationId: string): Promise<void> {
    const run = (balancing.get(stationId) ?? Promise.resolve())
      .then(() => rebalanceStation(db, stationId, o.deliver, o.now))
      .catch((err) => logger.error({ stationId, err: String(err) }, "OCPP: no se pudo repartir la capacidad de la estación"));
    balancing.set(stationId, run);
    void run.then(() => {
      if (balancing.get(stationId) === run) balancing.delete(stationId);
    });
    return run;
  }

  /**
   * A charger that (re)connects at a station with a grid capacity gets its connectors' limits
   * again: a reboot or a lost connection may have dropped its TxProfiles, and until they are
   * back it could draw its maximum. Its allocations are marked unsent, so the rebalance sends
   * them even when they did not change; other chargers are not asked anything.
   */
  function reapplyLimits(ref: ChargerRef) {
    stationToBalance(db, ref.id)
      .then(async (stationId) => {
        if (!stationId) return;
        await db.update(connectors).set({ allocationStatus: null }).where(and(eq(connectors.chargerId, ref.id), isNotNull(connectors.allocatedKw)));
        await rebalance(stationId);
      })
      .catch((err) => logger.error({ identity: ref.ocppIdentity, err: String(err) }, "OCPP: no se pudieron reenviar los límites de potencia al reconectarse"));
  }

  function balanceAfter(ref: ChargerRef, reason: "session" | "power") {
    if (reason === "power") {
      const t = Date.now();
      if (t - (lastPowerBalance.get(ref.id) ?? 0) < POWER_REBALANCE_MS) return;
      if (t - (noCapacity.get(ref.id) ?? 0) < NO_CAPACITY_RECHECK_MS) return;
      lastPowerBalance.set(ref.id, t);
    }
    setTimeout(() => {
      stationToBalance(db, ref.id)
        .then((stationId) => {
          if (stationId) noCapacity.delete(ref.id);
          else noCapacity.set(ref.id, Date.now());
          return stationId ? rebalance(stationId) : undefined;
        })
        .catch((err) => logger.error({ identity: ref.ocppIdentity, err: String(err) }, "OCPP: no se pudo repartir la capacidad de la estación"));
    }, 0);
  }

  return { rebalance, balanceAfter, reapplyLimits };
}
