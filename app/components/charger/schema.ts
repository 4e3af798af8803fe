// The charger form: the API's own input schema (contract/schemas/charger.ts) minus `enabled`, which
// the form does not edit (the edit action keeps the stored value). Pure: browser and server.
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { chargerInputSchema, connectorInputSchema, MAX_CONNECTORS } from "#contract/schemas/charger";
import { MSG, numberError, spanishErrorMap } from "#contract/schemas/messages";

export { chargerFormValue, newConnector, ocppUrlFor, type ChargerFormValue, type ConnectorFormValue } from "./form-values";

// An empty power says "obligatorio" first (the API schema answers "Ingresá un número." for both).
const connectorFormSchema = connectorInputSchema.extend({
  maxPowerKw: z.number({ error: numberError }).pipe(connectorInputSchema.shape.maxPowerKw),
});

export const chargerFormSchema = chargerInputSchema.omit({ enabled: true }).extend({
  connectors: z
    .array(connectorFormSchema, { error: MSG.invalid })
    .min(1, { error: "Agregá al menos un conector." })
    .max(MAX_CONNECTORS, { error: `Como máximo ${MAX_CONNECTORS} conectores.` })
    .superRefine((list, ctx) => {
      const seen = new Set<number>();
      list.forEach((c, i) => {
        if (seen.has(c.connectorId)) ctx.addIssue({ code: "custom", path: [i, "connectorId"], message: "Ese número de conector está repetido." });
        seen.add(c.connectorId);
      });
    }),
});

/** Operators type "7,4": the decimal comma becomes a dot before parsing. */
export function normalizeDecimals(formData: FormData): FormData {
  const out = new FormData();
  for (const [name, value] of formData.entries()) {
    out.append(name, typeof value === "string" && /\.maxPowerKw$/.test(name) ? value.trim().replace(",", ".") : value);
  }
  return out;
}

export function parseChargerForm(formData: FormData) {
  return parseWithZod(normalizeDecimals(formData), { schema: chargerFormSchema, error: spanishErrorMap });
}
