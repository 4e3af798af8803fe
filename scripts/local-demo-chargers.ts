// Local mode only (`npm start`): the demo's chargers that the seed shows online stay online while
// the launcher runs. Each one is connected by a simulated charger (scripts/sim-charger.ts) that
// sends its heartbeats; without them Enchufá would rightly mark them offline after twice their
// heartbeat interval, and the demo would decay within minutes. Dev-only code: production never runs it.
import { and, eq, inArray, isNotNull, isNull, like } from "drizzle-orm";
import type { Db } from "../db/client";
import { chargers, connectors, notifications } from "../db/schema";
import { DEMO_OFFLINE_IDENTITY, demoStationChargerIdentities } from "../db/seed/demo";
import { hashOcppPassword, verifyOcppPassword } from "../infra/crypto";
import { SIM_CHARGER_PASSWORD } from "./local-qr-demo";

export interface DemoCharger {
  ocppIdentity: string;
  connectors: number;
  heartbeatSeconds: number;
}

/**
 * The demo company's station chargers to simulate (all but the one the demo shows offline and
 * `exclude`, the QR demo's own simulated charger). They take the simulated chargers' password,
 * unless someone gave them another (then they are no longer the demo's to drive), and are
 * marked online as of `now`: the simulation resumes where the last run left it, so they connect
 * again without a "volvió a conectarse" notification each, and the "se desconectó" ones the
 * previous run's stop left are marked read.
 */
export async function prepareDemoChargers(db: Db, opts: { businessId: string; exclude?: string[]; now?: Date }): Promise<DemoCharger[]> {
  const now = opts.now ?? new Date();
  const identities = demoStationChargerIdentities().filter((identity) => identity !== DEMO_OFFLINE_IDENTITY && !opts.exclude?.includes(identity));
  const rows = await db
    .select({ id: chargers.id, ocppIdentity: chargers.ocppIdentity, passwordHash: chargers.ocppPasswordHash, heartbeatInterval: chargers.heartbeatInterval })
    .from(chargers)
    .where(and(eq(chargers.businessId, opts.businessId), inArray(chargers.ocppIdentity, identities), isNotNull(chargers.stationId), eq(chargers.enabled, true)));
  const hash = await hashOcppPassword(SIM_CHARGER_PASSWORD);
  const picked: typeof rows = [];
  for (const row of rows) if (!row.passwordHash || (await verifyOcppPassword(SIM_CHARGER_PASSWORD, row.passwordHash))) picked.push(row);
  if (!picked.length) return [];
  const ids = picked.map((row) => row.id);
  await db.transaction(async (tx) => {
    await tx.update(chargers).set({ ocppPasswordHash: hash }).where(and(inArray(chargers.id, ids), isNull(chargers.ocppPasswordHash)));
    await tx.update(chargers).set({ online: true, lastHeartbeatAt: now }).where(inArray(chargers.id, ids));
    await tx
      .update(notifications)
      .set({ readAt: now })
      .where(
        and(
          eq(notifications.businessId, opts.businessId),
          eq(notifications.type, "CHARGER_OFFLINE"),
          isNull(notifications.readAt),
          like(notifications.body, "% se desconectó.%"),
          inArray(notifications.link, ids.map((id) => `/charger/edit/${id}`)),
        ),
      );
  });
  const counts = await db.select({ chargerId: connectors.chargerId }).from(connectors).where(inArray(connectors.chargerId, ids));
  return picked
    .map((row) => ({ ocppIdentity: row.ocppIdentity, connectors: counts.filter((c) => c.chargerId === row.id).length || 1, heartbeatSeconds: row.heartbeatInterval }))
    .sort((a, b) => a.ocppIdentity.localeCompare(b.ocppIdentity));
}
