import { PageHeader } from "~/components/Page";
import { RateForm } from "~/components/rate/RateForm";
import { previewClock, saveRate } from "./rate.server";
import { apiFor } from "~/lib/resource.server";
import { newRateValues } from "~/components/rate/form-values";
import { newFormToken } from "~/lib/form-token";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/new";

export const meta = pageMeta("Nueva tarifa");

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  return { formToken: newFormToken(), clock: await previewClock(api) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  return saveRate(context, api, await request.formData());
}

export default function NewRate({ loaderData, actionData }: Route.ComponentProps) {
  const { formToken, clock } = loaderData;
  return (
    <>
      <PageHeader title="Nueva tarifa" description="Definí cuánto cobrás por energía, tiempo y sesión, y las penalidades por inactividad y por reservas." />
      <RateForm formId="rate-new" defaultValue={newRateValues()} lastResult={actionData?.result} submitLabel="Crear tarifa" formToken={formToken} clock={clock} />
    </>
  );
}
