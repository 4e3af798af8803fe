// A charger's identity pattern, connector formats and power types with their labels, without zod
// and apart from ./constants, which re-exports them: the charger screens import only these (JS budget).

export const OCPP_IDENTITY_RE = /^[A-Za-z0-9._-]{3,48}$/;
export const OCPP_IDENTITY_MESSAGE = "Usá de 3 a 48 letras, números, puntos, guiones o guiones bajos (sin espacios).";
export const MAX_CONNECTORS = 10;
export const CONNECTOR_FORMATS = ["SOCKET", "CABLE"] as const;
export const POWER_TYPES = ["AC_1_PHASE", "AC_3_PHASE", "DC"] as const;
/** How a connector meets the vehicle; OCPI's ConnectorFormat, the same two values. */
export type ConnectorFormat = (typeof CONNECTOR_FORMATS)[number];
/** The supply a connector delivers; the subset of OCPI's PowerType a charger here has. */
export type PowerType = (typeof POWER_TYPES)[number];
export const CONNECTOR_FORMAT_LABELS: Record<ConnectorFormat, string> = { SOCKET: "Toma", CABLE: "Cable" };
export const POWER_TYPE_LABELS: Record<PowerType, string> = {
  AC_1_PHASE: "AC monofásica",
  AC_3_PHASE: "AC trifásica",
  DC: "DC",
};

/**
 * «Mostrar precio en el cargador»: AUTO shows it on chargers that speak OCPP 2.0.1 (display
 * messages are part of the protocol) and not on 1.6 ones (California Pricing is a vendor
 * extension few 1.6 chargers have); ON and OFF decide for the charger whatever it speaks.
 */
export const PRICE_DISPLAY_MODES = ["AUTO", "ON", "OFF"] as const;
export type PriceDisplayMode = (typeof PRICE_DISPLAY_MODES)[number];
export const PRICE_DISPLAY_LABELS: Record<PriceDisplayMode, string> = {
  AUTO: "Según el protocolo (sí en OCPP 2.0.1, no en 1.6)",
  ON: "Sí",
  OFF: "No",
};

/** Whether a charger in this mode, speaking this protocol, is sent the price. */
export function showsPrice(mode: PriceDisplayMode, protocol: string): boolean {
  return mode === "ON" || (mode === "AUTO" && protocol === "ocpp2.0.1");
}
