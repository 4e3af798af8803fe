// 'Nueva reserva': a connector for a tag until a time. A plain POST form (works without
// JavaScript), validated on blur by conform when it runs. The charger answers at once: accepted,
// the list with a success toast; refused, the list with the charger's reason.
import { data, Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Card, Flex, Grid, Heading } from "@radix-ui/themes";
import { BiCalendar } from "~/icons";
import { PageHeader } from "~/components/Page";
import { FormToken } from "~/components/FormToken";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { useLazyValidation } from "~/components/lazy-validation";
import { SelectField } from "~/components/rate/fields";
import { reservationFormSchema } from "~/components/reservation/schema";
import { connectorOptions, localInput } from "./reservation.server";
import { endpoints } from "#contract/endpoints";
import { UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { idempotencyInit, newFormToken } from "~/lib/form-token";
import { pageMeta } from "~/lib/meta";
import { problemReply } from "~/lib/problem-reply";
import { apiFor, onlyFields, toastStatus, UNAVAILABLE } from "~/lib/resource.server";
import { dataWithError, redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { UUID_RE } from "#contract/schemas/constants";
import type { Route } from "./+types/new";

export const meta = pageMeta("Nueva reserva");

const FIELDS = new Set(["connectorId", "idTag", "expiresAt"]);

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const connectors = await connectorOptions(api);
  const asked = url.searchParams.get("connectorId") ?? "";
  return {
    formToken: newFormToken(),
    connectors,
    defaults: { connectorId: UUID_RE.test(asked) && connectors.some((c) => c.id === asked) ? asked : "", idTag: "", expiresAt: localInput(new Date(), 30) },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: reservationFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  // The API reads a date-time without offset as Buenos Aires time: send what was typed.
  const body = { connectorId: submission.value.connectorId, idTag: submission.value.idTag, expiresAt: String(formData.get("expiresAt")) };
  const result = await api.call(endpoints.reservationCreate, { body, headers: idempotencyInit(formData)?.headers });
  if (result.ok) {
    const created = result.data;
    if (created.status === "ACTIVE") return redirectWithSuccess("/reservation", `Reservamos el conector. ${created.message}`);
    return redirectWithError("/reservation", created.message ?? "El cargador no aceptó la reserva.");
  }
  const fallback = result.problem.type === UNREACHABLE_PROBLEM && result.status === 503 ? UNAVAILABLE : "No pudimos hacer la reserva. Revisá los datos e intentá de nuevo.";
  const { reply, status, message } = problemReply(submission, onlyFields(result, FIELDS), { fallback, firstOnly: true });
  return dataWithError(context, { result: reply }, message, { status: toastStatus(context, status) });
}

export default function NewReservation({ loaderData, actionData }: Route.ComponentProps) {
  const { connectors, defaults, formToken } = loaderData;
  const navigation = useNavigation();
  const onValidate = useLazyValidation(() => import("~/components/reservation/schema").then((m) => m.validateReservationForm));
  const [form, fields] = useForm({ id: "reservation-new", defaultValue: defaults, lastResult: navigation.state === "idle" ? actionData?.result : null, onValidate, ...VALIDATE_ON });
  const busy = navigation.state === "submitting";
  return (
    <>
      <PageHeader
        title="Nueva reserva"
        description="El cargador guarda el conector para esa tarjeta hasta la hora que elijas. Si no se presenta, se cobra el cargo por no presentarse de la tarifa del conector."
      />
      <Form method="post" {...getFormProps(form)} className="tag-form">
        <FormToken value={formToken} />
        <FormError errors={form.errors} id={form.errorId} />
        <Card size="3" asChild>
          <section aria-labelledby="reservation-new-data">
            <Heading as="h2" size="4" mb="4" id="reservation-new-data">
              Datos de la reserva
            </Heading>
            <Flex direction="column" gap="4">
              <SelectField
                meta={fields.connectorId}
                label="Conector"
                hint="El cargador tiene que estar conectado para aceptar la reserva."
                options={[{ value: "", label: connectors.length ? "Elegí un conector" : "No tenés conectores" }, ...connectors.map((c) => ({ value: c.id, label: c.label }))]}
              />
              <Grid columns={{ initial: "1", sm: "2" }} gap="4" align="start">
                <Field meta={fields.idTag} label="Tarjeta (idTag)" hint="La que va a iniciar la carga: hasta 20 letras o números." autoComplete="off" />
                <Field meta={fields.expiresAt} label="Vale hasta" type="datetime-local" hint="Hora de Argentina; como máximo 24 horas." />
              </Grid>
            </Flex>
          </section>
        </Card>
        <Flex gap="3" wrap="wrap">
          <Button type="submit" size="3" disabled={busy}>
            <BiCalendar aria-hidden="true" /> Reservar
          </Button>
          <Button asChild size="3" variant="soft" color="gray">
            <Link to="/reservation">Cancelar</Link>
          </Button>
        </Flex>
      </Form>
    </>
  );
}
