// The secret of a driver's link (the status page, the stop button): derived from the checkout
// form's one-time key, stored only as a hash.
import { createHash } from "node:crypto";
import { safeEqual, type KeyRing } from "../infra/crypto";

export const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const LINK_PURPOSE = "driver-link";
/**
 * The driver's link secret: an HMAC of the form's one-time key under the server's newest key, so
 * a resubmission gets the same link, yet nobody holding the database (the key is stored in
 * clear, the secret only as a hash) can compute it.
 */
export const linkToken = (ring: KeyRing, requestKey: string) => ring.macs(LINK_PURPOSE, requestKey)[0];
/** The link of an existing payment: whichever configured key made the secret whose hash is stored (keys rotate). */
export function existingLinkToken(ring: KeyRing, requestKey: string, storedHash: string | null): string | null {
  if (!storedHash) return null;
  return ring.macs(LINK_PURPOSE, requestKey).find((token) => safeEqual(sha256(token), storedHash)) ?? null;
}
/** Whether a presented link secret is the payment's: compared with its stored hash, in constant time. */
export const linkTokenMatches = (storedHash: string | null, token: string) => !!storedHash && !!token && safeEqual(sha256(token), storedHash);
