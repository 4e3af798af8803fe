// The charger form of 'Nuevo cargador' and 'Editar cargador': data, connectors (rows added and
// removed with conform's insert/remove intents — submit buttons, so they work without
// JavaScript too: the server applies the intent and answers the form with the typed values)
// and the OCPP data block.
import { FormToken } from "~/components/FormToken";
import { getFormProps, useForm, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { Button, Flex, Grid, Text } from "@radix-ui/themes";
import { BiPlus, BiTrash, BiSave } from "~/icons";
import { TitledCard } from "~/components/Page";
import { VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { ReadOnlyFieldset } from "~/components/ReadOnly";
import {
  CONNECTOR_FORMATS,
  CONNECTOR_FORMAT_LABELS,
  MAX_CONNECTORS,
  OCPP_IDENTITY_MESSAGE,
  OCPP_IDENTITY_RE,
  POWER_TYPES,
  POWER_TYPE_LABELS,
  PRICE_DISPLAY_LABELS,
  PRICE_DISPLAY_MODES,
} from "#contract/schemas/charger-constants";
import type { ChargerDto } from "#contract/dto";
import { SelectField, TextInput, type Option } from "./inputs";
import { BootReport, ConnectionUrl, OneTimePassword, RotatePassword } from "./OcppBlock";
import { useLazyValidation } from "~/components/lazy-validation";
import { newConnector, ocppUrlFor, type ChargerFormValue, type ConnectorFormValue } from "./form-values";

export interface ChargerFormOptions {
  brands: Option[];
  connectorTypes: Option[];
  stations: Option[];
  rates: Option[];
}

const FORMAT_OPTIONS: Option[] = CONNECTOR_FORMATS.map((v) => ({ value: v, label: CONNECTOR_FORMAT_LABELS[v] }));
const POWER_OPTIONS: Option[] = POWER_TYPES.map((v) => ({ value: v, label: POWER_TYPE_LABELS[v] }));
const PRICE_DISPLAY_OPTIONS: Option[] = PRICE_DISPLAY_MODES.map((v) => ({ value: v, label: PRICE_DISPLAY_LABELS[v] }));

export function ChargerForm({
  id,
  lastResult,
  defaultValue,
  options,
  ocppBase,
  charger,
  now,
  rotatedPassword,
  rotateFormId,
  busy,
  submitLabel,
  cancelTo,
  formToken,
  readOnly,
}: {
  id: string;
  /** A role that may only look (fields disabled; no save, connectors or password). */
  readOnly?: boolean;
  /** Create forms: the one-time token that makes a double submission create one charger. */
  formToken?: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue: ChargerFormValue;
  options: ChargerFormOptions;
  ocppBase: string;
  /** Editing: the stored charger (connection URL, boot report, password rotation). */
  charger?: ChargerDto;
  now: number;
  rotatedPassword?: string;
  rotateFormId?: string;
  busy: boolean;
  submitLabel: string;
  cancelTo: string;
}) {
  const onValidate = useLazyValidation(() => import("./schema").then((m) => m.parseChargerForm));
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue,
    onValidate,
    ...VALIDATE_ON,
  });

  const identity = typeof fields.ocppIdentity.value === "string" ? fields.ocppIdentity.value.trim() : "";
  const validIdentity = OCPP_IDENTITY_RE.test(identity);
  const url =
    charger && identity === charger.ocppIdentity && charger.ocppUrl
      ? charger.ocppUrl
      : validIdentity
        ? ocppUrlFor(ocppBase, identity)
        : `${ocppBase}<identidad>`;

  return (
    <Form method="post" {...getFormProps(form)} className="charger-form">
      <FormToken value={formToken} />
      {/* Enter in a field saves: the form's first submit button must not be a row intent. */}
      {readOnly ? null : (
        <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true">
          {submitLabel}
        </button>
      )}
      <ReadOnlyFieldset readOnly={readOnly}>
        <Flex direction="column" gap="5">
          <FormError errors={form.errors} id={form.errorId} />

          <TitledCard title="Datos del cargador" id="charger-data">
            <Grid columns={{ initial: "1", sm: "2" }} gap="4">
              <TextInput meta={fields.name} label="Nombre" placeholder="Por ejemplo: Palermo AC 1" />
              <SelectField meta={fields.stationId} label="Estación" options={options.stations} placeholder="Sin estación (asignarla después)" />
              <SelectField meta={fields.brandId} label="Marca" options={options.brands} placeholder="Sin especificar" />
              <TextInput meta={fields.model} label="Modelo" placeholder="Por ejemplo: Terra AC W22" />
              <TextInput meta={fields.serialNumber} label="Número de serie" />
            </Grid>
          </TitledCard>

          <ConnectorsCard form={form} fields={fields} options={options} readOnly={readOnly} />

          <OcppCard fields={fields} charger={charger} url={url} validIdentity={validIdentity} now={now} password={{ rotatedPassword, rotateFormId, busy, readOnly }} />

          {/* Sticky: always at hand on a long form, and it does not move when a message above appears or goes. */}
          {readOnly ? null : (
            <Flex gap="3" justify="end" wrap="wrap" className="charger-form-actions">
              <Button asChild size="3" variant="soft" color="gray">
                <Link to={cancelTo}>Cancelar</Link>
              </Button>
              <Button type="submit" size="3" disabled={busy}>
                <BiSave aria-hidden="true" /> {submitLabel}
              </Button>
            </Flex>
          )}
        </Flex>
      </ReadOnlyFieldset>
    </Form>
  );
}

