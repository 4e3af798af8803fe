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


/** The subprotocol of the charger a command goes to. */
export type CommandProtocol = "ocpp1.6" | "ocpp2.0.1";

/** The open transaction a stop needs: our number for 1.6, the charger's own id for 2.0.1. */
export interface OpenTransaction {
  transactionId: number;
  ocppTransactionId: string | null;
}

/**
 * The OCPP call for a command, in the charger's protocol. 2.0.1 addresses EVSEs: the screen's
 * connector number is the EVSE id (ocpp/store201.ts), on its first connector.
 */
export function ocppCall(cmd: ChargerCommand, protocol: CommandProtocol = "ocpp1.6", open?: OpenTransaction): { method: string; params: Record<string, unknown> } {
  if (protocol === "ocpp2.0.1") return ocppCall201(cmd, open);
  switch (cmd.command) {
    case "Reset":
      return { method: "Reset", params: { type: cmd.type } };
    case "RemoteStartTransaction":
      return { method: "RemoteStartTransaction", params: { connectorId: cmd.connectorId, idTag: cmd.idTag } };
    case "RemoteStopTransaction":
      return { method: "RemoteStopTransaction", params: { transactionId: open?.transactionId } };
    case "UnlockConnector":
      return { method: "UnlockConnector", params: { connectorId: cmd.connectorId } };
    case "ChangeAvailability":
      return { method: "ChangeAvailability", params: { connectorId: cmd.connectorId, type: cmd.type } };
    case "TriggerMessage":
      return { method: "TriggerMessage", params: cmd.connectorId === undefined ? { requestedMessage: cmd.requestedMessage } : { requestedMessage: cmd.requestedMessage, connectorId: cmd.connectorId } };
  }
}

/** 2.0.1 has LogStatusNotification where 1.6 had DiagnosticsStatusNotification. */
const TRIGGER_201: Record<(typeof TRIGGERABLE_MESSAGES)[number], string> = {
  BootNotification: "BootNotification",
  Heartbeat: "Heartbeat",
  StatusNotification: "StatusNotification",
  MeterValues: "MeterValues",
  DiagnosticsStatusNotification: "LogStatusNotification",
  FirmwareStatusNotification: "FirmwareStatusNotification",
};

function ocppCall201(cmd: ChargerCommand, open?: OpenTransaction): { method: string; params: Record<string, unknown> } {
  switch (cmd.command) {
    case "Reset":
      // Soft waits for the charging to end (OnIdle), Hard does not (Immediate).
      return { method: "Reset", params: { type: cmd.type === "Hard" ? "Immediate" : "OnIdle" } };
    case "RemoteStartTransaction":
      // remoteStartId only has to be unique enough for the charger to echo it back.
      return {
        method: "RequestStartTransaction",
        params: { evseId: cmd.connectorId, remoteStartId: Math.floor(Math.random() * 2_147_483_647), idToken: { idToken: cmd.idTag, type: "Central" } },
      };
    case "RemoteStopTransaction":
      return { method: "RequestStopTransaction", params: { transactionId: open?.ocppTransactionId ?? String(open?.transactionId ?? "") } };
    case "UnlockConnector":
      return { method: "UnlockConnector", params: { evseId: cmd.connectorId, connectorId: 1 } };
    case "ChangeAvailability":
      return { method: "ChangeAvailability", params: cmd.connectorId === 0 ? { operationalStatus: cmd.type } : { operationalStatus: cmd.type, evse: { id: cmd.connectorId } } };
    case "TriggerMessage": {
      const requestedMessage = TRIGGER_201[cmd.requestedMessage];
      return { method: "TriggerMessage", params: cmd.connectorId === undefined ? { requestedMessage } : { requestedMessage, evse: { id: cmd.connectorId } } };
    }
  }
}

/**
 * The call that gives the charger a new Basic-auth password: OCPP 1.6 (security whitepaper)
 * ChangeConfiguration AuthorizationKey, 2.0.1 SetVariables SecurityCtrlr.BasicAuthPassword.
 */
export function passwordCall(protocol: CommandProtocol, password: string): { method: string; params: Record<string, unknown> } {
  return protocol === "ocpp2.0.1"
    ? { method: "SetVariables", params: { setVariableData: [{ attributeValue: password, component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" } }] } }
    : { method: "ChangeConfiguration", params: { key: "AuthorizationKey", value: password } };
}

/** The status of a password answer: ChangeConfiguration's status, or SetVariables' attributeStatus. */
export function passwordAnswerStatus(response: unknown): string | undefined {
  const r = response as { status?: string; setVariableResult?: { attributeStatus?: string }[] } | undefined;
  return r?.setVariableResult?.[0]?.attributeStatus ?? r?.status;
}

/** What became of a password sent to the charger. */
export type PasswordDelivery = { outcome: "accepted" | "rejected" | "timeout" | "offline" | "error"; status?: string };

/** The charger stored the new password (RebootRequired: it uses it after its next restart). */
export const PASSWORD_ACCEPTED = new Set(["Accepted", "RebootRequired"]);

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
    status === "UnlockFailed"
      ? "no pudo desbloquear el conector"
      : status === "OngoingAuthorizedTransaction"
        ? "no desbloquea un conector con una carga autorizada en curso"
        : status === "UnknownConnector"
          ? "no tiene ese conector"
          : status === "NotSupported"
            ? "no admite esta acción"
            : status === "NotImplemented"
              ? "no implementa este mensaje"
              : "lo rechazó";
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
