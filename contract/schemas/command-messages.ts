// How the API words what became of a charger command or a maintenance request, and the firmware
// statuses, in Spanish. The central system (ocpp/) reports facts only — outcome, the charger's
// status, the intervals, the file name, a CALLERROR code —; the words for people live here, next
// to the commands' labels, without zod, so the charger screen may bundle them too.
import {
  COMMAND_LABELS,
  INTERVAL_LABELS,
  INTERVAL_SETTINGS,
  type CommandOutcome,
  type CommandReply,
  type CommandResult,
  type MaintenanceKind,
  type MaintenanceReply,
  type MaintenanceResult,
} from "./command-labels";

/** What the charger said of an interval it was asked to set. */
const SETTING_STATUS_TEXT: Record<string, string> = {
  Accepted: "aceptado",
  RebootRequired: "aceptado, lo aplica al reiniciarse",
  Rejected: "rechazado",
  NotSupported: "no lo admite",
  UnknownComponent: "no lo admite",
  UnknownVariable: "no lo admite",
  NotSupportedAttributeType: "no lo admite",
};

const inSeconds = (v: string | undefined) => `${v} s`;

/** Why the charger said no, from its status (a CALLERROR is Rejected or NotImplemented). */
function refusalOf(status: string | undefined): string {
  switch (status) {
    case "UnlockFailed":
      return "no pudo desbloquear el conector";
    case "OngoingAuthorizedTransaction":
      return "no desbloquea un conector con una carga autorizada en curso";
    case "UnknownConnector":
      return "no tiene ese conector";
    case "NotSupported":
      return "no admite esta acción";
    case "NotImplemented":
      return "no implementa este mensaje";
    default:
      return "lo rechazó";
  }
}

/** Leer / Cambiar intervalos the charger answered: what it said of each interval. */
function settingsMessage(r: CommandReply): string {
  const entries = INTERVAL_SETTINGS.flatMap((k) => (r.settings?.[k] ? [[k, r.settings[k]] as const] : []));
  if (r.command === "GetConfiguration") {
    if (r.outcome !== "accepted") return "El cargador no informó ninguno de los dos intervalos («Leer intervalos»).";
    const parts = entries.map(([k, s]) => `${INTERVAL_LABELS[k]}: ${s.value !== undefined ? inSeconds(s.value) : "no lo informa"}`);
    return `El cargador informó sus intervalos (${parts.join("; ")}).`;
  }
  const parts = entries.map(([k, s]) => `${INTERVAL_LABELS[k]} ${inSeconds(s.value)}: ${SETTING_STATUS_TEXT[s.status] ?? s.status}`);
  return r.outcome === "accepted" ? `El cargador aceptó los intervalos nuevos (${parts.join("; ")}).` : `El cargador no aplicó todos los intervalos (${parts.join("; ")}).`;
}

/** What the operator reads when the charger never answered (no socket, no answer in time, a failure on our side); null when it did. */
function unansweredMessage(outcome: CommandOutcome, label: string): string | null {
  if (outcome === "offline") return `El cargador no está conectado: no se pudo enviar «${label}».`;
  if (outcome === "timeout") return `El cargador no respondió a tiempo a «${label}».`;
  if (outcome === "error") return `No se pudo completar «${label}». Probá de nuevo.`;
  return null;
}

/** A command's result in Spanish, for the operator. */
export function commandMessage(r: CommandReply): string {
  const label = COMMAND_LABELS[r.command];
  const unanswered = unansweredMessage(r.outcome, label);
  if (unanswered) return unanswered;
  if (r.reason === "no-open-transaction") return "No hay una carga en curso en ese conector.";
  if (r.reason === "report-not-on-16") return "Los cargadores OCPP 1.6 no envían informes del equipo: usá «Leer intervalos» para ver su configuración.";
  // A CALLERROR reads by its status like any refusal; answered intervals read by what was said of each.
  if ((r.command === "GetConfiguration" || r.command === "ChangeConfiguration") && r.errorCode === undefined) return settingsMessage(r);
  if (r.command === "GetBaseReport" && r.errorCode === undefined) {
    if (r.status === "Accepted") return "El cargador aceptó «Pedir informe»: lo envía en partes y aparece en «Eventos del cargador» a medida que llega.";
    if (r.status === "EmptyResultSet") return "El cargador no tiene nada que informar («Pedir informe»).";
  }
  if (r.outcome === "accepted") {
    if (r.status === "Scheduled") return `El cargador aceptó «${label}»; lo aplica al terminar la carga en curso.`;
    if (r.status === "Unlocked") return "El cargador desbloqueó el conector.";
    return `El cargador aceptó «${label}».`;
  }
  return `El cargador ${refusalOf(r.status)} («${label}»).`;
}

