import { PageHeader } from "~/components/Page";
import { TagForm, tagToValues } from "~/components/tag/TagForm";
import { tagFormSchema } from "~/components/tag/schema";
import { TAGS } from "./tag.server";
import { apiFor, groupOptions, saveResource } from "~/lib/resource.server";
import { newFormToken } from "~/lib/form-token";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/new";

export const meta = pageMeta("Nueva tarjeta");

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  return { formToken: newFormToken(), groups: await groupOptions(api) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  return saveResource(context, api, await request.formData(), TAGS, tagFormSchema, { nameOf: (v) => v.idTag });
}

export default function NewTag({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Nueva tarjeta" description="Registrá una tarjeta RFID con su titular. Las estaciones que aceptan solo tarjetas registradas la van a reconocer." />
      <TagForm formId="tag-new" defaultValue={tagToValues()} groups={loaderData.groups} lastResult={actionData?.result} submitLabel="Crear tarjeta" formToken={loaderData.formToken} />
    </>
  );
}
