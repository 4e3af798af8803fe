// Live state of a charger's connection (online/offline, last heartbeat), in the charger list and
// on the charger screens. Plain stand-ins for Radix (app/components/plain.tsx): it renders in
// every row of the list.
import { PlainBadge, PlainFlex, PlainText } from "~/components/plain";
import { BiWifi, BiWifiOff } from "~/icons";
import type { ChargerDto } from "#contract/dto";
import { formatDateTime, relativeTime } from "./format";

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
