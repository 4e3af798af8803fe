import { describe, expect, it } from "vitest";
import { cuitCheckDigit, formatCuit, isValidCuit, normalizeCuit, parseCuit } from "#domain/cuit";

describe("CUIT", () => {
  it.each([
    "20-12345678-6",
    "20123456786",
    "33-69345023-9", // AFIP's own
    "30-71234567-1",
    "27-33444555-6",
    "23-40000004-2",
    "20-30111222-0", // remainder 0 → 11 → check digit 0
    " 30 50000001 1 ",
    "20.12345678.6",
  ])("accepts %s", (cuit) => {
    expect(isValidCuit(cuit)).toBe(true);
  });

  it.each([
    ["20-12345678-5", "checkDigit"],
    ["33-69345023-8", "checkDigit"],
    ["20-12345600-0", "checkDigit"], // remainder 1 → 10: no digit is valid (AFIP reissues as 23-…)
    ["20-12345600-9", "checkDigit"],
    ["99-12345678-6", "prefix"],
    ["00-00000000-0", "prefix"],
    ["2012345678", "format"],
    ["201234567861", "format"],
    ["20-1234567-86", "format"],
    ["20_12345678_6", "format"],
    ["", "format"],
    ["abcdefghijk", "format"],
  ])("rejects %s (%s)", (cuit, problem) => {
    expect(parseCuit(cuit)).toEqual({ ok: false, problem });
    expect(isValidCuit(cuit)).toBe(false);
  });

  it("computes the check digit with weights 5432765432 and handles 11 and 10", () => {
    expect(cuitCheckDigit("3071234567")).toBe(1);
    expect(cuitCheckDigit("2030111222")).toBe(0);
    expect(cuitCheckDigit("2012345600")).toBeNull();
    expect(() => cuitCheckDigit("123")).toThrow(RangeError);
  });

  it("normalizes to 11 digits and formats as XX-XXXXXXXX-X", () => {
    expect(normalizeCuit("20-12345678-6")).toBe("20123456786");
    expect(normalizeCuit("20123456786")).toBe("20123456786");
    expect(normalizeCuit("20-123")).toBeNull();
    expect(parseCuit("20-12345678-6")).toEqual({ ok: true, cuit: "20123456786" });
    expect(formatCuit("20123456786")).toBe("20-12345678-6");
    expect(formatCuit("20-12345678-6")).toBe("20-12345678-6");
    expect(formatCuit(" nada ")).toBe("nada");
  });
});
