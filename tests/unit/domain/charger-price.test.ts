import { describe, expect, it } from "vitest";
import { finalCostText, grossCents, priceNow, priceText, runningCostCents, runningCostText } from "#domain/charger-price";
import { isArgentineHoliday } from "#domain/holidays.server";
import { priceSessionByBand } from "#domain/pricing";
import type { TariffBand } from "#domain/tariff-bands";
import { rateSnapshot } from "./rate-snapshot";

/** An instant given as Buenos Aires wall-clock time (UTC−3, no DST). */
const ba = (isoLocal: string) => new Date(`${isoLocal}-03:00`);
const clock = { timeZone: "America/Argentina/Buenos_Aires", isHoliday: isArgentineHoliday };
const PICO: TariffBand = { name: "Pico", days: "WEEKDAY", from: "18:00", to: "23:00", pricePerKwhCents: 42_000, pricePerMinuteCents: 0 };
const rate = rateSnapshot({ pricePerKwhCents: 35_000, pricePerMinuteCents: 1_000, bands: [PICO] });

describe("the price on the charger's screen", () => {
  it("says the price in force and the next band's, band-aware (Wednesday 2 December 2026)", () => {
    expect(priceText(rate, ba("2026-12-02T17:30:00"), clock)).toBe("$ 350,00/kWh · $ 10,00/min · Desde las 18:00: $ 420,00/kWh");
    expect(priceText(rate, ba("2026-12-02T19:00:00"), clock)).toBe("$ 420,00/kWh · Desde las 23:00: $ 350,00/kWh · $ 10,00/min");
    // Friday night: the next pico is Monday's.
    expect(priceText(rate, ba("2026-12-04T23:30:00"), clock)).toBe("$ 350,00/kWh · $ 10,00/min · Desde el 07/12 a las 18:00: $ 420,00/kWh");
    expect(priceText(rate, ba("2026-12-03T23:30:00"), clock)).toBe("$ 350,00/kWh · $ 10,00/min · Desde mañana a las 18:00: $ 420,00/kWh");
  });

  it("one price all day: no next change; session fee and idle penalty follow, thousands grouped", () => {
    const flat = rateSnapshot({ pricePerKwhCents: 123_456, sessionFeeCents: 50_000, idleGraceMinutes: 15, idlePricePerMinuteCents: 2_500 });
    expect(priceNow(flat, ba("2026-12-02T12:00:00"), clock).next).toBeNull();
    expect(priceText(flat, ba("2026-12-02T12:00:00"), clock)).toBe("$ 1.234,56/kWh · $ 500,00 por carga · Inactivo: $ 25,00/min después de 15 min");
  });

  it("prices without VAT are shown with it, rounded to the centavo", () => {
    const net = rateSnapshot({ pricePerKwhCents: 10_001, vatIncluded: false, vatRateBp: 2100 });
    expect(grossCents(10_001, net)).toBe(12_101); // 121,0121 → 121,01
    expect(priceText(net, ba("2026-12-02T12:00:00"), clock)).toBe("$ 121,01/kWh");
  });

  it("the running cost is the session priced as if it ended now, by the pricing rule, to the cent", () => {
    const startedAt = ba("2026-12-02T17:30:00");
    const at = ba("2026-12-02T18:15:00");
    const cost = runningCostCents(rate, { energyWh: 9_000, startedAt, chargingEndedAt: null }, at, clock);
    const byRule = priceSessionByBand(rate, { energyWh: 9_000, chargingMinutes: 45, idleMinutes: 0, startedAt, chargingEndedAt: at, timeZone: clock.timeZone, isHoliday: isArgentineHoliday });
    expect(cost).toBe(byRule.totalCents);
    // 6 kWh resto at 350 + 3 kWh pico at 420 (interpolated evenly); 30 min of resto at 10 (pico has no price per minute).
    expect(cost).toBe(210_000 + 126_000 + 30_000);
    expect(runningCostText(cost, 9_000)).toBe("Llevás $ 3.660,00 · 9,00 kWh");
    expect(finalCostText(123_456, 15_250)).toBe("Total: $ 1.234,56 · 15,25 kWh");
  });

  it("an idle session's running cost counts its idle penalty after the grace", () => {
    const idle = rateSnapshot({ pricePerKwhCents: 10_000, idleGraceMinutes: 10, idlePricePerMinuteCents: 500 });
    const startedAt = ba("2026-12-02T10:00:00");
    const cost = runningCostCents(idle, { energyWh: 1_000, startedAt, chargingEndedAt: ba("2026-12-02T10:30:00") }, ba("2026-12-02T10:50:00"), clock);
    expect(cost).toBe(10_000 + 10 * 500);
  });
});
