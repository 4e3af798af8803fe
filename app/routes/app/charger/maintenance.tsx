// Mantenimiento: a charger's firmware (version, the last update asked and its
// progress, its model's chargers) with the form that sends UpdateFirmware to it or to its whole
// model, the diagnostics asked of it with their files, and its local authorization list. Its own
// screen, off the charger screen (that route is at its JS budget); forms work without JavaScript.
import { data, Form, Link, useNavigation } from "react-router";
import { Button, Flex, Text } from "@radix-ui/themes";
import { UUID_RE } from "#contract/schemas/constants";
import { BiArrowBack, BiHistory } from "~/icons";
import { PageHeader } from "~/components/Page";
import { DIAGNOSTICS_SHOWN, MaintenanceCard, type MaintenanceFormState } from "~/components/charger/MaintenanceCard";
import { useLiveRevalidation } from "~/components/LiveRevalidation";
import { useAccess } from "~/lib/access";
import { createApiClient, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { endpoints } from "#contract/endpoints";
import { requireMember, requireUser } from "~/lib/auth.server";
import { localListLine } from "~/lib/charger.server";
import { TitledCard } from "~/components/Page";
import { pageMeta } from "~/lib/meta";
import { dataWithError, dataWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/maintenance";
import { notFound } from "~/lib/responses.server";

export const meta = pageMeta("Mantenimiento del cargador");

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, headers } = await requireMember(request, context);
  if (!UUID_RE.test(params.id)) notFound();
  const api = createApiClient(context, user.idToken);
  const charger = { params: { id: params.id } };
  const [read, firmware, diagnostics] = await Promise.all([
    api.call(endpoints.chargerGet, charger),
    api.call(endpoints.chargerFirmwareGet, charger),
    api.call(endpoints.chargerDiagnosticsList, { ...charger, query: { pageSize: DIAGNOSTICS_SHOWN } }),
  ]);
  if (read.status === 404) notFound();
  const dto = read.ok ? read.data : undefined;
  return data(
    {
      charger: dto ? { id: dto.id, name: dto.name, stationName: dto.stationName, online: dto.online } : { id: params.id, name: "", stationName: null, online: false },
      localList: dto ? localListLine(dto) : "No pudimos leer qué lista local tiene el cargador. Recargá la página.",
      firmware: firmware.ok ? firmware.data : null,
      diagnostics: diagnostics.ok ? diagnostics.data : null,
    },
    { headers },
  );
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  if (!UUID_RE.test(params.id)) notFound();
  const api = createApiClient(context, user.idToken);
  const formData = await request.formData();
  // The tags as the charger's local authorization list, or the version it holds.
  const asked = formData.get("intent");
  if (asked === "local-list" || asked === "local-list-version") {
    const result = await api.call(asked === "local-list" ? endpoints.chargerLocalListSend : endpoints.chargerLocalListVersionGet, { params: { id: params.id } });
    if (result.status === 404) notFound();
    const unreachable = !result.ok && result.problem.type === UNREACHABLE_PROBLEM;
    const message = (result.ok ? result.data.message : !unreachable && result.problem.title) || "No pudimos comunicarnos con el cargador. Probá de nuevo.";
    return result.ok && result.data.outcome === "accepted" ? dataWithSuccess(context, { localListDone: true }, message) : dataWithError(context, { localListDone: false }, message);
  }
  const intent = asked === "diagnostics" ? "diagnostics" : "firmware";
  const submitted = Object.fromEntries((intent === "firmware" ? ["location", "retrieveAt", "allOfModel"] : ["from", "to"]).map((k) => [k, String(formData.get(k) ?? "").trim()]));
  const charger = { id: params.id };
  const result =
    intent === "firmware"
      ? await api.call(endpoints.chargerFirmwareUpdate, {
          params: charger,
          body: { location: submitted.location, ...(submitted.retrieveAt ? { retrieveAt: submitted.retrieveAt } : {}), allOfModel: submitted.allOfModel === "true" },
        })
      : await api.call(endpoints.chargerDiagnosticsRequest, { params: charger, body: { ...(submitted.from ? { from: submitted.from } : {}), ...(submitted.to ? { to: submitted.to } : {}) } });
  if (result.status === 404) notFound();
  if (!result.ok && result.status === 422) {
    const errors = result.problem.errors ?? {};
    const message = Object.values(errors)[0]?.[0] ?? "Revisá los datos.";
    return dataWithError(context, { maintenance: { intent, errors, submitted } satisfies MaintenanceFormState }, message, { status: 422 });
  }
  const answer = result.ok ? result.data : undefined;
  if (!answer) {
    const message = "No pudimos enviar el pedido al cargador. Probá de nuevo.";
    return dataWithError(context, { maintenance: { intent, outcome: "error", message, submitted } satisfies MaintenanceFormState }, message, { status: 503 });
  }
  const state: MaintenanceFormState = { intent, outcome: answer.outcome, message: answer.message, results: "results" in answer ? answer.results : undefined };
  return answer.outcome === "accepted" ? dataWithSuccess(context, { maintenance: state }, answer.message) : dataWithError(context, { maintenance: state }, answer.message);
}

export default function ChargerMaintenance({ loaderData: d, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  // Firmware and upload progress arrive as the charger reports them.
  useLiveRevalidation();
  const access = useAccess();
  const state = actionData && "maintenance" in actionData ? (actionData.maintenance as MaintenanceFormState) : undefined;
  return (
    <>
      <PageHeader
        title="Mantenimiento del cargador"
        description={`${d.charger.name}${d.charger.stationName ? ` · ${d.charger.stationName}` : ""} · ${d.charger.online ? "Conectado" : "Sin conexión"}`}
        actions={
          <Flex gap="2" wrap="wrap">
            <Button asChild size="3" variant="soft" color="gray">
              <Link to={`/charger/edit/${d.charger.id}`}>
                <BiArrowBack aria-hidden="true" /> Volver al cargador
              </Link>
            </Button>
            <Button asChild size="3" variant="soft">
              <Link to={`/charger/edit/${d.charger.id}/messages`} data-testid="charger-messages-link">
                <BiHistory aria-hidden="true" /> Mensajes OCPP
              </Link>
            </Button>
          </Flex>
        }
      />
      <MaintenanceCard chargerId={d.charger.id} firmware={d.firmware} diagnostics={d.diagnostics} canCommand={access.can("charger.command")} busy={busy} state={state} />

      <Flex direction="column" mt="6">
        <TitledCard title="Lista local de tarjetas" id="charger-local-list">
          <Text as="p" size="2" mb="3" data-testid="local-list-version">
            {d.localList}
          </Text>
          {access.can("charger.command") ? (
            <Form method="post">
              <Flex gap="3" wrap="wrap">
                <Button type="submit" name="intent" value="local-list" size="3" disabled={busy}>
                  Enviar la lista
                </Button>
                <Button type="submit" name="intent" value="local-list-version" size="3" variant="soft" disabled={busy}>
                  Consultar versión
                </Button>
              </Flex>
            </Form>
          ) : null}
        </TitledCard>
      </Flex>
    </>
  );
}
