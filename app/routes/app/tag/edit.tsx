import { useLocation } from "react-router";
import { PageHeader } from "~/components/Page";
import { DeleteConfirm, DeleteLink } from "~/components/DeleteConfirm";
import { TagForm, tagToValues } from "~/components/tag/TagForm";
import { tagFormSchema } from "~/components/tag/schema";
import { TAGS } from "./tag.server";
import { apiFor, deleteResource, groupOptions, idParam, loadOne, saveResource } from "~/lib/resource.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import type { Route } from "./+types/edit";

export const meta = pageMeta("Editar tarjeta");

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const [tag, groups] = await Promise.all([loadOne(api, TAGS, idParam(params.id)), groupOptions(api)]);
  return { tag, groups, confirmDelete: url.searchParams.has("delete") };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  const id = idParam(params.id);
  const formData = await request.formData();
  if (formData.get("intent") === "delete") return deleteResource(context, api, TAGS, id);
  return saveResource(context, api, formData, TAGS, tagFormSchema, { id, nameOf: (v) => v.idTag });
}

export default function EditTag({ loaderData, actionData }: Route.ComponentProps) {
  const { tag, groups, confirmDelete } = loaderData;
  const here = useLocation().pathname;
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : undefined;
  const canWrite = useAccess().can("tag.write");
  return (
    <>
      <PageHeader
        title="Editar tarjeta"
        description={`${tag.idTag} · ${tag.holderName}`}
        actions={
          confirmDelete || !canWrite ? null : (
            <DeleteLink to={`${here}?delete=1`}>Eliminar tarjeta</DeleteLink>
          )
        }
      />
      {canWrite && (confirmDelete || deleteError) ? (
        <DeleteConfirm id={tag.id} title={`¿Eliminar la tarjeta «${tag.idTag}»?`} action={`${here}?delete=1`} cancelTo={here} error={deleteError}>
          No se puede deshacer. Las cargas ya registradas con esta tarjeta se conservan.
        </DeleteConfirm>
      ) : null}
      <TagForm key={tag.id} formId={`tag-edit-${tag.id}`} defaultValue={tagToValues(tag)} groups={groups} lastResult={result} submitLabel="Guardar cambios" action={here} readOnly={!canWrite} />
    </>
  );
}
