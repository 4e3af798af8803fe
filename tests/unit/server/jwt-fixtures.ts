// Firebase ID-token fixtures for the verifier tests: an RSA key pair made with openssl (served
// by msw in place of Google's public keys, so the tests run offline), JWT signing and claims.
import { execFileSync } from "node:child_process";
import { createSign } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

export const PROJECT = "enchufa-token-test";
export const KID = "test-key-1";

export function keyPair(dir: string, name: string) {
  const key = path.join(dir, `${name}.key`);
  const crt = path.join(dir, `${name}.crt`);
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", crt, "-subj", "/CN=securetoken", "-days", "2"], { stdio: "ignore" });
  return { key: readFileSync(key, "utf8"), cert: readFileSync(crt, "utf8") };
}

export const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

export function sign(privateKey: string, claims: Record<string, unknown>, header: Record<string, unknown> = { alg: "RS256", kid: KID, typ: "JWT" }) {
  const body = `${b64(header)}.${b64(claims)}`;
  const signature = createSign("RSA-SHA256").update(body).sign(privateKey).toString("base64url");
  return `${body}.${signature}`;
}

export function claims(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    auth_time: now - 60,
    user_id: "uid-1",
    sub: "uid-1",
    iat: now - 60,
    exp: now + 3600,
    email: "ana@example.com",
    email_verified: true,
    firebase: { identities: {}, sign_in_provider: "password" },
    ...overrides,
  };
}