type ChargerFormMeta = FormMetadata<ChargerFormValue, string[]>;
type ChargerFields = ReturnType<ChargerFormMeta["getFieldset"]>;

/** The connectors: one row per connector, with the buttons that add and remove rows (form intents, so they work without JavaScript). */
function ConnectorsCard({ form, fields, options, readOnly }: { form: ChargerFormMeta; fields: ChargerFields; options: ChargerFormOptions; readOnly?: boolean }) {
  const connectors = fields.connectors.getFieldList();
  const currentRows = (fields.connectors.value as ConnectorFormValue[] | undefined) ?? [];
  return (
    <TitledCard title="Conectores" id="charger-connectors">
      <Flex direction="column" gap="4">
        <Text as="p" size="2" color="gray">
          Cada conector es una toma o un cable del cargador. El número es el connectorId que usa el cargador en OCPP (1, 2, …).
        </Text>
        {connectors.map((row, index) => {
          const k = row.getFieldset();
          return (
            <fieldset key={row.key} className="charger-connector" data-testid={`connector-${index}`}>
              <legend>Conector {index + 1}</legend>
              <div className="charger-connector-grid">
                <TextInput meta={k.connectorId} label="Número" inputMode="numeric" />
                <SelectField meta={k.standard} label="Tipo de conector" options={options.connectorTypes} placeholder="Elegí un tipo" />
                <SelectField meta={k.format} label="Formato" options={FORMAT_OPTIONS} />
                <SelectField meta={k.powerType} label="Corriente" options={POWER_OPTIONS} />
                <TextInput meta={k.maxPowerKw} label="Potencia máxima" inputMode="decimal" suffix="kW" />
                <SelectField meta={k.rateId} label="Tarifa" options={options.rates} placeholder="Sin tarifa" />
              </div>
              {connectors.length > 1 && !readOnly ? (
                <Flex justify="end" mt="3">
                  <Button {...form.remove.getButtonProps({ name: fields.connectors.name, index })} variant="soft" color="red" size="2">
                    <BiTrash aria-hidden="true" /> Quitar conector {index + 1}
                  </Button>
                </Flex>
              ) : null}
            </fieldset>
          );
        })}
        {fields.connectors.errors?.[0] ? (
          <Text id={fields.connectors.errorId} size="2" color="red" data-testid="connectors-error">
            {fields.connectors.errors[0]}
          </Text>
        ) : null}
        {readOnly ? null : connectors.length < MAX_CONNECTORS ? (
          <div>
            <Button
              {...form.insert.getButtonProps({ name: fields.connectors.name, defaultValue: newConnector(currentRows) as never })}
              variant="soft"
              size="3"
            >
              <BiPlus aria-hidden="true" /> Agregar conector
            </Button>
          </div>
        ) : (
          <Text size="2" color="gray">
            Llegaste al máximo de {MAX_CONNECTORS} conectores por cargador.
          </Text>
        )}
      </Flex>
    </TitledCard>
  );
}

