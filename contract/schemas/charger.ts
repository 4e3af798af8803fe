// Chargers (OCPP charge points) with their connectors. Pure: shared with the forms.
import { z } from "zod";
import { id, optionalText, text } from "./common";
import { CONNECTOR_FORMATS, MAX_CONNECTORS, OCPP_IDENTITY_MESSAGE, OCPP_IDENTITY_RE, POWER_TYPES, PRICE_DISPLAY_MODES } from "./constants";
import { MSG, numberError } from "./messages";

export { CONNECTOR_FORMATS, CONNECTOR_FORMAT_LABELS, MAX_CONNECTORS, OCPP_IDENTITY_MESSAGE, OCPP_IDENTITY_RE, POWER_TYPES, POWER_TYPE_LABELS, PRICE_DISPLAY_LABELS, PRICE_DISPLAY_MODES } from "./constants";


export const ocppIdentity = z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true }).regex(OCPP_IDENTITY_RE, { error: OCPP_IDENTITY_MESSAGE });

export const connectorInputSchema = z.object({
  /** OCPP connectorId. */
  connectorId: z.number({ error: numberError }).int({ error: MSG.integer }).min(1, { error: MSG.min(1) }).max(99, { error: MSG.max(99) }),
  /** OCPI ConnectorType code from GET /Driver/ConnectorType. */
  standard: z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true }).max(40),
  format: z.enum(CONNECTOR_FORMATS, { error: MSG.invalidOption }),
  powerType: z.enum(POWER_TYPES, { error: MSG.invalidOption }),
  maxPowerKw: z
    .number({ error: MSG.number })
    .gt(0, { error: "La potencia debe ser mayor a 0." })
    .max(1000, { error: "La potencia máxima es 1000 kW." })
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { error: "Como máximo 2 decimales." }),
  rateId: id.nullable().default(null),
});

export const chargerInputSchema = z.object({
  name: text(80),
  stationId: id.nullable().default(null),
  brandId: z.number({ error: MSG.invalidOption }).int({ error: MSG.invalidOption }).positive({ error: MSG.invalidOption }).nullable().default(null),
  model: optionalText(80),
  serialNumber: optionalText(80),
  ocppIdentity,
  enabled: z.boolean({ error: MSG.invalid }).default(true),
  heartbeatInterval: z.number({ error: numberError }).int({ error: MSG.integer }).min(30, { error: MSG.min(30) }).max(86_400, { error: MSG.max(86_400) }).default(300),
  /** «Mostrar precio en el cargador» (PRICE_DISPLAY_MODES). */
  priceDisplay: z.enum(PRICE_DISPLAY_MODES, { error: MSG.invalidOption }).default("AUTO"),
  connectors: z
    .array(connectorInputSchema, { error: MSG.invalid })
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
export type ChargerInput = z.input<typeof chargerInputSchema>;

/** POST /Business/Charger/Assign: add chargers to a station ("Añadir cargador"). */
export const assignChargersSchema = z.object({
  stationId: id,
  chargerIds: z.array(id, { error: MSG.invalid }).min(1, { error: "Elegí al menos un cargador." }).max(100, { error: MSG.maxItems(100) }),
});
