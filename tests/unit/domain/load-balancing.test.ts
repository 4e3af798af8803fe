import { describe, expect, it } from "vitest";
import { allocate } from "#domain/load-balancing";

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe("allocate (load balancing, ADR 0018)", () => {
  it("shares the capacity equally, never above a connector's maximum nor the total", () => {
    const two = allocate(11, [
      { id: "a", maxKw: 22, smart: true },
      { id: "b", maxKw: 22, smart: true },
    ]);
    expect(Object.fromEntries(two)).toEqual({ a: 5.5, b: 5.5 });
    const three = allocate(11, [
      { id: "a", maxKw: 22, smart: true },
      { id: "b", maxKw: 22, smart: true },
      { id: "c", maxKw: 22, smart: true },
    ]);
    expect(Object.fromEntries(three)).toEqual({ a: 3.66, b: 3.66, c: 3.66 });
    expect(sum(three)).toBeLessThanOrEqual(11);
  });

  it("gives what a small connector cannot use to the others", () => {
    const m = allocate(30, [
      { id: "small", maxKw: 3.7, smart: true },
      { id: "big", maxKw: 50, smart: true },
      { id: "mid", maxKw: 11, smart: true },
    ]);
    expect(Object.fromEntries(m)).toEqual({ small: 3.7, mid: 11, big: 15.3 });
  });

  it("counts connectors without smart charging at their maximum; never a negative limit", () => {
    expect(Object.fromEntries(allocate(11, [{ id: "dumb", maxKw: 7.4, smart: false }, { id: "a", maxKw: 22, smart: true }]))).toEqual({ a: 3.6 });
    expect(Object.fromEntries(allocate(11, [{ id: "dumb", maxKw: 22, smart: false }, { id: "a", maxKw: 22, smart: true }]))).toEqual({ a: 0 });
    expect(allocate(11, []).size).toBe(0);
  });
});
