import { useLocation } from "react-router";
import { PageHeader } from "~/components/Page";
import { DeleteConfirm, DeleteLink } from "~/components/DeleteConfirm";
import { GroupForm, groupToValues } from "~/components/tag/GroupForm";
import { groupFormSchema } from "~/components/tag/schema";
import { GROUPS } from "./group.server";
import { apiFor, deleteResource, idParam, loadOne, rateOptions, saveResource, stationOptions } from "~/lib/resource.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import type { Route } from "./+types/edit";

export const meta = pageMeta("Editar grupo");

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const [group, stations, rates] = await Promise.all([loadOne(api, GROUPS, idParam(params.id)), stationOptions(api), rateOptions(api)]);
  return { group, stations, rates, confirmDelete: url.searchParams.has("delete") };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  const id = idParam(params.id);
  const formData = await request.formData();
  if (formData.get("intent") === "delete") return deleteResource(context, api, GROUPS, id);
  return saveResource(context, api, formData, GROUPS, groupFormSchema, { id, nameOf: (v) => v.name });
}

const tagCountLabel = (n: number) => (n === 0 ? "Sin tarjetas" : n === 1 ? "1 tarjeta" : `${n} tarjetas`);

export default function EditGroup({ loaderData, actionData }: Route.ComponentProps) {
  const { group, stations, rates, confirmDelete } = loaderData;
  const here = useLocation().pathname;
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : undefined;
  const canWrite = useAccess().can("tag.write");
  return (
    <>
      <PageHeader
        title="Editar grupo"
        description={`${group.name} · ${tagCountLabel(group.tagCount)}`}
        actions={
          confirmDelete || !canWrite ? null : (
            <DeleteLink to={`${here}?delete=1`}>Eliminar grupo</DeleteLink>
          )
        }
      />
      {canWrite && (confirmDelete || deleteError) ? (
        <DeleteConfirm id={group.id} title={`¿Eliminar el grupo «${group.name}»?`} action={`${here}?delete=1`} cancelTo={here} error={deleteError}>
          No se puede deshacer.{group.tagCount > 0 ? ` Tiene ${tagCountLabel(group.tagCount).toLowerCase()}: pasalas a otro grupo antes de eliminarlo.` : null}
        </DeleteConfirm>
      ) : null}
      <GroupForm
        key={group.id}
        formId={`group-edit-${group.id}`}
        defaultValue={groupToValues(group)}
        stations={stations}
        rates={rates}
        currentRateName={group.rateName}
        lastResult={result}
        submitLabel="Guardar cambios"
        action={here}
        readOnly={!canWrite}
      />
    </>
  );
}
