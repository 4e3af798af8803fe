// A prepaid session's receipt: its lines add up to what was charged, to the centavo.
import { describe, expect, it } from "vitest";
import { chargedPrice, priceSession, vatCents, type RateSnapshot, type SessionPrice } from "#domain/pricing";
import { rateSnapshot } from "./rate-snapshot";

const rate = (over: Partial<RateSnapshot> = {}) => rateSnapshot({ pricePerKwhCents: 35_000, ...over });

const linesTotal = (p: SessionPrice, r: RateSnapshot) => p.energyCents + p.timeCents + p.sessionFeeCents + p.idleCents + (r.vatIncluded ? 0 : p.vatCents);

describe("chargedPrice", () => {
  it("a $ 1.000 prepaid charge stopped at the cap: energy $ 1.000,00 and the VAT of $ 1.000,00", () => {
    const r = rate({ pricePerKwhCents: 35_000 });
    const price = priceSession(r, { energyWh: 2_863, chargingMinutes: 30, idleMinutes: 0 });
    expect(price).toMatchObject({ energyCents: 100_205, vatCents: 17_391, totalCents: 100_205 });
    const charged = chargedPrice(price, 100_000, r);
    expect(charged).toEqual({ energyCents: 100_000, timeCents: 0, sessionFeeCents: 0, idleCents: 0, subtotalCents: 100_000, vatCents: 17_355, totalCents: 100_000 });
  });

  it("a price under what was prepaid is unchanged", () => {
    const r = rate({ sessionFeeCents: 50_000 });
    const price = priceSession(r, { energyWh: 2_000, chargingMinutes: 30, idleMinutes: 0 });
    expect(chargedPrice(price, 500_000, r)).toEqual(price);
    expect(chargedPrice(price, price.totalCents, r)).toEqual(price);
  });

  it("gives the centavos left to the lines with the largest cut fraction, ties to the earlier line", () => {
    const r = rate();
    const price: SessionPrice = { energyCents: 100, timeCents: 100, sessionFeeCents: 100, idleCents: 0, subtotalCents: 300, vatCents: 52, totalCents: 300 };
    // 200 / 3 each: 66 and two centavos left, to energy and time (equal fractions).
    expect(chargedPrice(price, 200, r)).toMatchObject({ energyCents: 67, timeCents: 67, sessionFeeCents: 66, idleCents: 0, totalCents: 200 });
  });

  it("without VAT included, lines and VAT add up to the charged total and the VAT is the charged total's", () => {
    const r = rate({ vatIncluded: false, pricePerMinuteCents: 333, sessionFeeCents: 12_345, idlePricePerMinuteCents: 777 });
    const price = priceSession(r, { energyWh: 7_777, chargingMinutes: 47, idleMinutes: 19 });
    const charged = chargedPrice(price, 250_000, r);
    expect(charged.vatCents).toBe(vatCents(250_000, 2100, true));
    expect(linesTotal(charged, r)).toBe(250_000);
    expect(charged.subtotalCents + charged.vatCents).toBe(250_000);
  });

  it("every line sums to the charged amount to the cent, for many prices and caps", () => {
    // A deterministic spread of prices (energy, time, fee, idle) and caps below them.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let k = 0; k < 1_000; k++) {
      const r = rate({
        vatIncluded: k % 2 === 0,
        vatRateBp: [2100, 1050, 2700, 0][k % 4],
        pricePerKwhCents: next(60_000),
        pricePerMinuteCents: next(500),
        sessionFeeCents: next(80_000),
        idlePricePerMinuteCents: next(3_000),
      });
      const price = priceSession(r, { energyWh: next(120_000), chargingMinutes: next(300), idleMinutes: next(120) });
      const cap = next(price.totalCents + 1);
      const charged = chargedPrice(price, cap, r);
      expect(linesTotal(charged, r)).toBe(cap);
      expect(charged.totalCents).toBe(cap);
      expect(charged.vatCents).toBe(cap < price.totalCents ? vatCents(cap, r.vatRateBp, true) : price.vatCents);
      for (const line of ["energyCents", "timeCents", "sessionFeeCents", "idleCents"] as const) {
        expect(Number.isInteger(charged[line]) && charged[line] >= 0 && charged[line] <= price[line]).toBe(true);
      }
    }
  });
});
