// The station form's schema (browser and server): the same rules as the API's
// stationInputSchema, shaped for an HTML form that works without JavaScript (opening hours as
// seven day rows with up to three periods each, coordinates typed with a comma or a dot).
import { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  ARGENTINA_TIME_ZONES,
  gridCapacityKw,
  LATITUDE_MESSAGE,
  LONGITUDE_MESSAGE,
  PARKING_TYPES,
  province,
  stationInputSchema,
  type StationInput,
} from "#contract/schemas/station";
import { HHMM_MESSAGE } from "#contract/schemas/common";
import { MSG } from "#contract/schemas/messages";
import type { OpeningHoursDto } from "#contract/dto";
import { DEFAULT_TIME_ZONE } from "#domain/time-zone";
import { parseCoordinate } from "~/lib/maps";
import { parsePesos, QR_MAX_CENTS_LIMIT } from "#domain/driver-payment";
import { HOURS_MESSAGES, MAX_PERIODS_PER_DAY, OPENING_MODES } from "./form-values";

// (Not re-exported here: this chunk loads lazily in the browser, and re-exporting the form's
// starting values from it would keep their code in the page's first load — the loaders compute them.)

const HHMM_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

const coordinate = (message: string, limit: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === "string" && v.trim() === "") ? undefined : parseCoordinate(v)),
    z
      .number({ error: (issue) => (issue.input === undefined ? MSG.required : "Ingresá un número, por ejemplo -34,6037.") })
      .min(-limit, { error: message })
      .max(limit, { error: message }),
  );

const periodRow = z.object({
  begin: z.string().trim().optional(),
  end: z.string().trim().optional(),
});

const dayRow = z.object({
  periods: z.array(periodRow).max(MAX_PERIODS_PER_DAY, { error: `Como máximo ${MAX_PERIODS_PER_DAY} franjas por día.` }).default([]),
});

/** 24/7 or per weekday; checked on its own so its errors show even while other fields fail. */
const hours = z
  .object({
    mode: z.enum(OPENING_MODES, { error: MSG.invalidOption }).default("ALWAYS"),
    days: z.array(dayRow).max(7).default([]),
  })
  .superRefine((h, ctx) => {
    if (h.mode !== "WEEKLY") return;
    let any = false;
    h.days.forEach((day, d) =>
      day.periods.forEach((p, i) => {
        if (!p.begin && !p.end) return;
        any = true;
        const path = ["days", d, "periods", i];
        if (!p.begin) ctx.addIssue({ code: "custom", path: [...path, "begin"], message: HOURS_MESSAGES.begin });
        else if (!HHMM_RE.test(p.begin)) ctx.addIssue({ code: "custom", path: [...path, "begin"], message: HHMM_MESSAGE });
        else if (!p.end) ctx.addIssue({ code: "custom", path: [...path, "end"], message: HOURS_MESSAGES.end });
        else if (!HHMM_RE.test(p.end)) ctx.addIssue({ code: "custom", path: [...path, "end"], message: HHMM_MESSAGE });
        else if (p.begin === p.end) ctx.addIssue({ code: "custom", path: [...path, "end"], message: HOURS_MESSAGES.same });
      }),
    );
    if (!any) ctx.addIssue({ code: "custom", path: ["mode"], message: HOURS_MESSAGES.none });
  });

export const QR_MESSAGES = {
  amount: "Ingresá un monto en pesos, por ejemplo 5000 o 5.000,50.",
  range: "Ingresá un monto entre $ 1 y $ 1.000.000.",
  order: "El máximo no puede ser menor que el mínimo.",
} as const;

/** Pesos typed in the form ("5000", "5.000", "5000,50") as centavos, between $ 1 and $ 1.000.000. */
const pesos = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === "string" && v.trim() === "") ? undefined : typeof v === "string" ? (parsePesos(v) ?? Number.NaN) : v),
  z
    .number({ error: (issue) => (issue.input === undefined ? MSG.required : QR_MESSAGES.amount) })
    .int({ error: QR_MESSAGES.amount })
    .min(100, { error: QR_MESSAGES.range })
    .max(QR_MAX_CENTS_LIMIT, { error: QR_MESSAGES.range }),
);

