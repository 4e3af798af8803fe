import { describe, expect, it } from "vitest";
import {
  billableIdleMinutes,
  priceNoShow,
  priceSession,
  rateSnapshotFromRow,
  roundCents,
  usageFromSession,
  vatCents,
} from "#domain/pricing";
import { rateSnapshot } from "./rate-snapshot";

const rate = rateSnapshot;
const usage = (over: Partial<Parameters<typeof priceSession>[1]> = {}) => ({ energyWh: 0, chargingMinutes: 0, idleMinutes: 0, ...over });
/** An instant given as Buenos Aires wall-clock time (UTC−3). */
const ba = (isoLocal: string) => new Date(`${isoLocal}-03:00`);

describe("roundCents", () => {
  it("rounds half away from zero, without float noise or -0", () => {
    expect(roundCents(2.5)).toBe(3);
    expect(roundCents(2.4999)).toBe(2);
    expect(roundCents(-2.5)).toBe(-3);
    expect(roundCents(0.1 * 3 * 10)).toBe(3);
    expect(roundCents(1.005 * 1000)).toBe(1005);
    expect(roundCents(4162.5)).toBe(4163);
    expect(Object.is(roundCents(-0.4), 0)).toBe(true);
    expect(() => roundCents(Number.NaN)).toThrow(RangeError);
  });
});

describe("priceSession components", () => {
  it("charges energy per kWh from Wh", () => {
    expect(priceSession(rate({ pricePerKwhCents: 35_000 }), usage({ energyWh: 12_345 })).energyCents).toBe(432_075);
    expect(priceSession(rate({ pricePerKwhCents: 333 }), usage({ energyWh: 1_500 })).energyCents).toBe(500); // 499.5
    expect(priceSession(rate({ pricePerKwhCents: 333 }), usage({ energyWh: 1_499 })).energyCents).toBe(499); // 499.167
  });

  it("charges time per charging minute, pro rata", () => {
    expect(priceSession(rate({ pricePerMinuteCents: 1_000 }), usage({ chargingMinutes: 37, idleMinutes: 100 })).timeCents).toBe(37_000);
    expect(priceSession(rate({ pricePerMinuteCents: 333 }), usage({ chargingMinutes: 12.5 })).timeCents).toBe(4_163);
  });

  it("adds the session fee as is", () => {
    const p = priceSession(rate({ sessionFeeCents: 50_000 }), usage());
    expect(p).toMatchObject({ sessionFeeCents: 50_000, subtotalCents: 50_000, totalCents: 50_000 });
  });

  it("rounds each component once, not the sum", () => {
    // 0.5 + 0.5 centavos: each rounds up to 1, so 2 (rounding the sum would give 1).
    const p = priceSession(rate({ pricePerKwhCents: 1, pricePerMinuteCents: 1, vatRateBp: 0 }), usage({ energyWh: 500, chargingMinutes: 0.5 }));
    expect(p).toMatchObject({ energyCents: 1, timeCents: 1, subtotalCents: 2, totalCents: 2 });
  });

  it("prices a real DC session (the demo's first one) end to end", () => {
    const dc = rate({ pricePerKwhCents: 55_000, sessionFeeCents: 50_000, idleGraceMinutes: 10, idlePricePerMinuteCents: 15_000, idleMaxCents: 1_500_000 });
    expect(priceSession(dc, usage({ energyWh: 33_117, chargingMinutes: 60, idleMinutes: 3 }))).toEqual({
      energyCents: 1_821_435,
      timeCents: 0,
      sessionFeeCents: 50_000,
      idleCents: 0,
      subtotalCents: 1_871_435,
      vatCents: 324_795,
      totalCents: 1_871_435,
    });
  });

  it("rejects impossible usage", () => {
    expect(() => priceSession(rate(), usage({ energyWh: -1 }))).toThrow(RangeError);
    expect(() => priceSession(rate(), usage({ chargingMinutes: Number.POSITIVE_INFINITY }))).toThrow(RangeError);
    expect(() => priceSession(rate(), usage({ idleMinutes: Number.NaN }))).toThrow(RangeError);
  });
});

