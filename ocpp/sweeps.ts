// What the central system finds by looking rather than by being told: chargers that went silent
// (offline after twice their heartbeat interval), idle sessions whose unplug never arrived
// (charged up to the idle maximum), and reservations past their expiry (with their no-show fee).
import type { Db } from "../db/client";
import type { Authenticator } from "./connection/authentication";
import type { Announce, Sockets } from "./connection/sockets";
import { expireReservations } from "./reservations";
import { sweepIdleSessions, sweepSilentChargers, type Created } from "./store";

export function createSweep(o: { db: Db; nodeId: string; now: () => Date; idleMaxMinutes: number; sockets: Sockets; authenticator: Authenticator; announce: Announce }) {
  const { db, sockets, announce } = o;
  return async function sweep() {
    sockets.pruneBudgets();
    o.authenticator.prune();
    await sockets.flushSignsOfLife();
    const t = o.now();
    const silent = await sweepSilentChargers(db, t);
    for (const c of silent.offline) if (c.node === o.nodeId) sockets.dropCharger(c.id);
    const byBusiness = new Map<string, Created>();
    for (const n of silent.created.notifications) byBusiness.set(n.businessId, { notifications: [...(byBusiness.get(n.businessId)?.notifications ?? []), n] });
    for (const [businessId, created] of byBusiness) announce(businessId, "charger", undefined, created);
    const idle = await sweepIdleSessions(db, t, { idleMaxMinutes: o.idleMaxMinutes });
    for (const n of idle.notifications) announce(n.businessId, "session", undefined, { notifications: [n] });
    const expired = await expireReservations(db, t);
    for (const n of expired.notifications) announce(n.businessId, "session", undefined, { notifications: [n] });
  };
}
