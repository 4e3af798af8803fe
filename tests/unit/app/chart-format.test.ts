// es-AR formatting of the home charts and lists (app/components/charts/format.ts).
import { describe, expect, it } from "vitest";
import { formatDay, formatDayShort, formatInt, formatKwh, formatPct } from "~/components/charts/format";

describe("chart formatting", () => {
  it("names calendar days in Spanish, the same every time (kept after the first)", () => {
    expect(formatDay("2025-03-01")).toBe("1 de marzo de 2025");
    expect(formatDay("2025-03-01")).toBe("1 de marzo de 2025");
    expect(formatDay("2024-12-31")).toBe("31 de diciembre de 2024");
    expect(formatDayShort("2025-03-01")).toBe("01/03");
  });

  it("keeps naming days right past the kept names' limit", () => {
    const days = Array.from({ length: 1_200 }, (_, i) => new Date(Date.UTC(2023, 0, 1 + i)).toISOString().slice(0, 10));
    for (const d of days) formatDay(d);
    expect(formatDay("2023-01-01")).toBe("1 de enero de 2023");
    expect(formatDay(days.at(-1)!)).toBe("14 de abril de 2026");
  });

  it("formats numbers the Argentine way", () => {
    expect(formatInt(1234567)).toBe("1.234.567");
    expect(formatKwh(1234.5)).toBe("1.234,5 kWh");
    expect(formatPct(97.62)).toBe("97,6 %");
    expect(formatPct(null)).toBe("—");
  });
});