describe("idle penalty", () => {
  const idle = rate({ idleGraceMinutes: 30, idlePricePerMinuteCents: 5_000, idleMaxCents: 500_000 });

  it("is free up to and including the grace minutes", () => {
    expect(priceSession(idle, usage({ idleMinutes: 29 })).idleCents).toBe(0);
    expect(priceSession(idle, usage({ idleMinutes: 30 })).idleCents).toBe(0);
    expect(priceSession(idle, usage({ idleMinutes: 31 })).idleCents).toBe(5_000);
    expect(priceSession(idle, usage({ idleMinutes: 30.5 })).idleCents).toBe(2_500);
  });

  it("charges per minute after grace, up to the cap", () => {
    expect(priceSession(idle, usage({ idleMinutes: 100 })).idleCents).toBe(350_000);
    expect(priceSession(idle, usage({ idleMinutes: 130 })).idleCents).toBe(500_000); // exactly the cap
    expect(priceSession(idle, usage({ idleMinutes: 600 })).idleCents).toBe(500_000);
    expect(priceSession({ ...idle, idleMaxCents: null }, usage({ idleMinutes: 600 })).idleCents).toBe(2_850_000);
    expect(priceSession({ ...idle, idleMaxCents: 0 }, usage({ idleMinutes: 600 })).idleCents).toBe(0);
  });

  it("costs nothing without an idle price, whatever the time", () => {
    expect(priceSession(rate({ idleGraceMinutes: 5 }), usage({ idleMinutes: 500 })).idleCents).toBe(0);
  });

  describe("active hours", () => {
    const night = rate({ idleGraceMinutes: 15, idlePricePerMinuteCents: 8_000, idleActiveFrom: "22:00", idleActiveTo: "06:00" });

    it("counts only minutes inside a window that crosses midnight", () => {
      // Idle 21:30–22:30, grace until 21:45: 22:00–22:30 is billable.
      const u = usage({ idleMinutes: 60, idleStartedAt: ba("2025-03-10T21:30:00") });
      expect(billableIdleMinutes(night, u)).toBe(30);
      expect(priceSession(night, u).idleCents).toBe(240_000);
      // 05:30–06:30, grace until 05:45: 05:45–06:00.
      expect(billableIdleMinutes(night, usage({ idleMinutes: 60, idleStartedAt: ba("2025-03-11T05:30:00") }))).toBe(15);
      // All night, 20:00–08:00: the whole 8 h window.
      expect(billableIdleMinutes(night, usage({ idleMinutes: 720, idleStartedAt: ba("2025-03-10T20:00:00") }))).toBe(480);
      // Three days parked from noon: three nights.
      expect(billableIdleMinutes(night, usage({ idleMinutes: 72 * 60, idleStartedAt: ba("2025-03-10T12:00:00") }))).toBe(3 * 480);
      // Entirely in daytime: nothing.
      expect(priceSession(night, usage({ idleMinutes: 240, idleStartedAt: ba("2025-03-10T09:00:00") })).idleCents).toBe(0);
    });

    it("counts grace from the start of idle time even outside the window", () => {
      // Idle from 21:50; grace runs to 22:05, so 22:05–22:20 is billable.
      expect(billableIdleMinutes(night, usage({ idleMinutes: 30, idleStartedAt: ba("2025-03-10T21:50:00") }))).toBe(15);
    });

    it("supports a daytime window and the all-day window (from = to)", () => {
      const day = rate({ idlePricePerMinuteCents: 100, idleActiveFrom: "09:00", idleActiveTo: "18:00" });
      expect(billableIdleMinutes(day, usage({ idleMinutes: 120, idleStartedAt: ba("2025-03-10T17:00:00") }))).toBe(60);
      expect(billableIdleMinutes(day, usage({ idleMinutes: 120, idleStartedAt: ba("2025-03-10T08:00:00") }))).toBe(60);
      const allDay = rate({ idlePricePerMinuteCents: 100, idleActiveFrom: "00:00", idleActiveTo: "00:00" });
      expect(billableIdleMinutes(allDay, usage({ idleMinutes: 90, idleStartedAt: ba("2025-03-10T03:00:00") }))).toBe(90);
    });

    it("cuts partial minutes at the window edge and bills them pro rata", () => {
      const u = usage({ idleMinutes: 10, idleStartedAt: ba("2025-03-10T21:59:30") });
      const r = { ...night, idleGraceMinutes: 0 };
      expect(billableIdleMinutes(r, u)).toBe(9.5);
      expect(priceSession(r, u).idleCents).toBe(76_000);
    });

    it("reads the window in the station's time zone", () => {
      const late = rate({ idlePricePerMinuteCents: 100, idleActiveFrom: "22:00", idleActiveTo: "23:00" });
      const at = new Date("2025-03-11T01:00:00Z"); // 22:00 in Buenos Aires, 01:00 UTC
      expect(billableIdleMinutes(late, usage({ idleMinutes: 60, idleStartedAt: at }))).toBe(60);
      expect(billableIdleMinutes(late, usage({ idleMinutes: 60, idleStartedAt: at, timeZone: "America/Argentina/Buenos_Aires" }))).toBe(60);
      expect(billableIdleMinutes(late, usage({ idleMinutes: 60, idleStartedAt: at, timeZone: "UTC" }))).toBe(0);
    });

    it("still applies the cap", () => {
      expect(priceSession({ ...night, idleMaxCents: 100_000 }, usage({ idleMinutes: 720, idleStartedAt: ba("2025-03-10T20:00:00") })).idleCents).toBe(100_000);
    });

    it("needs the idle start and a complete window", () => {
      expect(() => priceSession(night, usage({ idleMinutes: 60 }))).toThrow(TypeError);
      // Within grace the start does not matter.
      expect(priceSession(night, usage({ idleMinutes: 10 })).idleCents).toBe(0);
      expect(() => billableIdleMinutes({ ...night, idleActiveTo: null }, usage({ idleMinutes: 60, idleStartedAt: new Date() }))).toThrow(RangeError);
      expect(() => billableIdleMinutes({ ...night, idleActiveTo: "6:00" }, usage({ idleMinutes: 60, idleStartedAt: new Date() }))).toThrow(RangeError);
    });
  });
});

