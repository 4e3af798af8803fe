import { data, Form, Link, useLocation, useNavigation } from "react-router";
import { Button, Callout, Flex } from "@radix-ui/themes";
import { BiChip, BiErrorCircle, BiLineChart } from "~/icons";
import { PageHeader, TitledCard } from "~/components/Page";
import { ChargerForm } from "~/components/charger/ChargerForm";
import { DeleteConfirm, DeleteLink } from "~/components/DeleteConfirm";
import { chargerSaveFailure, loadFormOptions, ocppBase, reportLine, serviceUnavailable, SERVICE_UNAVAILABLE } from "~/lib/charger.server";
import { chargerFormValue } from "~/components/charger/form-values";
import { parseChargerForm } from "~/components/charger/schema";
import { requireMember, requireUser } from "~/lib/auth.server";
import { can } from "#domain/permissions";
import { useAccess } from "~/lib/access";
import { createApiClient, type ApiClient } from "~/lib/api.server";
import { endpoints } from "#contract/endpoints";
import { pageMeta } from "~/lib/meta";
import { dataWithError, dataWithSuccess, redirectWithSuccess } from "~/lib/toast.server";
import { UUID_RE } from "#contract/schemas/constants";
import type { ChargerDto, ChargerEventPage } from "#contract/dto";
import type { IntervalFormState } from "~/components/charger/CommandsCard";
import { EventsCard, EVENTS_SHOWN } from "~/components/charger/EventsCard";
import { useLiveRevalidation } from "~/components/LiveRevalidation";
import { commandSchema } from "#contract/schemas/command";
import { INTERVAL_SETTINGS, type CommandResult } from "#contract/schemas/command-labels";
import type { Route } from "./+types/edit";
import { lazy, Suspense } from "react";
import { doneMessage } from "~/lib/done-message";
import { notFound } from "~/lib/responses.server";

// The remote commands are a section of their own, for the roles that may send them: a lazy chunk the
// server still renders in place (pages are piped once complete), so the page keeps working without
// JavaScript and its first load stays within budget.
const CommandsCard = lazy(() => import("~/components/charger/CommandsCard").then((m) => ({ default: m.CommandsCard })));

export const meta = pageMeta("Editar cargador");

const ROTATE_FORM_ID = "charger-rotate";

/** The business's charger, or the 404 screen (unknown id or another business's). */
async function fetchCharger(api: ApiClient, id: string | undefined): Promise<ChargerDto> {
  if (!id || !UUID_RE.test(id)) notFound();
  const result = await api.call(endpoints.chargerGet, { params: { id } });
  if (result.status === 404) notFound();
  if (!result.ok) serviceUnavailable();
  return result.data;
}

