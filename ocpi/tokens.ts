// Credentials tokens (credentials.asciidoc; transport_and_format.asciidoc §Authorization header).
// The tokens partners use with us are stored as SHA-256 hashes; the tokens we use with partners
// are sealed with the key ring (infra/crypto), bound to their company and partner row (AAD).
import { createHash, randomBytes } from "node:crypto";
import type { KeyRing } from "../infra/crypto";

/** 256 random bits, base64url: 43 printable non-whitespace ASCII characters (string(64) allows it). */
export function generateCredentialsToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashCredentialsToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** `Authorization: Token <base64(token)>` — 2.2.1 requires the Base64 encoding (RFC 4648 §4). */
export function authorizationHeader(token: string): string {
  return `Token ${Buffer.from(token, "utf8").toString("base64")}`;
}

/**
 * The candidate tokens of an Authorization header: the Base64-decoded value, and the raw value for
 * 2.1.1/2.2 peers that do not encode (the NOTE in transport_and_format.asciidoc §Authorization header).
 */
export function tokensFromHeader(header: string | undefined): string[] {
  const m = /^Token\s+(\S{1,200})$/i.exec(header?.trim() ?? "");
  if (!m) return [];
  const raw = m[1];
  const candidates: string[] = [];
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) {
    const decoded = Buffer.from(raw, "base64").toString("utf8").replace(/\n$/, "");
    if (/^[\x21-\x7E]{1,64}$/.test(decoded)) candidates.push(decoded);
  }
  candidates.push(raw);
  return candidates;
}

const aad = (ctx: { businessId: string; partnerId: string }) => `ocpi-partner:${ctx.businessId}:${ctx.partnerId}`;

export function sealPartnerToken(ring: KeyRing, token: string, ctx: { businessId: string; partnerId: string }): string {
  return ring.encrypt(token, aad(ctx));
}

export function openPartnerToken(ring: KeyRing, sealed: string, ctx: { businessId: string; partnerId: string }): string {
  return ring.decrypt(sealed, aad(ctx));
}
