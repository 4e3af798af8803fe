// Rates (Tarifas) with penalties. Amounts are integer centavos; VAT in basis points.
// Pure: shared with the forms (which turn "1.234,56" into centavos with domain/money.ts).
import { z } from "zod";
import { DEFAULT_VAT_RATE_BP } from "#domain/pricing";
import { cents, hhmm, HHMM_MESSAGE, isoDate, text } from "./common";
import { UUID_RE } from "./constants";
import { MSG, numberError } from "./messages";

const minutes = (max: number) => z.number({ error: numberError }).int({ error: MSG.integer }).min(0, { error: "No puede ser negativo." }).max(max, { error: MSG.max(max) });

export const rateFields = z.object({
  name: text(80),
  currency: z.literal("ARS", { error: "Por ahora solo se admiten pesos (ARS)." }).default("ARS"),
  pricePerKwhCents: cents.default(0),
  pricePerMinuteCents: cents.default(0),
  sessionFeeCents: cents.default(0),
  vatIncluded: z.boolean({ error: MSG.invalid }).default(true),
  vatRateBp: z.number({ error: numberError }).int({ error: MSG.integer }).min(0, { error: MSG.min(0) }).max(10_000, { error: MSG.max(10_000) }).default(DEFAULT_VAT_RATE_BP),
  idleGraceMinutes: minutes(1440).default(0),
  idlePricePerMinuteCents: cents.default(0),
  idleMaxCents: cents.nullable().default(null),
  idleActiveFrom: hhmm.nullable().default(null),
  idleActiveTo: hhmm.nullable().default(null),
  noShowFeeCents: cents.default(0),
});

function checkRate(rate: z.output<typeof rateFields>, ctx: z.RefinementCtx) {
  if ((rate.idleActiveFrom == null) !== (rate.idleActiveTo == null)) {
    const path = rate.idleActiveFrom == null ? "idleActiveFrom" : "idleActiveTo";
    ctx.addIssue({ code: "custom", path: [path], message: "Indicá el inicio y el fin del horario de la penalidad." });
  }
  if (rate.idleActiveFrom != null && rate.idleActiveFrom === rate.idleActiveTo) {
    ctx.addIssue({ code: "custom", path: ["idleActiveTo"], message: "El fin debe ser distinto del inicio (sin horario: dejá ambos vacíos)." });
  }
  if (rate.pricePerKwhCents + rate.pricePerMinuteCents + rate.sessionFeeCents === 0) {
    ctx.addIssue({ code: "custom", path: ["pricePerKwhCents"], message: "La tarifa necesita al menos un precio (por kWh, por minuto o por sesión)." });
  }
}

export const rateInputSchema = rateFields.superRefine(checkRate);
export type RateInput = z.input<typeof rateInputSchema>;

/** POST /Business/Fees/Preview: a rate (saved or not) and a usage to price. */
export const ratePreviewSchema = z.object({
  rate: rateInputSchema,
  usage: z.object({
    energyWh: z.number({ error: numberError }).min(0, { error: "No puede ser negativo." }).max(10_000_000, { error: MSG.max(10_000_000) }),
    chargingMinutes: z.number({ error: numberError }).min(0, { error: "No puede ser negativo." }).max(100_000, { error: MSG.max(100_000) }),
    idleMinutes: z.number({ error: numberError }).min(0, { error: "No puede ser negativo." }).max(100_000, { error: MSG.max(100_000) }).default(0),
    /** When idle time began (ISO); needed when the rate has idle active hours. Defaults to now. */
    idleStartedAt: z.iso.datetime({ offset: true, error: MSG.date }).optional(),
  }),
});

export { HHMM_MESSAGE };

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