/** The charger's latest events, or null when they could not be read (the screen says so). */
async function fetchEvents(api: ApiClient, id: string): Promise<ChargerEventPage | null> {
  const result = await api.call(endpoints.chargerEvents, { params: { id }, query: { pageSize: EVENTS_SHOWN } });
  return result.ok ? result.data : null;
}

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const { user, business } = await requireMember(request, context);
  const api = createApiClient(context, user.idToken);
  const pending = fetchCharger(api, params.id);
  // A role without the rates sees only the connectors' own (and cannot change them).
  const [charger, options, events] = await Promise.all([
    pending,
    can(business.role, "rate.read") ? loadFormOptions(api) : pending.then((c) => loadFormOptions(api, { rates: false, current: c.connectors })),
    // Asked beside the charger (fetchCharger has already refused an id that is not one).
    UUID_RE.test(params.id ?? "") ? fetchEvents(api, params.id!) : null,
  ]);
  const reportStatus = events ? reportLine(events.lastReport) : "No pudimos leer si llegó un informe: recargá la página.";
  return { charger, options, events, reportStatus, defaultValue: chargerFormValue(charger), ocppBase: ocppBase(request), now: Date.now(), confirmDelete: url.searchParams.has("delete") };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const api = createApiClient(context, user.idToken);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const id = params.id ?? "";
  if (!UUID_RE.test(id)) notFound();

  if (intent === "rotate-password") {
    const result = await api.call(endpoints.chargerRotatePassword, { params: { id } });
    if (result.status === 404) notFound();
    const rotated = result.ok ? result.data : undefined;
    if (rotated?.ocppPassword) {
      // Shown once, in this answer only.
      const done = rotated.passwordDelivery === "charger" ? "El cargador aceptó la contraseña nueva: la usa desde su próxima conexión." : "Generamos una contraseña nueva. Cargala en el cargador.";
      return dataWithSuccess(context, { rotated: { password: rotated.ocppPassword } }, done);
    }
    // 409: the connected charger did not take it; the problem says why (the old one still works).
    const problem = !result.ok && result.status === 409 ? result.problem : undefined;
    const message = problem?.title ?? "No pudimos rotar la contraseña. Probá de nuevo.";
    return dataWithError(context, { rotateError: message }, message, { status: problem ? 409 : 503 });
  }

  if (intent === "command") {
    const fields = Object.fromEntries([...formData].filter(([k, v]) => k !== "intent" && v !== "")) as Record<string, string>;
    const parsed = commandSchema.safeParse(fields);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "Revisá los datos del comando.";
      // The intervals' messages go under their fields, with what was typed (no JavaScript needed).
      const intervals: IntervalFormState | undefined =
        fields.command === "ChangeConfiguration"
          ? {
              errors: Object.fromEntries(INTERVAL_SETTINGS.map((k) => [k, parsed.error.issues.filter((i) => i.path[0] === k).map((i) => i.message)]).filter(([, m]) => m.length)),
              submitted: Object.fromEntries(INTERVAL_SETTINGS.map((k) => [k, String(formData.get(k) ?? "")])),
            }
          : undefined;
      return dataWithError(context, { commandResult: { command: String(fields.command ?? "Reset"), outcome: "error", message } as CommandResult, intervals }, message, { status: 400 });
    }
    const answer = await api.call(endpoints.chargerCommand, { params: { id }, body: parsed.data });
    if (answer.status === 404) notFound();
    const result = answer.ok ? answer.data : undefined;
    if (!result) {
      const message = "No pudimos enviar el comando. Probá de nuevo.";
      return dataWithError(context, { commandResult: { command: parsed.data.command, outcome: "error", message } as CommandResult }, message, { status: 503 });
    }
    return result.outcome === "accepted" ? dataWithSuccess(context, { commandResult: result }, result.message) : dataWithError(context, { commandResult: result }, result.message);
  }

  if (intent === "delete") {
    // Its name, for the toast: the form does not carry it (a posted name is not to be trusted).
    const before = await api.call(endpoints.chargerGet, { params: { id } });
    const name = before.ok ? before.data.name : undefined;
    const result = await api.call(endpoints.chargerDelete, { params: { id } });
    if (result.status === 404) notFound();
    if (result.ok) return redirectWithSuccess("/charger", doneMessage("deleted", "el cargador", name));
    const refused = result.status < 500;
    const message = refused && result.problem.title ? result.problem.title : "No pudimos eliminar el cargador. Probá de nuevo.";
    return dataWithError(context, { deleteError: message }, message, { status: refused ? result.status : 503 });
  }

  const submission = parseChargerForm(formData);
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: submission.status === "error" ? 400 : 200 });
  }
  // PUT replaces the whole charger: keep what this form does not edit.
  const current = await api.call(endpoints.chargerGet, { params: { id } });
  if (current.status === 404) notFound();
  const stored = current.ok ? current.data : undefined;
  if (!stored) return dataWithError(context, { result: submission.reply({ formErrors: [SERVICE_UNAVAILABLE] }) }, SERVICE_UNAVAILABLE, { status: 503 });

  const saved = await api.call(endpoints.chargerUpdate, { params: { id }, body: { ...submission.value, enabled: stored.enabled } });
  if (saved.status === 404) notFound();
  if (saved.ok) return redirectWithSuccess("/charger", doneMessage("saved", "el cargador", submission.value.name));
  const failed = chargerSaveFailure(submission, saved, "No pudimos guardar los cambios. Probá de nuevo.");
  return dataWithError(context, { result: failed.reply }, failed.message, { status: failed.status });
}

