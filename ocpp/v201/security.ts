// OCPP 2.0.1 Monitoring and Security: the events a charger reports on its own (NotifyEvent) and
// its security events, kept as charger events for the troubleshooting screen.
import type { ChargerLink, HandlerContext } from "../handler-context";
import { notifyEventSummaries, recordChargerEvents } from "../store201";

export function registerSecurity(ctx: HandlerContext, { ref, handle, seen }: ChargerLink) {
  const { db, now, live } = ctx;

  handle("NotifyEvent", async ({ params }) => {
    await recordChargerEvents(db, ref, notifyEventSummaries(params as Parameters<typeof notifyEventSummaries>[0]), now());
    await seen();
    live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
    return {};
  });

  handle("SecurityEventNotification", async ({ params }) => {
    const p = params as { type: string; timestamp: string; techInfo?: string };
    await ctx.keep(ref, "SecurityEventNotification", params, p.techInfo ? `${p.type}: ${p.techInfo}` : p.type, p.timestamp);
    await seen();
    return {};
  });
}
