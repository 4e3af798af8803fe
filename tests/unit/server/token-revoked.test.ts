// Revoked tokens (issue 10): with a service account configured, the verifier asks Firebase whether
// the user's tokens were revoked (or the account disabled) after this one was issued, and refuses
// it then. Google's endpoints (public keys, OAuth token, accounts:lookup) are served by msw.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../../server/env";
import { createTokenVerifier } from "../../../server/identity";
import { claims, KID, keyPair, PROJECT, sign } from "./jwt-fixtures";

let dir: string;
let google: { key: string; cert: string };
let validSince = 0;
let disabled = false;
const server = setupServer();
let verify: ReturnType<typeof createTokenVerifier>;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-jwt-"));
  google = keyPair(dir, "google");
  server.use(
    http.get("https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com", () =>
      HttpResponse.json({ [KID]: google.cert }, { headers: { "cache-control": "public, max-age=3600" } }),
    ),
    http.post("https://oauth2.googleapis.com/token", () => HttpResponse.json({ access_token: "test-access-token", expires_in: 3600, token_type: "Bearer" })),
    http.post(/identitytoolkit\.googleapis\.com\/.*accounts:lookup/, () =>
      HttpResponse.json({
        users: [{ localId: "uid-1", email: "ana@example.com", emailVerified: true, disabled, validSince: String(validSince), providerUserInfo: [] }],
      }),
    ),
  );
  server.listen({ onUnhandledRequest: "error" });
  const serviceAccount = { type: "service_account", project_id: PROJECT, private_key: google.key, client_email: `svc@${PROJECT}.iam.gserviceaccount.com` };
  delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const env = parseEnv({
    NODE_ENV: "production",
    FIREBASE_PROJECT_ID: PROJECT,
    FIREBASE_API_KEY: "k",
    SESSION_SECRET: "s".repeat(40),
    ENCRYPTION_KEY: "a".repeat(64),
    FIREBASE_SERVICE_ACCOUNT_JSON: JSON.stringify(serviceAccount),
  });
  verify = createTokenVerifier(env);
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("revoked tokens (service account configured)", () => {
  it("a token issued after the last revocation is accepted", async () => {
    validSince = Math.floor(Date.now() / 1000) - 3600;
    expect(await verify(sign(google.key, claims()))).toMatchObject({ uid: "uid-1" });
  });

  it("a token issued before its user's tokens were revoked is refused", async () => {
    validSince = Math.floor(Date.now() / 1000);
    await expect(verify(sign(google.key, claims()))).rejects.toThrow(/revoked/i);
  });

  it("a token of a disabled account is refused", async () => {
    validSince = 0;
    disabled = true;
    await expect(verify(sign(google.key, claims()))).rejects.toThrow(/disabled/i);
    disabled = false;
  });
});
