// The charger commands' names, labels and results, without zod: the charger screen bundles
// these (the zod schema in ./commands.ts stays on the server, out of the screens' first-load budget).
// The labels live here, not in app/, because the API words its results with them too
// («El cargador no respondió a tiempo a «Reiniciar»»): one label per command for both.

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

/** What the charger said about one interval: its value (read or set) and the status it gave. */
export interface SettingResult {
  value?: string;
  /** Accepted, RebootRequired, Rejected, NotSupported, Unknown (not reported), UnknownVariable… */
  status: string;
}

/** accepted / rejected: the charger answered; timeout: it did not; offline: no socket anywhere. */
export type CommandOutcome = "accepted" | "rejected" | "timeout" | "offline" | "error";

export interface CommandResult {
  command: CommandName;
  outcome: CommandOutcome;
  /** The charger's status field (Accepted, Rejected, Unlocked, Scheduled…), when it answered. */
  status?: string;
  message: string;
  /** Leer / Cambiar intervalos: what the charger answered for each interval. */
  settings?: Partial<Record<IntervalSetting, SettingResult>>;
}
