// The commands the API sends to chargers (remote start/stop, reset, settings, password,
// firmware and diagnostics), each built for the protocol the charger speaks and its answer read
// as the command's reply. ocpp/commands.ts and ocpp/maintenance.ts build the calls; this module
// sends them through the router and reports what came back, as facts (the API words them).
import {
  isSettingsCommand,
  ocppCall,
  settingsCalls,
  settingsFromAnswers,
  settingsReply,
  PASSWORD_ACCEPTED,
  passwordCall,
  replyFromStatus,
  type ChargerAnswer,
  type ChargerCommand,
  type CommandName,
  type CommandReply,
  type PasswordDelivery,
  type SettingsCommand,
} from "../commands";
import type { Db } from "../../db/client";
import { maintenanceCall, maintenanceReply, unansweredMaintenance, type MaintenanceReply, type MaintenanceRequest } from "../maintenance";
import { openTransaction } from "../store";
import type { ChargerKey, Router } from "./router";

/** A command's reply when the charger did not answer with a status: a CALLERROR reads as Rejected (or NotImplemented). */
function unanswered(command: CommandName, answer: Exclude<ChargerAnswer, { kind: "answer" }>): CommandReply {
  if (answer.kind !== "rpc-error") return { command, outcome: answer.kind };
  return { ...replyFromStatus(command, answer.code === "NotImplemented" ? "NotImplemented" : "Rejected"), errorCode: answer.code };
}

export function createCommandSender(db: Db, router: Router) {
  async function sendCommand(charger: ChargerKey, command: ChargerCommand): Promise<CommandReply> {
    if (isSettingsCommand(command)) return sendSettings(charger, command);
    let open: Awaited<ReturnType<typeof openTransaction>>;
    if (command.command === "RemoteStopTransaction") {
      open = await openTransaction(db, charger.id, command.connectorId);
      if (!open) return { command: command.command, outcome: "rejected", reason: "no-open-transaction" };
    }
    const answer = await router.deliver(charger, (protocol) => ocppCall(command, protocol, open));
    return answer.kind === "answer" ? replyFromStatus(command.command, answer.status) : unanswered(command.command, answer);
  }

  /**
   * The report and the intervals: one call or several (1.6 sets one key per call) to the same
   * socket. A call left unanswered ends the command; what was answered before it is kept in the
   * result (an interval the charger already took is still reported).
   */
  async function sendSettings(charger: ChargerKey, command: SettingsCommand): Promise<CommandReply> {
    const target = await router.locate(charger);
    if (target.kind === "offline") return { command: command.command, outcome: "offline" };
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
    return settingsReply(command, target.protocol, responses);
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

  async function sendMaintenance(charger: ChargerKey, request: MaintenanceRequest): Promise<MaintenanceReply> {
    const target = await router.locate(charger);
    if (target.kind === "offline") return unansweredMaintenance(request, "offline");
    const { method, params } = maintenanceCall(request, target.protocol);
    const answer = await router.callTarget(target, charger.ocppIdentity, method, params);
    switch (answer.kind) {
      case "answer":
        return maintenanceReply(request, target.protocol, answer.response);
      case "rpc-error":
        return unansweredMaintenance(request, "rejected", answer.code);
      default:
        return unansweredMaintenance(request, answer.kind);
    }
  }

  return { sendCommand, sendPassword, sendMaintenance };
}
