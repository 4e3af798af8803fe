// The rate (Tarifa) form: what people type (pesos as "1.234,56" or "1234.56", minutes, HH:MM)
// turned into the API's input (integer centavos), then checked by the API's own schema
// (api/schemas/rate.ts), so the browser, the action and the API apply the same rules and the
// same Spanish messages. Field names are the API's, so its per-field errors land on the right
// input. Pure and browser-safe.
import { z } from "zod";
import { formatArsInput, parseArsInput } from "../../../domain/money";
import { DEFAULT_VAT_RATE_BP } from "../../../domain/pricing";
import { rateFields, rateInputSchema } from "../../../api/schemas/rate";
import type { RateDto } from "../../../api/types";

export const MONEY_MESSAGE = "Ingresá un importe válido, por ejemplo 1.234,56.";
export const MONEY_HINT = "En pesos: 1.234,56 o 1234.56.";

/** A money input: empty is `empty` (0 or null), otherwise es-AR pesos into centavos. */
const money = <E extends 0 | null>(empty: E) =>
  z
    .string()
    .optional()
    .transform((value, ctx): number | E => {
      const text = value?.trim() ?? "";
      if (text === "") return empty;
      const cents = parseArsInput(text);
      if (cents === null) {
        ctx.addIssue({ code: "custom", message: MONEY_MESSAGE });
        return z.NEVER;
      }
      return cents;
    });

/** Empty time input → no window. */
const time = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : null));

/** The VAT rates an operator picks from (basis points); 21 % is the general rate. */
export const VAT_OPTIONS: { bp: number; label: string }[] = [
  { bp: 2100, label: "21 % (general)" },
  { bp: 1050, label: "10,5 % (reducida)" },
  { bp: 2700, label: "27 % (servicios a empresas)" },
  { bp: 0, label: "0 % (exento)" },
];

const rateFormInput = z.object({
  name: rateFields.shape.name,
  pricePerKwhCents: money(0),
  pricePerMinuteCents: money(0),
  sessionFeeCents: money(0),
  vatIncluded: z
    .enum(["true", "false"], { error: "Elegí si los precios incluyen IVA." })
    .transform((v) => v === "true"),
  vatRateBp: rateFields.shape.vatRateBp,
  idleGraceMinutes: rateFields.shape.idleGraceMinutes,
  idlePricePerMinuteCents: money(0),
  idleMaxCents: money(null),
  idleActiveFrom: time,
  idleActiveTo: time,
  noShowFeeCents: money(0),
});

export const rateFormSchema = rateFormInput
  // The API schema takes every key as optional (defaults); ours always yields them.
  .pipe(
    rateInputSchema as unknown as z.ZodType<
      z.output<typeof rateInputSchema>,
      z.output<typeof rateFormInput>
    >
  );

export type RateFormOutput = z.output<typeof rateFormSchema>;

/** What the preview scenario fields are called in the form (they are not part of the rate). */
export const SCENARIO = {
  minutes: "scenarioMinutes",
  kwh: "scenarioKwh",
  idleMinutes: "scenarioIdleMinutes",
  idleStart: "scenarioIdleStart",
} as const;

/** "Una sesión de 45 min, 30 kWh y 20 min de inactividad". */
export const DEFAULT_SCENARIO = {
  [SCENARIO.minutes]: "45",
  [SCENARIO.kwh]: "30",
  [SCENARIO.idleMinutes]: "20",
  [SCENARIO.idleStart]: "20:00",
};

export type RateFormValues = Record<string, string>;

/** The form's starting values for a new rate. */
export function newRateValues(): RateFormValues {
  return {
    name: "",
    pricePerKwhCents: "",
    pricePerMinuteCents: "",
    sessionFeeCents: "",
    vatIncluded: "true",
    vatRateBp: String(DEFAULT_VAT_RATE_BP),
    idleGraceMinutes: "",
    idlePricePerMinuteCents: "",
    idleMaxCents: "",
    idleActiveFrom: "",
    idleActiveTo: "",
    noShowFeeCents: "",
    ...DEFAULT_SCENARIO,
  };
}

const moneyText = (cents: number | null) =>
  cents === null ? "" : formatArsInput(cents);

/** The form's starting values for an existing rate (amounts as es-AR text, "1.234,56"). */
export function rateToValues(rate: RateDto): RateFormValues {
  return {
    name: rate.name,
    pricePerKwhCents: moneyText(rate.pricePerKwhCents),
    pricePerMinuteCents: moneyText(rate.pricePerMinuteCents),
    sessionFeeCents: moneyText(rate.sessionFeeCents),
    vatIncluded: String(rate.vatIncluded),
    vatRateBp: String(rate.vatRateBp),
    idleGraceMinutes: String(rate.idleGraceMinutes),
    idlePricePerMinuteCents: moneyText(rate.idlePricePerMinuteCents),
    idleMaxCents: moneyText(rate.idleMaxCents),
    idleActiveFrom: rate.idleActiveFrom ?? "",
    idleActiveTo: rate.idleActiveTo ?? "",
    noShowFeeCents: moneyText(rate.noShowFeeCents),
    ...DEFAULT_SCENARIO,
  };
}
