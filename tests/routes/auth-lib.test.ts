// The pieces under the auth routes: Firebase error mapping, the rate limiter, sealing, titles.
import { describe, expect, it } from "vitest";
import { IdentityError, identityErrorMessage } from "~/lib/identity.server";
import { rateLimitMessage } from "~/lib/rate-limit.server";
import { openSecret, sealSecret } from "~/lib/session.server";

describe("Firebase errors → Spanish, on the right field", () => {
  const bad = "El correo electrónico o la contraseña no son correctos.";
  it.each([
    ["INVALID_LOGIN_CREDENTIALS", "form", bad],
    ["INVALID_PASSWORD", "form", bad],
    ["EMAIL_NOT_FOUND", "form", bad],
    ["USER_DISABLED", "form", bad],
    ["INVALID_EMAIL", "email", "Ingresá un correo electrónico válido, por ejemplo nombre@empresa.com.ar."],
    ["WEAK_PASSWORD", "password", "Elegí una contraseña más segura: al menos 8 caracteres, combinando letras y números."],
    ["TOO_MANY_ATTEMPTS_TRY_LATER", "form", "Demasiados intentos. Esperá unos minutos y probá de nuevo."],
    ["EXPIRED_OOB_CODE", "form", "El enlace venció o ya fue usado. Pedí uno nuevo."],
    ["INVALID_OOB_CODE", "form", "El enlace venció o ya fue usado. Pedí uno nuevo."],
    ["TOKEN_EXPIRED", "form", "Tu sesión venció. Ingresá de nuevo."],
    ["NETWORK", "form", "No pudimos comunicarnos con el servicio de identidad. Probá de nuevo en unos minutos."],
  ])("%s → %s", (code, field, message) => {
    expect(identityErrorMessage(new IdentityError(code, code === "NETWORK" ? 503 : 400))).toEqual({ field, message });
  });
});

describe("rate-limit messages", () => {
  // The limiter itself (both stores) is tested in tests/unit/infra/rate-limit.test.ts.
  it("speaks Spanish", () => {
    expect(rateLimitMessage(30_000)).toBe("Demasiados intentos. Esperá 1 minuto y probá de nuevo.");
    expect(rateLimitMessage(14 * 60_000 + 1)).toBe("Demasiados intentos. Esperá 15 minutos y probá de nuevo.");
  });
});

describe("sealSecret", () => {
  it("round-trips, hides the value and pads to one length", () => {
    const sealed = sealSecret("refresh-token-value");
    expect(openSecret(sealed)).toBe("refresh-token-value");
    expect(Buffer.from(sealed, "base64url").toString("latin1")).not.toContain("refresh-token");
    expect(sealSecret(undefined).length).toBe(sealed.length);
    expect(openSecret(sealSecret(undefined))).toBeUndefined();
  });

  it("refuses tampered or foreign values", () => {
    const sealed = sealSecret("x");
    const flipped = Buffer.from(sealed, "base64url");
    flipped[40] ^= 1;
    expect(openSecret(flipped.toString("base64url"))).toBeUndefined();
    expect(openSecret("nope")).toBeUndefined();
  });
});
