// infra/crypto: AES-256-GCM key ring with rotation, tenant-bound credentials, OCPP password hashes.
import { scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createKeyRing,
  generateOcppPassword,
  hashOcppPassword,
  KeyRingError,
  needsReencryption,
  openPaymentCredentials,
  sealPaymentCredentials,
  verifyOcppPassword,
} from "#infra/crypto";

const K1 = "11".repeat(32);
const K2 = "22".repeat(32);

describe("key ring", () => {
  it("round-trips and never produces the same ciphertext twice", () => {
    const ring = createKeyRing([K1]);
    const a = ring.encrypt("APP_USR-secret");
    const b = ring.encrypt("APP_USR-secret");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(ring.decrypt(a)).toBe("APP_USR-secret");
  });

  it("rotates: the first key encrypts, every key decrypts", () => {
    const old = createKeyRing([K1]).encrypt("viejo");
    const ring = createKeyRing([K2, K1]);
    expect(ring.decrypt(old)).toBe("viejo");
    expect(needsReencryption(ring, old)).toBe(true);
    expect(needsReencryption(ring, ring.encrypt("nuevo"))).toBe(false);
    expect(() => createKeyRing([K2]).decrypt(old)).toThrow(KeyRingError);
  });

  it("detects tampering and wrong associated data", () => {
    const ring = createKeyRing([K1]);
    const sealed = ring.encrypt("dato", "ctx-a");
    const parts = sealed.split(".");
    parts[3] = Buffer.from("otra cosa").toString("base64url");
    expect(() => ring.decrypt(parts.join("."), "ctx-a")).toThrow();
    expect(() => ring.decrypt(sealed, "ctx-b")).toThrow();
    expect(() => ring.decrypt("garbage")).toThrow(KeyRingError);
  });

  it("binds payment credentials to their business and provider", () => {
    const ring = createKeyRing([K1]);
    const ctx = { businessId: "b-1", provider: "MERCADOPAGO" as const };
    const sealed = sealPaymentCredentials(ring, '{"accessToken":"x"}', ctx);
    expect(openPaymentCredentials(ring, sealed, ctx)).toBe('{"accessToken":"x"}');
    expect(() => openPaymentCredentials(ring, sealed, { ...ctx, businessId: "b-2" })).toThrow();
    expect(() => openPaymentCredentials(ring, sealed, { ...ctx, provider: "PAGOS360" })).toThrow();
  });

  it("refuses malformed keys", () => {
    expect(() => createKeyRing([])).toThrow(KeyRingError);
    expect(() => createKeyRing(["abc"])).toThrow(/64 caracteres/);
  });
});

describe("OCPP passwords", () => {
  it("generates 32 URL-safe characters", () => {
    const p = generateOcppPassword();
    expect(p).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(generateOcppPassword()).not.toBe(p);
  });

  it("hashes with a salted SHA-256 and verifies", async () => {
    const hash = await hashOcppPassword("s3cret-password-16");
    expect(hash).toMatch(/^sha256\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await hashOcppPassword("s3cret-password-16")).not.toBe(hash); // salted
    expect(await verifyOcppPassword("s3cret-password-16", hash)).toBe(true);
    expect(await verifyOcppPassword("s3cret-password-17", hash)).toBe(false);
    expect(await verifyOcppPassword("x", null)).toBe(false);
    expect(await verifyOcppPassword("x", "md5$abc")).toBe(false);
    expect(await verifyOcppPassword("x", "sha256$only-two")).toBe(false);
  });

  it("still verifies passwords hashed earlier with scrypt", async () => {
    const salt = Buffer.from("0123456789abcdef");
    const key = scryptSync("s3cret-password-16", salt, 32, { N: 16384, r: 8, p: 1 });
    const legacy = ["scrypt", 16384, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
    expect(await verifyOcppPassword("s3cret-password-16", legacy)).toBe(true);
    expect(await verifyOcppPassword("s3cret-password-17", legacy)).toBe(false);
  });
});
