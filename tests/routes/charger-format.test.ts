// The charger screens' dates: es-AR, Buenos Aires time, relative to the loader's clock.
import { describe, expect, it } from "vitest";
import { formatDateTime, relativeTime } from "~/components/charger/format";
import { normalizeDecimals, newConnector, ocppUrlFor } from "~/components/charger/schema";

const NOW = Date.parse("2025-03-10T15:00:00.000Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe("charger formatting", () => {
  it("formats instants in es-AR, 24 h, Buenos Aires time", () => {
    expect(formatDateTime("2025-03-10T15:04:00.000Z")).toBe("10/03/2025, 12:04");
    expect(formatDateTime(null)).toBe("");
    expect(formatDateTime("nope")).toBe("");
  });

  it("says how long ago in Spanish", () => {
    expect(relativeTime(ago(20_000), NOW)).toBe("hace menos de un minuto");
    expect(relativeTime(ago(5 * 60_000), NOW)).toBe("hace 5 minutos");
    expect(relativeTime(ago(2 * 3_600_000), NOW)).toBe("hace 2 horas");
    expect(relativeTime(ago(26 * 3_600_000), NOW)).toBe("ayer");
    expect(relativeTime(ago(40 * 86_400_000), NOW)).toBe("el mes pasado");
    expect(relativeTime(null, NOW)).toBe("");
  });
});

describe("charger form helpers", () => {
  it("a new row takes the next connector number", () => {
    expect(newConnector([]).connectorId).toBe("1");
    expect(newConnector([{ connectorId: "1" }, { connectorId: "4" }, { connectorId: "" }]).connectorId).toBe("5");
  });

  it("accepts a decimal comma in the power only", () => {
    const fd = new FormData();
    fd.append("connectors[0].maxPowerKw", " 7,4 ");
    fd.append("name", "Uno, dos");
    const out = normalizeDecimals(fd);
    expect(out.get("connectors[0].maxPowerKw")).toBe("7.4");
    expect(out.get("name")).toBe("Uno, dos");
  });

  it("builds the OCPP URL with the identity escaped", () => {
    expect(ocppUrlFor("wss://panel.example/ocpp/", "AR.BUE_01")).toBe("wss://panel.example/ocpp/AR.BUE_01");
  });
});
