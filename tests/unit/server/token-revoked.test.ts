// Revoked tokens: with a service account configured, the verifier asks Firebase whether
// the user's tokens were revoked (or the account disabled) after this one was issued, and refuses
// it then. When Firebase cannot answer that question (down, 503, hanging), a token that passes
// every local check is accepted, and the provider is skipped for a while before it is asked
// again. Google's endpoints (public keys, OAuth token, accounts:lookup) are served by msw.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseEnv, type Env } from "../../../server/env";
import { createTokenVerifier, PROVIDER_RETRY_AFTER_MS, REVOCATION_RECHECK_MS } from "../../../server/identity";
import { claims, KID, keyPair, PROJECT, sign } from "./jwt-fixtures";

let attacker: { key: string; cert: string };

let dir: string;
let google: { key: string; cert: string };
let validSince = 0;
let disabled = false;
/** How Firebase's account lookup answers: normally, not at all (network down), or with a 503. */
let lookup: "ok" | "unreachable" | "unavailable" | "hanging" = "ok";
let lookups = 0;
const server = setupServer();
let env: Env;
let verify: ReturnType<typeof createTokenVerifier>;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-jwt-"));
  google = keyPair(dir, "google");
  attacker = keyPair(dir, "attacker");
  server.use(
    http.get("https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com", () =>
      HttpResponse.json({ [KID]: google.cert }, { headers: { "cache-control": "public, max-age=3600" } }),
    ),
    http.post("https://oauth2.googleapis.com/token", () =>
      HttpResponse.json({
        access_token: "test-access-token",
        expires_in: 3600,
        token_type: "Bearer",
      }),
    ),
    http.post(/identitytoolkit\.googleapis\.com\/.*accounts:lookup/, () =>
      ++lookups && lookup === "hanging"
        ? delay("infinite").then(() => HttpResponse.json({}))
        : lookup === "unreachable"
        ? HttpResponse.error()
        : lookup === "unavailable"
        ? HttpResponse.json({ error: { code: 503, message: "UNAVAILABLE" } }, { status: 503 })
        : HttpResponse.json({
            users: [
              {
                localId: "uid-1",
                email: "ana@example.com",
                emailVerified: true,
                disabled,
                validSince: String(validSince),
                providerUserInfo: [],
              },
            ],
          }),
    ),
  );
  server.listen({ onUnhandledRequest: "error" });
  const serviceAccount = {
    type: "service_account",
    project_id: PROJECT,
    private_key: google.key,
    client_email: `svc@${PROJECT}.iam.gserviceaccount.com`,
  };
  delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  env = parseEnv({
    NODE_ENV: "production",
    FIREBASE_PROJECT_ID: PROJECT,
    FIREBASE_API_KEY: "k",
    SESSION_SECRET: "47f6b6c79e8d6f63958b73b18afa3052a5e3e5df3e5383cf25c475dd639891ee",
    ENCRYPTION_KEY: "49b7ef468a53217b4616715d8b5200b618915d8381462d85b5265909b730dde0",
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
    expect(await verify(sign(google.key, claims()))).toMatchObject({
      uid: "uid-1",
    });
  });

  // Fresh verifiers: the shared one trusts the token it confirmed above for REVOCATION_RECHECK_MS.
  it("a token issued before its user's tokens were revoked is refused", async () => {
    validSince = Math.floor(Date.now() / 1000);
    await expect(createTokenVerifier(env)(sign(google.key, claims()))).rejects.toThrow(/revoked/i);
  });

  it("a token of a disabled account is refused", async () => {
    validSince = 0;
    disabled = true;
    await expect(createTokenVerifier(env)(sign(google.key, claims()))).rejects.toThrow(/disabled/i);
    disabled = false;
  });
});

