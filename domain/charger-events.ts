// What a charger reports about itself (charger_events, ADR 0015): the message kinds kept and how
// the charger screen names them, and the status words of firmware/log/diagnostics reports in
// Spanish. Pure: the API, the store and the screens use it.

export const CHARGER_EVENT_KINDS = [
  "SecurityEventNotification",
  "NotifyEvent",
  "FirmwareStatusNotification",
  "LogStatusNotification",
  "DiagnosticsStatusNotification",
  "NotifyReport",
] as const;

export type ChargerEventKind = (typeof CHARGER_EVENT_KINDS)[number];

export const CHARGER_EVENT_LABELS: Record<ChargerEventKind, string> = {
  SecurityEventNotification: "Seguridad",
  NotifyEvent: "Aviso del equipo",
  FirmwareStatusNotification: "Firmware",
  LogStatusNotification: "Registros",
  DiagnosticsStatusNotification: "Diagnóstico",
  NotifyReport: "Informe",
};

/** The Spanish name of an event kind (an unknown kind is shown as sent). */
export function chargerEventLabel(kind: string): string {
  return (CHARGER_EVENT_LABELS as Record<string, string>)[kind] ?? kind;
}

/** Firmware (1.6 and 2.0.1), diagnostics (1.6) and log upload (2.0.1) statuses. */
const REPORT_STATUS_LABELS: Record<string, string> = {
  // Firmware
  Downloaded: "Firmware descargado",
  DownloadFailed: "Falló la descarga del firmware",
  Downloading: "Descargando el firmware",
  DownloadScheduled: "Descarga del firmware programada",
  DownloadPaused: "Descarga del firmware en pausa",
  Idle: "Sin actividad",
  InstallationFailed: "Falló la instalación del firmware",
  Installing: "Instalando el firmware",
  Installed: "Firmware instalado",
  InstallRebooting: "Reiniciando para instalar el firmware",
  InstallScheduled: "Instalación del firmware programada",
  InstallVerificationFailed: "Falló la verificación de la instalación",
  InvalidSignature: "Firma del firmware inválida",
  SignatureVerified: "Firma del firmware verificada",
  // Diagnostics and logs
  Uploaded: "Archivo subido",
  UploadFailed: "Falló la subida del archivo",
  UploadFailure: "Falló la subida del archivo",
  Uploading: "Subiendo el archivo",
  BadMessage: "Pedido de registros inválido",
  NotSupportedOperation: "Operación no admitida",
  PermissionDenied: "Permiso denegado al subir",
  AcceptedCanceled: "Subida anterior cancelada por un pedido nuevo",
};

const STATUS_KINDS = new Set<string>(["FirmwareStatusNotification", "LogStatusNotification", "DiagnosticsStatusNotification"]);

/**
 * The line the screen shows: a firmware/log/diagnostics status in Spanish with the word the
 * charger sent ("Firmware instalado (Installed)"); other summaries as they were stored.
 */
export function chargerEventSummary(kind: string, summary: string): string {
  if (!STATUS_KINDS.has(kind)) return summary;
  const label = REPORT_STATUS_LABELS[summary];
  return label ? `${label} (${summary})` : summary;
}
