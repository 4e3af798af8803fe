// OCPP 1.6 Core profile, the charger's standing: BootNotification, Heartbeat, StatusNotification
// and DataTransfer.
import type { ChargerLink, HandlerContext } from "../handler-context";
import { recordBoot, recordStatus, type BootPayload, type StatusPayload } from "../store";

export function registerCore(ctx: HandlerContext, { ref, session, handle, seen }: ChargerLink) {
  const { db, now, live } = ctx;

  handle("BootNotification", async ({ params }) => {
    const { accepted, interval } = await recordBoot(db, ref, params as BootPayload, now());
    session.lastTouch = now().getTime();
    live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
    return { status: accepted ? "Accepted" : "Rejected", currentTime: now().toISOString(), interval };
  });

  handle("Heartbeat", async () => {
    await seen(true);
    return { currentTime: now().toISOString() };
  });

  handle("StatusNotification", async ({ params }) => {
    const created = await recordStatus(db, ref, params as StatusPayload, now());
    await seen();
    ctx.announce(ref.businessId, "connector", ref.id, created);
    // The unplug that prices a stopped session: its final cost, when one is waiting.
    ctx.prices.stopped16(ref);
    return {};
  });

  // No vendor extension is understood: answered as OCPP requires.
  handle("DataTransfer", async () => ({ status: "UnknownVendorId" }));
}
