// Rates (Tarifas) with penalties. Amounts are integer centavos; VAT in basis points.
// Pure: shared with the forms (which turn "1.234,56" into centavos with domain/money.ts).
import { z } from "zod";
import { DEFAULT_VAT_RATE_BP } from "#domain/pricing";
import { BAND_DAYS, bandProblems, MAX_BANDS, MAX_LOCAL_HOLIDAYS } from "#domain/tariff-bands";
import { cents, hhmm, HHMM_MESSAGE, text } from "./common";
import { MSG, numberError } from "./messages";

const minutes = (max: number) => z.number({ error: numberError }).int({ error: MSG.integer }).min(0, { error: "No puede ser negativo." }).max(max, { error: MSG.max(max) });

const HOUR = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const hour = (message: string) => z.string({ error: message }).trim().regex(HOUR, { error: message });

/** One time-of-use band: a day type, hours and its own prices per kWh and per minute. */
export const bandSchema = z.object({
  name: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), z.string({ error: MSG.invalid }).trim().max(30, { error: MSG.tooLong(30) }).nullable().default(null)),
  days: z.enum(BAND_DAYS, { error: "Elegí los días: lunes a viernes, sábados, o domingos y feriados." }),
  from: hour("Ingresá la hora de inicio como HH:MM (por ejemplo 18:00)."),
  to: hour("Ingresá la hora de fin como HH:MM (por ejemplo 23:00, o 24:00 para el fin del día)."),
  pricePerKwhCents: cents.default(0),
  pricePerMinuteCents: cents.default(0),
});

const LOCAL_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** A local holiday: a real calendar date 'YYYY-MM-DD'. */
export const localHoliday = z
  .string({ error: MSG.date })
  .trim()
  .regex(LOCAL_DATE, { error: "Ingresá el feriado como fecha (AAAA-MM-DD).", abort: true })
  .refine((v) => !Number.isNaN(Date.parse(`${v}T12:00:00Z`)) && new Date(`${v}T12:00:00Z`).toISOString().startsWith(v), { error: "Esa fecha no existe." });

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
  bands: z.array(bandSchema, { error: MSG.invalid }).max(MAX_BANDS, { error: `Hasta ${MAX_BANDS} franjas por tarifa.` }).default([]),
  localHolidays: z
    .array(localHoliday, { error: MSG.invalid })
    .max(MAX_LOCAL_HOLIDAYS, { error: `Hasta ${MAX_LOCAL_HOLIDAYS} feriados locales por tarifa.` })
    .transform((days) => [...new Set(days)].sort())
    .default([]),
});

function checkRate(rate: z.output<typeof rateFields>, ctx: z.RefinementCtx) {
  if ((rate.idleActiveFrom == null) !== (rate.idleActiveTo == null)) {
    const path = rate.idleActiveFrom == null ? "idleActiveFrom" : "idleActiveTo";
    ctx.addIssue({ code: "custom", path: [path], message: "Indicá el inicio y el fin del horario de la penalidad." });
  }
  if (rate.idleActiveFrom != null && rate.idleActiveFrom === rate.idleActiveTo) {
    ctx.addIssue({ code: "custom", path: ["idleActiveTo"], message: "El fin debe ser distinto del inicio (sin horario: dejá ambos vacíos)." });
  }
  for (const p of bandProblems(rate.bands)) ctx.addIssue({ code: "custom", path: ["bands", p.index, p.field], message: p.message });
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
    /** When charging began (ISO), for the bands; defaults to now. */
    startedAt: z.iso.datetime({ offset: true, error: MSG.date }).optional(),
  }),
});

export { HHMM_MESSAGE };

