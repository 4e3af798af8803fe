// Firmware and diagnostics, for both protocols: the calls (1.6 UpdateFirmware /
// GetDiagnostics, 2.0.1 UpdateFirmware / GetLog), what their answers say as a MaintenanceReply of
// facts (the API words it: contract/schemas/command-messages.ts), and what the charger's status
// reports (FirmwareStatusNotification, DiagnosticsStatusNotification, LogStatusNotification)
// change in the database.
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { chargerDiagnostics, chargers } from "../db/schema";
import type { CommandOutcome, MaintenanceReply } from "#contract/schemas/command-labels";
import type { ChargerRef } from "./store";
import type { OcppProtocol } from "../domain/ocpp-protocol";

export type CommandProtocol = OcppProtocol;

export type MaintenanceRequest =
  | { kind: "UpdateFirmware"; location: string; retrieveAt: Date; requestId: number }
  | { kind: "GetDiagnostics"; location: string; requestId: number; from?: Date; to?: Date };

export type { MaintenanceReply } from "#contract/schemas/command-labels";

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
 * The reply to the charger's answer. 1.6 UpdateFirmware answers nothing (an empty object is its
 * acceptance); 1.6 GetDiagnostics answers the file name, or none when it has nothing to send;
 * 2.0.1 answers a status.
 */
export function maintenanceReply(req: MaintenanceRequest, protocol: CommandProtocol, response: unknown): MaintenanceReply {
  const r = (response ?? {}) as { status?: string; fileName?: string; filename?: string };
  const fileName = r.fileName ?? r.filename;
  const accepted = r.status === "Accepted" || r.status === "AcceptedCanceled";
  if (req.kind === "UpdateFirmware") return { kind: req.kind, outcome: protocol === "ocpp1.6" || accepted ? "accepted" : "rejected", status: r.status };
  if (protocol === "ocpp1.6") return fileName ? { kind: req.kind, outcome: "accepted", fileName } : { kind: req.kind, outcome: "rejected", reason: "no-diagnostics" };
  return accepted ? { kind: req.kind, outcome: "accepted", status: r.status, fileName } : { kind: req.kind, outcome: "rejected", status: r.status };
}

/** The reply when the charger did not answer: offline, timeout, an error, or a CALLERROR (rejected, with its code). */
export function unansweredMaintenance(req: MaintenanceRequest, outcome: Exclude<CommandOutcome, "accepted">, code?: string): MaintenanceReply {
  return { kind: req.kind, outcome, ...(code ? { status: code, errorCode: code } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Status reports

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
