// What the API accepts as a charger command (POST /Business/Charger/:id/Command): the contract
// the screen's form and the handler share. How each becomes an OCPP call lives in ocpp/commands.ts.
import { z } from "zod";
import { TRIGGERABLE_MESSAGES, type IntervalSetting } from "./command-labels";

const connector = z.coerce.number({ error: "Elegí un conector" }).int("Elegí un conector").min(1, "Elegí un conector").max(99, "Elegí un conector");

/** Seconds each interval may take (0 samples: no periodic meter values during a charge). */
export const INTERVAL_LIMITS: Record<IntervalSetting, { min: number; max: number; message: string }> = {
  heartbeatInterval: { min: 30, max: 86_400, message: "Ingresá un número entero de segundos entre 30 y 86.400." },
  meterValueSampleInterval: { min: 0, max: 3_600, message: "Ingresá un número entero de segundos entre 0 (sin mediciones periódicas) y 3.600." },
};

/** Seconds of one interval, with the field's Spanish message for anything out of its range. */
const seconds = (setting: IntervalSetting) => {
  const { min, max, message } = INTERVAL_LIMITS[setting];
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message).optional();
};

export const NO_INTERVAL_MESSAGE = "Ingresá al menos uno de los dos intervalos.";

export const commandSchema = z.discriminatedUnion("command", [
  z.object({ command: z.literal("Reset"), type: z.enum(["Soft", "Hard"], { error: "Elegí el tipo de reinicio" }) }),
  z.object({
    command: z.literal("RemoteStartTransaction"),
    connectorId: connector,
    idTag: z
      .string({ error: "Ingresá la identificación (idTag)" })
      .trim()
      .min(1, "Ingresá la identificación (idTag)")
      .max(20, "La identificación puede tener hasta 20 caracteres"),
  }),
  z.object({ command: z.literal("RemoteStopTransaction"), connectorId: connector }),
  z.object({ command: z.literal("UnlockConnector"), connectorId: connector }),
  z.object({
    command: z.literal("ChangeAvailability"),
    connectorId: z.coerce.number().int().min(0).max(99),
    type: z.enum(["Operative", "Inoperative"], { error: "Elegí la disponibilidad" }),
  }),
  z.object({
    command: z.literal("TriggerMessage"),
    requestedMessage: z.enum(TRIGGERABLE_MESSAGES, { error: "Elegí el mensaje" }),
    connectorId: connector.optional(),
  }),
  // OCPP 2.0.1: the whole device model (FullInventory), sent back in NotifyReport parts.
  z.object({ command: z.literal("GetBaseReport") }),
  // The heartbeat and meter sample intervals: read them, or set one or both.
  z.object({ command: z.literal("GetConfiguration") }),
  z
    .object({ command: z.literal("ChangeConfiguration"), heartbeatInterval: seconds("heartbeatInterval"), meterValueSampleInterval: seconds("meterValueSampleInterval") })
    .refine((v) => v.heartbeatInterval !== undefined || v.meterValueSampleInterval !== undefined, { message: NO_INTERVAL_MESSAGE, path: ["heartbeatInterval"] }),
]);

export type ChargerCommand = z.infer<typeof commandSchema>;
