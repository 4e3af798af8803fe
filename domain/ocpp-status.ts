// OCPP 1.6 vocabulary the dashboard shows: connector status (ChargePointStatus), error codes
// and stop reasons, with their Spanish labels, plus the four-way summary the home screen and
// the charger list use (defined in ./ocpp-status-summary.ts).

export const CHARGE_POINT_STATUSES = [
  "Available",
  "Preparing",
  "Charging",
  "SuspendedEVSE",
  "SuspendedEV",
  "Finishing",
  "Reserved",
  "Unavailable",
  "Faulted",
] as const;

export type ChargePointStatus = (typeof CHARGE_POINT_STATUSES)[number];

export const CHARGE_POINT_STATUS_LABELS: Record<ChargePointStatus, string> = {
  Available: "Disponible",
  Preparing: "Preparando",
  Charging: "Cargando",
  SuspendedEV: "Suspendido (VE)",
  SuspendedEVSE: "Suspendido (cargador)",
  Finishing: "Finalizando",
  Reserved: "Reservado",
  Unavailable: "No disponible",
  Faulted: "En falla",
};

export function isChargePointStatus(value: unknown): value is ChargePointStatus {
  return typeof value === "string" && (CHARGE_POINT_STATUSES as readonly string[]).includes(value);
}

export function chargePointStatusLabel(status: ChargePointStatus): string {
  return CHARGE_POINT_STATUS_LABELS[status];
}

/** Statuses in which a vehicle occupies the connector (a session may be billing idle time). */
export const OCCUPIED_STATUSES: readonly ChargePointStatus[] = ["Preparing", "Charging", "SuspendedEV", "SuspendedEVSE", "Finishing"];

/** Statuses after charging in which idle time runs until the connector is Available again. */
export const IDLE_STATUSES: readonly ChargePointStatus[] = ["SuspendedEV", "Finishing"];

// Summary buckets live in ./ocpp-status-summary.ts, so a screen that shows only the summary (a
// station's connectors) does not load every label below.

// ---------------------------------------------------------------------------------------------
// Error codes (ChargePointErrorCode) and stop reasons (Reason)

export const CHARGE_POINT_ERROR_CODES = [
  "ConnectorLockFailure",
  "EVCommunicationError",
  "GroundFailure",
  "HighTemperature",
  "InternalError",
  "LocalListConflict",
  "NoError",
  "OtherError",
  "OverCurrentFailure",
  "OverVoltage",
  "PowerMeterFailure",
  "PowerSwitchFailure",
  "ReaderFailure",
  "ResetFailure",
  "UnderVoltage",
  "WeakSignal",
] as const;

export type ChargePointErrorCode = (typeof CHARGE_POINT_ERROR_CODES)[number];

export const CHARGE_POINT_ERROR_LABELS: Record<ChargePointErrorCode, string> = {
  ConnectorLockFailure: "Falla del bloqueo del conector",
  EVCommunicationError: "Error de comunicación con el vehículo",
  GroundFailure: "Falla de puesta a tierra",
  HighTemperature: "Temperatura elevada",
  InternalError: "Error interno",
  LocalListConflict: "Conflicto en la lista local de autorización",
  NoError: "Sin errores",
  OtherError: "Otro error",
  OverCurrentFailure: "Sobrecorriente",
  OverVoltage: "Sobretensión",
  PowerMeterFailure: "Falla del medidor de energía",
  PowerSwitchFailure: "Falla del contactor",
  ReaderFailure: "Falla del lector RFID",
  ResetFailure: "Falla al reiniciar",
  UnderVoltage: "Subtensión",
  WeakSignal: "Señal débil",
};

/** Label for a stored error code; unknown codes (vendor extensions) are shown as they come. */
export function errorCodeLabel(code: string | null | undefined): string {
  if (!code) return CHARGE_POINT_ERROR_LABELS.NoError;
  return (CHARGE_POINT_ERROR_LABELS as Record<string, string>)[code] ?? code;
}

export const STOP_REASONS = [
  "DeAuthorized",
  "EmergencyStop",
  "EVDisconnected",
  "HardReset",
  "Local",
  "Other",
  "PowerLoss",
  "Reboot",
  "Remote",
  "SoftReset",
  "UnlockCommand",
] as const;

export type StopReason = (typeof STOP_REASONS)[number];

export const STOP_REASON_LABELS: Record<StopReason, string> = {
  DeAuthorized: "Autorización revocada",
  EmergencyStop: "Parada de emergencia",
  EVDisconnected: "Vehículo desconectado",
  HardReset: "Reinicio completo",
  Local: "Finalizada en el cargador",
  Other: "Otro motivo",
  PowerLoss: "Corte de energía",
  Reboot: "Reinicio del cargador",
  Remote: "Finalizada de forma remota",
  SoftReset: "Reinicio",
  UnlockCommand: "Conector desbloqueado",
};

/** OCPP 2.0.1 stop reasons (ReasonEnumType) that 1.6 does not have. */
export const STOP_REASON_LABELS_201: Record<string, string> = {
  EnergyLimitReached: "Límite de energía alcanzado",
  GroundFault: "Falla de puesta a tierra",
  ImmediateReset: "Reinicio inmediato",
  LocalOutOfCredit: "Sin crédito",
  MasterPass: "Finalizada con tarjeta maestra",
  OvercurrentFault: "Sobrecorriente",
  PowerQuality: "Calidad de energía",
  SOCLimitReached: "Límite de carga de la batería alcanzado",
  StoppedByEV: "Finalizada por el vehículo",
  TimeLimitReached: "Límite de tiempo alcanzado",
  Timeout: "Tiempo de espera agotado",
};

/** Not OCPP: a session the charger never stopped, closed by the operator (ocpp/store.ts closeStuckSession). */
export const OPERATOR_CLOSED_LABEL = "Cerrada por el operador";

/** Not OCPP: the no-show fee of a reservation that expired unused (ocpp/reservations.ts, ADR 0018). */
export const NO_SHOW_LABEL = "No se presentó a la reserva";

/** OCPP 1.6: a StopTransaction without a reason means Local. 2.0.1 reasons share the labels. */
export function stopReasonLabel(reason: string | null | undefined): string {
  const r = reason ?? "Local";
  if (r === "OperatorClosed") return OPERATOR_CLOSED_LABEL;
  if (r === "ReservationNoShow") return NO_SHOW_LABEL;
  return (STOP_REASON_LABELS as Record<string, string>)[r] ?? STOP_REASON_LABELS_201[r] ?? r;
}
