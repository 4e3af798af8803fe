// OCPP 1.6 Firmware Management profile: the charger reports how a firmware update and a
// diagnostics upload are going. Each report is kept as a charger event and moves the request's
// status.
import type { ChargerLink, HandlerContext } from "../handler-context";
import { recordDiagnosticsStatus, recordFirmwareStatus } from "../maintenance";

export function registerFirmware(ctx: HandlerContext, { ref, handle }: ChargerLink) {
  const { db, now, live } = ctx;

  handle("DiagnosticsStatusNotification", async ({ params }) => {
    await ctx.keep(ref, "DiagnosticsStatusNotification", params);
    await recordDiagnosticsStatus(db, ref, params as { status: string });
    live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
    return {};
  });

  handle("FirmwareStatusNotification", async ({ params }) => {
    await ctx.keep(ref, "FirmwareStatusNotification", params);
    await recordFirmwareStatus(db, ref, (params as { status: string }).status, now());
    live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
    return {};
  });
}
