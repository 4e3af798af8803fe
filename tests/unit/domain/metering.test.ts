import { describe, expect, it } from "vitest";
import { energyFromReadings, meterFaultNotice } from "#domain/metering";

describe("energyFromReadings", () => {
  it.each([
    // [case, meter start, readings (stop last), energy, fault kind]
    ["a register that only moves forward", 1_000, [5_000, 9_000, 12_000], 11_000, null],
    ["no readings after the start", 1_000, [], 0, null],
    ["a register that stands still", 1_000, [1_000, 1_000], 0, null],
    ["a stop below earlier readings: billed by the highest", 1_000, [5_000, 9_000, 3_000], 8_000, "regressed"],
    ["a stop below the start but a reading above it before", 1_000, [9_000, 500], 8_000, "reset"],
    ["a reading that dips and recovers: never counted twice", 1_000, [9_000, 8_990, 9_000, 9_500], 8_500, "regressed"],
    ["a meter flapping between two values: billed by the highest", 1_000, [9_000, 3_000, 9_000, 3_000, 9_000], 8_000, "regressed"],
    ["a register that restarted from zero: both runs count", 1_000, [5_000, 9_000, 0, 2_000], 10_000, "reset"],
    ["a register that restarted twice", 1_000, [4_000, 200, 1_200, 100, 600], 4_500, "reset"],
    ["untrustworthy readings (negative, not a number) are ignored", 1_000, [5_000, -1, Number.NaN, Infinity, 6_000], 5_000, null],
    ["fractional Wh are rounded half away from zero", 1_000.4, [2_000.9], 1_001, null],
  ] as const)("%s", (_case, start, readings, energyWh, kind) => {
    const r = energyFromReadings(start, readings);
    expect(r.energyWh).toBe(energyWh);
    expect(r.fault?.kind ?? null).toBe(kind);
    if (r.fault) expect(r.fault.billedWh).toBe(energyWh);
  });

  it.each([
    // [case, meter start, readings, highest seen before, energy, fault kind]
    ["a stop above the highest periodic reading", 1_000, [12_000], 9_000, 11_000, null],
    ["a stop below the highest periodic reading (the late stop)", 1_000, [3_000], 9_000, 8_000, "regressed"],
    ["earlier readings resent with the stop are not a regression", 1_000, [5_000, 9_000, 10_000], 9_000, 9_000, null],
    ["a stop below the meter start after periodic readings", 1_000, [500], 9_000, 8_000, "reset"],
    ["a restart in the stop's own readings counts both runs", 1_000, [9_000, 100, 2_100], 9_000, 10_000, "reset"],
    ["no periodic reading above the start", 1_000, [3_000], 1_000, 2_000, null],
  ] as const)("with a highest periodic reading: %s", (_case, start, readings, seen, energyWh, kind) => {
    const r = energyFromReadings(start, readings, seen);
    expect(r.energyWh).toBe(energyWh);
    expect(r.fault?.kind ?? null).toBe(kind);
  });

  it("keeps the highest and the stop reading for the operator's notice", () => {
    expect(energyFromReadings(1_000, [3_000], 9_000).fault).toEqual({ kind: "regressed", highestWh: 9_000, stopWh: 3_000, billedWh: 8_000 });
    const { fault } = energyFromReadings(1_000, [5_000, 9_000, 3_000]);
    expect(fault).toEqual({ kind: "regressed", highestWh: 9_000, stopWh: 3_000, billedWh: 8_000 });
    expect(meterFaultNotice(fault!)).toBe("El medidor retrocedió: facturamos según la lectura más alta registrada (9.000 Wh).");
  });

  it("says a restarted register was billed by both runs", () => {
    const { fault } = energyFromReadings(1_000, [9_000, 0, 2_000]);
    expect(meterFaultNotice(fault!)).toBe("El medidor se reinició durante la carga: facturamos la energía registrada antes y después del reinicio (10.000 Wh).");
  });
});
