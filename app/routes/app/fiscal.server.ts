// Loader and action of 'Facturación' (/fiscal): the company's fiscal settings for ARCA. The
// certificate and key arrive as uploaded PEM files (multipart, works without JavaScript), are read
// as text here and sent to the API, which checks and seals them; they are never read back.
// "Probar conexión" is its own intent and shows each step's result.
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { endpoints } from "#contract/endpoints";
import type { FiscalTestDto } from "#contract/dto";
import { fiscalSettingsSchema, PEM_MAX_CHARS } from "#contract/schemas/fiscal";
import { createApiClient, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { problemReply } from "~/lib/problem-reply";
import { onlyFields } from "~/lib/resource.server";
import { dataWithError, dataWithSuccess, redirectWithSuccess } from "~/lib/toast.server";
import { UNAVAILABLE } from "~/components/activity/labels";
import type { RequestContext } from "~/lib/context";

const FIELDS = new Set(["taxCondition", "pointOfSale", "environment", "certificate", "privateKey"]);

export async function fiscalLoader(request: Request, context: RequestContext) {
  const user = await requireUser(request, context);
  const result = await createApiClient(context, user.idToken).call(endpoints.fiscalSettingsGet);
  return data({ settings: result.ok ? result.data : null, error: result.ok ? null : UNAVAILABLE });
}

/** An uploaded file's text (or a pasted value), "" when none was sent; a file too large is cut so the schema refuses it. */
async function fileText(value: FormDataEntryValue | null): Promise<string> {
  if (value === null) return "";
  if (typeof value === "string") return value;
  if (value.size === 0) return "";
  return (await value.slice(0, PEM_MAX_CHARS + 1).text()).toString();
}

export async function fiscalAction(request: Request, context: RequestContext) {
  const user = await requireUser(request, context);
  const api = createApiClient(context, user.idToken);
  const formData = await request.formData();

  if (formData.get("intent") === "test") {
    const result = await api.call(endpoints.fiscalSettingsTest);
    if (result.ok) {
      const test: FiscalTestDto = result.data;
      return test.ok ? dataWithSuccess(context, { result: undefined, test }, test.message) : dataWithError(context, { result: undefined, test }, test.message, { status: 200 });
    }
    const message = result.problem.type === UNREACHABLE_PROBLEM ? UNAVAILABLE : result.problem.title;
    return dataWithError(context, { result: undefined, test: null }, message, { status: result.status });
  }

  const form = new FormData();
  for (const key of ["taxCondition", "pointOfSale", "environment"]) form.set(key, String(formData.get(key) ?? ""));
  form.set("certificate", await fileText(formData.get("certificate")));
  form.set("privateKey", await fileText(formData.get("privateKey")));
  const submission = parseWithZod(form, { schema: fiscalSettingsSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["certificate", "privateKey"] }), test: null }, { status: 400 });
  const result = await api.call(endpoints.fiscalSettingsSave, { body: submission.value });
  if (result.ok) return redirectWithSuccess("/fiscal", "Guardamos la configuración de facturación electrónica.");
  const fallback = result.problem.type === UNREACHABLE_PROBLEM ? UNAVAILABLE : "No pudimos guardar la configuración. Revisá los datos.";
  const { reply, status, message } = problemReply(submission, onlyFields(result, FIELDS), { fallback, firstOnly: true, hideFields: ["certificate", "privateKey"] });
  return dataWithError(context, { result: reply, test: null }, message, { status });
}
