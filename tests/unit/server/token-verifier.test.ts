// Firebase ID tokens with the real verifier (server/identity.ts → firebase-admin), the emulator
// off: only a token signed by Google's key for this project and still valid is accepted. The
// signing key and certificate are made here with openssl and served by msw in place of Google's
// public-key endpoint, so the test runs offline. With the emulator variable set, firebase-admin
// would accept unsigned tokens — which is why env.ts refuses it in production (env.test.ts).
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../../server/env";
import { createTokenVerifier } from "../../../server/identity";
import { b64, claims, KID, keyPair, PROJECT, sign } from "./jwt-fixtures";

let dir: string;
let google: { key: string; cert: string };
let attacker: { key: string; cert: string };
const server = setupServer();
let verify: ReturnType<typeof createTokenVerifier>;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-jwt-"));
  google = keyPair(dir, "google");
  attacker = keyPair(dir, "attacker");
  server.use(
    http.get("https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com", () =>
      HttpResponse.json({ [KID]: google.cert }, { headers: { "cache-control": "public, max-age=3600" } }),
    ),
  );
  server.listen({ onUnhandledRequest: "error" });
  const env = parseEnv({ NODE_ENV: "production", FIREBASE_PROJECT_ID: PROJECT, FIREBASE_API_KEY: "k", SESSION_SECRET: "47f6b6c79e8d6f63958b73b18afa3052a5e3e5df3e5383cf25c475dd639891ee", ENCRYPTION_KEY: "49b7ef468a53217b4616715d8b5200b618915d8381462d85b5265909b730dde0" });
  delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  verify = createTokenVerifier(env);
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("ID tokens with the emulator off", () => {
  it("accepts a token Google's key signed for this project (the check works)", async () => {
    expect(await verify(sign(google.key, claims()))).toMatchObject({ uid: "uid-1", email: "ana@example.com", email_verified: true });
  });

  it("refuses an unsigned token (alg none)", async () => {
    const unsigned = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims())}.`;
    await expect(verify(unsigned)).rejects.toThrow();
  });

  it("refuses a token signed with another key under Google's key id (forged)", async () => {
    await expect(verify(sign(attacker.key, claims()))).rejects.toThrow();
  });

  it("refuses a token whose claims were changed after signing", async () => {
    const [h, , s] = sign(google.key, claims()).split(".");
    await expect(verify(`${h}.${b64(claims({ sub: "someone-else", user_id: "someone-else" }))}.${s}`)).rejects.toThrow();
  });

  it("refuses an expired token", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verify(sign(google.key, claims({ iat: now - 7200, auth_time: now - 7200, exp: now - 3600 })))).rejects.toThrow(/expired/i);
  });

  it("refuses a token for another project or issuer", async () => {
    await expect(verify(sign(google.key, claims({ aud: "other-project" })))).rejects.toThrow();
    await expect(verify(sign(google.key, claims({ iss: "https://securetoken.google.com/other-project" })))).rejects.toThrow();
  });

  it("refuses garbage", async () => {
    for (const t of ["", "abc", `${randomUUID()}.${randomUUID()}.${randomUUID()}`]) await expect(verify(t)).rejects.toThrow();
  });
});
