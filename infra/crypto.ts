// Secrets at rest and OCPP charger passwords (server only).
//
// Payment-provider credentials are encrypted with AES-256-GCM. The ciphertext carries the id
// of the key that produced it, so keys rotate: the first configured key encrypts, every
// configured key can decrypt. Format: `v1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url parts).
//
// The same keys also sign links (HMAC-SHA256 with a key derived per purpose, so a MAC never
// doubles as a cipher key): the first key signs, every configured key still verifies.
//
// OCPP passwords (Basic auth of security profile 1/2) are stored only as salted hashes.
import type { PaymentProviderCode } from "../contract/schemas/constants";
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const VERSION = "v1";

export interface KeyRing {
  /** Encrypts with the first key; decrypts with whichever key id the ciphertext names. */
  encrypt(plain: string, aad?: string): string;
  decrypt(sealed: string, aad?: string): string;
  /**
   * HMAC-SHA256 (base64url) of `data` under every configured key, newest first, each key derived
   * for `purpose`: sign with the first, accept any (a link signed before a rotation still holds).
   */
  macs(purpose: string, data: string): string[];
  readonly primaryKeyId: string;
}

export class KeyRingError extends Error {
  override name = "KeyRingError";
}

function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

/** @param hexKeys 32-byte keys as 64 hex characters; the first one encrypts. */
export function createKeyRing(hexKeys: readonly string[]): KeyRing {
  if (hexKeys.length === 0) throw new KeyRingError("Se necesita al menos una clave de cifrado (ENCRYPTION_KEY).");
  const keys = hexKeys.map((hex, i) => {
    const trimmed = hex.trim();
    if (!/^[0-9a-fA-F]{64}$/.test(trimmed)) throw new KeyRingError(`La clave de cifrado #${i + 1} debe tener 64 caracteres hexadecimales.`);
    const key = Buffer.from(trimmed, "hex");
    return { id: keyId(key), key };
  });
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  const primary = keys[0];
  const macKeys = new Map<string, Buffer[]>();
  const macKeysFor = (purpose: string) => {
    let list = macKeys.get(purpose);
    if (!list) {
      list = keys.map((k) => Buffer.from(hkdfSync("sha256", k.key, Buffer.alloc(0), `enchufa-mac:${purpose}`, 32)));
      macKeys.set(purpose, list);
    }
    return list;
  };

  return {
    primaryKeyId: primary.id,
    encrypt(plain, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", primary.key, iv);
      if (aad) cipher.setAAD(Buffer.from(aad, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, primary.id, iv.toString("base64url"), ciphertext.toString("base64url"), tag.toString("base64url")].join(".");
    },
    decrypt(sealed, aad) {
      const parts = sealed.split(".");
      if (parts.length !== 5 || parts[0] !== VERSION) throw new KeyRingError("Formato de secreto cifrado desconocido.");
      const [, id, iv, ciphertext, tag] = parts;
      const key = byId.get(id);
      if (!key) throw new KeyRingError(`No hay una clave configurada con id ${id}.`);
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      if (aad) decipher.setAAD(Buffer.from(aad, "utf8"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    },
    macs(purpose, data) {
      return macKeysFor(purpose).map((key) => createHmac("sha256", key).update(data, "utf8").digest("base64url"));
    },
  };
}

/** Equality of two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = createHash("sha256").update(a, "utf8").digest();
  const y = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(x, y) && a === b;
}

/** Whether a sealed secret was produced with a key other than the current primary one. */
export function needsReencryption(ring: KeyRing, sealed: string): boolean {
  return sealed.split(".")[1] !== ring.primaryKeyId;
}

// ---------------------------------------------------------------------------------------------
// OCPP passwords

// Generated passwords carry 192 random bits, so a slow KDF adds nothing against guessing (2^192
// tries either way) and would only cost CPU on every charger connection — a denial-of-service
// lever when thousands reconnect after a restart, or when someone hammers the endpoint with
// wrong passwords. They are stored as a salted SHA-256 (ADR 0005). Hashes written earlier with
// scrypt still verify.
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

function scryptAsync(password: string, salt: Buffer, keylen: number, opts: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, { ...opts, maxmem: SCRYPT_MAXMEM }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** A random OCPP Basic-auth password: 32 URL-safe characters (OCPP 1.6 allows 16–40). */
export function generateOcppPassword(): string {
  return randomBytes(24).toString("base64url");
}

function saltedSha256(password: string, salt: Buffer): Buffer {
  return createHash("sha256").update(salt).update(password, "utf8").digest();
}

/** `sha256$salt$hash` (base64url salt and hash). */
export async function hashOcppPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return ["sha256", salt.toString("base64url"), saltedSha256(password, salt).toString("base64url")].join("$");
}

export async function verifyOcppPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const parts = stored.split("$");
  let expected: Buffer;
  let actual: Buffer;
  if (parts.length === 3 && parts[0] === "sha256") {
    expected = Buffer.from(parts[2], "base64url");
    actual = saltedSha256(password, Buffer.from(parts[1], "base64url"));
  } else if (parts.length === 6 && parts[0] === "scrypt") {
    const [, n, r, p, saltB64, hashB64] = parts;
    expected = Buffer.from(hashB64, "base64url");
    actual = await scryptAsync(password, Buffer.from(saltB64, "base64url"), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  } else {
    return false;
  }
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

// ---------------------------------------------------------------------------------------------
// Payment-provider credentials: sealed bound to their tenant and provider (AAD), so a
// ciphertext copied to another business's row does not decrypt.

export type { PaymentProviderCode };

export function sealPaymentCredentials(ring: KeyRing, plain: string, ctx: { businessId: string; provider: PaymentProviderCode }): string {
  return ring.encrypt(plain, `payment-account:${ctx.businessId}:${ctx.provider}`);
}

export function openPaymentCredentials(ring: KeyRing, sealed: string, ctx: { businessId: string; provider: PaymentProviderCode }): string {
  return ring.decrypt(sealed, `payment-account:${ctx.businessId}:${ctx.provider}`);
}
