// Commands the operator sends to a charger from the charger screen (OCPP 1.6 CS → CP calls):
// what the API accepts, how each becomes an OCPP call, and what the answer says, as a CommandReply
// of facts (outcome, the charger's status, the intervals): the API words it
// (contract/schemas/command-messages.ts).
import type { OcppProtocol } from "../domain/ocpp-protocol";
import type { ChargerCommand } from "#contract/schemas/command";
import {
  INTERVAL_SETTINGS,
  type TRIGGERABLE_MESSAGES,
  type CommandName,
  type CommandReply,
  type IntervalSetting,
  type SettingResult,
} from "#contract/schemas/command-labels";

export {
  INTERVAL_SETTINGS,
  TRIGGERABLE_MESSAGES,
  type CommandName,
  type CommandOutcome,
  type CommandReply,
  type IntervalSetting,
  type SettingResult,
} from "#contract/schemas/command-labels";

export { commandSchema, INTERVAL_LIMITS, NO_INTERVAL_MESSAGE, type ChargerCommand } from "#contract/schemas/command";

/** Commands whose answer is read beyond its status (values, several results), possibly over several calls. */
export type SettingsCommand = Extract<ChargerCommand, { command: "GetBaseReport" | "GetConfiguration" | "ChangeConfiguration" }>;
export type SimpleCommand = Exclude<ChargerCommand, SettingsCommand>;

export function isSettingsCommand(cmd: ChargerCommand): cmd is SettingsCommand {
  return cmd.command === "GetBaseReport" || cmd.command === "GetConfiguration" || cmd.command === "ChangeConfiguration";
}


/** The subprotocol of the charger a command goes to. */
export type CommandProtocol = OcppProtocol;

/** The open transaction a stop needs: our number for 1.6, the charger's own id for 2.0.1. */
export interface OpenTransaction {
  transactionId: number;
  ocppTransactionId: string | null;
}

/**
 * The OCPP call for a command, in the charger's protocol. 2.0.1 addresses EVSEs: the screen's
 * connector number is the EVSE id (ocpp/store201.ts), on its first connector.
 */
