// The pieces under the auth routes: Firebase error mapping, the rate limiter, sealing, titles.
import { describe, expect, it } from "vitest";
import { IdentityError, identityErrorMessage } from "~/lib/identity.server";
import { RateLimiter, consume, rateLimitMessage } from "~/lib/rate-limit.server";
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

describe("RateLimiter (sliding window)", () => {
  it("allows `limit` hits per window, then refuses with a retry time", () => {
    let now = 1_000_000;
    const limiter = new RateLimiter("t", { limit: 3, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i++) expect(limiter.hit("k").ok).toBe(true);
    const refused = limiter.hit("k");
    expect(refused.ok).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(limiter.check("other").ok).toBe(true);
    // Later in the next window the old hits weigh less and less.
    now += 60_000 + 40_000;
    expect(limiter.hit("k").ok).toBe(true);
    // Two windows later everything is forgotten.
    now += 120_000;
    for (let i = 0; i < 3; i++) expect(limiter.hit("k").ok).toBe(true);
  });

  it("has no burst at the window edge", () => {
    let now = 0;
    const limiter = new RateLimiter("t", { limit: 10, windowMs: 60_000 }, () => now);
    now = 59_000;
    for (let i = 0; i < 10; i++) limiter.hit("k");
    now = 61_000; // a fixed window would allow 10 more here
    expect(limiter.hit("k").ok).toBe(false);
  });

  it("the refusal's retry time is when a hit is allowed again", () => {
    let now = 0;
    const limiter = new RateLimiter("t", { limit: 2, windowMs: 60_000 }, () => now);
    limiter.hit("k");
    limiter.hit("k");
    const { retryAfterMs } = limiter.check("k");
    now += retryAfterMs - 1000;
    expect(limiter.check("k").ok).toBe(false);
    now += 1000;
    expect(limiter.check("k").ok).toBe(true);
  });

  it("consume counts nothing when any limit refuses", () => {
    const a = new RateLimiter("a", { limit: 1, windowMs: 60_000 });
    const b = new RateLimiter("b", { limit: 5, windowMs: 60_000 });
    a.hit("x");
    expect(consume([{ limiter: a, key: "x" }, { limiter: b, key: "y" }], { count: true })).toBeDefined();
    for (let i = 0; i < 5; i++) expect(b.hit("y").ok).toBe(true);
  });

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
