import { useLocation } from "react-router";
import { PageHeader } from "~/components/Page";
import { DeleteConfirm, DeleteLink } from "~/components/DeleteConfirm";
import { GroupForm, groupToValues } from "~/components/tag/GroupForm";
import { groupFormSchema } from "~/components/tag/schema";
import { deleteResource, fetchOne, GROUPS, idParam, rateOptions, saveResource, stationOptions } from "../tag/tag.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import type { AccessGroupDto } from "#contract/dto";
import type { Route } from "./+types/edit";

export const meta = pageMeta("Editar grupo");

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const [group, stations, rates] = await Promise.all([fetchOne<AccessGroupDto>(context, user, GROUPS, idParam(params.id)), stationOptions(context, user), rateOptions(context, user)]);
  return { group, stations, rates, confirmDelete: url.searchParams.has("delete") };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const id = idParam(params.id);
  const formData = await request.formData();
  if (formData.get("intent") === "delete") return deleteResource(context, user, GROUPS, id);
  return saveResource(formData, context, user, GROUPS, groupFormSchema, { method: "put", path: `/Business/AccessGroup/${id}`, success: "saved", nameOf: (v) => v.name });
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
