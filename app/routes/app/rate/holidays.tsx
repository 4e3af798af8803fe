// «Feriados locales»: the dates the company's area stops (a provincial holiday, the town's
// patron saint), which every rate prices as "domingos y feriados" besides the national calendar.
// One row per date; «Agregar feriado» and «Quitar» are conform intent buttons, plain submits the
// action answers with the list one row longer or shorter, so the screen works without JavaScript.
import { data, Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { BiPlus, BiTrash } from "~/icons";
import { PageHeader } from "~/components/Page";
import { VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { TextInputField } from "~/components/rate/fields";
import { holidaysFormSchema } from "~/components/rate/holidays-schema";
import { endpoints } from "#contract/endpoints";
import { MAX_COMPANY_HOLIDAYS } from "#domain/tariff-band-days";
import { apiFor, ensureLoaded, toastStatus } from "~/lib/resource.server";
import { problemReply } from "~/lib/problem-reply";
import { dataWithError, redirectWithSuccess } from "~/lib/toast.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import type { Route } from "./+types/holidays";

export const meta = pageMeta("Feriados locales");

const HERE = "/rate/holidays";

// 'YYYY-MM-DD' as people read it (15/03/2027). The rate form has the same one-liner; importing it
// from there would make Rollup split the rate form's values into a chunk of their own and push the
// rate screen past its first-load budget.
const dmy = (iso: string) => iso.replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$3/$2/$1");

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  // The limit comes with the data, so the screen does not load the pricing rules to know it.
  return { ...ensureLoaded(await api.call(endpoints.companyHolidaysGet)), max: MAX_COMPANY_HOLIDAYS };
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  const submission = parseWithZod(await request.formData(), { schema: holidaysFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const result = await api.call(endpoints.companyHolidaysSave, { body: submission.value });
  if (result.ok) {
    const n = result.data.dates.length;
    return redirectWithSuccess(HERE, n === 0 ? "La empresa ya no tiene feriados locales." : `Guardamos ${n} ${n === 1 ? "feriado local" : "feriados locales"}.`);
  }
  const { reply, status, message } = problemReply(submission, result, { fallback: "No pudimos guardar los feriados. Probá de nuevo.", field: (f) => (f.startsWith("dates") ? f : undefined), firstOnly: true });
  return dataWithError(context, { result: reply }, message, { status: toastStatus(context, status) });
}

function HolidaysForm({ dates, max, lastResult }: { dates: string[]; max: number; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({ id: "holidays", defaultValue: { dates: dates.map(dmy) }, lastResult, ...VALIDATE_ON, shouldValidate: "onSubmit" });
  const rows = fields.dates.getFieldList();
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormError errors={form.errors} id={form.errorId} />
      <Flex direction="column" gap="3" data-testid="holiday-rows">
        {rows.length === 0 ? (
          <Text size="2" color="gray">
            La empresa no tiene feriados locales: solo rigen los nacionales.
          </Text>
        ) : null}
        {rows.map((row, i) => (
          <Flex key={row.key} gap="3" align="end" wrap="wrap" data-testid="holiday-row">
            <div className="holiday-date">
              <TextInputField meta={row} label={`Feriado ${i + 1}`} placeholder="DD/MM/AAAA" />
            </div>
            <Button {...form.remove.getButtonProps({ name: fields.dates.name, index: i })} variant="soft" color="red" size="3" aria-label={`Quitar el feriado ${i + 1}`}>
              <BiTrash aria-hidden="true" /> Quitar
            </Button>
          </Flex>
        ))}
      </Flex>
      <Flex gap="3" mt="4" wrap="wrap">
        {rows.length < max ? (
          <Button {...form.insert.getButtonProps({ name: fields.dates.name, defaultValue: "" })} variant="soft" size="3">
            <BiPlus aria-hidden="true" /> Agregar feriado
          </Button>
        ) : null}
        <Button type="submit" size="3">
          Guardar feriados
        </Button>
        <Button asChild variant="ghost" size="3">
          <Link to="/rate">Volver a tarifas</Link>
        </Button>
      </Flex>
    </Form>
  );
}

export default function Holidays({ loaderData, actionData }: Route.ComponentProps) {
  const { dates, national, max } = loaderData;
  const canWrite = useAccess().can("rate.write");
  const idle = useNavigation().state === "idle";
  return (
    <>
      <PageHeader
        title="Feriados locales"
        description="Los días que para tu zona (un feriado provincial, el día del patrono): todas tus tarifas los cobran como «domingos y feriados», además de los feriados nacionales. Rigen para las cargas que empiezan desde que los guardás."
      />
      <Card size="3" asChild>
        <section aria-labelledby="holidays-title">
          <Heading as="h2" size="4" id="holidays-title" mb="3">
            Feriados de la empresa
          </Heading>
          {canWrite ? (
            // Remounted after a save, so the rows are the saved list (in order).
            <HolidaysForm key={dates.join()} dates={dates} max={max} lastResult={idle ? actionData?.result : undefined} />
          ) : (
            <Text as="p" size="2" data-testid="holiday-list">
              {dates.length ? dates.map(dmy).join(", ") : "La empresa no tiene feriados locales: solo rigen los nacionales."}
            </Text>
          )}
        </section>
      </Card>
      <Card size="3" mt="4" asChild>
        <section aria-labelledby="national-title">
          <Heading as="h2" size="4" id="national-title" mb="2">
            Feriados nacionales de los próximos doce meses
          </Heading>
          <Text as="p" size="2" color="gray" mb="2">
            Ya se cobran como domingo: no hace falta cargarlos. Los días no laborables con fines turísticos se cobran como día hábil; si en tu zona no se trabaja, agregalos arriba.
          </Text>
          <Text as="p" size="2" data-testid="national-holidays">
            {national.map(dmy).join(" · ")}
          </Text>
        </section>
      </Card>
    </>
  );
}
