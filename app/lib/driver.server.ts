// The driver pages' calls to the Business API (issue 23): public, no token.
import { data, redirect } from "react-router";
import type { ChargePointInfo, PaymentView } from "#contract/dto";
import { createApiClient, readJson, type ApiProblem } from "~/lib/api.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { RequestContext } from "~/lib/context";
import { parsePesos } from "#domain/driver-payment";

export type { ChargePointInfo, PaymentView };

const UNAVAILABLE = "No pudimos mostrar el cargador en este momento. Probá de nuevo en unos minutos.";

export async function loadChargePoint(context: RequestContext, identity: string, connector: string) {
  const api = createApiClient(context, null);
  let res: Response;
  try {
    res = await api.get(`/Driver/Charge/${encodeURIComponent(identity)}/${encodeURIComponent(connector)}`);
  } catch {
    throw data({ message: UNAVAILABLE }, { status: 503 });
  }
  if (res.status === 404) throw data({ message: "No encontramos ese cargador." }, { status: 404 });
  if (!res.ok) throw data({ message: UNAVAILABLE }, { status: 503 });
  const info = (await readJson<ChargePointInfo>(res))!;
  // The "Pagar" form's one-time key: a double click or a resubmission is the same payment.
  const requestKey = crypto.randomUUID().replace(/-/g, "");
  return { info, requestKey };
}

export type CheckoutErrors = Partial<Record<"amount" | "email" | "acceptTerms" | "provider" | "form", string>>;

export async function checkoutAction(context: RequestContext, request: Request, identity: string, connector: string) {
  const form = await request.formData();
  const errors: CheckoutErrors = {};
  const preset = String(form.get("amount") ?? "");
  const custom = String(form.get("customAmount") ?? "").trim();
  const amountCents = custom ? parsePesos(custom) : /^\d{1,10}$/.test(preset) ? Number(preset) : null;
  if (amountCents === null) errors.amount = "Elegí un monto o escribí uno en pesos (por ejemplo 3500).";
  const email = String(form.get("email") ?? "").trim();
  const requestKey = String(form.get("requestKey") ?? "");
  const body = { amountCents, email, provider: String(form.get("provider") ?? ""), acceptTerms: form.get("acceptTerms") === "on", requestKey };
  const values = { amount: preset, customAmount: custom, email, acceptTerms: body.acceptTerms };
  if (errors.amount) return data({ errors, values }, { status: 400 });

  let res: Response;
  try {
    res = await createApiClient(context, null).post(`/Driver/Charge/${encodeURIComponent(identity)}/${encodeURIComponent(connector)}`, body);
  } catch {
    return data({ errors: { form: "No pudimos iniciar el pago en este momento. Probá de nuevo en unos minutos." } as CheckoutErrors, values }, { status: 503 });
  }
  if (res.ok) {
    const { checkoutUrl } = (await readJson<{ checkoutUrl: string }>(res))!;
    return redirect(checkoutUrl, 303);
  }
  const problem = await readJson<ApiProblem>(res);
  const fieldOf: Record<string, keyof CheckoutErrors> = { amountCents: "amount", email: "email", acceptTerms: "acceptTerms", provider: "provider" };
  for (const [field, messages] of Object.entries(problem?.errors ?? {})) {
    const key = fieldOf[field];
    if (key && messages?.[0]) errors[key] = messages[0];
  }
  if (Object.keys(errors).length === 0) errors.form = problem?.title ?? "No pudimos iniciar el pago. Probá de nuevo.";
  return data({ errors, values }, { status: res.status >= 500 ? 502 : res.status });
}

export async function loadPayment(context: RequestContext, id: string, token: string) {
  let res: Response;
  try {
    res = await createApiClient(context, null).get(`/Driver/Payment/${encodeURIComponent(id)}?t=${encodeURIComponent(token)}`);
  } catch {
    throw data({ message: UNAVAILABLE }, { status: 503 });
  }
  if (res.status === 404) throw data({ message: "No encontramos ese pago." }, { status: 404 });
  if (!res.ok) throw data({ message: UNAVAILABLE }, { status: 503 });
  return (await readJson<PaymentView>(res))!;
}

export async function stopAction(context: RequestContext, request: Request, id: string) {
  const form = await request.formData();
  const token = String(form.get("t") ?? "");
  const here = `/cargar/pago/${encodeURIComponent(id)}?t=${encodeURIComponent(token)}`;
  let res: Response;
  try {
    res = await createApiClient(context, null).post(`/Driver/Payment/${encodeURIComponent(id)}/Stop`, { token });
  } catch {
    return redirectWithError(here, "No pudimos comunicarnos con el cargador. Probá de nuevo.");
  }
  if (res.ok) return redirectWithSuccess(here, "Pedimos al cargador que detenga la carga.");
  const problem = await readJson<ApiProblem>(res);
  return redirectWithError(here, problem?.title ?? "No pudimos detener la carga. Probá de nuevo.");
}