describe("a confirmed token is not looked up again for REVOCATION_RECHECK_MS (ADR 0008)", () => {
  afterEach(() => {
    validSince = 0;
    disabled = false;
    vi.useRealTimers();
  });

  it("the provider is asked once per token and interval; a revocation takes effect at the next check", async () => {
    const fresh = createTokenVerifier(env);
    vi.useFakeTimers({ toFake: ["Date"] });
    const token = sign(google.key, claims());
    const before = lookups;
    expect(await fresh(token)).toMatchObject({ uid: "uid-1" });
    expect(await fresh(token)).toMatchObject({ uid: "uid-1" });
    expect(lookups).toBe(before + 1);

    // Another token of the same user is looked up on its own.
    await fresh(sign(google.key, claims({ auth_time: Math.floor(Date.now() / 1000) - 5 })));
    expect(lookups).toBe(before + 2);

    validSince = Math.floor(Date.now() / 1000) + 1; // revoked now; the first token was issued before
    vi.setSystemTime(Date.now() + REVOCATION_RECHECK_MS - 1000);
    expect(await fresh(token)).toMatchObject({ uid: "uid-1" }); // within the interval: still trusted
    expect(lookups).toBe(before + 2);
    vi.setSystemTime(Date.now() + 2000);
    await expect(fresh(token)).rejects.toThrow(/revoked/i);
    await expect(fresh(token)).rejects.toThrow(/revoked/i); // a refusal is not remembered as a confirmation
    expect(lookups).toBe(before + 4);
  });

  it("a confirmed token still expires: the local checks run on every call", async () => {
    const fresh = createTokenVerifier(env);
    vi.useFakeTimers({ toFake: ["Date"] });
    const exp = Math.floor(Date.now() / 1000) + 10;
    const token = sign(google.key, claims({ exp }));
    expect(await fresh(token)).toMatchObject({ uid: "uid-1" });
    vi.setSystemTime((exp + 5) * 1000);
    await expect(fresh(token)).rejects.toThrow(/expired/i);
  });

  it("remembers a bounded number of tokens, forgetting the oldest first", async () => {
    const fresh = createTokenVerifier(env, { cacheSize: 2 });
    const now = Math.floor(Date.now() / 1000);
    const [a, b, c] = [1, 2, 3].map((i) => sign(google.key, claims({ auth_time: now - 60 - i })));
    for (const t of [a, b, c]) await fresh(t);
    const asked = lookups;
    await fresh(c);
    await fresh(b);
    expect(lookups).toBe(asked); // the two newest are remembered
    await fresh(a);
    expect(lookups).toBe(asked + 1); // the oldest was forgotten
  });
});

describe("Firebase unreachable during the revocation check (signed-in pages keep working)", () => {
  afterEach(() => {
    lookup = "ok";
    vi.useRealTimers();
  });

  // (A 503 is retried by firebase-admin and a hanging lookup never ends: both stop at REVOCATION_TIMEOUT_MS.)
  for (const mode of ["unreachable", "unavailable", "hanging"] as const) {
    it(`a token that passes every local check is accepted when the lookup is ${mode}`, async () => {
      const fresh = createTokenVerifier(env);
      lookup = mode;
      expect(await fresh(sign(google.key, claims()))).toMatchObject({ uid: "uid-1", email_verified: true });
    });

    it(`a forged, expired or foreign token is still refused when the lookup is ${mode}`, async () => {
      const fresh = createTokenVerifier(env);
      lookup = mode;
      await expect(fresh(sign(attacker.key, claims()))).rejects.toThrow(/signature/i);
      await expect(fresh(sign(google.key, claims({ exp: Math.floor(Date.now() / 1000) - 10 })))).rejects.toThrow(/expired/i);
      await expect(fresh(sign(google.key, claims({ aud: "otro-proyecto" })))).rejects.toThrow(/aud/i);
    });
  }

  it("after one failed lookup the provider is skipped for a while, then asked again (and a revocation obeyed)", async () => {
    const fresh = createTokenVerifier(env);
    vi.useFakeTimers({ toFake: ["Date"] });
    lookup = "unreachable";
    await fresh(sign(google.key, claims()));
    const asked = lookups;
    expect(await fresh(sign(google.key, claims()))).toMatchObject({ uid: "uid-1" });
    expect(lookups).toBe(asked); // skipped: no wait for a provider known to be down

    lookup = "ok";
    validSince = Math.floor(Date.now() / 1000);
    const token = sign(google.key, claims());
    vi.setSystemTime(Date.now() + PROVIDER_RETRY_AFTER_MS + 1000);
    await expect(fresh(token)).rejects.toThrow(/revoked/i);
    expect(lookups).toBe(asked + 1);
    validSince = 0;
  });
});
