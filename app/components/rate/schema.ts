// The rate (Tarifa) form: what people type (pesos as "1.234,56" or "1234.56", minutes, HH:MM)
// turned into the API's input (integer centavos), then checked by the API's own schema
// (contract/schemas/rate.ts), so the browser, the action and the API apply the same rules and the
// same Spanish messages. Field names are the API's, so its per-field errors land on the right
// input. Pure and browser-safe.
import { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseArsInput } from "#domain/money";
import { rateFields, rateInputSchema } from "#contract/schemas/rate";
import { MONEY_MESSAGE } from "./form-values";

export { DEFAULT_SCENARIO, MONEY_HINT, MONEY_MESSAGE, newRateValues, rateToValues, SCENARIO, VAT_OPTIONS, type RateFormValues } from "./form-values";

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

/** A band row; a row left blank is an error on its hours (its "Quitar" removes it), so errors keep their row. */
const bandRow = z.object({
  name: z.string().optional(),
  days: z.string().optional(),
  from: z.string().optional().transform((v) => v?.trim() ?? ""),
  to: z.string().optional().transform((v) => v?.trim() ?? ""),
  pricePerKwhCents: money(0),
  pricePerMinuteCents: money(0),
});

const bandRows = z
  .array(bandRow)
  .optional()
  .transform((rows) => rows ?? []);

/** Local holidays typed as 'DD/MM/AAAA' (or 'AAAA-MM-DD'), separated by commas or spaces; errors on the one field. */
const holidayList = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const days = (text ?? "")
      .split(/[\s,;]+/)
      .filter(Boolean)
      .map((d) => d.replace(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, (_m, dd: string, mm: string, yyyy: string) => `${yyyy}-${mm.padStart(2, "0")}-${dd.padStart(2, "0")}`));
    const wrong = days.find((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(`${d}T12:00:00Z`)) || !new Date(`${d}T12:00:00Z`).toISOString().startsWith(d));
    if (wrong) {
      ctx.addIssue({ code: "custom", message: `«${wrong}» no es una fecha válida: usá DD/MM/AAAA, por ejemplo 15/03/2027.` });
      return z.NEVER;
    }
    return days;
  });

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
  bands: bandRows,
  localHolidays: holidayList,
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

const previewOnly = z.object({});

/** The browser's validation of the form (loaded lazily by RateForm): the preview intent checks nothing. */
export const validateRateForm = (formData: FormData) =>
  parseWithZod(formData, { schema: formData.get("intent") === "preview" ? previewOnly : rateFormSchema });
