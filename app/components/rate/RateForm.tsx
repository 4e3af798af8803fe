// The form of 'Nueva tarifa' and 'Editar tarifa': prices, VAT, penalties and a live price
// preview. A plain POST form (works without JavaScript), enhanced by conform when it runs.
import { FormToken } from "~/components/FormToken";
import { useHydrated } from "~/lib/hydrated";
import { Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Button, Card, Flex, Grid, Heading, Text, TextField } from "@radix-ui/themes";
import { BiCalculator, BiSave } from "~/icons";
import { VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { ReadOnlyFieldset } from "~/components/ReadOnly";
import { useLazyValidation } from "~/components/lazy-validation";
import { MoneyField, RadioGroupField, SelectField, TextInputField, TimeField } from "./fields";
import { BAND_DAYS, BAND_DAYS_LABELS } from "#domain/tariff-band-days";
import { BandEditor } from "./BandEditor";
import { lazy, Suspense } from "react";
import type { PreviewClock } from "./preview";
import { MONEY_HINT, SCENARIO, VAT_OPTIONS, type RateFormValues } from "./form-values";

function vatOptions(current: string | undefined) {
  const options = VAT_OPTIONS.map((o) => ({ value: String(o.bp), label: o.label }));
  // A rate saved with another rate (through the API) keeps it selectable.
  if (current && /^\d+$/.test(current) && !options.some((o) => o.value === current)) {
    options.push({ value: current, label: `${new Intl.NumberFormat("es-AR", { maximumFractionDigits: 2 }).format(Number(current) / 100)} %` });
  }
  return options;
}

function ScenarioInput({ name, label, defaultValue, suffix, type = "text" }: { name: string; label: string; defaultValue: string; suffix?: string; type?: "text" | "time" }) {
  const id = `rate-${name}`;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root id={id} name={name} type={type} defaultValue={defaultValue} size="2" inputMode={type === "text" ? "decimal" : undefined} autoComplete="off" step={type === "time" ? 60 : undefined}>
        {suffix ? <TextField.Slot side="right">{suffix}</TextField.Slot> : null}
      </TextField.Root>
    </Flex>
  );
}

/** The preview card: the example session (its inputs post with the form) priced as typed. */
const LivePreview = lazy(() => import("./LivePreview"));

function PreviewPanel({ formId, values, clock, hydrated, scenarioDefault }: { formId: string; values: Record<string, unknown>; clock?: PreviewClock; hydrated: boolean; scenarioDefault: (name: string) => string }) {
  return (
    <aside className="rate-form-preview" aria-labelledby={`${formId}-preview`}>
      <Card size="3">
        <Heading as="h2" size="4" mb="1" id={`${formId}-preview`}>
          Vista previa del precio
        </Heading>
        <Text as="p" size="2" color="gray" mb="3">
          Cambiá el ejemplo para ver cuánto pagaría un conductor.
        </Text>
        <Grid columns="2" gap="3" mb="3">
          <ScenarioInput name={SCENARIO.minutes} label="Minutos de carga" defaultValue={scenarioDefault(SCENARIO.minutes)} suffix="min" />
          <ScenarioInput name={SCENARIO.kwh} label="Energía" defaultValue={scenarioDefault(SCENARIO.kwh)} suffix="kWh" />
          <ScenarioInput name={SCENARIO.idleMinutes} label="Inactividad" defaultValue={scenarioDefault(SCENARIO.idleMinutes)} suffix="min" />
          <ScenarioInput name={SCENARIO.idleStart} label="Fin de la carga" defaultValue={scenarioDefault(SCENARIO.idleStart)} type="time" />
          <Flex direction="column" gap="1">
            <Text as="label" htmlFor={`rate-${SCENARIO.day}`} size="2" weight="medium">
              Día
            </Text>
            <select id={`rate-${SCENARIO.day}`} name={SCENARIO.day} defaultValue={scenarioDefault(SCENARIO.day)} className="field-select">
              {BAND_DAYS.map((d) => (
                <option key={d} value={d}>
                  {BAND_DAYS_LABELS[d]}
                </option>
              ))}
            </select>
          </Flex>
        </Grid>
        {hydrated ? (
          <Text as="p" size="1" color="gray" mb="3">
            Se actualiza mientras escribís.
          </Text>
        ) : (
          <Button type="submit" name="intent" value="preview" formNoValidate size="2" variant="soft" mb="3">
            <BiCalculator aria-hidden="true" /> Calcular vista previa
          </Button>
        )}
        <div data-testid="rate-preview">
          <Suspense fallback={null}>
            <LivePreview values={values} clock={clock} />
          </Suspense>
        </div>
      </Card>
    </aside>
  );
}

