// Mantenimiento (issue 25): a charger's firmware (version, the last update asked and its
// progress, its model's chargers) with the form that sends UpdateFirmware to it or to its whole
// model, the diagnostics asked of it with their files, and its local authorization list. Its own
// screen, off the charger screen (that route is at its JS budget); forms work without JavaScript.
import { data, Form, Link, useNavigation } from "react-router";
import { Button, Flex, Text } from "@radix-ui/themes";
import type { ChargerDto, ChargerFirmwareDto, DiagnosticsDto, DiagnosticsRequestedDto, FirmwareUpdateDto, LocalListResultDto, Page } from "#contract/dto";
import { UUID_RE } from "#contract/schemas/constants";
import { BiArrowBack, BiHistory } from "~/icons";
import { PageHeader } from "~/components/Page";
import { DIAGNOSTICS_SHOWN, MaintenanceCard, type MaintenanceFormState } from "~/components/charger/MaintenanceCard";
import { useLiveRevalidation } from "~/components/LiveRevalidation";
import { useAccess } from "~/lib/access";
import { createApiClient, readJson, type ApiProblem } from "~/lib/api.server";
import { requireMember, requireUser } from "~/lib/auth.server";
import { localListLine, tryApi } from "~/lib/charger.server";
import { TitledCard } from "~/components/Page";
import { pageMeta } from "~/lib/meta";
import { dataWithError, dataWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/maintenance";

export const meta = pageMeta("Mantenimiento del cargador");

function notFound(): never {
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, headers } = await requireMember(request, context);
  if (!UUID_RE.test(params.id)) notFound();
  const api = createApiClient(context, user.idToken);
  const path = `/Business/Charger/${params.id}`;
  const [charger, firmware, diagnostics] = await Promise.all([
    tryApi(() => api.get(path)),
    tryApi(() => api.get(`${path}/Firmware`)),
    tryApi(() => api.get(`${path}/Diagnostics?pageSize=${DIAGNOSTICS_SHOWN}`)),
  ]);
  if (charger?.status === 404) notFound();
  const dto = charger?.ok ? await readJson<ChargerDto>(charger) : undefined;
  return data(
    {
      charger: dto ? { id: dto.id, name: dto.name, stationName: dto.stationName, online: dto.online } : { id: params.id, name: "", stationName: null, online: false },
      localList: dto ? localListLine(dto) : "No pudimos leer qué lista local tiene el cargador. Recargá la página.",
      firmware: (firmware?.ok ? await readJson<ChargerFirmwareDto>(firmware) : undefined) ?? null,
      diagnostics: (diagnostics?.ok ? await readJson<Page<DiagnosticsDto>>(diagnostics) : undefined) ?? null,
    },
    { headers },
  );
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  if (!UUID_RE.test(params.id)) notFound();
  const api = createApiClient(context, user.idToken);
  const formData = await request.formData();
  // The tags as the charger's local authorization list, or the version it holds (ADR 0018).
  const asked = formData.get("intent");
  if (asked === "local-list" || asked === "local-list-version") {
    const response = await tryApi(() => api.post(`/Business/Charger/${params.id}/LocalList${asked === "local-list" ? "" : "/Version"}`));
    if (response?.status === 404) notFound();
    const answer = response ? await readJson<LocalListResultDto & ApiProblem>(response) : undefined;
    const message = answer?.message ?? answer?.title ?? "No pudimos comunicarnos con el cargador. Probá de nuevo.";
    return answer?.outcome === "accepted" ? dataWithSuccess(context, { localListDone: true }, message) : dataWithError(context, { localListDone: false }, message);
  }
  const intent = asked === "diagnostics" ? "diagnostics" : "firmware";
  const submitted = Object.fromEntries((intent === "firmware" ? ["location", "retrieveAt", "allOfModel"] : ["from", "to"]).map((k) => [k, String(formData.get(k) ?? "").trim()]));
  const body =
    intent === "firmware"
      ? { location: submitted.location, ...(submitted.retrieveAt ? { retrieveAt: submitted.retrieveAt } : {}), allOfModel: submitted.allOfModel === "true" }
      : { ...(submitted.from ? { from: submitted.from } : {}), ...(submitted.to ? { to: submitted.to } : {}) };
  const response = await tryApi(() => api.post(`/Business/Charger/${params.id}/${intent === "firmware" ? "Firmware" : "Diagnostics"}`, body));
  if (response?.status === 404) notFound();
  if (response?.status === 422) {
    const problem = await readJson<ApiProblem>(response);
    const errors = problem?.errors ?? {};
    const message = Object.values(errors)[0]?.[0] ?? "Revisá los datos.";
    return dataWithError(context, { maintenance: { intent, errors, submitted } satisfies MaintenanceFormState }, message, { status: 422 });
  }
  const answer = response?.ok ? await readJson<FirmwareUpdateDto | DiagnosticsRequestedDto>(response) : undefined;
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
