// OCPP 2.0.1 Firmware Management and Diagnostics: the charger reports how a firmware update and
// a log upload are going. Each report is kept as a charger event and moves the request's status.
import type { ChargerLink, HandlerContext } from "../handler-context";
import { recordDiagnosticsStatus, recordFirmwareStatus } from "../maintenance";

export function registerFirmware(ctx: HandlerContext, { ref, handle, seen }: ChargerLink) {
  const { db, now, live } = ctx;

  handle("FirmwareStatusNotification", async ({ params }) => {
    await ctx.keep(ref, "FirmwareStatusNotification", params);
    await recordFirmwareStatus(db, ref, (params as { status: string }).status, now());
    live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
    await seen();
    return {};
  });

  handle("LogStatusNotification", async ({ params }) => {
    await ctx.keep(ref, "LogStatusNotification", params);
    await recordDiagnosticsStatus(db, ref, params as { status: string; requestId?: number });
    live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
    await seen();
    return {};
  });
}