describe("VAT", () => {
  it("when included, is the part of the subtotal that is VAT", () => {
    const p = priceSession(rate({ sessionFeeCents: 12_100 }), usage());
    expect(p).toMatchObject({ subtotalCents: 12_100, vatCents: 2_100, totalCents: 12_100 });
    expect(priceSession(rate({ sessionFeeCents: 1_000 }), usage()).vatCents).toBe(174); // 173.55
  });

  it("when not included, is added on top", () => {
    const p = priceSession(rate({ sessionFeeCents: 1_000, vatIncluded: false }), usage());
    expect(p).toMatchObject({ subtotalCents: 1_000, vatCents: 210, totalCents: 1_210 });
    expect(priceSession(rate({ sessionFeeCents: 1_005, vatIncluded: false }), usage()).vatCents).toBe(211); // 211.05
    expect(priceSession(rate({ sessionFeeCents: 50, vatIncluded: false }), usage()).vatCents).toBe(11); // 10.5
  });

  it("mod_tariffs §PriceComponent vat: when not included, each line gets its VAT rounded on its own unrounded amount, as a partner prices it from the tariff", () => {
    // 92 s at $7.77/min: $11.914 net → $11.91; with 21 % VAT $14.41594 → $14.42, so the VAT is $2.51 (not 21 % of $11.91 = $2.50).
    const p = priceSession(rate({ pricePerKwhCents: 0, sessionFeeCents: 0, pricePerMinuteCents: 777, vatIncluded: false }), usage({ chargingMinutes: 92 / 60 }));
    expect(p).toMatchObject({ timeCents: 1_191, vatCents: 251, totalCents: 1_442 });
  });

  it("follows the rate's VAT rate (10.5 % or exempt)", () => {
    expect(vatCents(10_000, 1050, false)).toBe(1_050);
    expect(priceSession(rate({ sessionFeeCents: 10_000, vatRateBp: 0, vatIncluded: false }), usage())).toMatchObject({ vatCents: 0, totalCents: 10_000 });
  });

  it("adds up: every component plus VAT makes the total", () => {
    const r = rate({ pricePerKwhCents: 28_000, pricePerMinuteCents: 1_000, idleGraceMinutes: 15, idlePricePerMinuteCents: 8_000, vatIncluded: false });
    const p = priceSession(r, usage({ energyWh: 18_765, chargingMinutes: 143, idleMinutes: 40 }));
    expect(p).toEqual({
      energyCents: 525_420,
      timeCents: 143_000,
      sessionFeeCents: 0,
      idleCents: 200_000,
      subtotalCents: 868_420,
      vatCents: 182_368, // 182 368.2
      totalCents: 1_050_788,
    });
  });
});

