// Loader/action helpers of the rate screens: every call goes to the Business API
// (/Business/Fees) with the signed-in user's token.
import { idempotencyInit } from "~/lib/form-token";
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { createApiClient, readJson, type ApiProblem } from "~/lib/api.server";
import { dataWithError, redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { SessionUser } from "~/lib/session.server";
import { UUID_RE } from "#contract/schemas/constants";
import type { RateDto } from "#contract/dto";
import { rateFormSchema } from "~/components/rate/schema";
import { type RequestContext, appContext } from "~/lib/context";
import { doneMessage } from "~/lib/done-message";

export const UNAVAILABLE = "No pudimos comunicarnos con el servidor. Probá de nuevo en unos minutos.";
export const RATE_GONE = "La tarifa ya no existe.";

const RATE_FIELDS = new Set([
  "name",
  "pricePerKwhCents",
  "pricePerMinuteCents",
  "sessionFeeCents",
  "vatIncluded",
  "vatRateBp",
  "idleGraceMinutes",
  "idlePricePerMinuteCents",
  "idleMaxCents",
  "idleActiveFrom",
  "idleActiveTo",
  "noShowFeeCents",
]);

/**
 * The status of an answer that carries a toast. With JavaScript, React Router (single fetch) skips
 * revalidating loaders after a 4xx/5xx action, so the root loader would not read the toast's
 * flash cookie until some later navigation; such answers go out as 200 on data requests. A
 * document request (no JavaScript) keeps the real status: the toast travels in the same HTML.
 */
export function toastStatus(context: RequestContext, status: number): number {
  return appContext(context).isDataRequest ? 200 : status;
}

const notFound = () => new Response(null, { status: 404, statusText: "Not Found" });

/** The `:id` of a rate, or the 404 screen (an id that cannot exist is simply not found). */
export function rateIdParam(id: string | undefined): string {
  if (!id || !UUID_RE.test(id)) throw notFound();
  return id;
}

/** One rate of the caller's business; unknown or another business's → the 404 screen. */
export async function fetchRate(context: RequestContext, user: SessionUser, id: string): Promise<RateDto> {
  let response: Response;
  try {
    response = await createApiClient(context, user.idToken).get(`/Business/Fees/${encodeURIComponent(id)}`);
  } catch {
    throw new Response(UNAVAILABLE, { status: 503 });
  }
  if (response.status === 404 || response.status === 400) throw notFound();
  const rate = response.ok ? await readJson<RateDto>(response) : undefined;
  if (!rate) throw new Response(UNAVAILABLE, { status: 502 });
  return rate;
}

/** The empty schema of the "Calcular vista previa" submit: it keeps what was typed, never fails. */
const previewOnly = z.object({});

/**
 * The action of 'Nueva tarifa' and 'Editar tarifa':
 * - `intent=preview`: re-render with the values kept; the page prices them (no JavaScript needed);
 * - otherwise validate with the form schema and create/update through the API; its per-field
 *   errors land on the fields, anything else becomes a toast; nothing typed is lost.
 */
export async function saveRate(
  formData: FormData,
  context: RequestContext,
  user: SessionUser,
  target: { method: "post" | "put"; path: string; success: "created" | "saved" },
) {
  if (formData.get("intent") === "preview") {
    const submission = parseWithZod(formData, { schema: previewOnly });
    return data({ result: submission.reply(), intent: "preview" as const });
  }
  const submission = parseWithZod(formData, { schema: rateFormSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), intent: "save" as const }, { status: 400 });
  }

  let response: Response;
  try {
    const api = createApiClient(context, user.idToken);
    response = target.method === "post" ? await api.post(target.path, submission.value, idempotencyInit(formData)) : await api.put(target.path, submission.value);
  } catch {
    return dataWithError(context, { result: submission.reply({ formErrors: [UNAVAILABLE] }), intent: "save" as const }, UNAVAILABLE, { status: toastStatus(context, 503) });
  }
  if (response.ok) return redirectWithSuccess("/rate", doneMessage(target.success, "la tarifa", submission.value.name));
  if (response.status === 404) return redirectWithError("/rate", RATE_GONE);

  const problem = await readJson<ApiProblem>(response);
  const message = problem?.title || "No pudimos guardar la tarifa. Revisá los datos e intentá de nuevo.";
  const fieldErrors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(problem?.errors ?? {})) {
    if (RATE_FIELDS.has(field) && messages.length > 0) fieldErrors[field] = messages.slice(0, 1);
  }
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  const reply = submission.reply(hasFieldErrors ? { fieldErrors } : { formErrors: [message] });
  const status = response.status >= 500 ? 502 : response.status;
  return dataWithError(context, { result: reply, intent: "save" as const }, message, { status: toastStatus(context, status) });
}

/** Delete a rate: 204 → back to the list; 409 (in use) → the API's Spanish message as a toast. */
export async function deleteRate(context: RequestContext, user: SessionUser, id: string) {
  let response: Response;
  let name: string | undefined;
  try {
    const api = createApiClient(context, user.idToken);
    const path = `/Business/Fees/${encodeURIComponent(id)}`;
    // Its name, for the toast (a missing one only shortens the message).
    name = await api.get(path).then((r) => (r.ok ? readJson<RateDto>(r) : undefined)).then((r) => r?.name, () => undefined);
    response = await api.delete(path);
  } catch {
    return dataWithError(context, { deleteError: UNAVAILABLE }, UNAVAILABLE, { status: toastStatus(context, 503) });
  }
  if (response.ok) return redirectWithSuccess("/rate", doneMessage("deleted", "la tarifa", name));
  if (response.status === 404 || response.status === 400) return redirectWithError("/rate", RATE_GONE);
  const problem = await readJson<ApiProblem>(response);
  const message = problem?.title || "No pudimos eliminar la tarifa. Probá de nuevo en unos minutos.";
  return dataWithError(context, { deleteError: message }, message, { status: toastStatus(context, response.status >= 500 ? 502 : response.status) });
}
