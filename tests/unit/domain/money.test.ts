import { describe, expect, it } from "vitest";
import { formatArs, formatArsInput, parseArsInput } from "#domain/money";

const NBSP = "\u00a0";

describe("formatArs", () => {
  it("formats centavos as es-AR pesos", () => {
    expect(formatArs(123456)).toBe(`$${NBSP}1.234,56`);
    expect(formatArs(0)).toBe(`$${NBSP}0,00`);
    expect(formatArs(5)).toBe(`$${NBSP}0,05`);
    expect(formatArs(100_000_000)).toBe(`$${NBSP}1.000.000,00`);
    expect(formatArs(-2550)).toBe(`-$${NBSP}25,50`);
  });

  it("formats input values that parse back", () => {
    expect(formatArsInput(123456)).toBe("1.234,56");
    for (const cents of [0, 1, 99, 100, 123456, 987654321]) expect(parseArsInput(formatArsInput(cents))).toBe(cents);
  });
});

describe("parseArsInput", () => {
  it.each([
    ["1.234,56", 123456],
    ["1234,56", 123456],
    ["1234,5", 123450],
    ["$ 1.234,56", 123456],
    [`$${NBSP}1.234,56`, 123456],
    ["1.234", 123400],
    ["1.234.567", 123456700],
    ["1234", 123400],
    ["0,05", 5],
    [",5", 50],
    ["12.5", 1250],
    ["1234.56", 123456],
    [" 350 ", 35000],
    ["-25,50", -2550],
    ["0", 0],
  ])("%s → %i", (input, cents) => {
    expect(parseArsInput(input)).toBe(cents);
  });

  it.each(["", "$", "abc", "1,234,56", "12.34.5", "1.23,45", "1,234", "1.", "1e3", "--1", "1.000,5.0"])("rejects %j", (input) => {
    expect(parseArsInput(input)).toBeNull();
  });
});
