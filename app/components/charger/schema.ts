// The charger form: the API's own input schema (api/schemas/charger.ts) minus `enabled`, which
// the form does not edit (the edit action keeps the stored value). Pure: browser and server.
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { chargerInputSchema, connectorInputSchema, MAX_CONNECTORS } from "../../../api/schemas/charger";
import { MSG, numberError, spanishErrorMap } from "../../../api/schemas/messages";
import type { ChargerDto, ConnectorFormat, PowerType } from "../../../api/types";

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

export type ConnectorFormValue = {
  connectorId?: string;
  standard?: string;
  format?: ConnectorFormat;
  powerType?: PowerType;
  maxPowerKw?: string;
  rateId?: string;
};

export type ChargerFormValue = {
  name?: string;
  stationId?: string;
  brandId?: string;
  model?: string;
  serialNumber?: string;
  ocppIdentity?: string;
  heartbeatInterval?: string;
  connectors: ConnectorFormValue[];
};

/** A new connector row: the next free number, a socket on three-phase AC. */
export function newConnector(existing: { connectorId?: unknown }[]): ConnectorFormValue {
  const used = existing.map((k) => Number(k.connectorId)).filter((n) => Number.isInteger(n) && n > 0);
  const next = used.length ? Math.min(99, Math.max(...used) + 1) : 1;
  return { connectorId: String(next), standard: "", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: "", rateId: "" };
}

/** The form's starting values for an existing charger. */
export function chargerFormValue(c: ChargerDto): ChargerFormValue {
  return {
    name: c.name,
    stationId: c.stationId ?? "",
    brandId: c.brandId != null ? String(c.brandId) : "",
    model: c.model ?? "",
    serialNumber: c.serialNumber ?? "",
    ocppIdentity: c.ocppIdentity,
    heartbeatInterval: String(c.heartbeatInterval),
    connectors: c.connectors.map((k) => ({
      connectorId: String(k.connectorId),
      standard: k.standard,
      format: k.format,
      powerType: k.powerType,
      maxPowerKw: String(k.maxPowerKw),
      rateId: k.rateId ?? "",
    })),
  };
}

/** `ws(s)://host/ocpp/` + identity, the way the API builds it. */
export function ocppUrlFor(base: string, identity: string): string {
  return `${base}${encodeURIComponent(identity)}`;
}
