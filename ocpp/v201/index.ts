// The OCPP 2.0.1 calls a charger may make, by functional block. They write the same rows and
// raise the same live events as 1.6; smart charging and the local authorization list have no
// call of the charger's that we take: they are commands (ocpp/outbound/, ocpp/local-list.ts).
import type { ChargerLink, HandlerContext } from "../handler-context";
import { registerFirmware } from "./firmware";
import { registerProvisioning } from "./provisioning";
import { registerReservations } from "./reservations";
import { registerSecurity } from "./security";
import { registerTransactions } from "./transactions";

export function registerV201(ctx: HandlerContext, link: ChargerLink) {
  registerProvisioning(ctx, link);
  registerTransactions(ctx, link);
  registerSecurity(ctx, link);
  registerFirmware(ctx, link);
  registerReservations(ctx, link);
}
