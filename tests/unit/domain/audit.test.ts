// The audit log reads as the screens do: enums by their labels, dates in es-AR, names rather
// than internal ids or image addresses, and a member who joined is not named as a company.
import { describe, expect, it } from "vitest";
import { auditActionLabel, auditSubject, describeChanges } from "#domain/audit";

const sp = (s: string) => s.replace(/\s/g, " ");

describe("audit vocabulary", () => {
  it("a reservation's state and the charger's answer by their labels, its end as a date in es-AR", () => {
    const lines = describeChanges(
      { status: { before: null, after: "REFUSED" }, chargerStatus: { before: null, after: "Occupied" }, expiresAt: { before: null, after: "2026-11-28T08:49" } },
      "reservation",
    ).map(sp);
    expect(lines).toEqual(["Estado: Rechazada por el cargador", "Respuesta del cargador: Ocupado", "Vence: 28/11/26 8:49 a. m."]);
  });

  it("internal ids are left out and a photo reads as added, changed or removed", () => {
    expect(describeChanges({ connectorId: { before: null, after: "0b6f1a52-5d1c-4f8e-9a55-0c6a8f0e9d11" }, idTag: { before: null, after: "ABC" } }, "reservation")).toEqual(["Identificación (idTag): ABC"]);
    expect(describeChanges({ photoUrl: { before: "https://x.test/a.jpg", after: "https://x.test/b.jpg" } }, "station")).toEqual(["Foto: cambiada"]);
    expect(describeChanges({ photoUrl: { before: null, after: "https://x.test/a.jpg" } }, "station")).toEqual(["Foto: agregada"]);
    expect(describeChanges({ photoUrl: { before: "https://x.test/a.jpg", after: null } }, "profile")).toEqual(["Foto: quitada"]);
  });

  it("a member who joined is not named after the phrase as if the e-mail were the company", () => {
    const entry = { action: "member.join", resourceLabel: "tecnico.nuevo@example.com", actorEmail: "Tecnico.Nuevo@example.com" };
    expect(auditActionLabel(entry.action)).toBe("Se unió al equipo");
    expect(auditSubject(entry)).toBeNull();
    expect(auditSubject({ action: "member.update", resourceLabel: "otra@example.com", actorEmail: "duena@example.com" })).toBe("otra@example.com");
  });
});
