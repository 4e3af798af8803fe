import { describe, expect, it } from "vitest";
import { PROVINCES, isProvinceCode, provinceFromName, provinceName } from "#domain/provinces";

describe("provinces", () => {
  it("lists the 24 jurisdictions with unique ISO 3166-2:AR codes", () => {
    expect(PROVINCES).toHaveLength(24);
    expect(new Set(PROVINCES.map((p) => p.code)).size).toBe(24);
    for (const p of PROVINCES) expect(p.code).toMatch(/^AR-[A-Z]$/);
    // Every letter but I and O is used.
    expect(
      PROVINCES.map((p) => p.code.slice(3))
        .sort()
        .join(""),
    ).toBe("ABCDEFGHJKLMNPQRSTUVWXYZ");
  });

  it("names codes in Spanish", () => {
    expect(provinceName("AR-C")).toBe("Ciudad Autónoma de Buenos Aires");
    expect(provinceName("AR-B")).toBe("Buenos Aires");
    expect(provinceName("AR-X")).toBe("Córdoba");
    expect(provinceName("AR-V")).toBe("Tierra del Fuego, Antártida e Islas del Atlántico Sur");
    expect(provinceName("AR-I")).toBeUndefined();
    expect(isProvinceCode("AR-Q")).toBe(true);
    expect(isProvinceCode("AR-I")).toBe(false);
  });

  it("finds codes from names as people and geocoders write them", () => {
    expect(provinceFromName("Córdoba")).toBe("AR-X");
    expect(provinceFromName("cordoba")).toBe("AR-X");
    expect(provinceFromName("Provincia de Buenos Aires")).toBe("AR-B");
    expect(provinceFromName("Buenos Aires")).toBe("AR-B");
    expect(provinceFromName("CABA")).toBe("AR-C");
    expect(provinceFromName("Ciudad Autónoma de Buenos Aires")).toBe("AR-C");
    expect(provinceFromName("Tierra del Fuego")).toBe("AR-V");
    expect(provinceFromName("NEUQUÉN")).toBe("AR-Q");
    expect(provinceFromName("Atlantis")).toBeUndefined();
  });
});
