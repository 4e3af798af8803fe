// Firmware and diagnostics, for both protocols: the calls (1.6 UpdateFirmware /
// GetDiagnostics, 2.0.1 UpdateFirmware / GetLog), how their answers read in Spanish, and what the
// charger's status reports (FirmwareStatusNotification, DiagnosticsStatusNotification,
// LogStatusNotification) change in the database.
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { chargerDiagnostics, chargers } from "../db/schema";
import type { CommandOutcome } from "#contract/schemas/command-labels";
import type { ChargerRef } from "./store";
import type { OcppProtocol } from "../domain/ocpp-protocol";

export type CommandProtocol = OcppProtocol;

export type MaintenanceRequest =
  | { kind: "UpdateFirmware"; location: string; retrieveAt: Date; requestId: number }
  | { kind: "GetDiagnostics"; location: string; requestId: number; from?: Date; to?: Date };

export interface MaintenanceResult {
  kind: MaintenanceRequest["kind"];
  outcome: CommandOutcome;
  status?: string;
  /** GetDiagnostics / GetLog: the name the charger gives the file it uploads. */
  fileName?: string;
  message: string;
}

/** The requests' names in the API's result messages. */
export const MAINTENANCE_LABELS: Record<MaintenanceRequest["kind"], string> = {
  UpdateFirmware: "Actualizar firmware",
  GetDiagnostics: "Pedir diagnóstico",
};

/** The OCPP call of a request, in the charger's protocol. */
export function maintenanceCall(req: MaintenanceRequest, protocol: CommandProtocol): { method: string; params: Record<string, unknown> } {
  if (req.kind === "UpdateFirmware") {
    return protocol === "ocpp2.0.1"
      ? { method: "UpdateFirmware", params: { requestId: req.requestId, firmware: { location: req.location, retrieveDateTime: req.retrieveAt.toISOString() } } }
      : { method: "UpdateFirmware", params: { location: req.location, retrieveDate: req.retrieveAt.toISOString() } };
  }
  const window = { ...(req.from ? { start: req.from.toISOString() } : {}), ...(req.to ? { stop: req.to.toISOString() } : {}) };
  return protocol === "ocpp2.0.1"
    ? {
        method: "GetLog",
        params: {
          logType: "DiagnosticsLog",
          requestId: req.requestId,
          log: { remoteLocation: req.location, ...(window.start ? { oldestTimestamp: window.start } : {}), ...(window.stop ? { latestTimestamp: window.stop } : {}) },
        },
      }
    : { method: "GetDiagnostics", params: { location: req.location, ...(window.start ? { startTime: window.start } : {}), ...(window.stop ? { stopTime: window.stop } : {}) } };
}

/**
 * The Spanish result of the charger's answer. 1.6 UpdateFirmware answers nothing (an empty
 * object is its acceptance); 1.6 GetDiagnostics answers the file name, or none when it has
 * nothing to send; 2.0.1 answers a status.
 */
export function maintenanceResult(req: MaintenanceRequest, protocol: CommandProtocol, response: unknown): MaintenanceResult {
  const r = (response ?? {}) as { status?: string; fileName?: string; filename?: string };
  const label = MAINTENANCE_LABELS[req.kind];
  const fileName = r.fileName ?? r.filename;
  if (req.kind === "UpdateFirmware") {
    if (protocol === "ocpp1.6" || r.status === "Accepted" || r.status === "AcceptedCanceled") {
      const extra = r.status === "AcceptedCanceled" ? " Canceló la actualización que tenía en curso." : "";
      return { kind: req.kind, outcome: "accepted", status: r.status, message: `El cargador aceptó «${label}»: informa el avance en «Firmware y diagnóstico».${extra}` };
    }
    const why = r.status === "InvalidCertificate" || r.status === "RevokedCertificate" ? "rechazó el certificado de firma" : "lo rechazó";
    return { kind: req.kind, outcome: "rejected", status: r.status, message: `El cargador ${why} («${label}»).` };
  }
  if (protocol === "ocpp1.6") {
    return fileName
      ? { kind: req.kind, outcome: "accepted", fileName, message: `El cargador aceptó «${label}»: sube ${fileName} y aparece en «Firmware y diagnóstico» cuando llegue.` }
      : { kind: req.kind, outcome: "rejected", message: `El cargador no tiene diagnóstico para enviar («${label}»).` };
  }
  if (r.status === "Accepted" || r.status === "AcceptedCanceled") {
    return { kind: req.kind, outcome: "accepted", status: r.status, fileName, message: `El cargador aceptó «${label}»: sube el archivo y aparece en «Firmware y diagnóstico» cuando llegue.` };
  }
  return { kind: req.kind, outcome: "rejected", status: r.status, message: `El cargador lo rechazó («${label}»).` };
}

export function unansweredMaintenance(req: MaintenanceRequest, outcome: Exclude<CommandOutcome, "accepted">, code?: string): MaintenanceResult {
  const label = MAINTENANCE_LABELS[req.kind];
  const message =
    outcome === "offline"
      ? `El cargador no está conectado: no se pudo enviar «${label}».`
      : outcome === "timeout"
        ? `El cargador no respondió a tiempo a «${label}».`
        : outcome === "rejected"
          ? code === "NotImplemented" || code === "NotSupported"
            ? `El cargador no implementa «${label}».`
            : `El cargador lo rechazó («${label}»).`
          : `No se pudo completar «${label}». Probá de nuevo.`;
  return { kind: req.kind, outcome, ...(code ? { status: code } : {}), message };
}

// ---------------------------------------------------------------------------------------------
// Status reports

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

/** A FirmwareStatusNotification: the charger's latest firmware status. */
export async function recordFirmwareStatus(db: Db, ref: ChargerRef, status: string, at: Date): Promise<void> {
  await db.update(chargers).set({ firmwareStatus: status.slice(0, 40), firmwareStatusAt: at }).where(eq(chargers.id, ref.id));
}

/** Charger diagnostics statuses → ours (Idle changes nothing; "Uploaded" waits for the file itself). */
const DIAGNOSTICS_STATUS: Record<string, "UPLOADING" | "FAILED" | null> = {
  Uploading: "UPLOADING",
  UploadFailed: "FAILED",
  UploadFailure: "FAILED",
  BadMessage: "FAILED",
  NotSupportedOperation: "FAILED",
  PermissionDenied: "FAILED",
  Uploaded: null,
  Idle: null,
  AcceptedCanceled: null,
};

/**
 * DiagnosticsStatusNotification (1.6: about the latest request) or LogStatusNotification (2.0.1:
 * names its requestId): kept on the request it is about; a file already received stays UPLOADED.
 */
export async function recordDiagnosticsStatus(db: Db, ref: ChargerRef, report: { status: string; requestId?: number }): Promise<void> {
  const [target] = await db
    .select({ id: chargerDiagnostics.id, status: chargerDiagnostics.status })
    .from(chargerDiagnostics)
    .where(
      and(
        eq(chargerDiagnostics.chargerId, ref.id),
        // 1.6 names no request: its report is about the latest one.
        ...(report.requestId !== undefined ? [eq(chargerDiagnostics.requestId, report.requestId)] : []),
      ),
    )
    .orderBy(desc(chargerDiagnostics.requestedAt))
    .limit(1);
  if (!target) return;
  const next = DIAGNOSTICS_STATUS[report.status];
  const status = target.status === "UPLOADED" || target.status === "REJECTED" || !next ? target.status : next;
  await db
    .update(chargerDiagnostics)
    .set({ chargerStatus: report.status.slice(0, 40), status })
    .where(eq(chargerDiagnostics.id, target.id));
}
