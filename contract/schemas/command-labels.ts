// The charger commands' names, labels and results, without zod: the charger screen bundles
// these (the zod schema in ./command.ts stays on the server, out of the screens' first-load budget).
// The labels live here, not in app/, because the API words its results with them too
// («El cargador no respondió a tiempo a «Reiniciar»», ./command-messages.ts): one label per
// command for both. The central system reports a command as a CommandReply, facts without words;
// the API's answer, CommandResult, is that reply worded.

export const TRIGGERABLE_MESSAGES = ["BootNotification", "Heartbeat", "StatusNotification", "MeterValues", "DiagnosticsStatusNotification", "FirmwareStatusNotification"] as const;

export type CommandName =
  | "Reset"
  | "RemoteStartTransaction"
  | "RemoteStopTransaction"
  | "UnlockConnector"
  | "ChangeAvailability"
  | "TriggerMessage"
  | "GetBaseReport"
  | "GetConfiguration"
  | "ChangeConfiguration";

export const COMMAND_LABELS: Record<CommandName, string> = {
  Reset: "Reiniciar",
  RemoteStartTransaction: "Iniciar carga",
  RemoteStopTransaction: "Detener carga",
  UnlockConnector: "Desbloquear conector",
  ChangeAvailability: "Cambiar disponibilidad",
  TriggerMessage: "Pedir mensaje",
  GetBaseReport: "Pedir informe",
  GetConfiguration: "Leer intervalos",
  ChangeConfiguration: "Cambiar intervalos",
};

/**
 * The charger's intervals the screen reads and sets: OCPP 1.6 configuration keys HeartbeatInterval
 * and MeterValueSampleInterval, 2.0.1 variables OCPPCommCtrlr.HeartbeatInterval and
 * SampledDataCtrlr.TxUpdatedInterval (ocpp/commands.ts).
 */
export const INTERVAL_SETTINGS = ["heartbeatInterval", "meterValueSampleInterval"] as const;
export type IntervalSetting = (typeof INTERVAL_SETTINGS)[number];

export const INTERVAL_LABELS: Record<IntervalSetting, string> = {
  heartbeatInterval: "señal de vida",
  meterValueSampleInterval: "mediciones durante la carga",
};

/** What the charger said about one interval: its value (read or set) and the status it gave. */
export interface SettingResult {
  value?: string;
  /** Accepted, RebootRequired, Rejected, NotSupported, Unknown (not reported), UnknownVariable… */
  status: string;
}

/** accepted / rejected: the charger answered; timeout: it did not; offline: no socket anywhere. */
export type CommandOutcome = "accepted" | "rejected" | "timeout" | "offline" | "error";

/**
 * What became of a command, as the central system reports it: the charger's answer, or why there
 * was none. No words: the API words it (commandMessage, ./command-messages.ts).
 */
export interface CommandReply {
  command: CommandName;
  outcome: CommandOutcome;
  /** The charger's status field (Accepted, Rejected, Unlocked, Scheduled…), when it answered; Rejected or NotImplemented for a CALLERROR. */
  status?: string;
  /** Leer / Cambiar intervalos: what the charger answered for each interval. */
  settings?: Partial<Record<IntervalSetting, SettingResult>>;
  /** The CALLERROR code, when the charger refused the call itself rather than answering it. */
  errorCode?: string;
  /** Why the command was refused before reaching the charger: no charge to stop, or a 2.0.1-only command for a 1.6 charger. */
  reason?: "no-open-transaction" | "report-not-on-16";
}

/** The API's answer to a command: the reply's facts (the CALLERROR code and reason aside) and its Spanish message. */
export interface CommandResult {
  command: CommandName;
  outcome: CommandOutcome;
  /** The charger's status field (Accepted, Rejected, Unlocked, Scheduled…), when it answered. */
  status?: string;
  message: string;
  /** Leer / Cambiar intervalos: what the charger answered for each interval. */
  settings?: Partial<Record<IntervalSetting, SettingResult>>;
}

/** The charger's maintenance requests: a firmware update and a diagnostics file (GetLog in 2.0.1). */
export type MaintenanceKind = "UpdateFirmware" | "GetDiagnostics";

/** What became of a maintenance request, as the central system reports it (no words: maintenanceMessage words it). */
export interface MaintenanceReply {
  kind: MaintenanceKind;
  outcome: CommandOutcome;
  /** The charger's status (2.0.1), or the CALLERROR code. */
  status?: string;
  /** GetDiagnostics / GetLog: the name the charger gives the file it uploads. */
  fileName?: string;
  /** The CALLERROR code, when the charger refused the call itself rather than answering it. */
  errorCode?: string;
  /** A 1.6 charger answered GetDiagnostics without a file name: it has nothing to send. */
  reason?: "no-diagnostics";
}

/** The API's answer to a maintenance request: the reply's facts and its Spanish message. */
export interface MaintenanceResult {
  kind: MaintenanceKind;
  outcome: CommandOutcome;
  status?: string;
  fileName?: string;
  message: string;
}
