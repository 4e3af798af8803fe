// Loader/action helpers of the rate screens: a rate is one of the company's resources
// (app/lib/resource.server.ts); what is its own is the "Calcular vista previa" submit.
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { endpoints } from "#contract/endpoints";
import type { RateDto } from "#contract/dto";
import type { ApiClient } from "~/lib/api.server";
import type { RequestContext } from "~/lib/context";
import { saveResource, type Resource } from "~/lib/resource.server";
import { rateFormSchema } from "~/components/rate/schema";
import type { PreviewClock } from "~/components/rate/preview";
import { argentineHolidaysBetween } from "#domain/holidays.server";
import { localMoment, mergeHolidays } from "#domain/tariff-bands";
import { DEFAULT_TIME_ZONE } from "#domain/time-zone";

/**
 * Now and the holidays of the coming week, national and the company's own: the preview's "band in
 * force now" and next change. Without the company's list (the API did not answer) the preview
 * still shows the national ones rather than failing the screen.
 */
export async function previewClock(api: ApiClient, now = new Date()): Promise<PreviewClock> {
  const from = localMoment(now.getTime(), DEFAULT_TIME_ZONE).date;
  const to = localMoment(now.getTime() + 8 * 86_400_000, DEFAULT_TIME_ZONE).date;
  const company = await api.call(endpoints.companyHolidaysGet);
  const local = company.ok ? company.data.dates.filter((d) => d >= from && d <= to) : [];
  return { now: now.toISOString(), holidays: mergeHolidays(argentineHolidaysBetween(from, to), local) };
}

export const RATES: Resource<RateDto> = {
  get: endpoints.rateGet,
  create: endpoints.rateCreate,
  update: endpoints.rateUpdate,
  remove: endpoints.rateDelete,
  list: "/rate",
  item: "la tarifa",
  nameOf: (rate) => rate.name,
  gone: "La tarifa ya no existe.",
  saveFailed: "No pudimos guardar la tarifa. Revisá los datos e intentá de nuevo.",
  deleteFailed: "No pudimos eliminar la tarifa. Probá de nuevo en unos minutos.",
  fields: new Set([
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
    "bands",
    "localHolidays",
  ]),
};

/** The empty schema of the "Calcular vista previa" submit: it keeps what was typed, never fails. */
const previewOnly = z.object({});

/**
 * The action of 'Nueva tarifa' (no `id`) and 'Editar tarifa':
 * - `intent=preview`: re-render with the values kept; the page prices them (no JavaScript needed);
 * - otherwise validate with the form schema and create/update through the API.
 */
export async function saveRate(context: RequestContext, api: ApiClient, formData: FormData, id?: string) {
  if (formData.get("intent") === "preview") {
    const submission = parseWithZod(formData, { schema: previewOnly });
    return data({ result: submission.reply(), intent: "preview" as const });
  }
  return saveResource(context, api, formData, RATES, rateFormSchema, { id, nameOf: (v) => v.name, extra: { intent: "save" as const } });
}
