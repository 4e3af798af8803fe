// The forms of scheduled price changes and of "Actualizar precios": pesos typed es-AR style into
// centavos, "Vigente desde" as a datetime-local (Argentine time), then the API's own checks.
// A price left empty does not change. Pure and browser-safe.
import { z } from "zod";
import { parseArsInput } from "#domain/money";
import { SCHEDULE_MESSAGES } from "#contract/schemas/rate-schedule";
import { MONEY_MESSAGE } from "./form-values";

/** A money input: empty is "no change", otherwise es-AR pesos into centavos. */
const optionalMoney = z
  .string()
  .optional()
  .transform((value, ctx): number | undefined => {
    const text = value?.trim() ?? "";
    if (text === "") return undefined;
    const cents = parseArsInput(text);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message: MONEY_MESSAGE });
      return z.NEVER;
    }
    return cents;
  });

const effectiveFrom = z.string({ error: SCHEDULE_MESSAGES.effectiveFrom }).trim().min(1, { error: SCHEDULE_MESSAGES.effectiveFrom });

/** "Programar un cambio": when, and the prices that change. */
export const scheduleFormSchema = z
  .object({ effectiveFrom, pricePerKwhCents: optionalMoney, pricePerMinuteCents: optionalMoney, sessionFeeCents: optionalMoney })
  .superRefine((v, ctx) => {
    if (v.pricePerKwhCents === undefined && v.pricePerMinuteCents === undefined && v.sessionFeeCents === undefined) ctx.addIssue({ code: "custom", path: ["pricePerKwhCents"], message: SCHEDULE_MESSAGES.empty });
  })
  .transform((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as { effectiveFrom: string; pricePerKwhCents?: number; pricePerMinuteCents?: number; sessionFeeCents?: number });

/** "Actualizar precios": the rates, a percentage or a new price per kWh, and when. */
export const repriceFormSchema = z
  .object({
    rateIds: z.array(z.string(), { error: SCHEDULE_MESSAGES.rates }).min(1, { error: SCHEDULE_MESSAGES.rates }),
    percent: z
      .string()
      .optional()
      .transform((value, ctx): number | undefined => {
        const text = value?.trim().replace(/\s*%$/, "").replace(",", ".") ?? "";
        if (text === "") return undefined;
        const n = Number(text.replace("−", "-"));
        if (!Number.isFinite(n) || !/^[-−]?\d+(\.\d{1,2})?$/.test(text)) {
          ctx.addIssue({ code: "custom", message: SCHEDULE_MESSAGES.percent });
          return z.NEVER;
        }
        return n;
      }),
    pricePerKwhCents: optionalMoney,
    effectiveFrom,
  })
  .superRefine((v, ctx) => {
    if ((v.percent === undefined) === (v.pricePerKwhCents === undefined)) ctx.addIssue({ code: "custom", path: ["percent"], message: SCHEDULE_MESSAGES.how });
  });
