// The commands the API sends to chargers (remote start/stop, reset, settings, password,
// firmware and diagnostics), each built for the protocol the charger speaks and its answer read
// as the command's result. ocpp/commands.ts and ocpp/maintenance.ts build the calls; this
// module sends them through the router and words what came back.
import {
  errorResult,
  isSettingsCommand,
  offlineResult,
  ocppCall,
  settingsCalls,
  settingsFromAnswers,
  settingsResult,
  PASSWORD_ACCEPTED,
  passwordCall,
  resultFromStatus,
  timeoutResult,
  type ChargerAnswer,
  type ChargerCommand,
  type CommandName,
  type CommandResult,
  type PasswordDelivery,
  type SettingsCommand,
} from "../commands";
import type { Db } from "../../db/client";
import { maintenanceCall, maintenanceResult, unansweredMaintenance, type MaintenanceRequest, type MaintenanceResult } from "../maintenance";
import { openTransaction } from "../store";
import type { ChargerKey, Router } from "./router";

/** A command's result when the charger did not answer with a status. */
function unanswered(command: CommandName, answer: Exclude<ChargerAnswer, { kind: "answer" }>): CommandResult {
  switch (answer.kind) {
    case "rpc-error":
      return resultFromStatus(command, answer.code === "NotImplemented" ? "NotImplemented" : "Rejected");
    case "timeout":
      return timeoutResult(command);
    case "offline":
      return offlineResult(command);
    case "error":
      return errorResult(command);
  }
}

export function createCommandSender(db: Db, router: Router) {
  async function sendCommand(charger: ChargerKey, command: ChargerCommand): Promise<CommandResult> {
    if (isSettingsCommand(command)) return sendSettings(charger, command);
    let open: Awaited<ReturnType<typeof openTransaction>>;
    if (command.command === "RemoteStopTransaction") {
      open = await openTransaction(db, charger.id, command.connectorId);
      if (!open) return { command: command.command, outcome: "rejected", message: "No hay una carga en curso en ese conector." };
    }
    const answer = await router.deliver(charger, (protocol) => ocppCall(command, protocol, open));
    return answer.kind === "answer" ? resultFromStatus(command.command, answer.status) : unanswered(command.command, answer);
  }

  /**
   * The report and the intervals: one call or several (1.6 sets one key per call) to the same
   * socket. A call left unanswered ends the command; what was answered before it is kept in the
   * result (an interval the charger already took is still reported).
   */
  async function sendSettings(charger: ChargerKey, command: SettingsCommand): Promise<CommandResult> {
    const target = await router.locate(charger);
    if (target.kind === "offline") return offlineResult(command.command);
    const plan = settingsCalls(command, target.protocol);
    if (!Array.isArray(plan)) return plan;
    const responses: unknown[] = [];
    for (const call of plan) {
      const answer = await router.callTarget(target, charger.ocppIdentity, call.method, call.params);
      if (answer.kind !== "answer") {
        const failed = unanswered(command.command, answer);
        const settings = settingsFromAnswers(command, target.protocol, responses);
        return Object.keys(settings).length ? { ...failed, settings } : failed;
      }
      responses.push(answer.response);
    }
    return settingsResult(command, target.protocol, responses);
  }

  async function sendPassword(charger: ChargerKey, password: string): Promise<PasswordDelivery> {
    const answer = await router.deliver(charger, (protocol) => passwordCall(protocol, password));
    switch (answer.kind) {
      case "answer":
        return { outcome: answer.status && PASSWORD_ACCEPTED.has(answer.status) ? "accepted" : "rejected", status: answer.status };
      case "rpc-error":
        return { outcome: "rejected", status: answer.code };
      default:
        return { outcome: answer.kind };
    }
  }

  async function sendMaintenance(charger: ChargerKey, request: MaintenanceRequest): Promise<MaintenanceResult> {
    const target = await router.locate(charger);
    if (target.kind === "offline") return unansweredMaintenance(request, "offline");
    const { method, params } = maintenanceCall(request, target.protocol);
    const answer = await router.callTarget(target, charger.ocppIdentity, method, params);
    switch (answer.kind) {
      case "answer":
        return maintenanceResult(request, target.protocol, answer.response);
      case "rpc-error":
        return unansweredMaintenance(request, "rejected", answer.code);
      default:
        return unansweredMaintenance(request, answer.kind);
    }
  }

  return { sendCommand, sendPassword, sendMaintenance };
}
