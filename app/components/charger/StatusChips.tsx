// One chip per connector with the OCPP status in Spanish (domain/ocpp-status.ts), in the charger
// list. The charger's connection is in ./ConnectionStatus.tsx, apart: the charger screens show it
// without the chips, so they do not load the status and error labels (JS budget).
// Plain stand-ins for Radix (app/components/plain.tsx): these render in every row of the lists.
import { PlainBadge, PlainText } from "~/components/plain";
import type { ConnectorDto, StatusBucket } from "#contract/dto";
import { chargePointStatusLabel, errorCodeLabel } from "#domain/ocpp-status";
import { CONNECTOR_FORMAT_LABELS, POWER_TYPE_LABELS } from "#contract/schemas/charger-constants";

export const BUCKET_COLORS: Record<StatusBucket, "green" | "sky" | "red" | "gray"> = {
  available: "green",
  charging: "sky",
  faulted: "red",
  offline: "gray",
};

const kw = new Intl.NumberFormat("es-AR", { maximumFractionDigits: 2 });

/** What a chip shows (and its title): a list sends only these fields into the page. */
export const CONNECTOR_CHIP_FIELDS = ["id", "connectorId", "standardLabel", "format", "powerType", "maxPowerKw", "status", "statusLabel", "bucket", "errorCode"] as const satisfies readonly (keyof ConnectorDto)[];
export type ConnectorChip = Pick<ConnectorDto, (typeof CONNECTOR_CHIP_FIELDS)[number]>;

function connectorTitle(k: ConnectorChip): string {
  const parts = [
    `Conector ${k.connectorId}: ${k.standardLabel}`,
    CONNECTOR_FORMAT_LABELS[k.format],
    POWER_TYPE_LABELS[k.powerType],
    `${kw.format(k.maxPowerKw)} kW`,
  ];
  if (k.status === "Faulted" && k.errorCode) parts.push(errorCodeLabel(k.errorCode));
  if (k.bucket === "offline" && k.status !== "Unavailable") parts.push("último estado informado; el cargador no está conectado");
  return parts.join(" · ");
}

/** One chip per connector: "1 · Cargando". Offline chargers show their last status in gray. */
export function ConnectorChips({ connectors }: { connectors: ConnectorChip[] }) {
  if (connectors.length === 0) return <PlainText size="2" color="gray">Sin conectores</PlainText>;
  return (
    <ul className="charger-chips" aria-label="Estado de los conectores">
      {connectors.map((k) => (
        <li key={k.id}>
          <PlainBadge color={BUCKET_COLORS[k.bucket]} variant={k.bucket === "offline" ? "outline" : "soft"} size="2" title={connectorTitle(k)} data-status={k.status}>
            <span className="charger-chip-number">{k.connectorId}</span>
            <span className="visually-hidden">Conector {k.connectorId}:</span>
            {k.statusLabel || chargePointStatusLabel(k.status)}
          </PlainBadge>
        </li>
      ))}
    </ul>
  );
}