export function RateForm({
  formId,
  defaultValue,
  lastResult,
  submitLabel,
  action,
  formToken,
  readOnly,
  clock,
}: {
  formId: string;
  /** Now and the coming national holidays, for "the band in force now" of the preview. */
  clock?: PreviewClock;
  /** A role that may only read the rates (Facturación, Lectura): fields disabled, no save. */
  readOnly?: boolean;
  /** Create forms: the one-time token that makes a double submission create one rate. */
  formToken?: string;
  defaultValue: RateFormValues;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
  action?: string;
}) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const onValidate = useLazyValidation(() => import("./schema").then((m) => m.validateRateForm));
  const [form, fields] = useForm({
    id: formId,
    defaultValue,
    lastResult: navigation.state === "idle" ? lastResult : null,
    onValidate,
    ...VALIDATE_ON,
  });
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") !== "preview";
  const values = (form.value ?? {}) as Record<string, unknown>;
  const initial = (form.initialValue ?? {}) as Record<string, unknown>;
  const scenarioDefault = (name: string) => (typeof initial[name] === "string" ? (initial[name] as string) : ((defaultValue[name] as string | undefined) ?? ""));

  return (
    <Form method="post" action={action} {...getFormProps(form)} className="rate-form">
      <FormToken value={formToken} />
      <div className="rate-form-fields">
        <ReadOnlyFieldset readOnly={readOnly}>
          <FormError errors={form.errors} id={form.errorId} />
          <Card size="3" asChild>
            <section aria-labelledby={`${formId}-prices`}>
              <Heading as="h2" size="4" mb="4" id={`${formId}-prices`}>
                Precios
              </Heading>
              <Flex direction="column" gap="4">
                <TextInputField meta={fields.name} label="Nombre de la tarifa" placeholder="Por ejemplo: AC Estándar" />
                <Grid columns={{ initial: "1", sm: "3" }} gap="4" align="start">
                  <MoneyField meta={fields.pricePerKwhCents} label="Precio por kWh" />
                  <MoneyField meta={fields.pricePerMinuteCents} label="Precio por minuto" hint="De carga; la inactividad va aparte." />
                  <MoneyField meta={fields.sessionFeeCents} label="Cargo por sesión" />
                </Grid>
                <Text size="1" color="gray">
                  {MONEY_HINT} Dejá en blanco lo que no cobrás; hace falta al menos un precio.
                </Text>
                <Grid columns={{ initial: "1", sm: "2" }} gap="4" align="start">
                  <RadioGroupField
                    meta={fields.vatIncluded}
                    legend="IVA"
                    options={[
                      { value: "true", label: "Los precios incluyen IVA", hint: "El conductor paga exactamente estos importes." },
                      { value: "false", label: "El IVA se suma a los precios", hint: "Se agrega el IVA al total de la sesión." },
                    ]}
                  />
                  <SelectField meta={fields.vatRateBp} label="Alícuota de IVA" options={vatOptions(typeof fields.vatRateBp.initialValue === "string" ? fields.vatRateBp.initialValue : undefined)} />
                </Grid>
              </Flex>
            </section>
          </Card>

          <Card size="3">
            <BandEditor formId={formId} form={form} bands={fields.bands as never} localHolidays={fields.localHolidays} />
          </Card>

          <Card size="3" asChild>
            <section aria-labelledby={`${formId}-penalties`}>
              <Heading as="h2" size="4" mb="1" id={`${formId}-penalties`}>
                Penalidades
              </Heading>
              <Text as="p" size="2" color="gray" mb="4">
                La inactividad corre desde que el vehículo deja de cargar hasta que se desconecta.
              </Text>
              <Flex direction="column" gap="4">
                <Heading as="h3" size="3">
                  Por inactividad
                </Heading>
                <Grid columns={{ initial: "1", sm: "3" }} gap="4" align="start">
                  <TextInputField meta={fields.idleGraceMinutes} label="Minutos de gracia" inputMode="numeric" placeholder="0" suffix="min" hint="Sin cargo al principio." />
                  <MoneyField meta={fields.idlePricePerMinuteCents} label="Penalidad por minuto" />
                  <MoneyField meta={fields.idleMaxCents} label="Tope por sesión" placeholder="Sin tope" hint="Opcional." />
                </Grid>
                <Grid columns={{ initial: "1", sm: "2" }} gap="4" align="start">
                  <TimeField meta={fields.idleActiveFrom} label="Se cobra desde las" />
                  <TimeField meta={fields.idleActiveTo} label="Hasta las" />
                </Grid>
                <Text size="1" color="gray" mt="-2">
                  Opcional: el horario puede cruzar la medianoche (por ejemplo, de 22:00 a 06:00). Dejá ambos vacíos para cobrar a toda hora.
                </Text>
                <Heading as="h3" size="3">
                  Por reserva
                </Heading>
                <Grid columns={{ initial: "1", sm: "3" }} gap="4">
                  <MoneyField meta={fields.noShowFeeCents} label="Cargo por no presentarse" hint="Si el conductor reserva y no llega." />
                </Grid>
              </Flex>
            </section>
          </Card>
        </ReadOnlyFieldset>
      </div>

      {readOnly ? null : (
        <Flex className="rate-form-actions" gap="3" wrap="wrap">
          <Button type="submit" name="intent" value="save" size="3" disabled={busy}>
            <BiSave aria-hidden="true" /> {submitLabel}
          </Button>
          <Button asChild size="3" variant="soft" color="gray">
            <Link to="/rate">Cancelar</Link>
          </Button>
        </Flex>
      )}

      <PreviewPanel formId={formId} values={values} clock={clock} hydrated={hydrated} scenarioDefault={scenarioDefault} />
    </Form>
  );
}
