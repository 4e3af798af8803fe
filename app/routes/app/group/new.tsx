import { PageHeader } from "~/components/Page";
import { GroupForm, groupToValues } from "~/components/tag/GroupForm";
import { groupFormSchema } from "~/components/tag/schema";
import { GROUPS } from "./group.server";
import { apiFor, rateOptions, saveResource, stationOptions } from "~/lib/resource.server";
import { newFormToken } from "~/lib/form-token";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/new";

export const meta = pageMeta("Nuevo grupo");

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const [stations, rates] = await Promise.all([stationOptions(api), rateOptions(api)]);
  return { formToken: newFormToken(), stations, rates };
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  return saveResource(context, api, await request.formData(), GROUPS, groupFormSchema, { nameOf: (v) => v.name });
}

export default function NewGroup({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Nuevo grupo" description="Un grupo reúne tarjetas que cargan en las mismas estaciones y, si querés, con su propia tarifa." />
      <GroupForm
        formId="group-new"
        defaultValue={groupToValues()}
        stations={loaderData.stations}
        rates={loaderData.rates}
        currentRateName={null}
        lastResult={actionData?.result}
        submitLabel="Crear grupo"
        formToken={loaderData.formToken}
      />
    </>
  );
}
