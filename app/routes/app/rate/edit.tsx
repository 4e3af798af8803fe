import { lazy, Suspense } from "react";
import { useLocation } from "react-router";
import { PageHeader } from "~/components/Page";
import { DeleteRateConfirm } from "~/components/rate/DeleteRate";
import { DeleteLink } from "~/components/DeleteConfirm";
import { connectorCountLabel } from "~/components/rate/format";
import { RateForm } from "~/components/rate/RateForm";
import { previewClock, RATES, saveRate } from "./rate.server";
import { loadSchedule, scheduleAction } from "./schedule.server";
import { apiFor, deleteResource, idParam, loadOne } from "~/lib/resource.server";
import { rateToValues } from "~/components/rate/form-values";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import type { Route } from "./+types/edit";

// The scheduled changes come below the form: the server writes them in place (plain forms that
// work without JavaScript) and the browser hydrates them from a chunk of their own, so the
// screen's first load stays within its budget.
const RateSchedule = lazy(() => import("~/components/rate/RateSchedule").then((m) => ({ default: m.RateSchedule })));

export const meta = pageMeta("Editar tarifa");

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const rate = await loadOne(api, RATES, idParam(params.id));
  const confirmDelete = url.searchParams.has("delete");
  const [schedule, clock] = await Promise.all([loadSchedule(api, rate.id), previewClock(api)]);
  return { rate, confirmDelete, clock, schedule };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  const id = idParam(params.id);
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "delete") return deleteResource(context, api, RATES, id);
  if (intent === "schedule" || intent === "unschedule") return scheduleAction(context, api, formData, id, `/rate/edit/${id}`);
  return saveRate(context, api, formData, id);
}

export default function EditRate({ loaderData, actionData }: Route.ComponentProps) {
  const { rate, confirmDelete, clock, schedule } = loaderData;
  const location = useLocation();
  const here = location.pathname;
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : undefined;
  const scheduleResult = actionData && "scheduleResult" in actionData ? actionData.scheduleResult : undefined;
  // Facturación and Lectura see the rate, read-only.
  const canWrite = useAccess().can("rate.write");
  return (
    <>
      <PageHeader
        title="Editar tarifa"
        description={`${rate.name} · ${rate.connectorCount > 0 ? `En uso: ${connectorCountLabel(rate.connectorCount)}` : "Sin conectores asignados"}. Los cambios valen para las próximas cargas.`}
        actions={
          confirmDelete || !canWrite ? null : (
            <DeleteLink to={`${here}?delete=1`}>Eliminar tarifa</DeleteLink>
          )
        }
      />
      {canWrite && (confirmDelete || deleteError) ? <DeleteRateConfirm rate={rate} action={`${here}?delete=1`} cancelTo={here} error={deleteError} /> : null}
      <RateForm key={rate.id} formId={`rate-edit-${rate.id}`} defaultValue={rateToValues(rate)} lastResult={result} submitLabel="Guardar cambios" action={here} readOnly={!canWrite} clock={clock} />
      <Suspense fallback={null}>
        <RateSchedule schedule={schedule} action={here} lastResult={scheduleResult} canWrite={canWrite} />
      </Suspense>
    </>
  );
}
