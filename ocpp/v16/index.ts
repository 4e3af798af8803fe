// The OCPP 1.6 calls a charger may make, by functional profile. Smart charging, the local
// authorization list and reservations have no call of the charger's in 1.6: they are commands
// (ocpp/outbound/, ocpp/local-list.ts, ocpp/reservations.ts).
import type { ChargerLink, HandlerContext } from "../handler-context";
import { registerCore } from "./core";
import { registerFirmware } from "./firmware";
import { registerTransactions } from "./transactions";

export function registerV16(ctx: HandlerContext, link: ChargerLink) {
  registerCore(ctx, link);
  registerTransactions(ctx, link);
  registerFirmware(ctx, link);
}
