import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/components/Page";
import { RateForm } from "~/components/rate/RateForm";
import { saveRate } from "~/components/rate/rate.server";
import { newRateValues } from "~/components/rate/form-values";
import { requireUser } from "~/lib/auth.server";
import { newFormToken } from "~/lib/form-token";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Nueva tarifa");

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return { formToken: newFormToken() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const formData = await request.formData();
  return saveRate(formData, context, user, { method: "post", path: "/Business/Fees", success: "Creaste la tarifa." });
}

export default function NewRate() {
  const actionData = useActionData<typeof action>();
  const { formToken } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title="Nueva tarifa" description="Definí cuánto cobrás por energía, tiempo y sesión, y las penalidades por inactividad y por reservas." />
      <RateForm formId="rate-new" defaultValue={newRateValues()} lastResult={actionData?.result} submitLabel="Crear tarifa" formToken={formToken} />
    </>
  );
}
