// Live state of a charger: its connection (online/offline, last heartbeat) and one chip per
// connector with the OCPP status in Spanish (domain/ocpp-status.ts).
// Plain stand-ins for Radix (app/components/plain.tsx): these render in every row of the lists.
import { PlainBadge, PlainFlex, PlainText } from "~/components/plain";
import { BiWifi, BiWifiOff } from "~/icons";
import type { ChargerDto, ConnectorDto, StatusBucket } from "#api/types";
import { chargePointStatusLabel, errorCodeLabel } from "#domain/ocpp-status";
import { CONNECTOR_FORMAT_LABELS, POWER_TYPE_LABELS } from "#api/schemas/charger-constants";
import { formatDateTime, relativeTime } from "./format";

export const BUCKET_COLORS: Record<StatusBucket, "green" | "sky" | "red" | "gray"> = {
  available: "green",
  charging: "sky",
  faulted: "red",
  offline: "gray",
};

const kw = new Intl.NumberFormat("es-AR", { maximumFractionDigits: 2 });

/** "En línea · hace 2 minutos" / "Sin conexión · último heartbeat hace 3 días" / "Nunca se conectó". */
export function ConnectionStatus({ charger, now }: { charger: Pick<ChargerDto, "online" | "enabled" | "lastHeartbeatAt">; now: number }) {
  const online = charger.online && charger.enabled;
  const label = !charger.enabled ? "Deshabilitado" : charger.online ? "En línea" : "Sin conexión";
  const heartbeat = charger.lastHeartbeatAt;
  return (
    <PlainFlex direction="column" gap="1" align="start">
      <PlainBadge color={online ? "green" : "gray"} variant="soft" size="2" data-testid="charger-connection">
        {online ? <BiWifi aria-hidden="true" /> : <BiWifiOff aria-hidden="true" />}
        {label}
      </PlainBadge>
      <PlainText size="1" color="gray">
        {heartbeat ? (
          <>
            Último heartbeat{" "}
            <time dateTime={heartbeat} title={formatDateTime(heartbeat)}>
              {relativeTime(heartbeat, now)}
            </time>
          </>
        ) : (
          "Todavía no se conectó"
        )}
      </PlainText>
    </PlainFlex>
  );
}

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