/** QR payment on/off and the prepay limits; checked on its own (as the hours). */
const qr = z
  .object({ enabled: z.boolean().default(false), min: pesos, max: pesos })
  .superRefine((q, ctx) => {
    if (q.max < q.min) ctx.addIssue({ code: "custom", path: ["max"], message: QR_MESSAGES.order });
  });

const api = stationInputSchema.shape;

export const stationFormSchema = z.object({
  name: api.name,
  address: api.address,
  city: api.city,
  province,
  postalCode: api.postalCode,
  latitude: coordinate(LATITUDE_MESSAGE, 90),
  longitude: coordinate(LONGITUDE_MESSAGE, 180),
  parkingType: z.enum(PARKING_TYPES, { error: MSG.invalidOption }).optional(),
  services: z.array(z.string().trim().min(1).max(40)).max(40, { error: MSG.maxItems(40) }).default([]),
  hours,
  timeZone: z.enum(ARGENTINA_TIME_ZONES, { error: MSG.invalidOption }).default(DEFAULT_TIME_ZONE),
  photoUrl: z.string().trim().max(2048, { error: MSG.tooLong(2048) }).optional(),
  published: z.boolean().default(false),
  authorizationPolicy: api.authorizationPolicy,
  /** kW with a comma or a dot; empty: no limit. */
  gridCapacityKw: z.preprocess((v) => {
    if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) return null;
    if (typeof v !== "string") return v;
    const t = v.trim();
    return Number(t.includes(",") ? t.replace(/\./g, "").replace(",", ".") : t);
  }, gridCapacityKw.nullable()),
  qr,
});

export type StationFormValue = z.output<typeof stationFormSchema>;

/** The API body (stationInputSchema) for a valid form. */
export function toStationInput(v: StationFormValue): StationInput {
  const periods: OpeningHoursDto["periods"] = [];
  if (v.hours.mode === "WEEKLY") {
    v.hours.days.forEach((day, d) =>
      day.periods.forEach((p) => {
        if (p.begin && p.end) periods.push({ weekday: d + 1, begin: p.begin, end: p.end });
      }),
    );
  }
  return {
    name: v.name,
    address: v.address,
    city: v.city,
    province: v.province,
    postalCode: v.postalCode ?? null,
    latitude: v.latitude,
    longitude: v.longitude,
    parkingType: v.parkingType ?? null,
    services: v.services,
    openingHours: v.hours.mode === "ALWAYS" ? { twentyFourSeven: true, periods: [] } : { twentyFourSeven: false, periods },
    timeZone: v.timeZone,
    photoUrl: v.photoUrl || null,
    published: v.published,
    authorizationPolicy: v.authorizationPolicy,
    gridCapacityKw: v.gridCapacityKw ?? null,
    qrPaymentEnabled: v.qr.enabled,
    qrMinCents: v.qr.min,
    qrMaxCents: v.qr.max,
  };
}

/** The API's names of the QR fields → the form's. */
const QR_API_FIELDS: Record<string, string> = { qrPaymentEnabled: "qr.enabled", qrMinCents: "qr.min", qrMaxCents: "qr.max" };

/**
 * The form's field for an API field error (`openingHours.periods` → the hours block, the QR
 * amounts → their inputs); undefined for a field the form does not have: a form error.
 */
export function stationApiField(key: string): string | undefined {
  if (key.startsWith("openingHours")) return "hours.mode";
  if (key in QR_API_FIELDS) return QR_API_FIELDS[key];
  return STATION_FORM_FIELDS.has(key.split(/[.[]/)[0]) ? key : undefined;
}

const STATION_FORM_FIELDS = new Set(Object.keys(stationFormSchema.shape));

/** The browser's validation of the form (loaded lazily by StationForm). */
export const validateStationForm = (formData: FormData) => parseWithZod(formData, { schema: stationFormSchema });
