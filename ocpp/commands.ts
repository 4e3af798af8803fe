// Commands the operator sends to a charger from the charger screen (OCPP 1.6 CS → CP calls):
// what the API accepts, how each becomes an OCPP call, and how the answer reads in Spanish.
import { z } from "zod";
import { COMMAND_LABELS, TRIGGERABLE_MESSAGES, type CommandName, type CommandResult } from "./command-labels";

export { COMMAND_LABELS, TRIGGERABLE_MESSAGES, type CommandName, type CommandOutcome, type CommandResult } from "./command-labels";

const connector = z.coerce.number({ error: "Elegí un conector" }).int("Elegí un conector").min(1, "Elegí un conector").max(99, "Elegí un conector");

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
]);

export type ChargerCommand = z.infer<typeof commandSchema>;


/** The OCPP call for a command; RemoteStopTransaction needs the open transaction's id. */
export function ocppCall(cmd: ChargerCommand, transactionId?: number): { method: string; params: Record<string, unknown> } {
  switch (cmd.command) {
    case "Reset":
      return { method: "Reset", params: { type: cmd.type } };
    case "RemoteStartTransaction":
      return { method: "RemoteStartTransaction", params: { connectorId: cmd.connectorId, idTag: cmd.idTag } };
    case "RemoteStopTransaction":
      return { method: "RemoteStopTransaction", params: { transactionId } };
    case "UnlockConnector":
      return { method: "UnlockConnector", params: { connectorId: cmd.connectorId } };
    case "ChangeAvailability":
      return { method: "ChangeAvailability", params: { connectorId: cmd.connectorId, type: cmd.type } };
    case "TriggerMessage":
      return { method: "TriggerMessage", params: cmd.connectorId === undefined ? { requestedMessage: cmd.requestedMessage } : { requestedMessage: cmd.requestedMessage, connectorId: cmd.connectorId } };
  }
}

const ACCEPTED_STATUSES = new Set(["Accepted", "Unlocked", "Scheduled"]);

/** The Spanish result of a charger's answer (`status` of the .conf). */
export function resultFromStatus(command: CommandName, status: string | undefined): CommandResult {
  const label = COMMAND_LABELS[command];
  if (status && ACCEPTED_STATUSES.has(status)) {
    const message =
      status === "Scheduled"
        ? `El cargador aceptó «${label}»; lo aplica al terminar la carga en curso.`
        : status === "Unlocked"
          ? "El cargador desbloqueó el conector."
          : `El cargador aceptó «${label}».`;
    return { command, outcome: "accepted", status, message };
  }
  const why =
    status === "UnlockFailed" ? "no pudo desbloquear el conector" : status === "NotSupported" ? "no admite esta acción" : status === "NotImplemented" ? "no implementa este mensaje" : "lo rechazó";
  return { command, outcome: "rejected", status, message: `El cargador ${why} («${label}»).` };
}

export function offlineResult(command: CommandName): CommandResult {
  return { command, outcome: "offline", message: `El cargador no está conectado: no se pudo enviar «${COMMAND_LABELS[command]}».` };
}

export function timeoutResult(command: CommandName): CommandResult {
  return { command, outcome: "timeout", message: `El cargador no respondió a tiempo a «${COMMAND_LABELS[command]}».` };
}

export function errorResult(command: CommandName, detail?: string): CommandResult {
  return { command, outcome: "error", message: `No se pudo completar «${COMMAND_LABELS[command]}»${detail ? `: ${detail}` : ""}. Probá de nuevo.` };
}

// The hand-written CommandName (./command-labels) must match the schema's discriminator.
type SameNames = [CommandName] extends [ChargerCommand["command"]] ? ([ChargerCommand["command"]] extends [CommandName] ? true : never) : never;
export const COMMAND_NAMES_MATCH: SameNames = true;
