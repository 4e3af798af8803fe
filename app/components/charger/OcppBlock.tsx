// Pieces of the OCPP data block: the connection URL, the one-time password, the password
// rotation (confirmed, works without JavaScript) and what the charger reported at boot.
import { useState } from "react";
import { useHydrated } from "~/lib/hydrated";
import { Box, Button, Callout, Code, DataList, Flex, Text, TextField } from "@radix-ui/themes";
import { BiCopy, BiKey, BiRefresh, BiErrorCircle } from "~/icons";
import type { ChargerDto } from "#contract/dto";
import { ConnectionStatus } from "./ConnectionStatus";
import { formatDateTime, relativeTime } from "./format";

/** The URL to configure in the charger (OCPP 2.0.1 or 1.6-J over WebSocket). */
export function ConnectionUrl({ url, pending }: { url: string; pending?: boolean }) {
  return (
    <Flex direction="column" gap="1">
      <Text as="p" size="2" weight="medium" id="ocpp-url-label">
        URL de conexión
      </Text>
      <Code size="3" className="charger-code" aria-labelledby="ocpp-url-label" data-testid="ocpp-url">
        {url}
      </Code>
      <Text size="1" color="gray">
        {pending
          ? "Se completa con la identidad OCPP que elijas. Configurala en el cargador como dirección del sistema central (OCPP 2.0.1 u OCPP 1.6-J)."
          : "Configurala en el cargador como dirección del sistema central (OCPP 2.0.1 u OCPP 1.6-J), con la identidad como usuario y la contraseña de abajo."}
      </Text>
    </Flex>
  );
}

/** The password the API generated, shown once: it lives only in this response. */
export function OneTimePassword({ password, rotated = false }: { password: string; rotated?: boolean }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  return (
    <Callout.Root color="amber" role="status" data-testid="ocpp-password-once">
      <Callout.Icon>
        <BiKey aria-hidden="true" />
      </Callout.Icon>
      <Flex direction="column" gap="2" style={{ minWidth: 0 }}>
        <Callout.Text weight="medium">
          {rotated ? "Contraseña nueva generada." : "Contraseña generada."} Copiala ahora: es la única vez que la vas a ver.
        </Callout.Text>
        <Text as="label" size="2" htmlFor="ocpp-password">
          Contraseña OCPP
        </Text>
        <Flex gap="2" align="center" wrap="wrap">
          <Box style={{ flex: "1 1 240px", minWidth: 0 }}>
            <TextField.Root id="ocpp-password" value={password} readOnly size="3" className="charger-mono" autoComplete="off" spellCheck={false} data-testid="ocpp-password" />
          </Box>
          {hydrated ? (
            <Button
              type="button"
              size="3"
              variant="soft"
              onClick={() => {
                void navigator.clipboard?.writeText(password).then(() => setCopied(true), () => setCopied(false));
              }}
            >
              <BiCopy aria-hidden="true" /> {copied ? "Copiada" : "Copiar"}
            </Button>
          ) : null}
        </Flex>
        <Text size="1" color="gray">
          El cargador la usa para autenticarse (HTTP Basic, perfil de seguridad 1 o 2). Si la perdés, rotala y cargá la nueva en el cargador.
        </Text>
      </Flex>
    </Callout.Root>
  );
}

/**
 * "Rotar contraseña" with a confirmation step that needs no JavaScript (a disclosure). The
 * confirm button submits the form `formId`, which lives outside the main form.
 */
export function RotatePassword({ formId, busy }: { formId: string; busy?: boolean }) {
  return (
    <details className="charger-confirm">
      <summary className="charger-confirm-summary">
        <BiRefresh aria-hidden="true" /> Rotar contraseña
      </summary>
      <Box className="charger-confirm-body">
        <Text as="p" size="2" mb="3">
          Vamos a generar una contraseña nueva. Si el cargador está conectado se la enviamos, y la cambiamos solo si la acepta. Si no está conectado, la actual deja de funcionar en el momento: el cargador no podrá conectarse hasta que le cargues la nueva.
        </Text>
        <Button type="submit" form={formId} name="intent" value="rotate-password" size="3" color="amber" disabled={busy}>
          Sí, rotar contraseña
        </Button>
      </Box>
    </details>
  );
}

/** What the charger said in its last BootNotification, and its heartbeat. */
export function BootReport({ charger, now }: { charger: ChargerDto; now: number }) {
  const neverConnected = !charger.lastBootAt && !charger.lastHeartbeatAt;
  return (
    <Flex direction="column" gap="3" data-testid="boot-report">
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Text as="p" size="3" weight="medium">
          Lo que informó el cargador
        </Text>
        <ConnectionStatus charger={charger} now={now} />
      </Flex>
      {neverConnected ? (
        <Callout.Root color="gray" variant="surface">
          <Callout.Icon>
            <BiErrorCircle aria-hidden="true" />
          </Callout.Icon>
          <Callout.Text>Todavía no se conectó. Cuando el cargador se conecte con la URL y la contraseña, vas a ver acá su fabricante, modelo y firmware.</Callout.Text>
        </Callout.Root>
      ) : (
        <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }}>
          <DataList.Item>
            <DataList.Label>Fabricante</DataList.Label>
            <DataList.Value>{charger.vendor ?? "—"}</DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Modelo informado</DataList.Label>
            <DataList.Value>{charger.bootModel ?? "—"}</DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Firmware</DataList.Label>
            <DataList.Value>{charger.firmwareVersion ?? "—"}</DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Último arranque</DataList.Label>
            <DataList.Value>{charger.lastBootAt ? `${formatDateTime(charger.lastBootAt)} (${relativeTime(charger.lastBootAt, now)})` : "—"}</DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Último heartbeat</DataList.Label>
            <DataList.Value>{charger.lastHeartbeatAt ? `${formatDateTime(charger.lastHeartbeatAt)} (${relativeTime(charger.lastHeartbeatAt, now)})` : "—"}</DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Protocolo</DataList.Label>
            <DataList.Value data-testid="ocpp-version">{charger.ocppVersion === "2.0.1" ? "OCPP 2.0.1" : "OCPP 1.6-J"}</DataList.Value>
          </DataList.Item>
        </DataList.Root>
      )}
    </Flex>
  );
}