interface PasswordProps {
  rotatedPassword?: string;
  rotateFormId?: string;
  busy: boolean;
  readOnly?: boolean;
}

/** The OCPP identity and heartbeat, the URL the charger connects to, its password and its last boot report. */
function OcppCard({ fields, charger, url, validIdentity, now, password }: { fields: ChargerFields; charger?: ChargerDto; url: string; validIdentity: boolean; now: number; password: PasswordProps }) {
  return (
    <TitledCard title="Datos OCPP" id="charger-ocpp">
      <Flex direction="column" gap="4">
        <Grid columns={{ initial: "1", sm: "2" }} gap="4">
          <TextInput
            meta={fields.ocppIdentity}
            label="Identidad OCPP"
            placeholder="Por ejemplo: ENCH-CABA-05"
            hint={`${OCPP_IDENTITY_MESSAGE} Es única: ningún otro cargador puede usarla.${charger ? " Si la cambiás, el cargador deja de conectarse hasta que lo reconfigures." : ""}`}
          />
          <TextInput
            meta={fields.heartbeatInterval}
            label="Intervalo de heartbeat"
            inputMode="numeric"
            suffix="s"
            hint="Cada cuántos segundos el cargador avisa que sigue conectado (de 30 a 86.400)."
          />
          <SelectField meta={fields.priceDisplay} label="Mostrar precio en el cargador" options={PRICE_DISPLAY_OPTIONS} hint={priceDisplayHint(charger)} />
        </Grid>
        <ConnectionUrl url={url} pending={!validIdentity} />
        {charger ? (
          <PasswordBlock charger={charger} {...password} />
        ) : (
          <Text as="p" size="2" color="gray">
            La contraseña se genera al crear el cargador y se muestra una sola vez.
          </Text>
        )}
        {charger ? <BootReport charger={charger} now={now} /> : null}
      </Flex>
    </TitledCard>
  );
}

/**
 * What the price setting does for this charger: OCPP 2.0.1 shows it with display messages, 1.6
 * only with the Open Charge Alliance's California Pricing messages, which few chargers have.
 */
function priceDisplayHint(charger?: ChargerDto): string {
  const how = "Antes de cargar, el precio vigente; durante la carga, lo que lleva gastado; al final, el total. En OCPP 1.6 requiere que el cargador admita los mensajes «California Pricing».";
  if (charger?.priceDisplayRefused) return `El cargador respondió que no puede mostrarlo: no se le envía más. Guardá esta opción para volver a intentarlo. ${how}`;
  return how;
}

/** A stored charger's password: whether one is assigned or pending, the new one shown once after a rotation, and the rotation itself. */
function PasswordBlock({ charger, rotatedPassword, rotateFormId, busy, readOnly }: PasswordProps & { charger: ChargerDto }) {
  return (
    <Flex direction="column" gap="3">
      <Text as="p" size="2" weight="medium">
        Contraseña
      </Text>
      {charger.passwordPending ? (
        // Until the charger connects with the new password, the one before keeps opening (ADR 0031).
        <Text as="p" size="2" color="amber" role="status">
          Contraseña nueva pendiente: el cargador todavía no se conectó con ella. Hasta que lo haga, la anterior sigue valiendo.
        </Text>
      ) : null}
      {rotatedPassword ? (
        <OneTimePassword password={rotatedPassword} rotated />
      ) : (
        <Text as="p" size="2" color="gray">
          {charger.hasPassword
            ? "El cargador tiene una contraseña asignada. Por seguridad no se puede volver a mostrar: si la perdiste, rotala."
            : "El cargador no tiene contraseña asignada. Rotala para generar una."}
        </Text>
      )}
      {/* Keyed by the password: the confirmation closes once a new one is shown. */}
      {rotateFormId && !readOnly ? <RotatePassword key={rotatedPassword ?? "none"} formId={rotateFormId} busy={busy} /> : null}
    </Flex>
  );
}
