// The shared zod schemas (contract/schemas) as the forms use them: outputs and Spanish messages.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { registerBusinessSchema, updateBusinessUserSchema } from "#contract/schemas/business";
import { isoDate, isoDateEnd } from "#contract/schemas/common";
import { spanishErrorMap } from "#contract/schemas/messages";
import { zodFieldErrors } from "#api/problem";
import { stationInputSchema } from "#contract/schemas/station";
import { validCuit } from "./helpers";

const errors = (schema: z.ZodType, data: unknown) => {
  const r = schema.safeParse(data, { error: spanishErrorMap });
  return r.success ? {} : zodFieldErrors(r.error);
};

describe("shared schemas", () => {
  it("normalizes a CUIT written with dashes, spaces or dots", () => {
    const cuit = validCuit(30_500_000);
    const dashed = `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit[10]}`;
    for (const input of [cuit, dashed, dashed.replace(/-/g, " "), dashed.replace(/-/g, ".")]) {
      const out = registerBusinessSchema.parse({ businessName: "ACME", cuit: input, businessAddress: "Calle 123", phoneNumber: "+54 9 11 5555-0000" });
      expect(out.cuit).toBe(cuit);
    }
  });

  it("gives one Spanish message per failing field, required first", () => {
    expect(errors(registerBusinessSchema, { businessName: "", cuit: "", businessAddress: "  ", phoneNumber: undefined })).toEqual({
      businessName: ["Este campo es obligatorio."],
      cuit: ["Este campo es obligatorio."],
      businessAddress: ["Este campo es obligatorio."],
      phoneNumber: ["Este campo es obligatorio."],
    });
  });

  it("treats the blank placeholder and empty string as no photo", () => {
    expect(updateBusinessUserSchema.parse({ photoUrl: "/images/blank.png" })).toEqual({ photoUrl: null });
    expect(updateBusinessUserSchema.parse({ photoUrl: "" })).toEqual({ photoUrl: null });
    expect(updateBusinessUserSchema.parse({})).toEqual({});
  });

  it("takes our image paths and plain https URLs as photos, and refuses attribute break-outs", () => {
    const ours = `/api/images/${"a".repeat(64)}.png`;
    expect(updateBusinessUserSchema.parse({ photoUrl: ours })).toEqual({ photoUrl: ours });
    const google = "https://lh3.googleusercontent.com/a/ACg8ocK-x_y=s96-c";
    expect(updateBusinessUserSchema.parse({ photoUrl: google })).toEqual({ photoUrl: google });
    for (const hostile of [
      `https://x.example/a.png"><img src=x onerror=alert(1)>`,
      "https://x.example/a.png'onerror='alert(1)",
      "https://x.example/`x`",
      "javascript:alert(1)",
      "http://x.example/a.png",
      "/api/images/../../etc/passwd",
      "https://",
    ]) {
      expect(errors(updateBusinessUserSchema, { photoUrl: hostile }), hostile).toEqual({
        photoUrl: ["La foto debe ser una imagen subida o una dirección https."],
      });
    }
  });

  it("reads bare dates as Buenos Aires days; the end bound is exclusive next midnight", () => {
    expect(isoDate.parse("2025-03-10").toISOString()).toBe("2025-03-10T03:00:00.000Z");
    expect(isoDateEnd.parse("2025-03-10").toISOString()).toBe("2025-03-11T03:00:00.000Z");
    expect(isoDate.parse("2025-03-10T08:30").toISOString()).toBe("2025-03-10T11:30:00.000Z");
    expect(isoDate.parse("2025-03-10T08:30:00Z").toISOString()).toBe("2025-03-10T08:30:00.000Z");
    expect(isoDate.safeParse("2025-02-30").success).toBe(false);
  });

  it("fills station defaults", () => {
    const out = stationInputSchema.parse({ name: "Mi estación", address: "Calle 1", city: "Salta", province: "AR-A", latitude: -24.78, longitude: -65.41 });
    expect(out).toMatchObject({
      postalCode: null,
      parkingType: null,
      services: [],
      openingHours: { twentyFourSeven: true, periods: [] },
      timeZone: "America/Argentina/Buenos_Aires",
      photoUrl: null,
      published: false,
    });
  });
});
