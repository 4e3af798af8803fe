// "Comandos": the OCPP commands the operator sends from the charger screen (reset, remote
// start/stop, unlock, availability, trigger a message). One small form per command, native
// selects, so each works without JavaScript; the charger's answer comes back as a toast and
// stays written under the forms.
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Badge, Button, Callout, Flex, Grid, Text, TextField } from "@radix-ui/themes";
import { BiErrorCircle, BiCheckCircle } from "~/icons";
import { TitledCard } from "~/components/Page";
import { COMMAND_LABELS, TRIGGERABLE_MESSAGES, type CommandName, type CommandResult } from "#ocpp/command-labels";
import type { ChargerDto } from "#api/types";

const TRIGGER_LABELS: Record<(typeof TRIGGERABLE_MESSAGES)[number], string> = {
  BootNotification: "Arranque (BootNotification)",
  Heartbeat: "Señal de vida (Heartbeat)",
  StatusNotification: "Estado (StatusNotification)",
  MeterValues: "Medición (MeterValues)",
  DiagnosticsStatusNotification: "Estado de diagnóstico",
  FirmwareStatusNotification: "Estado del firmware",
};

function CommandForm({ command, busy, children, help }: { command: CommandName; busy: boolean; children?: ReactNode; help: string }) {
  const id = `command-${command}`;
  return (
    <Form method="post" className="command-form" aria-labelledby={`${id}-title`} data-testid={id}>
      <input type="hidden" name="intent" value="command" />
      <input type="hidden" name="command" value={command} />
      <Flex direction="column" gap="2" height="100%">
        <Text as="p" size="3" weight="medium" id={`${id}-title`}>
          {COMMAND_LABELS[command]}
        </Text>
        <Text as="p" size="1" color="gray">
          {help}
        </Text>
        {children}
        <Flex mt="auto" pt="1">
          <Button type="submit" variant="soft" disabled={busy}>
            {COMMAND_LABELS[command]}
          </Button>
        </Flex>
      </Flex>
    </Form>
  );
}

function NativeSelect({ name, label, id, options, defaultValue }: { name: string; label: string; id: string; options: { value: string; label: string }[]; defaultValue?: string }) {
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2">
        {label}
      </Text>
      <select id={id} name={name} className="field-select" defaultValue={defaultValue}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Flex>
  );
}

export function CommandsCard({ charger, busy, result }: { charger: ChargerDto; busy: boolean; result?: CommandResult }) {
  const connectors = charger.connectors.map((k) => ({ value: String(k.connectorId), label: `Conector ${k.connectorId} · ${k.statusLabel}` }));
  const withWhole = [{ value: "0", label: "Todo el cargador" }, ...connectors];
  const ok = result?.outcome === "accepted";
  return (
    <TitledCard
      title="Comandos"
      id="charger-commands"
      actions={
        <Badge size="2" color={charger.online ? "green" : "gray"} data-testid="commands-connection">
          {charger.online ? "Conectado" : "Sin conexión"}
        </Badge>
      }
    >
      <Flex direction="column" gap="4">
        <Text as="p" size="2" color="gray">
          {charger.online
            ? "Se envían al cargador por OCPP; su respuesta aparece acá en unos segundos."
            : "El cargador no está conectado: los comandos se podrán enviar cuando vuelva a conectarse."}
        </Text>
        {result ? (
          <Callout.Root color={ok ? "green" : "red"} role="status" data-testid="command-result">
            <Callout.Icon>{ok ? <BiCheckCircle aria-hidden="true" /> : <BiErrorCircle aria-hidden="true" />}</Callout.Icon>
            <Callout.Text>{result.message}</Callout.Text>
          </Callout.Root>
        ) : null}
        <Grid columns={{ initial: "1", sm: "2", md: "3" }} gap="4">
          <CommandForm command="Reset" busy={busy} help="Suave: el cargador cierra las cargas en curso y reinicia su software. Completo: reinicia el equipo de inmediato.">
            <NativeSelect name="type" id="command-reset-type" label="Tipo" options={[{ value: "Soft", label: "Suave" }, { value: "Hard", label: "Completo" }]} />
          </CommandForm>
          <CommandForm command="RemoteStartTransaction" busy={busy} help="Habilita una carga sin tarjeta en el conector elegido.">
            <NativeSelect name="connectorId" id="command-start-connector" label="Conector" options={connectors} />
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor="command-start-idtag" size="2">
                Identificación (idTag)
              </Text>
              <TextField.Root id="command-start-idtag" name="idTag" defaultValue="ENCHUFA" maxLength={20} autoComplete="off" spellCheck={false} />
            </Flex>
          </CommandForm>
          <CommandForm command="RemoteStopTransaction" busy={busy} help="Termina la carga en curso del conector elegido.">
            <NativeSelect name="connectorId" id="command-stop-connector" label="Conector" options={connectors} />
          </CommandForm>
          <CommandForm command="UnlockConnector" busy={busy} help="Libera el cable cuando quedó trabado.">
            <NativeSelect name="connectorId" id="command-unlock-connector" label="Conector" options={connectors} />
          </CommandForm>
          <CommandForm command="ChangeAvailability" busy={busy} help="Inoperativo: nadie puede cargar hasta que lo vuelvas a habilitar.">
            <NativeSelect name="connectorId" id="command-availability-connector" label="Conector" options={withWhole} />
            <NativeSelect name="type" id="command-availability-type" label="Disponibilidad" options={[{ value: "Operative", label: "Operativo" }, { value: "Inoperative", label: "Inoperativo" }]} />
          </CommandForm>
          <CommandForm command="TriggerMessage" busy={busy} help="Le pide al cargador que envíe ahora un mensaje (útil para diagnosticar).">
            <NativeSelect name="requestedMessage" id="command-trigger-message" label="Mensaje" options={TRIGGERABLE_MESSAGES.map((m) => ({ value: m, label: TRIGGER_LABELS[m] }))} defaultValue="StatusNotification" />
          </CommandForm>
        </Grid>
      </Flex>
    </TitledCard>
  );
}
