// The driver pages' calls to the Business API: public, no token.
import { data, redirect } from "react-router";
import type { ChargePointInfo, PaymentView } from "#contract/dto";
import { endpoints } from "#contract/endpoints";
import type { DriverCheckoutInput } from "#contract/schemas/driver";
import { createApiClient, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { RequestContext } from "~/lib/context";
import { parsePesos } from "#domain/driver-payment";
import { notFound, unavailable } from "~/lib/responses.server";

export type { ChargePointInfo, PaymentView };

const UNAVAILABLE = "No pudimos mostrar el cargador en este momento. Probá de nuevo en unos minutos.";

export async function loadChargePoint(context: RequestContext, identity: string, connector: string) {
  const result = await createApiClient(context, null).call(endpoints.driverChargeGet, { params: { identity, connector } });
  if (!result.ok && result.status === 404) notFound("No encontramos ese cargador.");
  if (!result.ok) unavailable(UNAVAILABLE);
  const info = result.data;
  // The "Pagar" form's one-time key: a double click or a resubmission is the same payment.
  const requestKey = crypto.randomUUID().replace(/-/g, "");
  return { info, requestKey };
}

export type CheckoutErrors = Partial<Record<"amount" | "email" | "acceptTerms" | "provider" | "buyerCuit" | "buyerName" | "form", string>>;

export async function checkoutAction(context: RequestContext, request: Request, identity: string, connector: string) {
  const form = await request.formData();
  const errors: CheckoutErrors = {};
  const preset = String(form.get("amount") ?? "");
  const custom = String(form.get("customAmount") ?? "").trim();
  const amountCents = custom ? parsePesos(custom) : /^\d{1,10}$/.test(preset) ? Number(preset) : null;
  if (amountCents === null) errors.amount = "Elegí un monto o escribí uno en pesos (por ejemplo 3500).";
  const email = String(form.get("email") ?? "").trim();
  const requestKey = String(form.get("requestKey") ?? "");
  // Optional: a company's CUIT and name for a Factura A (the API checks the CUIT's check digit).
  const buyerCuit = String(form.get("buyerCuit") ?? "").trim().slice(0, 20);
  const buyerName = String(form.get("buyerName") ?? "").trim().slice(0, 200);
  const body = { amountCents, email, provider: String(form.get("provider") ?? ""), acceptTerms: form.get("acceptTerms") === "on", requestKey, ...(buyerCuit ? { buyerCuit, buyerName } : {}) };
  const values = { amount: preset, customAmount: custom, email, acceptTerms: body.acceptTerms, buyerCuit, buyerName };
  if (errors.amount) return data({ errors, values }, { status: 400 });

  const result = await createApiClient(context, null).call(endpoints.driverChargeCreate, { params: { identity, connector }, body: body as DriverCheckoutInput });
  if (result.ok) return redirect(result.data.checkoutUrl, 303);
  if (result.problem.type === UNREACHABLE_PROBLEM && result.status === 503) {
    return data({ errors: { form: "No pudimos iniciar el pago en este momento. Probá de nuevo en unos minutos." } as CheckoutErrors, values }, { status: 503 });
  }
  // The API's field names as the form's: only the first message of each is shown.
  const fieldOf: Record<string, keyof CheckoutErrors> = { amountCents: "amount", email: "email", acceptTerms: "acceptTerms", provider: "provider", buyerCuit: "buyerCuit", buyerName: "buyerName" };
  for (const [field, messages] of Object.entries(result.problem.errors ?? {})) {
    const key = fieldOf[field];
    if (key && messages?.[0]) errors[key] = messages[0];
  }
  if (Object.keys(errors).length === 0) errors.form = result.problem.title || "No pudimos iniciar el pago. Probá de nuevo.";
  return data({ errors, values }, { status: result.status >= 500 ? 502 : result.status });
}

export async function loadPayment(context: RequestContext, id: string, token: string) {
  const result = await createApiClient(context, null).call(endpoints.driverPaymentGet, { params: { id }, query: { t: token } });
  if (!result.ok && result.status === 404) notFound("No encontramos ese pago.");
  if (!result.ok) unavailable(UNAVAILABLE);
  return result.data;
}

export async function stopAction(context: RequestContext, request: Request, id: string) {
  const form = await request.formData();
  const token = String(form.get("t") ?? "");
  const here = `/cargar/pago/${encodeURIComponent(id)}?t=${encodeURIComponent(token)}`;
  const result = await createApiClient(context, null).call(endpoints.driverPaymentStop, { params: { id }, body: { token } });
  if (result.ok) return redirectWithSuccess(here, "Pedimos al cargador que detenga la carga.");
  if (result.problem.type === UNREACHABLE_PROBLEM) return redirectWithError(here, "No pudimos comunicarnos con el cargador. Probá de nuevo.");
  return redirectWithError(here, result.problem.title || "No pudimos detener la carga. Probá de nuevo.");
}
