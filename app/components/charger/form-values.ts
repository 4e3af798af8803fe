// The charger form's starting values, without zod: what the pages bundle (the zod schema in
// ./schema.ts loads lazily in the browser; docs/benchmarks.md §1).
import type { ChargerDto, ConnectorFormat, PowerType, PriceDisplayMode } from "#contract/dto";

export type ConnectorFormValue = {
  connectorId?: string;
  standard?: string;
  format?: ConnectorFormat;
  powerType?: PowerType;
  maxPowerKw?: string;
  rateId?: string;
};

export type ChargerFormValue = {
  name?: string;
  stationId?: string;
  brandId?: string;
  model?: string;
  serialNumber?: string;
  ocppIdentity?: string;
  heartbeatInterval?: string;
  priceDisplay?: PriceDisplayMode;
  connectors: ConnectorFormValue[];
};

/** A new connector row: the next free number, a socket on three-phase AC. */
export function newConnector(existing: { connectorId?: unknown }[]): ConnectorFormValue {
  const used = existing.map((k) => Number(k.connectorId)).filter((n) => Number.isInteger(n) && n > 0);
  const next = used.length ? Math.min(99, Math.max(...used) + 1) : 1;
  return { connectorId: String(next), standard: "", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: "", rateId: "" };
}

/** The form's starting values for an existing charger. */
export function chargerFormValue(c: ChargerDto): ChargerFormValue {
  return {
    name: c.name,
    stationId: c.stationId ?? "",
    brandId: c.brandId != null ? String(c.brandId) : "",
    model: c.model ?? "",
    serialNumber: c.serialNumber ?? "",
    ocppIdentity: c.ocppIdentity,
    heartbeatInterval: String(c.heartbeatInterval),
    priceDisplay: c.priceDisplay,
    connectors: c.connectors.map((k) => ({
      connectorId: String(k.connectorId),
      standard: k.standard,
      format: k.format,
      powerType: k.powerType,
      maxPowerKw: String(k.maxPowerKw),
      rateId: k.rateId ?? "",
    })),
  };
}

/** `ws(s)://host/ocpp/` + identity, the way the API builds it. */
export function ocppUrlFor(base: string, identity: string): string {
  return `${base}${encodeURIComponent(identity)}`;
}
