// Loader and action of the provider forms (Mercado Pago, Pagos360): read the account status,
// connect (PUT, the API seals the credentials) and disconnect (DELETE). Credentials are never
// read back: the API answers only their last 4 characters.
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { PaymentAccountDto } from "#contract/dto";
import { createApiClient, readJson, type ApiProblem, fetchJson } from "~/lib/api.server";
import { requireMember, requireUser } from "~/lib/auth.server";
import { publicOrigin } from "~/lib/qr.server";
import { dataWithError, redirectWithSuccess } from "~/lib/toast.server";
import { PROVIDER_LABELS, UNAVAILABLE } from "~/components/activity/labels";
import { PROVIDER_PATHS } from "~/components/payment/ProviderStatus";
import { type RequestContext } from "~/lib/context";

export const API_PATHS: Record<PaymentAccountDto["provider"], string> = {
  MERCADOPAGO: "/MercadoPago/BusinessUser",
  PAGOS360: "/Pagos360/BusinessUser",
};

export async function providerLoader(provider: PaymentAccountDto["provider"], request: Request, context: RequestContext) {
  const { user, business } = await requireMember(request, context);
  const res = await fetchJson<PaymentAccountDto>(createApiClient(context, user.idToken), API_PATHS[provider]);
  const confirming = new URL(request.url).searchParams.get("confirm") === "disconnect";
  // Pagos360 notifies the webhook URL set in the account (its panel), not one per payment request:
  // the operator copies ours there (issue 23). Mercado Pago gets it with each preference.
  const webhookUrl = provider === "PAGOS360" && business.businessId ? `${publicOrigin(request)}/api/Webhook/Pagos360/${business.businessId}` : null;
  return data({ account: res.ok ? res.data : null, error: res.ok ? null : UNAVAILABLE, confirming, webhookUrl });
}

export async function providerAction<S extends z.ZodType>(
  provider: PaymentAccountDto["provider"],
  schema: S,
  fields: readonly string[],
  request: Request,
  context: RequestContext,
) {
  const user = await requireUser(request, context);
  const api = createApiClient(context, user.idToken);
  const name = PROVIDER_LABELS[provider];
  const formData = await request.formData();

  if (formData.get("intent") === "disconnect") {
    let response: Response;
    try {
      response = await api.delete(API_PATHS[provider]);
    } catch {
      return dataWithError(context, { result: undefined }, `No pudimos desconectar ${name} en este momento. Probá de nuevo en unos minutos.`, { status: 503 });
    }
    if (!response.ok) return dataWithError(context, { result: undefined }, `No pudimos desconectar ${name}. Probá de nuevo.`, { status: response.status });
    return redirectWithSuccess(PROVIDER_PATHS[provider], `Desconectamos tu cuenta de ${name}.`);
  }

  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });

  let response: Response;
  try {
    response = await api.put(API_PATHS[provider], submission.value);
  } catch {
    const message = `No pudimos guardar las credenciales de ${name} en este momento. Probá de nuevo en unos minutos.`;
    return dataWithError(context, { result: submission.reply({ formErrors: [message] }) }, message, { status: 503 });
  }
  if (!response.ok) {
    const problem = await readJson<ApiProblem>(response);
    const fieldErrors: Record<string, string[]> = {};
    for (const [field, errors] of Object.entries(problem?.errors ?? {})) {
      if (fields.includes(field) && errors?.[0]) fieldErrors[field] = [errors[0]];
    }
    const title = problem?.title || `No pudimos conectar ${name}. Revisá los datos.`;
    const reply = Object.keys(fieldErrors).length ? submission.reply({ fieldErrors }) : submission.reply({ formErrors: [title] });
    return dataWithError(context, { result: reply }, title, { status: response.status >= 500 ? 502 : response.status });
  }
  return redirectWithSuccess("/payment", `¡Listo! Conectamos tu cuenta de ${name}.`);
}
