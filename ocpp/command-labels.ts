// The charger commands' names, labels and results, without zod: the charger screen bundles
// these (the zod schema in ./commands.ts stays on the server; docs/benchmarks.md §1).

export const TRIGGERABLE_MESSAGES = ["BootNotification", "Heartbeat", "StatusNotification", "MeterValues", "DiagnosticsStatusNotification", "FirmwareStatusNotification"] as const;

export type CommandName = "Reset" | "RemoteStartTransaction" | "RemoteStopTransaction" | "UnlockConnector" | "ChangeAvailability" | "TriggerMessage";

export const COMMAND_LABELS: Record<CommandName, string> = {
  Reset: "Reiniciar",
  RemoteStartTransaction: "Iniciar carga",
  RemoteStopTransaction: "Detener carga",
  UnlockConnector: "Desbloquear conector",
  ChangeAvailability: "Cambiar disponibilidad",
  TriggerMessage: "Pedir mensaje",
};

/** accepted / rejected: the charger answered; timeout: it did not; offline: no socket anywhere. */
export type CommandOutcome = "accepted" | "rejected" | "timeout" | "offline" | "error";

export interface CommandResult {
  command: CommandName;
  outcome: CommandOutcome;
  /** The charger's status field (Accepted, Rejected, Unlocked, Scheduled…), when it answered. */
  status?: string;
  message: string;
}
