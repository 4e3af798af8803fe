// OCPP 2.0.1 Provisioning and Availability, the charger's standing: BootNotification,
// Heartbeat, StatusNotification, NotifyReport and DataTransfer. They land on the same rows as
// their 1.6 counterparts (ocpp/store201.ts maps the payloads).
import type { ChargerLink, HandlerContext } from "../handler-context";
import { recordBoot } from "../store";
import { bootPayload, recordStatus201, type Boot201, type Status201 } from "../store201";

export function registerProvisioning(ctx: HandlerContext, { ref, session, handle, seen }: ChargerLink) {
  const { db, now, live } = ctx;

  handle("BootNotification", async ({ params }) => {
    const { accepted, interval } = await recordBoot(db, ref, bootPayload(params as Boot201), now());
    session.lastTouch = now().getTime();
    live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
    // The screen's price may be gone after a restart: it gets the price in force again.
    if (accepted) ctx.prices.booted(ref);
    return { status: accepted ? "Accepted" : "Rejected", currentTime: now().toISOString(), interval };
  });

  handle("Heartbeat", async () => {
    await seen(true);
    return { currentTime: now().toISOString() };
  });

  handle("StatusNotification", async ({ params }) => {
    const created = await recordStatus201(db, ref, params as Status201, now());
    await seen();
    ctx.announce(ref.businessId, "connector", ref.id, created);
    return {};
  });

  // A part of the report GetBaseReport asked for: kept as a charger event with how many variables it carries.
  handle("NotifyReport", async ({ params }) => {
    const p = params as { requestId: number; seqNo: number; tbc?: boolean; reportData?: unknown[] };
    const n = p.reportData?.length ?? 0;
    await ctx.keep(ref, "NotifyReport", params, `Informe ${p.requestId}, parte ${p.seqNo}${p.tbc ? " (sigue)" : ""}: ${n} ${n === 1 ? "variable" : "variables"}`);
    await seen();
    return {};
  });

  // No vendor extension is understood: answered as OCPP requires.
  handle("DataTransfer", async () => ({ status: "UnknownVendorId" }));
}
