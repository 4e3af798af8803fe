// The rate form's price preview (app/components/rate/preview.ts): the values as typed (es-AR
// text) priced by domain/pricing.ts, exactly as a real session with that rate would be.
import { describe, expect, it } from "vitest";
import { computePreview, idleStartDate, parseQuantity } from "~/components/rate/preview";
import { newRateValues } from "~/components/rate/schema";
import { priceSession, type RateSnapshot } from "#domain/pricing";
import { rateSnapshot } from "./rate-snapshot";

const values = (over: Record<string, string> = {}) => ({ ...newRateValues(), name: "Prueba", ...over });

const snapshot = (over: Partial<RateSnapshot>) => rateSnapshot({ rateId: null, ...over });

describe("computePreview", () => {
  it("prices the default scenario (45 min, 30 kWh, 20 min idle) with every component", () => {
    const p = computePreview(
      values({ pricePerKwhCents: "350", pricePerMinuteCents: "10,50", sessionFeeCents: "500", idleGraceMinutes: "10", idlePricePerMinuteCents: "50", vatIncluded: "false" }),
    );
    if (!p.ok) throw new Error(p.problems.join());
    expect(p.scenario).toEqual({ chargingMinutes: 45, energyKwh: 30, idleMinutes: 20, idleStart: "20:00", day: "WEEKDAY" });
    const expected = priceSession(
      snapshot({ pricePerKwhCents: 35_000, pricePerMinuteCents: 1_050, sessionFeeCents: 50_000, idleGraceMinutes: 10, idlePricePerMinuteCents: 5_000, vatIncluded: false }),
      { energyWh: 30_000, chargingMinutes: 45, idleMinutes: 20 },
    );
    expect(p.price).toEqual({ ...expected, bands: [], bandsEstimated: false });
    // 30 kWh × $350 + 45 min × $10,50 + $500 + 10 min × $50 = $11.972,50; + 21 % IVA.
    expect(p.price).toMatchObject({ energyCents: 1_050_000, timeCents: 47_250, sessionFeeCents: 50_000, idleCents: 50_000, subtotalCents: 1_197_250, vatCents: 251_423, totalCents: 1_448_673 });
    expect(p.billableIdleMinutes).toBe(10);
  });

  it("VAT included: the total is the subtotal, the VAT is inside it", () => {
    const p = computePreview(values({ pricePerKwhCents: "1.210,00" }));
    if (!p.ok) throw new Error();
    expect(p.price).toMatchObject({ energyCents: 3_630_000, vatCents: 630_000, totalCents: 3_630_000 });
  });

  it("caps the idle penalty", () => {
    const p = computePreview(values({ pricePerKwhCents: "1", idlePricePerMinuteCents: "100", idleMaxCents: "1.000", [`scenarioIdleMinutes`]: "600" }));
    if (!p.ok) throw new Error();
    expect(p.price.idleCents).toBe(100_000);
  });

  it("idle hours across midnight count only the minutes inside the window, from the scenario's end of charging", () => {
    const rate = { pricePerKwhCents: "1", idlePricePerMinuteCents: "10", idleGraceMinutes: "10", idleActiveFrom: "22:00", idleActiveTo: "06:00" };
    // Charging ends 21:50: grace to 22:00, then 20 min inside the window.
    const late = computePreview(values({ ...rate, scenarioIdleMinutes: "30", scenarioIdleStart: "21:50" }));
    // Ends 05:50: grace to 06:00, the rest is outside.
    const morning = computePreview(values({ ...rate, scenarioIdleMinutes: "30", scenarioIdleStart: "05:50" }));
    // Ends 12:00: outside all along.
    const noon = computePreview(values({ ...rate, scenarioIdleMinutes: "30", scenarioIdleStart: "12:00" }));
    if (!late.ok || !morning.ok || !noon.ok) throw new Error();
    expect([late.billableIdleMinutes, morning.billableIdleMinutes, noon.billableIdleMinutes]).toEqual([20, 0, 0]);
    expect(late.price.idleCents).toBe(20_000);
  });

  it("an incomplete window is ignored (and said so), not a crash", () => {
    const p = computePreview(values({ pricePerKwhCents: "1", idlePricePerMinuteCents: "10", idleActiveFrom: "22:00" }));
    if (!p.ok) throw new Error();
    expect(p.windowIgnored).toBe(true);
    expect(p.price.idleCents).toBe(20_000);
  });

  it("reads the scenario es-AR style and names what cannot be priced", () => {
    const p = computePreview(values({ pricePerKwhCents: "100", scenarioKwh: "12,5", scenarioMinutes: "30.5" }));
    if (!p.ok) throw new Error();
    expect(p.price.energyCents).toBe(125_000);
    expect(p.scenario.chargingMinutes).toBe(30.5);

    const bad = computePreview(values({ pricePerKwhCents: "12,345", scenarioKwh: "-3" }));
    expect(bad).toEqual({ ok: false, problems: ["Revisá el precio por kWh.", "Revisá los kWh del ejemplo."] });
  });

  it("helpers: quantities and a fixed Buenos Aires day", () => {
    expect([parseQuantity("30"), parseQuantity("2,5"), parseQuantity(" 7.25 "), parseQuantity(""), parseQuantity("1e3"), parseQuantity("-1")]).toEqual([30, 2.5, 7.25, null, null, null]);
    expect(idleStartDate("23:30").toISOString()).toBe("2025-01-16T02:30:00.000Z");
  });
});
