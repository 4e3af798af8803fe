// "Comandos": the OCPP commands the operator sends from the charger screen (reset, remote
// start/stop, unlock, availability, trigger a message; the device report and the heartbeat and
// meter intervals). One small form per command, native selects and inputs, so each works without
// JavaScript; the charger's answer comes back as a toast and stays written under the forms.
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Badge, Button, Callout, Flex, Grid, Text, TextField } from "@radix-ui/themes";
import { BiErrorCircle, BiCheckCircle } from "~/icons";
import { TitledCard } from "~/components/Page";
import { FieldBelow } from "~/components/form";
import { COMMAND_LABELS, INTERVAL_SETTINGS, TRIGGERABLE_MESSAGES, type CommandName, type CommandResult, type IntervalSetting } from "#contract/schemas/command-labels";
import type { ChargerDto } from "#contract/dto";

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

const INTERVAL_FIELD_LABELS: Record<IntervalSetting, string> = {
  heartbeatInterval: "Señal de vida (segundos)",
  meterValueSampleInterval: "Mediciones durante la carga (segundos)",
};

const INTERVAL_HINTS: Record<IntervalSetting, string> = {
  heartbeatInterval: "Entre 30 y 86.400.",
  meterValueSampleInterval: "Entre 0 (sin mediciones periódicas) y 3.600.",
};

/** Where each interval lives on the charger, by protocol (what the technician looks for in its manual). */
const INTERVAL_NAMES = {
  "1.6": "HeartbeatInterval y MeterValueSampleInterval",
  "2.0.1": "OCPPCommCtrlr.HeartbeatInterval y SampledDataCtrlr.TxUpdatedInterval",
} as const;

export interface IntervalFormState {
  /** Field errors of a refused "Cambiar intervalos" (the server's validation). */
  errors?: Partial<Record<IntervalSetting, string[]>>;
  /** What the operator typed, shown again with the errors. */
  submitted?: Partial<Record<IntervalSetting, string>>;
}

function IntervalInput({ setting, defaultValue, errors }: { setting: IntervalSetting; defaultValue: string; errors?: string[] }) {
  const id = `command-interval-${setting}`;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2">
        {INTERVAL_FIELD_LABELS[setting]}
      </Text>
      <input
        id={id}
        name={setting}
        className="native-input"
        // Text, not number: the server's Spanish message says what is wrong, not the browser's.
        type="text"
        inputMode="numeric"
        maxLength={6}
        defaultValue={defaultValue}
        autoComplete="off"
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error ${id}-hint` : `${id}-hint`}
      />
      <FieldBelow meta={{ errors, errorId: `${id}-error`, name: setting }} hint={INTERVAL_HINTS[setting]} hintId={`${id}-hint`} />
    </Flex>
  );
}

export function CommandsCard({
  charger,
  busy,
  result,
  intervals,
  reportStatus,
}: {
  charger: ChargerDto;
  busy: boolean;
  result?: CommandResult;
  intervals?: IntervalFormState;
  /** When the last device report arrived (app/lib/charger.server.ts reportLine), 2.0.1 only. */
  reportStatus?: string;
}) {
  const v201 = charger.ocppVersion === "2.0.1";
  const connectors = charger.connectors.map((k) => ({ value: String(k.connectorId), label: `Conector ${k.connectorId} · ${k.statusLabel}` }));
  // 2.0.1 addresses EVSEs: our connector number is the EVSE id (ADR 0015).
  const withWhole = [{ value: "0", label: "Todo el cargador" }, ...charger.connectors.map((k) => ({ value: String(k.connectorId), label: `${v201 ? "EVSE" : "Conector"} ${k.connectorId} · ${k.statusLabel}` }))];
  // The intervals the charger last reported (or took: not one it refused), else what we know: the heartbeat we configured.
  const known = result?.command === "GetConfiguration" ? result.settings : undefined;
  const taken = (k: IntervalSetting) => {
    const r = result?.settings?.[k];
    return r && (known || r.status === "Accepted" || r.status === "RebootRequired") ? r.value : undefined;
  };
  const intervalValue = (k: IntervalSetting) => intervals?.submitted?.[k] ?? taken(k) ?? (k === "heartbeatInterval" ? String(charger.heartbeatInterval) : "");
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
            ? "Su respuesta aparece acá en unos segundos."
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
            <NativeSelect name="connectorId" id="command-availability-connector" label={v201 ? "Cargador o EVSE" : "Conector"} options={withWhole} />
            <NativeSelect name="type" id="command-availability-type" label="Disponibilidad" options={[{ value: "Operative", label: "Operativo" }, { value: "Inoperative", label: "Inoperativo" }]} />
          </CommandForm>
          <CommandForm command="TriggerMessage" busy={busy} help="Le pide al cargador que envíe ahora un mensaje (útil para diagnosticar).">
            <NativeSelect name="requestedMessage" id="command-trigger-message" label="Mensaje" options={TRIGGERABLE_MESSAGES.map((m) => ({ value: m, label: TRIGGER_LABELS[m] }))} defaultValue="StatusNotification" />
          </CommandForm>
        </Grid>
        <Text as="p" size="3" weight="bold" mt="2" id="command-settings-title">
          Configuración del cargador
        </Text>
        <Grid columns={{ initial: "1", sm: "2", md: "3" }} gap="4" aria-labelledby="command-settings-title" role="group">
          <CommandForm command="GetConfiguration" busy={busy} help={`Pregunta al cargador cada cuánto envía su señal de vida y sus mediciones durante una carga (${INTERVAL_NAMES[charger.ocppVersion]}).`}>
            {known ? (
              <dl className="command-values" data-testid="command-intervals">
                {INTERVAL_SETTINGS.filter((k) => known[k]).map((k) => (
                  <div key={k}>
                    <dt>{INTERVAL_FIELD_LABELS[k].replace(" (segundos)", "")}</dt>
                    <dd>{known[k]?.value !== undefined ? `${known[k]?.value} s` : "no lo informa"}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </CommandForm>
          <CommandForm command="ChangeConfiguration" busy={busy} help="Se guardan en el cargador. Dejá vacío el que no quieras cambiar.">
            {/* A new answer or a refused submit sets the values again (uncontrolled inputs). */}
            <Flex direction="column" gap="2" key={JSON.stringify([intervals?.submitted, result?.settings])}>
              {INTERVAL_SETTINGS.map((k) => (
                <IntervalInput key={k} setting={k} defaultValue={intervalValue(k)} errors={intervals?.errors?.[k]} />
              ))}
            </Flex>
          </CommandForm>
          {v201 ? (
            <CommandForm command="GetBaseReport" busy={busy} help="El inventario completo del equipo (FullInventory), en «Eventos del cargador».">
              <Text as="p" size="2" data-testid="command-report-status">
                {reportStatus}
              </Text>
            </CommandForm>
          ) : null}
        </Grid>
      </Flex>
    </TitledCard>
  );
}
