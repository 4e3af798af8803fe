// The API words what the central system reports: a reply's facts become the same Spanish message
// and JSON the API has always answered, and the facts only the wording needs (the CALLERROR code,
// the reason a command was not sent) stay out of the answer.
import { describe, expect, it } from "vitest";
import { commandMessage, commandResult, firmwareStatusLabel, maintenanceMessage, maintenanceResult } from "#contract/schemas/command-messages";

describe("commandMessage / commandResult", () => {
  it("words the charger's status, and a CALLERROR by the status it reads as", () => {
    expect(commandMessage({ command: "ChangeAvailability", outcome: "accepted", status: "Scheduled" })).toBe("El cargador aceptó «Cambiar disponibilidad»; lo aplica al terminar la carga en curso.");
    expect(commandMessage({ command: "TriggerMessage", outcome: "rejected", status: "NotImplemented", errorCode: "NotImplemented" })).toBe("El cargador no implementa este mensaje («Pedir mensaje»).");
    // A CALLERROR to Cambiar intervalos reads as a refusal, not as the intervals it never reported.
    expect(commandMessage({ command: "ChangeConfiguration", outcome: "rejected", status: "Rejected", errorCode: "GenericError" })).toBe("El cargador lo rechazó («Cambiar intervalos»).");
    expect(commandMessage({ command: "Reset", outcome: "error" })).toBe("No se pudo completar «Reiniciar». Probá de nuevo.");
  });

  it("words why a command was not sent, and answers without the code or the reason", () => {
    expect(commandResult({ command: "RemoteStopTransaction", outcome: "rejected", reason: "no-open-transaction" })).toEqual({
      command: "RemoteStopTransaction",
      outcome: "rejected",
      message: "No hay una carga en curso en ese conector.",
    });
    expect(commandResult({ command: "UnlockConnector", outcome: "rejected", status: "Rejected", errorCode: "SecurityError" })).toEqual({
      command: "UnlockConnector",
      outcome: "rejected",
      status: "Rejected",
      message: "El cargador lo rechazó («Desbloquear conector»).",
    });
  });

  it("keeps the intervals answered before a call went unanswered, under the timeout's message", () => {
    const settings = { heartbeatInterval: { status: "Accepted", value: "45" } };
    expect(commandResult({ command: "ChangeConfiguration", outcome: "timeout", settings })).toEqual({
      command: "ChangeConfiguration",
      outcome: "timeout",
      message: "El cargador no respondió a tiempo a «Cambiar intervalos».",
      settings,
    });
  });
});

describe("maintenanceMessage / maintenanceResult", () => {
  it("words each protocol's answer", () => {
    expect(maintenanceMessage({ kind: "UpdateFirmware", outcome: "accepted", status: "AcceptedCanceled" })).toBe(
      "El cargador aceptó «Actualizar firmware»: informa el avance en «Firmware y diagnóstico». Canceló la actualización que tenía en curso.",
    );
    expect(maintenanceMessage({ kind: "UpdateFirmware", outcome: "rejected", status: "RevokedCertificate" })).toBe("El cargador rechazó el certificado de firma («Actualizar firmware»).");
    expect(maintenanceMessage({ kind: "GetDiagnostics", outcome: "accepted", fileName: "diag.zip" })).toBe("El cargador aceptó «Pedir diagnóstico»: sube diag.zip y aparece en «Firmware y diagnóstico» cuando llegue.");
    expect(maintenanceMessage({ kind: "GetDiagnostics", outcome: "accepted", status: "Accepted", fileName: "log.zip" })).toBe(
      "El cargador aceptó «Pedir diagnóstico»: sube el archivo y aparece en «Firmware y diagnóstico» cuando llegue.",
    );
  });

  it("a CALLERROR keeps its code as the status; NotImplemented reads as not implemented", () => {
    expect(maintenanceResult({ kind: "GetDiagnostics", outcome: "rejected", status: "NotSupported", errorCode: "NotSupported" })).toEqual({
      kind: "GetDiagnostics",
      outcome: "rejected",
      status: "NotSupported",
      message: "El cargador no implementa «Pedir diagnóstico».",
    });
    expect(maintenanceMessage({ kind: "UpdateFirmware", outcome: "rejected", status: "SecurityError", errorCode: "SecurityError" })).toBe("El cargador lo rechazó («Actualizar firmware»).");
  });

  it("labels the firmware status, or says none was reported", () => {
    expect([firmwareStatusLabel("Installed"), firmwareStatusLabel("VendorSpecific"), firmwareStatusLabel(null)]).toEqual(["Instalado", "VendorSpecific", "Sin informar"]);
  });
});
