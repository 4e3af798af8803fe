// "Actualizar precios": several rates by a percentage (or to a new price per kWh) from a chosen
// date and time, with a preview of old → new per rate before confirming. Server-rendered plain
// forms: the preview and the confirmation work without JavaScript.
import { Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { PageHeader } from "~/components/Page";
import { FieldError, VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { DateTimeField, MoneyField, TextInputField } from "~/components/rate/fields";
import { priceParts } from "~/components/rate/format";
import { formatDateTime } from "~/components/charger/format";
import { endpoints } from "#contract/endpoints";
import { apiFor, ensureLoaded } from "~/lib/resource.server";
import { pageMeta } from "~/lib/meta";
import { repriceAction } from "./schedule.server";
import type { Route } from "./+types/reprice";

export const meta = pageMeta("Actualizar precios");

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const page = ensureLoaded(await api.call(endpoints.rateList, { query: new URLSearchParams({ pageSize: "100", sort: "name" }) }));
  return { rates: page.items.map((r) => ({ id: r.id, name: r.name, prices: priceParts(r).join(" · ") })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  return repriceAction(context, api, await request.formData());
}

const prices = (v: Parameters<typeof priceParts>[0]) => priceParts(v).join(" · ") || "Sin precio";

export default function Reprice({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const preview = actionData?.preview ?? null;
  const [form, fields] = useForm({ id: "reprice", lastResult: navigation.state === "idle" ? actionData?.result : null, ...VALIDATE_ON, shouldValidate: "onSubmit" });
  const typed = (form.value ?? {}) as { rateIds?: string[] | string; percent?: string; pricePerKwhCents?: string; effectiveFrom?: string };
  const chosen = new Set(Array.isArray(typed.rateIds) ? typed.rateIds : typed.rateIds ? [typed.rateIds] : []);
  return (
    <>
      <PageHeader title="Actualizar precios" description="Elegí las tarifas, cuánto cambian y desde cuándo. Antes de confirmar vas a ver el precio actual y el nuevo de cada una." />
      <Card size="3">
        <Form method="post" {...getFormProps(form)}>
          <FormError errors={form.errors} id={form.errorId} />
          <fieldset className="reprice-rates" aria-describedby={fields.rateIds.errorId}>
            <legend>
              <Text size="2" weight="medium">
                Tarifas
              </Text>
            </legend>
            {loaderData.rates.length === 0 ? <Text size="2">Todavía no hay tarifas.</Text> : null}
            {loaderData.rates.map((r) => (
              <Text as="label" size="2" key={r.id} className="reprice-rate">
                <input type="checkbox" name="rateIds" value={r.id} defaultChecked={chosen.has(r.id)} /> {r.name} <Text color="gray">({r.prices || "sin precio"})</Text>
              </Text>
            ))}
            <FieldError meta={fields.rateIds} />
          </fieldset>
          <Grid columns={{ initial: "1", sm: "3" }} gap="3" mt="3">
            <TextInputField meta={fields.percent} label="Porcentaje" hint="Ej.: 12,5 sube un 12,5 %; −5 baja un 5 %. Se redondea al centavo." suffix="%" />
            <MoneyField meta={fields.pricePerKwhCents} label="O un nuevo precio por kWh" hint="Para todas las tarifas elegidas." />
            <DateTimeField meta={fields.effectiveFrom} label="Vigente desde" hint="Hora de Argentina." />
          </Grid>
          <Flex gap="3" mt="3" wrap="wrap">
            <Button type="submit" name="intent" value="preview" size="3" variant={preview ? "soft" : "solid"}>
              Ver cambios
            </Button>
            <Button asChild variant="ghost" size="3">
              <Link to="/rate">Volver a tarifas</Link>
            </Button>
          </Flex>
        </Form>
      </Card>
      {preview ? (
        <Card size="3" mt="4" asChild>
          <section aria-labelledby="reprice-preview-title">
            <Heading as="h2" size="4" id="reprice-preview-title" mb="2">
              Nuevos precios desde el {formatDateTime(preview.effectiveFrom)}
            </Heading>
            <Table.DataTable caption="Precios antes y después de la actualización">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>Tarifa</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Antes</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Después</Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {preview.items.map((i) => (
                  <Table.Row key={i.rateId} data-testid="reprice-row">
                    <Table.RowHeaderCell>{i.name}</Table.RowHeaderCell>
                    <Table.Cell>{prices(i.before)}</Table.Cell>
                    <Table.Cell>{Object.keys(i.changes).length === 0 ? "Sin cambios" : prices(i.after)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.DataTable>
            <Form method="post">
              {[...chosen].map((id) => (
                <input key={id} type="hidden" name="rateIds" value={id} />
              ))}
              <input type="hidden" name="percent" value={typed.percent ?? ""} />
              <input type="hidden" name="pricePerKwhCents" value={typed.pricePerKwhCents ?? ""} />
              <input type="hidden" name="effectiveFrom" value={typed.effectiveFrom ?? ""} />
              <Button type="submit" name="intent" value="confirm" size="3" mt="3">
                Confirmar actualización
              </Button>
            </Form>
          </section>
        </Card>
      ) : null}
    </>
  );
}