export function ocppCall(cmd: SimpleCommand, protocol: CommandProtocol = "ocpp1.6", open?: OpenTransaction): { method: string; params: Record<string, unknown> } {
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

function ocppCall201(cmd: SimpleCommand, open?: OpenTransaction): { method: string; params: Record<string, unknown> } {
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

// ---------------------------------------------------------------------------------------------
// Report and intervals: GetBaseReport (2.0.1), GetConfiguration / GetVariables, ChangeConfiguration / SetVariables

export interface OcppCallSpec {
  method: string;
  params: Record<string, unknown>;
}

/** 1.6 configuration keys and 2.0.1 component.variable of each interval. */
export const INTERVAL_KEYS_16: Record<IntervalSetting, string> = { heartbeatInterval: "HeartbeatInterval", meterValueSampleInterval: "MeterValueSampleInterval" };
export const INTERVAL_VARIABLES_201: Record<IntervalSetting, { component: string; variable: string }> = {
  heartbeatInterval: { component: "OCPPCommCtrlr", variable: "HeartbeatInterval" },
  meterValueSampleInterval: { component: "SampledDataCtrlr", variable: "TxUpdatedInterval" },
};

const variableRef = (setting: IntervalSetting) => ({ component: { name: INTERVAL_VARIABLES_201[setting].component }, variable: { name: INTERVAL_VARIABLES_201[setting].variable } });

/** The intervals a ChangeConfiguration sets, in a fixed order. */
function requested(cmd: Extract<ChargerCommand, { command: "ChangeConfiguration" }>): [IntervalSetting, number][] {
  return INTERVAL_SETTINGS.flatMap((k) => (cmd[k] === undefined ? [] : [[k, cmd[k]] as [IntervalSetting, number]]));
}

/**
 * The calls of a settings command in the charger's protocol (1.6 sets one key per call), or the
 * reply at once when the protocol has no such call.
 */
export function settingsCalls(cmd: SettingsCommand, protocol: CommandProtocol, requestId = Math.floor(Math.random() * 2_147_483_647)): OcppCallSpec[] | CommandReply {
  switch (cmd.command) {
    case "GetBaseReport":
      if (protocol !== "ocpp2.0.1") return { command: cmd.command, outcome: "rejected", status: "NotSupported", reason: "report-not-on-16" };
      return [{ method: "GetBaseReport", params: { requestId, reportBase: "FullInventory" } }];
    case "GetConfiguration":
      return protocol === "ocpp2.0.1"
        ? [{ method: "GetVariables", params: { getVariableData: INTERVAL_SETTINGS.map(variableRef) } }]
        : [{ method: "GetConfiguration", params: { key: INTERVAL_SETTINGS.map((k) => INTERVAL_KEYS_16[k]) } }];
    case "ChangeConfiguration": {
      const pairs = requested(cmd);
      return protocol === "ocpp2.0.1"
        ? [{ method: "SetVariables", params: { setVariableData: pairs.map(([k, v]) => ({ attributeValue: String(v), ...variableRef(k) })) } }]
        : pairs.map(([k, v]) => ({ method: "ChangeConfiguration", params: { key: INTERVAL_KEYS_16[k], value: String(v) } }));
    }
  }
}

/** The charger applied the value (RebootRequired: after its next restart). */
export const SETTING_APPLIED = new Set(["Accepted", "RebootRequired"]);

type GetConfigurationAnswer = { configurationKey?: { key: string; value?: string }[]; unknownKey?: string[] };
type GetVariablesAnswer = { getVariableResult?: { attributeStatus: string; attributeValue?: string; component: { name: string }; variable: { name: string } }[] };
type SetVariablesAnswer = { setVariableResult?: { attributeStatus: string; component: { name: string }; variable: { name: string } }[] };

/** What the charger answered for each interval, from the answers to settingsCalls (same order). */
export function settingsFromAnswers(cmd: SettingsCommand, protocol: CommandProtocol, answers: unknown[]): Partial<Record<IntervalSetting, SettingResult>> {
  const out: Partial<Record<IntervalSetting, SettingResult>> = {};
  const same201 = (setting: IntervalSetting, r: { component: { name: string }; variable: { name: string } }) =>
    r.component.name === INTERVAL_VARIABLES_201[setting].component && r.variable.name === INTERVAL_VARIABLES_201[setting].variable;
  if (cmd.command === "GetConfiguration") {
    if (answers.length === 0) return out;
    for (const k of INTERVAL_SETTINGS) {
      if (protocol === "ocpp2.0.1") {
        const r = (answers[0] as GetVariablesAnswer | undefined)?.getVariableResult?.find((x) => same201(k, x));
        out[k] = r ? { status: r.attributeStatus, ...(r.attributeStatus === "Accepted" && r.attributeValue !== undefined ? { value: r.attributeValue } : {}) } : { status: "Unknown" };
      } else {
        const r = (answers[0] as GetConfigurationAnswer | undefined)?.configurationKey?.find((x) => x.key === INTERVAL_KEYS_16[k]);
        out[k] = r?.value !== undefined ? { status: "Accepted", value: r.value } : { status: "Unknown" };
      }
    }
  } else if (cmd.command === "ChangeConfiguration") {
    requested(cmd).forEach(([k, v], i) => {
      const answer = protocol === "ocpp2.0.1" ? answers[0] : answers[i];
      if (answer === undefined) return;
      const status =
        protocol === "ocpp2.0.1" ? (answer as SetVariablesAnswer).setVariableResult?.find((x) => same201(k, x))?.attributeStatus : (answer as { status?: string }).status;
      out[k] = { value: String(v), status: status ?? "Unknown" };
    });
  }
  return out;
}

/** The reply to a settings command whose calls were all answered. */
export function settingsReply(cmd: SettingsCommand, protocol: CommandProtocol, answers: unknown[]): CommandReply {
  const command = cmd.command;
  if (command === "GetBaseReport") return replyFromStatus(command, (answers[0] as { status?: string } | undefined)?.status);
  const settings = settingsFromAnswers(cmd, protocol, answers);
  const entries = INTERVAL_SETTINGS.flatMap((k) => (settings[k] ? [settings[k]] : []));
  // Leer intervalos succeeds when the charger told at least one; Cambiar, when it applied them all.
  const accepted = command === "GetConfiguration" ? entries.some((r) => r.value !== undefined) : entries.every((r) => SETTING_APPLIED.has(r.status));
  return { command, outcome: accepted ? "accepted" : "rejected", settings };
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

/**
 * A charger's answer to one call (reservations, local list, charging profiles: ADR 0018): its
 * payload and `status` when it answered, a CALLERROR's code, or why it did not answer.
 */
export type ChargerAnswer = { kind: "answer"; status?: string; response?: unknown } | { kind: "rpc-error"; code: string } | { kind: "timeout" } | { kind: "offline" } | { kind: "error" };

/** The status word of an answer for the screens and the API: the charger's status, a CALLERROR's code, or timeout/offline/error. */
export function answerStatus(answer: ChargerAnswer): string {
  if (answer.kind === "answer") return answer.status ?? "Unknown";
  if (answer.kind === "rpc-error") return answer.code;
  return answer.kind;
}

/** What became of a password sent to the charger. */
export type PasswordDelivery = { outcome: "accepted" | "rejected" | "timeout" | "offline" | "error"; status?: string };

/** The charger stored the new password (RebootRequired: it uses it after its next restart). */
export const PASSWORD_ACCEPTED = new Set(["Accepted", "RebootRequired"]);

const ACCEPTED_STATUSES = new Set(["Accepted", "Unlocked", "Scheduled"]);

/** The reply to a charger's answer (`status` of the .conf). */
export function replyFromStatus(command: CommandName, status: string | undefined): CommandReply {
  return { command, outcome: status && ACCEPTED_STATUSES.has(status) ? "accepted" : "rejected", status };
}

// The hand-written CommandName (contract/schemas/command-labels.ts) must match the schema's discriminator.
type SameNames = [CommandName] extends [ChargerCommand["command"]] ? ([ChargerCommand["command"]] extends [CommandName] ? true : never) : never;
export const COMMAND_NAMES_MATCH: SameNames = true;
