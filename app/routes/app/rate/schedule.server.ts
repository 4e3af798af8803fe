// Loader/action helpers of scheduled price changes (the rate's screen) and of "Actualizar
// precios" (several rates at once, with a preview of old → new before confirming).
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { endpoints } from "#contract/endpoints";
import type { RateRepriceDto, RateScheduleListDto } from "#contract/dto";
import { UUID_RE } from "#contract/schemas/constants";
import type { ApiClient } from "~/lib/api.server";
import type { RequestContext } from "~/lib/context";
import { problemReply } from "~/lib/problem-reply";
import { ensureLoaded, toastStatus, UNAVAILABLE } from "~/lib/resource.server";
import { dataWithError, redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { repriceFormSchema, scheduleFormSchema } from "~/components/rate/schedule-schema";
import { formatDateTime } from "~/components/charger/format";

const SCHEDULE_FIELDS = new Set(["effectiveFrom", "pricePerKwhCents", "pricePerMinuteCents", "sessionFeeCents"]);
const REPRICE_FIELDS = new Set(["effectiveFrom", "percent", "pricePerKwhCents", "rateIds"]);

export async function loadSchedule(api: ApiClient, id: string): Promise<RateScheduleListDto> {
  return ensureLoaded(await api.call(endpoints.rateScheduleList, { params: { id } }));
}

/** `intent=schedule`: program a change; `intent=unschedule`: cancel one. Both come back to the rate. */
export async function scheduleAction(context: RequestContext, api: ApiClient, formData: FormData, id: string, here: string) {
  if (formData.get("intent") === "unschedule") {
    const scheduleId = String(formData.get("scheduleId") ?? "");
    if (!UUID_RE.test(scheduleId)) return redirectWithError(here, "No encontramos ese cambio programado.");
    const result = await api.call(endpoints.rateScheduleDelete, { params: { id, scheduleId } });
    if (result.ok) return redirectWithSuccess(here, "Cancelamos el cambio programado.");
    return redirectWithError(here, result.status === 404 ? "El cambio ya no está programado (puede que ya rija)." : UNAVAILABLE);
  }
  const submission = parseWithZod(formData, { schema: scheduleFormSchema });
  if (submission.status !== "success") return data({ scheduleResult: submission.reply() }, { status: 400 });
  const result = await api.call(endpoints.rateScheduleCreate, { params: { id }, body: submission.value });
  if (result.ok) return redirectWithSuccess(here, `Programamos el cambio desde el ${formatDateTime(result.data.effectiveFrom)}.`);
  if (result.status === 404) return redirectWithError("/rate", "La tarifa ya no existe.");
  const { reply, status, message } = problemReply(submission, result, { fallback: "No pudimos programar el cambio. Probá de nuevo.", field: (f) => (SCHEDULE_FIELDS.has(f) ? f : undefined), firstOnly: true });
  return dataWithError(context, { scheduleResult: reply }, message, { status: toastStatus(context, status) });
}

/** `intent=preview`: old → new per rate, nothing saved; `intent=confirm`: schedule them. */
export async function repriceAction(context: RequestContext, api: ApiClient, formData: FormData) {
  const submission = parseWithZod(formData, { schema: repriceFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), preview: null }, { status: 400 });
  const preview = formData.get("intent") !== "confirm";
  const result = await api.call(endpoints.rateReprice, { body: { ...submission.value, preview } });
  if (!result.ok) {
    const { reply, status, message } = problemReply(submission, result, { fallback: "No pudimos calcular los nuevos precios. Probá de nuevo.", field: (f) => (REPRICE_FIELDS.has(f) ? f : f.startsWith("rateIds") ? "rateIds" : undefined), firstOnly: true });
    return dataWithError(context, { result: reply, preview: null as RateRepriceDto | null }, message, { status: toastStatus(context, status) });
  }
  if (!preview) {
    const n = result.data.items.filter((i) => i.scheduleId).length;
    return redirectWithSuccess("/rate", `Programamos nuevos precios en ${n} ${n === 1 ? "tarifa" : "tarifas"} desde el ${formatDateTime(result.data.effectiveFrom)}.`);
  }
  return data({ result: submission.reply(), preview: result.data as RateRepriceDto | null });
}
