import { describe, expect, it } from "vitest";
import {
  CHARGE_POINT_STATUSES,
  CHARGE_POINT_STATUS_LABELS,
  chargePointStatusLabel,
  errorCodeLabel,
  isChargePointStatus,
  stopReasonLabel,
} from "#domain/ocpp-status";
import { countByBucket, statusBucket } from "#domain/ocpp-status-summary";

describe("OCPP 1.6 ChargePointStatus", () => {
  it("has the nine statuses with their Spanish labels", () => {
    expect(CHARGE_POINT_STATUSES).toHaveLength(9);
    expect(CHARGE_POINT_STATUS_LABELS).toEqual({
      Available: "Disponible",
      Preparing: "Preparando",
      Charging: "Cargando",
      SuspendedEV: "Suspendido (VE)",
      SuspendedEVSE: "Suspendido (cargador)",
      Finishing: "Finalizando",
      Reserved: "Reservado",
      Unavailable: "No disponible",
      Faulted: "En falla",
    });
    expect(chargePointStatusLabel("Faulted")).toBe("En falla");
  });

  it("recognises statuses as spelled on the wire", () => {
    expect(isChargePointStatus("SuspendedEV")).toBe(true);
    expect(isChargePointStatus("available")).toBe(false);
    expect(isChargePointStatus(3)).toBe(false);
  });

  it("summarises into available / charging / faulted / offline", () => {
    expect(statusBucket("Available")).toBe("available");
    for (const s of ["Preparing", "Charging", "SuspendedEV", "SuspendedEVSE", "Finishing", "Reserved"] as const) {
      expect(statusBucket(s)).toBe("charging");
    }
    expect(statusBucket("Faulted")).toBe("faulted");
    expect(statusBucket("Unavailable")).toBe("offline");
    expect(statusBucket(null)).toBe("offline");
    // A charger that is not connected cannot vouch for its last status.
    expect(statusBucket("Available", { online: false })).toBe("offline");
    expect(statusBucket("Faulted", { online: false })).toBe("offline");
    expect(statusBucket("Available", { online: true, enabled: false })).toBe("offline");
  });

  it("counts every bucket", () => {
    expect(countByBucket(["available", "available", "faulted"])).toEqual({ available: 2, charging: 0, faulted: 1, offline: 0 });
  });

  it("labels error codes and stop reasons, passing unknown vendor values through", () => {
    expect(errorCodeLabel("GroundFailure")).toBe("Falla de puesta a tierra");
    expect(errorCodeLabel(null)).toBe("Sin errores");
    expect(errorCodeLabel("VendorX-42")).toBe("VendorX-42");
    expect(stopReasonLabel("EVDisconnected")).toBe("Vehículo desconectado");
    expect(stopReasonLabel(null)).toBe("Finalizada en el cargador");
    expect(stopReasonLabel("Weird")).toBe("Weird");
    // OCPP 2.0.1 reasons read the same way on the screens.
    expect(stopReasonLabel("StoppedByEV")).toBe("Finalizada por el vehículo");
    expect(stopReasonLabel("Remote")).toBe("Finalizada de forma remota");
  });
});
