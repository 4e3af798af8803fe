// The rate's prices now and its scheduled changes ("Vigente desde"), with a form to schedule one
// and a button to cancel each. Plain POST forms: they work without JavaScript.
import { Form, useNavigation } from "react-router";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import type { RateScheduleListDto } from "#contract/dto";
import { VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { formatDateTime } from "~/components/charger/format";
import { DateTimeField, MoneyField } from "./fields";
import { priceParts } from "./format";
import { MONEY_HINT } from "./form-values";

function pricesLabel(values: Parameters<typeof priceParts>[0]): string {
  return priceParts(values).join(" · ") || "Sin precio";
}

export function RateSchedule({ schedule, action, lastResult, canWrite }: { schedule: RateScheduleListDto; action: string; lastResult?: SubmissionResult<string[]> | null; canWrite: boolean }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({ id: "rate-schedule", lastResult: navigation.state === "idle" ? lastResult : null, ...VALIDATE_ON });
  return (
    <Card size="3" className="rate-schedule" asChild>
      <section aria-labelledby="rate-schedule-title">
        <Heading as="h2" size="4" id="rate-schedule-title" mb="2">
          Precios vigentes y cambios programados
        </Heading>
        <Text as="p" size="2" data-testid="rate-current">
          Ahora: {pricesLabel(schedule.current)}
        </Text>
        {schedule.items.length === 0 ? (
          <Text as="p" size="2" color="gray" mt="2">
            No hay cambios programados.
          </Text>
        ) : (
          <ul className="rate-schedule-list" aria-label="Cambios programados">
            {schedule.items.map((s) => (
              <li key={s.id} data-testid="rate-upcoming">
                <Flex gap="3" align="center" wrap="wrap">
                  <Text size="2">
                    <strong>Desde el {formatDateTime(s.effectiveFrom)}:</strong> {pricesLabel(s.values)}
                  </Text>
                  {canWrite ? (
                    <Form method="post" action={action}>
                      <input type="hidden" name="scheduleId" value={s.id} />
                      <Button type="submit" name="intent" value="unschedule" variant="soft" color="red" size="1" aria-label={`Cancelar el cambio del ${formatDateTime(s.effectiveFrom)}`}>
                        Cancelar
                      </Button>
                    </Form>
                  ) : null}
                </Flex>
              </li>
            ))}
          </ul>
        )}
        {canWrite ? (
          <Form method="post" action={action} {...getFormProps(form)}>
            <Heading as="h3" size="3" mt="4" mb="2">
              Programar un cambio de precio
            </Heading>
            <Text as="p" size="2" color="gray" mb="2">
              Las cargas que empiecen desde esa fecha y hora (hora de Argentina) usan los nuevos precios; las anteriores siguen con los de hoy. Dejá vacío lo que no cambia.
            </Text>
            <FormError errors={form.errors} id={form.errorId} />
            <Grid columns={{ initial: "1", sm: "2" }} gap="3">
              <DateTimeField meta={fields.effectiveFrom} label="Vigente desde" />
              <MoneyField meta={fields.pricePerKwhCents} label="Nuevo precio por kWh" hint={MONEY_HINT} />
              <MoneyField meta={fields.pricePerMinuteCents} label="Nuevo precio por minuto" />
              <MoneyField meta={fields.sessionFeeCents} label="Nuevo cargo por sesión" />
            </Grid>
            <Flex mt="3">
              <Button type="submit" name="intent" value="schedule" size="3">
                Programar cambio
              </Button>
            </Flex>
          </Form>
        ) : null}
      </section>
    </Card>
  );
}