export default function EditCharger({ loaderData, actionData }: Route.ComponentProps) {
  const { charger, options, events, reportStatus, defaultValue, ocppBase: base, now, confirmDelete } = loaderData;
  const here = useLocation().pathname;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";

  const result = navigation.state === "idle" && actionData && "result" in actionData ? actionData.result : null;
  const rotatedPassword = actionData && "rotated" in actionData ? actionData.rotated.password : undefined;
  const rotateError = actionData && "rotateError" in actionData ? actionData.rotateError : undefined;
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : undefined;
  const commandResult = actionData && "commandResult" in actionData ? actionData.commandResult : undefined;
  const intervals = actionData && "intervals" in actionData ? (actionData.intervals as IntervalFormState | undefined) : undefined;
  // Connector statuses and the connection badge follow the charger while the page is open.
  useLiveRevalidation();
  // What the member's role may do here (the server checks it again).
  const access = useAccess();
  const canWrite = access.can("charger.write");

  return (
    <>
      <PageHeader
        title="Editar cargador"
        description={`${charger.name} · ${charger.stationName ?? "Sin estación"}`}
        actions={
          <Flex gap="2" wrap="wrap">
            {access.can("activity.read") ? (
              <Button asChild size="3" variant="soft">
                <Link to={`/activity?chargerId=${charger.id}`}>
                  <BiLineChart aria-hidden="true" /> Ver su actividad
                </Link>
              </Button>
            ) : null}
            {/* Firmware, diagnostics, the local list and (from there) the recent OCPP messages, on their own screens. */}
            <Button asChild size="3" variant="soft">
              <Link to={`/charger/edit/${charger.id}/maintenance`} data-testid="charger-maintenance-link">
                <BiChip aria-hidden="true" /> Mantenimiento
              </Link>
            </Button>
            {canWrite && !confirmDelete ? <DeleteLink to={`${here}?delete=1`}>Eliminar cargador</DeleteLink> : null}
          </Flex>
        }
      />
      {canWrite && (confirmDelete || deleteError) ? (
        <DeleteConfirm id={charger.id} title={`¿Eliminar el cargador «${charger.name}»?`} action={`${here}?delete=1`} cancelTo={here} error={deleteError}>
          No se puede deshacer. Se borran el cargador y sus conectores; las cargas ya registradas quedan en la actividad. No se puede eliminar mientras tenga una carga en curso.
        </DeleteConfirm>
      ) : null}
      {rotateError ? (
        <Callout.Root color="red" role="alert" mb="4">
          <Callout.Icon>
            <BiErrorCircle aria-hidden="true" />
          </Callout.Icon>
          <Callout.Text>{rotateError}</Callout.Text>
        </Callout.Root>
      ) : null}
      <ChargerForm
        id={`charger-edit-${charger.id}`}
        lastResult={result}
        defaultValue={defaultValue}
        options={options}
        ocppBase={base}
        charger={charger}
        now={now}
        rotatedPassword={rotatedPassword}
        rotateFormId={ROTATE_FORM_ID}
        busy={busy}
        submitLabel="Guardar cambios"
        cancelTo="/charger"
        readOnly={!canWrite}
      />
      {/* The password rotation's own form: its confirm button lives in the OCPP block above. */}
      <Form method="post" id={ROTATE_FORM_ID} hidden />

      {access.can("charger.command") ? (
        <Flex direction="column" mt="6">
          <Suspense fallback={null}>
            <CommandsCard charger={charger} busy={busy} result={commandResult} intervals={intervals} reportStatus={reportStatus} />
          </Suspense>
        </Flex>
      ) : null}

      {/* Each connector's QR (an <img> of a resource route: no QR code in this page's JavaScript). */}
      <Flex direction="column" mt="6">
        <TitledCard
          title="Cobro con QR"
          id="charger-qr"
          actions={
            <Button asChild size="2" variant="soft">
              <a href={`/charger/stickers/${charger.id}`}>Imprimir stickers (A4)</a>
            </Button>
          }
        >
          <div className="qr-grid">
            {charger.connectors.map((k) => (
              <figure key={k.connectorId}>
                <img src={`/charger/qr/${charger.id}?connector=${k.connectorId}`} alt={`QR del conector ${k.connectorId}`} width={160} height={160} />
                <figcaption>
                  Conector {k.connectorId} · código <code>{`${charger.ocppIdentity}-${k.connectorId}`}</code>
                  <br />
                  <a href={`/cargar/${encodeURIComponent(charger.ocppIdentity)}/${k.connectorId}`}>Ver la página del conductor</a>
                </figcaption>
              </figure>
            ))}
          </div>
        </TitledCard>
      </Flex>

      <Flex direction="column" mt="6">
        <EventsCard events={events} />
      </Flex>

    </>
  );
}