describe("usageFromSession", () => {
  it("derives charging and idle minutes from the session's instants, to the started second", () => {
    const u = usageFromSession({
      energyWh: 10_000,
      startedAt: ba("2025-03-10T10:00:00"),
      chargingEndedAt: ba("2025-03-10T11:30:40"),
      unpluggedAt: ba("2025-03-10T12:15:50"),
      stoppedAt: ba("2025-03-10T11:31:00"),
    });
    expect(u).toMatchObject({ energyWh: 10_000, chargingMinutes: 90 + 40 / 60, idleMinutes: 45 + 10 / 60 });
    expect(u.idleStartedAt).toEqual(ba("2025-03-10T11:30:40"));
  });

  it("mod_tariffs §PriceComponent step_size (consumed amounts are rounded up): a started second is billed whole, never dropped", () => {
    const t0 = new Date("2026-11-26T12:00:00.000Z");
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    // 60.5 min charging, then 30.5 min idle: billed as used, not as 60 and 30.
    expect(usageFromSession({ energyWh: 0, startedAt: t0, chargingEndedAt: at(3630), unpluggedAt: at(3630 + 1830), stoppedAt: null })).toMatchObject({ chargingMinutes: 60.5, idleMinutes: 30.5 });
    // 91.5 s → 92 s; 12.5 s → 13 s (not 60 s and 0).
    expect(usageFromSession({ energyWh: 0, startedAt: t0, chargingEndedAt: at(91.5), unpluggedAt: at(91.5 + 12.5), stoppedAt: null })).toMatchObject({ chargingMinutes: 92 / 60, idleMinutes: 13 / 60 });
  });

  it("falls back to the stop when the unplug is unknown, and to no idle when charging never ended", () => {
    const started = ba("2025-03-10T10:00:00");
    expect(usageFromSession({ energyWh: 1, startedAt: started, chargingEndedAt: ba("2025-03-10T10:20:00"), unpluggedAt: null, stoppedAt: ba("2025-03-10T10:50:00") })).toMatchObject({
      chargingMinutes: 20,
      idleMinutes: 30,
    });
    expect(usageFromSession({ energyWh: 1, startedAt: started, chargingEndedAt: null, unpluggedAt: null, stoppedAt: ba("2025-03-10T10:50:00") })).toMatchObject({
      chargingMinutes: 50,
      idleMinutes: 0,
    });
  });
});

describe("snapshots and no-show", () => {
  it("snapshots a rate row", () => {
    const row = {
      id: "r9",
      businessId: "b1",
      name: "AC",
      currency: "ARS",
      pricePerKwhCents: 35_000,
      pricePerMinuteCents: 0,
      sessionFeeCents: 0,
      vatIncluded: true,
      vatRateBp: 2100,
      idleGraceMinutes: 30,
      idlePricePerMinuteCents: 5_000,
      idleMaxCents: 500_000,
      idleActiveFrom: null,
      idleActiveTo: null,
      noShowFeeCents: 150_000,
      bands: [],
      localHolidays: [],
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    expect(rateSnapshotFromRow(row)).toEqual(rate({ rateId: "r9", name: "AC", pricePerKwhCents: 35_000, idleGraceMinutes: 30, idlePricePerMinuteCents: 5_000, idleMaxCents: 500_000, noShowFeeCents: 150_000, bands: [], localHolidays: [] }));
  });

  it("prices the reservation no-show fee with the rate's VAT handling", () => {
    expect(priceNoShow(rate({ noShowFeeCents: 150_000 }))).toEqual({ feeCents: 150_000, vatCents: 26_033, totalCents: 150_000 });
    expect(priceNoShow(rate({ noShowFeeCents: 100_000, vatIncluded: false }))).toEqual({ feeCents: 100_000, vatCents: 21_000, totalCents: 121_000 });
  });
});
