// Rates (Tarifas) with penalties. Amounts are integer centavos; VAT in basis points.
// Pure: shared with the forms (which turn "1.234,56" into centavos with domain/money.ts).
import { z } from "zod";
import { DEFAULT_VAT_RATE_BP } from "#domain/pricing";
import { cents, hhmm, HHMM_MESSAGE, text } from "./common";
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

