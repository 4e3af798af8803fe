import { data, Link, useNavigation } from "react-router";
import { Button, Callout, Code, Flex, Text } from "@radix-ui/themes";
import { BiCheckCircle } from "~/icons";
import { PageHeader, TitledCard } from "~/components/Page";
import { ChargerForm } from "~/components/charger/ChargerForm";
import { ConnectionUrl, OneTimePassword } from "~/components/charger/OcppBlock";
import { chargerSaveFailure, loadFormOptions, ocppBase } from "~/lib/charger.server";
import { newConnector, ocppUrlFor, type ChargerFormValue } from "~/components/charger/form-values";
import { parseChargerForm } from "~/components/charger/schema";
import { requireMember, requireUser } from "~/lib/auth.server";
import { can } from "#domain/permissions";
import { createApiClient } from "~/lib/api.server";
import { endpoints } from "#contract/endpoints";
import { idempotencyInit, newFormToken } from "~/lib/form-token";
import { pageMeta } from "~/lib/meta";
import { dataWithError, dataWithSuccess, redirectWithInfo } from "~/lib/toast.server";
import type { Route } from "./+types/new";
import { doneMessage } from "~/lib/done-message";

export const meta = pageMeta("Nuevo cargador");

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user, business } = await requireMember(request, context);
  const options = await loadFormOptions(createApiClient(context, user.idToken), { rates: can(business.role, "rate.read") });
  // `?stationId=` preselects the station (from the station screen); an unknown one is ignored.
  const wanted = url.searchParams.get("stationId") ?? "";
  const station = options.stations.find((s) => s.value === wanted);
  const defaultValue: ChargerFormValue = {
    stationId: station?.value ?? "",
    heartbeatInterval: "300",
    priceDisplay: "AUTO",
    connectors: [newConnector([])],
  };
  return {
    options,
    defaultValue,
    ocppBase: ocppBase(request),
    now: Date.now(),
    station: station ? { id: station.value, name: station.label } : null,
    formToken: newFormToken(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const formData = await request.formData();
  const submission = parseChargerForm(formData);
  if (submission.status !== "success") {
    // Invalid, or a row added/removed (conform intent): the form comes back with what was typed.
    return data({ result: submission.reply() }, { status: submission.status === "error" ? 400 : 200 });
  }
  const api = createApiClient(context, user.idToken);
  const result = await api.call(endpoints.chargerCreate, { body: { ...submission.value, enabled: true }, headers: idempotencyInit(formData)?.headers });
  if (result.ok) {
    const created = result.data;
    if (!created.ocppPassword) {
      // The same form again (double click, back and resend): the API answers the first creation
      // again, without its password (shown then, never kept), so a new one is on the charger's
      // screen (Rotar contraseña).
      return redirectWithInfo(`/charger/edit/${created.id}`, `El cargador ${created.name} ya estaba creado. Si no guardaste su contraseña, rotala desde acá.`);
    }
    // The password travels only in this answer: never stored, never shown again.
    return dataWithSuccess(
      context,
      {
        created: {
          id: created.id,
          name: created.name,
          ocppIdentity: created.ocppIdentity,
          ocppUrl: created.ocppUrl ?? ocppUrlFor(ocppBase(request), created.ocppIdentity),
          password: created.ocppPassword,
          stationId: created.stationId,
          stationName: created.stationName,
        },
      },
      doneMessage("created", "el cargador", created.name),
    );
  }
  const failed = chargerSaveFailure(submission, result, "No pudimos crear el cargador. Probá de nuevo.");
  return dataWithError(context, { result: failed.reply }, failed.message, { status: failed.status });
}

export default function NewCharger({ loaderData, actionData }: Route.ComponentProps) {
  const { options, defaultValue, ocppBase: base, now, station, formToken } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";

  if (actionData && "created" in actionData) {
    const c = actionData.created;
    return (
      <>
        <PageHeader title="Nuevo cargador" />
        <Flex direction="column" gap="5">
          <Callout.Root color="green" role="status">
            <Callout.Icon>
              <BiCheckCircle aria-hidden="true" />
            </Callout.Icon>
            <Callout.Text>
              Creamos el cargador <strong>«{c.name}»</strong>
              {c.stationName ? <> en la estación «{c.stationName}»</> : null}. Ahora configuralo con estos datos para que se conecte.
            </Callout.Text>
          </Callout.Root>
          <TitledCard title="Configurá el cargador" id="charger-created">
            <Flex direction="column" gap="4">
              <Flex direction="column" gap="1">
                <Text as="p" size="2" weight="medium">
                  Identidad OCPP
                </Text>
                <Code size="3" className="charger-code" data-testid="created-identity">
                  {c.ocppIdentity}
                </Code>
              </Flex>
              <ConnectionUrl url={c.ocppUrl} />
              <OneTimePassword password={c.password} />
            </Flex>
          </TitledCard>
          <Flex gap="3" wrap="wrap" justify="end">
            <Button asChild size="3" variant="soft" color="gray">
              <Link to="/charger">Ir a mis cargadores</Link>
            </Button>
            <Button asChild size="3" variant="soft">
              <Link to={c.stationId ? `/charger/new?stationId=${c.stationId}` : "/charger/new"}>Crear otro cargador</Link>
            </Button>
            <Button asChild size="3">
              <Link to={`/charger/edit/${c.id}`}>Ver el cargador</Link>
            </Button>
          </Flex>
        </Flex>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Nuevo cargador"
        description={station ? `Se va a sumar a la estación ${station.name}.` : "Registrá el cargador con su identidad OCPP; la estación la podés elegir ahora o después."}
      />
      <ChargerForm
        id="charger-new"
        lastResult={navigation.state === "idle" && actionData && "result" in actionData ? actionData.result : null}
        defaultValue={defaultValue}
        options={options}
        ocppBase={base}
        now={now}
        busy={busy}
        submitLabel="Crear cargador"
        cancelTo={station ? `/station/edit/${station.id}` : "/charger"}
        formToken={formToken}
      />
    </>
  );
}
