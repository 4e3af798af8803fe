// Loader and action of the provider screen (/payment/payments/:provider, Mercado Pago or
// Pagos360): read the account status, connect (PUT, the API seals the credentials) and
// disconnect (DELETE). Credentials are never read back: the API answers only their last 4
// characters. Any other provider in the URL is the 404 screen.
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { endpoints } from "#contract/endpoints";
import type { PaymentAccountDto } from "#contract/dto";
import { mercadoPagoConnectSchema, pagos360ConnectSchema } from "#contract/schemas/payment";
import { createApiClient, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { requireMember, requireUser } from "~/lib/auth.server";
import { problemReply } from "~/lib/problem-reply";
import { publicOrigin } from "~/lib/qr.server";
import { notFound } from "~/lib/responses.server";
import { onlyFields } from "~/lib/resource.server";
import { dataWithError, redirectWithSuccess } from "~/lib/toast.server";
import { PROVIDER_LABELS, UNAVAILABLE } from "~/components/activity/labels";
import { PROVIDER_PATHS } from "~/components/payment/ProviderStatus";
import type { RequestContext } from "~/lib/context";

/** Each provider of the URL (`:provider`): its account's endpoints and the form's schema and fields. */
const PROVIDERS = {
  mercadoPago: {
    provider: "MERCADOPAGO",
    get: endpoints.mercadoPagoAccountGet,
    connect: endpoints.mercadoPagoAccountConnect,
    disconnect: endpoints.mercadoPagoAccountDisconnect,
    schema: mercadoPagoConnectSchema,
    fields: new Set(["publicKey", "accessToken", "accountLabel", "webhookSecret"]),
  },
  pagos360: {
    provider: "PAGOS360",
    get: endpoints.pagos360AccountGet,
    connect: endpoints.pagos360AccountConnect,
    disconnect: endpoints.pagos360AccountDisconnect,
    schema: pagos360ConnectSchema,
    fields: new Set(["apiKey", "accountName"]),
  },
} as const;

/** The provider a URL names (`mercadoPago`, `pagos360`), or the 404 screen. */
function entryOf(param: string | undefined) {
  const entry = Object.hasOwn(PROVIDERS, param ?? "") ? PROVIDERS[param as keyof typeof PROVIDERS] : undefined;
  return entry ?? notFound();
}

export async function providerLoader(param: string | undefined, request: Request, context: RequestContext) {
  const { user, business } = await requireMember(request, context);
  const entry = entryOf(param);
  const provider: PaymentAccountDto["provider"] = entry.provider;
  const result = await createApiClient(context, user.idToken).call(entry.get);
  const confirming = new URL(request.url).searchParams.get("confirm") === "disconnect";
  // Pagos360 notifies the webhook URL set in the account (its panel), not one per payment request:
  // the operator copies ours there. Mercado Pago gets it with each preference.
  const webhookUrl = provider === "PAGOS360" && business.businessId ? `${publicOrigin(request)}/api/Webhook/Pagos360/${business.businessId}` : null;
  return data({ provider, account: result.ok ? result.data : null, error: result.ok ? null : UNAVAILABLE, confirming, webhookUrl });
}

export async function providerAction(param: string | undefined, request: Request, context: RequestContext) {
  const user = await requireUser(request, context);
  const entry = entryOf(param);
  const api = createApiClient(context, user.idToken);
  const name = PROVIDER_LABELS[entry.provider];
  const formData = await request.formData();

  if (formData.get("intent") === "disconnect") {
    const result = await api.call(entry.disconnect);
    if (result.ok) return redirectWithSuccess(PROVIDER_PATHS[entry.provider], `Desconectamos tu cuenta de ${name}.`);
    if (result.problem.type === UNREACHABLE_PROBLEM && result.status === 503) {
      return dataWithError(context, { result: undefined }, `No pudimos desconectar ${name} en este momento. Probá de nuevo en unos minutos.`, { status: 503 });
    }
    return dataWithError(context, { result: undefined }, `No pudimos desconectar ${name}. Probá de nuevo.`, { status: result.status });
  }

  const submission = parseWithZod(formData, { schema: entry.schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  // The schema is the provider's own: its output is that provider's body.
  const result = await api.call(entry.connect as typeof endpoints.pagos360AccountConnect, { body: submission.value as never });
  if (result.ok) return redirectWithSuccess("/payment", `¡Listo! Conectamos tu cuenta de ${name}.`);
  const unreachable = result.problem.type === UNREACHABLE_PROBLEM && result.status === 503;
  const fallback = unreachable ? `No pudimos guardar las credenciales de ${name} en este momento. Probá de nuevo en unos minutos.` : `No pudimos conectar ${name}. Revisá los datos.`;
  const { reply, status, message } = problemReply(submission, onlyFields(result, entry.fields), { fallback, firstOnly: true });
  return dataWithError(context, { result: reply }, message, { status });
}
