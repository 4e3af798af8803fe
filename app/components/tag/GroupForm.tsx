// The form of 'Nuevo grupo' and 'Editar grupo': its name, the stations its tags may use (all, or
// the ones ticked), an optional rate, and who pays for its tags with «Facturar mensualmente» (one
// electronic invoice a month for their sessions). Native inputs only, so it posts without JavaScript.
import { Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { BiSave } from "~/icons";
import { FormToken } from "~/components/FormToken";
import { CheckboxField, Field, FieldError, VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { ReadOnlyFieldset } from "~/components/ReadOnly";
import { useLazyValidation } from "~/components/lazy-validation";
import { RadioGroupField, SelectField } from "~/components/rate/fields";
import type { AccessGroupDto } from "#contract/dto";
import { RECEIVER_TAX_CONDITION_LABELS, RECEIVER_TAX_CONDITIONS } from "#contract/schemas/constants";
import { formatCuit } from "#domain/cuit";

export type GroupFormValues = {
  name: string;
  allStations: "all" | "some";
  stationIds: string[];
  rateId: string;
  billingCuit: string;
  billingName: string;
  billingTaxCondition: string;
  billingMonthly: boolean;
};

export const groupToValues = (g?: AccessGroupDto): GroupFormValues => ({
  name: g?.name ?? "",
  allStations: !g || g.allStations ? "all" : "some",
  stationIds: g?.stations.map((s) => s.id) ?? [],
  rateId: g?.rateId ?? "",
  billingCuit: g?.billingCuit ? formatCuit(g.billingCuit) : "",
  billingName: g?.billingName ?? "",
  billingTaxCondition: g?.billingTaxCondition ?? "",
  billingMonthly: g?.billingMonthly ?? false,
});

export function GroupForm({
  formId,
  defaultValue,
  stations,
  rates,
  currentRateName,
  lastResult,
  submitLabel,
  action,
  formToken,
  readOnly,
}: {
  formId: string;
  defaultValue: GroupFormValues;
  stations: { id: string; name: string; city: string | null }[];
  /** null: the role may not choose a rate (the current one is kept). */
  rates: { id: string; name: string }[] | null;
  currentRateName: string | null;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
  action?: string;
  formToken?: string;
  readOnly?: boolean;
}) {
  const navigation = useNavigation();
  const onValidate = useLazyValidation(() => import("./schema").then((m) => m.validateGroupForm));
  const [form, fields] = useForm({ id: formId, defaultValue, lastResult: navigation.state === "idle" ? lastResult : null, onValidate, ...VALIDATE_ON });
  const busy = navigation.state === "submitting";
  const chosen = new Set((fields.stationIds.initialValue as string[] | undefined) ?? []);
  const stationError = fields.stationIds.errors?.[0];
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="tag-form">
      <FormToken value={formToken} />
      <ReadOnlyFieldset readOnly={readOnly}>
        <FormError errors={form.errors} id={form.errorId} />
        <Card size="3" asChild>
          <section aria-labelledby={`${formId}-data`}>
            <Heading as="h2" size="4" mb="4" id={`${formId}-data`}>
              Datos del grupo
            </Heading>
            <Flex direction="column" gap="4">
              <Field meta={fields.name} label="Nombre del grupo" placeholder="Por ejemplo: Flota de reparto" autoComplete="off" />
              {rates ? (
                <SelectField
                  meta={fields.rateId}
                  label="Tarifa del grupo"
                  hint="Opcional: las cargas de sus tarjetas se cobran con esta tarifa en lugar de la del conector."
                  options={[{ value: "", label: "La tarifa de cada conector" }, ...rates.map((r) => ({ value: r.id, label: r.name }))]}
                />
              ) : (
                <Flex direction="column" gap="1">
                  <input type="hidden" name={fields.rateId.name} value={defaultValue.rateId} />
                  <Text size="2" weight="medium">
                    Tarifa del grupo
                  </Text>
                  <Text size="2">{currentRateName ?? "La tarifa de cada conector"}</Text>
                  <Text size="1" color="gray">
                    Solo un dueño o un administrador puede cambiarla.
                  </Text>
                </Flex>
              )}
            </Flex>
          </section>
        </Card>
        <Card size="3" asChild>
          <section aria-labelledby={`${formId}-stations`}>
            <Heading as="h2" size="4" mb="1" id={`${formId}-stations`}>
              Estaciones
            </Heading>
            <Text as="p" size="2" color="gray" mb="4">
              Dónde pueden cargar las tarjetas del grupo cuando la estación acepta solo tarjetas registradas.
            </Text>
            <Flex direction="column" gap="4">
              <RadioGroupField
                meta={fields.allStations}
                legend="Estaciones permitidas"
                options={[
                  { value: "all", label: "Todas las estaciones", hint: "También las que agregues más adelante." },
                  { value: "some", label: "Solo las estaciones elegidas" },
                ]}
              />
              {stations.length === 0 ? (
                <Text size="2" color="gray">
                  Todavía no tenés estaciones.
                </Text>
              ) : (
                <fieldset className="tag-stations" aria-invalid={stationError ? true : undefined} aria-describedby={stationError ? fields.stationIds.errorId : undefined}>
                  <Text as="div" size="2" weight="medium" asChild>
                    <legend>Estaciones elegidas</legend>
                  </Text>
                  {stations.map((s) => {
                    const id = `${formId}-station-${s.id}`;
                    return (
                      <label key={`${fields.stationIds.key ?? ""}-${s.id}`} htmlFor={id} className="rate-radio">
                        <input type="checkbox" id={id} name={fields.stationIds.name} value={s.id} defaultChecked={chosen.has(s.id)} form={form.id} />
                        <span>
                          <Text as="span" size="2">
                            {s.name}
                          </Text>
                          {s.city ? (
                            <Text as="span" size="1" color="gray" className="rate-radio-hint">
                              {s.city}
                            </Text>
                          ) : null}
                        </span>
                      </label>
                    );
                  })}
                </fieldset>
              )}
              <FieldError meta={fields.stationIds} />
            </Flex>
          </section>
        </Card>
        <Card size="3" asChild>
          <section aria-labelledby={`${formId}-billing`}>
            <Heading as="h2" size="4" mb="1" id={`${formId}-billing`}>
              Facturación mensual
            </Heading>
            <Text as="p" size="2" color="gray" mb="4">
              Opcional: si una empresa paga las cargas de estas tarjetas, recibe una factura electrónica por mes con las cargas del mes anterior (las pagadas con QR ya tienen la suya).
            </Text>
            <Flex direction="column" gap="4">
              <Field meta={fields.billingCuit} label="CUIT" placeholder="30-12345678-9" inputMode="numeric" autoComplete="off" />
              <Field meta={fields.billingName} label="Razón social" autoComplete="off" />
              <SelectField
                meta={fields.billingTaxCondition}
                label="Condición frente al IVA del cliente"
                hint="Decide la letra: un Responsable Inscripto o un Monotributista recibe factura A; un exento o un consumidor final, B (si sos monotributista, siempre C)."
                options={[{ value: "", label: "Elegí una condición" }, ...RECEIVER_TAX_CONDITIONS.map((c) => ({ value: c, label: RECEIVER_TAX_CONDITION_LABELS[c] }))]}
              />
              <CheckboxField meta={fields.billingMonthly}>Facturar mensualmente: una factura el primer día de cada mes con las cargas del mes anterior</CheckboxField>
            </Flex>
          </section>
        </Card>
      </ReadOnlyFieldset>
      {readOnly ? null : (
        <Flex gap="3" wrap="wrap">
          <Button type="submit" size="3" disabled={busy}>
            <BiSave aria-hidden="true" /> {submitLabel}
          </Button>
          <Button asChild size="3" variant="soft" color="gray">
            <Link to="/group">Cancelar</Link>
          </Button>
        </Flex>
      )}
    </Form>
  );
}
