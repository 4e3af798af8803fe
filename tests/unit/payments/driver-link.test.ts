// The driver's link secret (/cargar/pago/{id}?t=…): an HMAC under the server's key, so a copy of
// the database (where the form's key is in clear and the secret only hashed) cannot produce it;
// a link made before a key rotation still opens its payment.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { existingLinkToken, linkToken, linkTokenMatches } from "../../../payments";
import { createKeyRing } from "#infra/crypto";

const OLD = "1".repeat(64);
const NEW = "2".repeat(64);
const requestKey = "AbCdEfGhIjKlMnOpQrSt0123";
const stored = (token: string) => createHash("sha256").update(token).digest("hex");

describe("driver link secret", () => {
  it("depends on the server's key, not only on what the database holds", () => {
    const a = linkToken(createKeyRing([OLD]), requestKey);
    const b = linkToken(createKeyRing([NEW]), requestKey);
    expect(a).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(a).not.toBe(b);
    // The unkeyed derivation anyone could compute from the stored request key.
    const unkeyed = createHash("sha256").update(`enchufa-driver-link:${requestKey}`).digest("base64url").slice(0, 32);
    expect(a).not.toBe(unkeyed);
    expect(a.startsWith(unkeyed)).toBe(false);
    // The same form key under the same key: the same link (a resubmitted "Pagar").
    expect(linkToken(createKeyRing([OLD]), requestKey)).toBe(a);
  });

  it("a link made with an older key still opens its payment after the key rotates, and is given again on resubmission", () => {
    const before = linkToken(createKeyRing([OLD]), requestKey);
    const hash = stored(before);
    const rotated = createKeyRing([NEW, OLD]);
    expect(linkTokenMatches(hash, before)).toBe(true);
    expect(existingLinkToken(rotated, requestKey, hash)).toBe(before);
    // New payments are signed with the newest key.
    expect(linkToken(rotated, requestKey)).toBe(linkToken(createKeyRing([NEW]), requestKey));
    // Once the old key is gone, nothing reproduces that secret.
    expect(existingLinkToken(createKeyRing([NEW]), requestKey, hash)).toBeNull();
  });

  it("refuses a wrong, empty or missing secret", () => {
    const token = linkToken(createKeyRing([OLD]), requestKey);
    expect(linkTokenMatches(stored(token), `${token.slice(0, -1)}x`)).toBe(false);
    expect(linkTokenMatches(stored(token), "")).toBe(false);
    expect(linkTokenMatches(null, token)).toBe(false);
  });
});
