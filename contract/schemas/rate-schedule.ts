// Scheduled rate changes and bulk repricing (ADR 0043): the API's input schemas, built from the
// rate's own fields. Its own module so the rate form's client bundle does not carry them.
import { z } from "zod";
import { cents, isoDate } from "./common";
import { UUID_RE } from "./constants";
import { MSG, numberError } from "./messages";
import { rateFields, rateInputSchema } from "./rate";

export const SCHEDULE_MESSAGES = {
  effectiveFrom: "Ingresá desde cuándo rige el cambio (fecha y hora).",
  past: "El cambio tiene que regir en el futuro.",
  tooFar: "El cambio puede programarse hasta un año adelante.",
  empty: "Indicá al menos un valor que cambie.",
  taken: "Ya hay un cambio programado para esa fecha y hora. Cancelalo o elegí otra.",
  rates: "Elegí al menos una tarifa.",
  how: "Indicá un porcentaje o un nuevo precio por kWh (uno de los dos).",
  full: "Una tarifa puede tener hasta 24 cambios programados. Cancelá alguno antes de programar otro.",
  percent: "Ingresá un porcentaje entre −100 y 1000, con hasta dos decimales.",
} as const;

/** The most pending changes a rate may have (bounds GET …/Schedule). */
export const SCHEDULE_MAX_PENDING = 24;

/** How far ahead a change may be scheduled. */
export const SCHEDULE_MAX_DAYS = 366;

/** "Vigente desde": ISO date-time; without an offset it is Argentine time (a datetime-local input). */
const effectiveFrom = z.string({ error: SCHEDULE_MESSAGES.effectiveFrom }).min(1, { error: SCHEDULE_MESSAGES.effectiveFrom, abort: true }).pipe(isoDate);

/**
 * Every field of a rate, optional and without its default: a scheduled change lists only what it
 * changes. Built from the rate's own fields, so a field added to a rate is schedulable as it is.
 */
const rateChangeFields = z.object(Object.fromEntries(Object.entries(rateFields.shape).map(([k, s]) => [k, (s instanceof z.ZodDefault ? (s.unwrap() as z.ZodType) : (s as z.ZodType)).optional()])) as { [K in keyof typeof rateFields.shape]: z.ZodOptional<z.ZodType<z.output<(typeof rateFields.shape)[K]>>> });

/** POST /Business/Fees/{id}/Schedule: `{ effectiveFrom, …any rate fields }`. */
export const rateScheduleSchema = rateChangeFields.extend({ effectiveFrom }).superRefine((v, ctx) => {
  if (!Object.keys(v).some((k) => k !== "effectiveFrom" && v[k as keyof typeof v] !== undefined)) ctx.addIssue({ code: "custom", path: ["pricePerKwhCents"], message: SCHEDULE_MESSAGES.empty });
});
export type RateScheduleInput = z.input<typeof rateScheduleSchema>;

/** A change laid over a rate must leave a valid rate (the same checks as saving it). */
export const rateAfterChangeSchema = rateInputSchema;

const rateId = z.string({ error: SCHEDULE_MESSAGES.rates }).regex(UUID_RE, { error: SCHEDULE_MESSAGES.rates }).transform((v) => v.toLowerCase());

/** POST /Business/Fees/Reprice: several rates by a percentage (or to a new price per kWh), from an instant. */
export const rateRepriceSchema = z
  .object({
    rateIds: z.array(rateId, { error: SCHEDULE_MESSAGES.rates }).min(1, { error: SCHEDULE_MESSAGES.rates }).max(100, { error: MSG.max(100) }),
    percent: z.number({ error: numberError }).min(-100, { error: SCHEDULE_MESSAGES.percent }).max(1000, { error: SCHEDULE_MESSAGES.percent }).refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { error: SCHEDULE_MESSAGES.percent }).optional(),
    pricePerKwhCents: cents.optional(),
    effectiveFrom,
    /** true: answer what would change, change nothing. */
    preview: z.boolean({ error: MSG.invalid }).default(false),
  })
  .superRefine((v, ctx) => {
    if ((v.percent === undefined) === (v.pricePerKwhCents === undefined)) ctx.addIssue({ code: "custom", path: ["percent"], message: SCHEDULE_MESSAGES.how });
  });
export type RateRepriceInput = z.input<typeof rateRepriceSchema>;
