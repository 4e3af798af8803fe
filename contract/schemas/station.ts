// Stations (OCPI Location). Pure: shared with the forms.
import { QR_MAX_CENTS_LIMIT } from "#domain/driver-payment";
import { z } from "zod";
import { PROVINCE_CODES, type ProvinceCode } from "#domain/provinces";
import { DEFAULT_TIME_ZONE } from "#domain/pricing";
import { AUTHORIZATION_POLICIES } from "#domain/authorization";
import { hhmm, optionalText, text } from "./common";
import { photoUrl } from "./business";
import { MSG, numberError } from "./messages";
import { ARGENTINA_TIME_ZONES, LATITUDE_MESSAGE, LONGITUDE_MESSAGE, PARKING_TYPES, WEEKDAY_LABELS } from "./constants";

export { ARGENTINA_TIME_ZONES, LATITUDE_MESSAGE, LONGITUDE_MESSAGE, PARKING_TYPE_LABELS, PARKING_TYPES, WEEKDAY_LABELS } from "./constants";

export const latitude = z
  .number({ error: numberError })
  .min(-90, { error: LATITUDE_MESSAGE })
  .max(90, { error: LATITUDE_MESSAGE });
export const longitude = z
  .number({ error: numberError })
  .min(-180, { error: LONGITUDE_MESSAGE })
  .max(180, { error: LONGITUDE_MESSAGE });

export const GRID_CAPACITY_MESSAGE = "Ingresá la capacidad en kW: un número mayor que 0 y hasta 100.000, o dejalo vacío.";
export const gridCapacityKw = z
  .number({ error: GRID_CAPACITY_MESSAGE })
  .gt(0, { error: GRID_CAPACITY_MESSAGE })
  .max(100_000, { error: GRID_CAPACITY_MESSAGE })
  .transform((v) => Math.round(v * 100) / 100);

export const province = z.enum(PROVINCE_CODES as unknown as [ProvinceCode, ...ProvinceCode[]], { error: "Elegí una provincia de la lista." });

const period = z
  .object({
    weekday: z.number({ error: numberError }).int({ error: MSG.integer }).min(1, { error: "Día inválido." }).max(7, { error: "Día inválido." }),
    begin: hhmm,
    end: hhmm,
  })
  .refine((p) => p.begin !== p.end, { error: "El horario de cierre debe ser distinto del de apertura.", path: ["end"] });

export const openingHours = z
  .object({
    twentyFourSeven: z.boolean({ error: MSG.invalid }),
    periods: z.array(period).max(21, { error: "Como máximo 3 franjas por día." }).default([]),
  })
  .superRefine((oh, ctx) => {
    if (!oh.twentyFourSeven && oh.periods.length === 0) {
      ctx.addIssue({ code: "custom", path: ["periods"], message: "Indicá al menos una franja horaria o marcá 24 horas." });
    }
    const perDay = new Map<number, number>();
    for (const p of oh.periods) perDay.set(p.weekday, (perDay.get(p.weekday) ?? 0) + 1);
    for (const [day, n] of perDay) {
      if (n > 3) ctx.addIssue({ code: "custom", path: ["periods"], message: `Como máximo 3 franjas el ${WEEKDAY_LABELS[day - 1]}.` });
    }
  })
  .transform((oh) => (oh.twentyFourSeven ? { twentyFourSeven: true, periods: [] } : oh));

const QR_AMOUNT_MESSAGE = "Ingresá un monto entre $ 1 y $ 1.000.000.";

export const stationInputSchema = z.object({
  name: text(120, 2),
  address: text(200, 3),
  city: text(120),
  province,
  postalCode: optionalText(10).refine((v) => v == null || /^([A-Z]\d{4}[A-Z]{3}|\d{4})$/i.test(v), {
    error: "Ingresá un código postal válido (1425 o C1425ABC).",
  }),
  latitude,
  longitude,
  parkingType: z.enum(PARKING_TYPES, { error: MSG.invalidOption }).nullable().default(null),
  /** Codes from GET /Business/Service. */
  services: z
    .array(z.string({ error: MSG.invalid }).trim().min(1).max(40), { error: MSG.invalid })
    .max(40, { error: MSG.maxItems(40) })
    .default([])
    .transform((codes) => [...new Set(codes)]),
  openingHours: openingHours.default({ twentyFourSeven: true, periods: [] }),
  timeZone: z.enum(ARGENTINA_TIME_ZONES, { error: MSG.invalidOption }).default(DEFAULT_TIME_ZONE),
  photoUrl: photoUrl.optional().default(null),
  published: z.boolean({ error: MSG.invalid }).default(false),
  /** OPEN (any tag) or KNOWN_TAGS (only the company's RFID tags). */
  authorizationPolicy: z.enum(AUTHORIZATION_POLICIES, { error: "Elegí quién puede cargar en la estación." }).default("OPEN"),
  /** The site's grid capacity in kW, shared by the connectors charging there; null: no limit. */
  gridCapacityKw: gridCapacityKw.nullable().default(null),
  // Drivers pay at the connectors' QR; absent on a PUT: left as they are.
  qrPaymentEnabled: z.boolean({ error: MSG.invalid }).optional(),
  qrMinCents: z.number({ error: QR_AMOUNT_MESSAGE }).int({ error: QR_AMOUNT_MESSAGE }).min(100, { error: QR_AMOUNT_MESSAGE }).max(QR_MAX_CENTS_LIMIT, { error: QR_AMOUNT_MESSAGE }).optional(),
  qrMaxCents: z.number({ error: QR_AMOUNT_MESSAGE }).int({ error: QR_AMOUNT_MESSAGE }).min(100, { error: QR_AMOUNT_MESSAGE }).max(QR_MAX_CENTS_LIMIT, { error: QR_AMOUNT_MESSAGE }).optional(),
}).superRefine((v, ctx) => {
  if (v.qrMinCents !== undefined && v.qrMaxCents !== undefined && v.qrMaxCents < v.qrMinCents) {
    ctx.addIssue({ code: "custom", path: ["qrMaxCents"], message: "El máximo no puede ser menor que el mínimo." });
  }
});
export type StationInput = z.input<typeof stationInputSchema>;
