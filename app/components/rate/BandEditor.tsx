// The rate form's time-of-use bands: one row per band (days, hours, prices) and the rate's own
// holidays. "Agregar franja" and "Quitar" are conform intent buttons: plain submits that the
// action answers with the form one row longer or shorter, so they work without JavaScript too.
import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import { Button, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { BiPlus, BiTrash } from "~/icons";
import { BAND_DAYS, BAND_DAYS_LABELS, MAX_BANDS } from "#domain/tariff-band-days";
import { MoneyField, SelectField, TextInputField } from "./fields";
import { EMPTY_BAND, type BandFormRow } from "./form-values";

const DAY_OPTIONS = BAND_DAYS.map((d) => ({ value: d, label: BAND_DAYS_LABELS[d] }));

export function BandEditor({
  formId,
  form,
  bands,
  localHolidays,
}: {
  formId: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  bands: FieldMetadata<BandFormRow[], any, string[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  localHolidays: FieldMetadata<any, any, string[]>;
}) {
  const rows = bands.getFieldList();
  return (
    <section aria-labelledby={`${formId}-bands`} data-testid="band-editor">
      <Heading as="h2" size="4" mb="1" id={`${formId}-bands`}>
        Franjas horarias
      </Heading>
      <Text as="p" size="2" color="gray" mb="4">
        Precios por kWh y por minuto según el día y la hora (por ejemplo pico, valle y resto). Fuera de las franjas rigen los precios de arriba; sin franjas, un solo precio todo el día. Las
        horas son las de la estación; para cruzar la medianoche cargá dos franjas (hasta las 24:00 y desde las 00:00).
      </Text>
      <Flex direction="column" gap="4">
        {rows.map((row, i) => {
          const f = row.getFieldset();
          return (
            <fieldset key={row.key} className="rate-band" data-testid={`band-${i}`}>
              <Flex justify="between" align="center" mb="2" asChild>
                <legend>
                  <Text size="2" weight="bold">
                    Franja {i + 1}
                  </Text>
                </legend>
              </Flex>
              <Grid columns={{ initial: "1", sm: "3" }} gap="3" align="start">
                <TextInputField meta={f.name} label="Nombre" placeholder="Pico, valle…" hint="Opcional." />
                <SelectField meta={f.days} label="Días" options={DAY_OPTIONS} />
                <Grid columns="2" gap="3">
                  <TextInputField meta={f.from} label="Desde" placeholder="18:00" />
                  <TextInputField meta={f.to} label="Hasta" placeholder="23:00" />
                </Grid>
                <MoneyField meta={f.pricePerKwhCents} label="Precio por kWh" />
                <MoneyField meta={f.pricePerMinuteCents} label="Precio por minuto" />
                <Flex align="end" height="100%">
                  <Button {...form.remove.getButtonProps({ name: bands.name, index: i })} variant="soft" color="red" size="2" aria-label={`Quitar la franja ${i + 1}`}>
                    <BiTrash aria-hidden="true" /> Quitar
                  </Button>
                </Flex>
              </Grid>
            </fieldset>
          );
        })}
        {rows.length < MAX_BANDS ? (
          <div>
            <Button {...form.insert.getButtonProps({ name: bands.name, defaultValue: EMPTY_BAND })} variant="soft" size="2">
              <BiPlus aria-hidden="true" /> Agregar franja
            </Button>
          </div>
        ) : null}
        <TextInputField
          meta={localHolidays}
          label="Feriados propios de la tarifa"
          placeholder="15/03/2027, 07/10/2027"
          hint="Además de los nacionales y los de la empresa, que ya se cobran como domingo. Fechas DD/MM/AAAA separadas por comas."
        />
      </Flex>
    </section>
  );
}