/** The API's answer to a command: the reply's facts and its message (the CALLERROR code and the reason stay inside). */
export function commandResult(r: CommandReply): CommandResult {
  return {
    command: r.command,
    outcome: r.outcome,
    ...(r.status !== undefined ? { status: r.status } : {}),
    message: commandMessage(r),
    ...(r.settings ? { settings: r.settings } : {}),
  };
}

/** The maintenance requests' names in the API's messages. */
export const MAINTENANCE_LABELS: Record<MaintenanceKind, string> = {
  UpdateFirmware: "Actualizar firmware",
  GetDiagnostics: "Pedir diagnóstico",
};

/**
 * A maintenance request's result in Spanish. A 1.6 charger accepts UpdateFirmware without a
 * status and GetDiagnostics with the file's name only; 2.0.1 answers a status.
 */
export function maintenanceMessage(r: MaintenanceReply): string {
  const label = MAINTENANCE_LABELS[r.kind];
  const unanswered = unansweredMessage(r.outcome, label);
  if (unanswered) return unanswered;
  if (r.outcome === "accepted") {
    if (r.kind === "UpdateFirmware") {
      const extra = r.status === "AcceptedCanceled" ? " Canceló la actualización que tenía en curso." : "";
      return `El cargador aceptó «${label}»: informa el avance en «Firmware y diagnóstico».${extra}`;
    }
    return r.status === undefined && r.fileName
      ? `El cargador aceptó «${label}»: sube ${r.fileName} y aparece en «Firmware y diagnóstico» cuando llegue.`
      : `El cargador aceptó «${label}»: sube el archivo y aparece en «Firmware y diagnóstico» cuando llegue.`;
  }
  if (r.errorCode === "NotImplemented" || r.errorCode === "NotSupported") return `El cargador no implementa «${label}».`;
  if (r.reason === "no-diagnostics") return `El cargador no tiene diagnóstico para enviar («${label}»).`;
  if (r.kind === "UpdateFirmware" && r.errorCode === undefined && (r.status === "InvalidCertificate" || r.status === "RevokedCertificate")) return `El cargador rechazó el certificado de firma («${label}»).`;
  return `El cargador lo rechazó («${label}»).`;
}

/** The API's answer to a maintenance request: the reply's facts and its message. */
export function maintenanceResult(r: MaintenanceReply): MaintenanceResult {
  return {
    kind: r.kind,
    outcome: r.outcome,
    ...(r.status !== undefined ? { status: r.status } : {}),
    ...(r.fileName !== undefined ? { fileName: r.fileName } : {}),
    message: maintenanceMessage(r),
  };
}

/**
 * Firmware statuses of both protocols, in Spanish (2.0.1 adds the scheduling and signature
 * ones): the API returns them as the firmware's statusLabel.
 */
export const FIRMWARE_STATUS_LABELS: Record<string, string> = {
  Idle: "Sin actualización en curso",
  DownloadScheduled: "Descarga programada",
  Downloading: "Descargando",
  DownloadPaused: "Descarga en pausa",
  Downloaded: "Descargado",
  DownloadFailed: "Falló la descarga",
  SignatureVerified: "Firma verificada",
  InvalidSignature: "Firma inválida",
  InstallScheduled: "Instalación programada",
  Installing: "Instalando",
  InstallRebooting: "Reiniciando para instalar",
  Installed: "Instalado",
  InstallationFailed: "Falló la instalación",
  InstallVerificationFailed: "Falló la verificación",
};

export const firmwareStatusLabel = (status: string | null | undefined): string => (status ? (FIRMWARE_STATUS_LABELS[status] ?? status) : "Sin informar");
