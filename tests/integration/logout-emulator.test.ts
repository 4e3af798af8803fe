// Sign-out against the Firebase Auth Emulator (ADR 0027), with the real token verifier and
// firebase-admin's revokeRefreshTokens: after signing out, a copy of the session cookie opens
// nothing, and the refresh token and ID token it carried no longer work at Firebase either.
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as layout from "~/routes/app/layout";
import * as login from "~/routes/auth/login";
import * as logout from "~/routes/logout";
import { createIdentityClient } from "~/lib/identity.server";
import { args, cookieJar, FakeBusinessApi, get, makeContext, post, readSession as read, run } from "../routes/auth-helpers";
import { ensureVerifiedAccount, startAuthEmulator, EMULATOR_PROJECT_ID, type Emulator } from "../../scripts/emulator";
import { parseEnv } from "../../server/env";
import { createRefreshTokenRevoker, createTokenVerifier } from "../../server/identity";

const dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-logout-"));
let emulator: Emulator;
let host: string;
const PASSWORD = "Clave-Segura-1";

/** A free block of three ports (the emulator, its hub and its logging). */
async function freeBlock(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((ok) => {
      const s = net.createServer();
      s.once("error", () => ok(false));
      s.listen(port, "127.0.0.1", () => s.close(() => ok(true)));
    });
  for (let base = 20_000 + Math.floor(Math.random() * 20_000); ; base += 3) if ((await free(base)) && (await free(base + 1)) && (await free(base + 2))) return base;
}

beforeAll(async () => {
  emulator = await startAuthEmulator({ port: await freeBlock(), dataDir: path.join(dir, "auth") });
  host = emulator.host;
  process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
}, 120_000);
afterAll(async () => {
  await emulator?.stop();
  delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  rmSync(dir, { recursive: true, force: true });
});

function contextFor(api: FakeBusinessApi) {
  const env = parseEnv({ FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST: host });
  return makeContext(api, {
    verifyIdToken: createTokenVerifier(env),
    revokeRefreshTokens: createRefreshTokenRevoker(env),
    identity: {
      apiKey: "local-emulator-key",
      projectId: EMULATOR_PROJECT_ID,
      identityToolkitUrl: `http://${host}/identitytoolkit.googleapis.com`,
      secureTokenUrl: `http://${host}/securetoken.googleapis.com`,
    },
  });
}

describe("sign-out with the Auth Emulator", () => {
  it("a copied cookie, its refresh token and its ID token are all dead after signing out", { timeout: 60_000 }, async () => {
    const email = `salir.${Date.now()}@example.com`;
    const uid = await ensureVerifiedAccount(host, EMULATOR_PROJECT_ID, email, PASSWORD);
    const api = new FakeBusinessApi();
    api.businesses.set(uid, { status: "ACTIVE", businessName: "Cargas del Sur S.A.", cuit: "30712345671" });

    const signedIn = await run(() => login.action(args(post("/auth/login", { email, password: PASSWORD }), contextFor(api))));
    expect(signedIn.location).toBe("/home");
    const cookie = cookieJar(signedIn.headers);
    const copied = (await read(cookie)).user!;
    expect((await run(() => layout.loader(args(get("/home", cookie), contextFor(api))))).status).toBe(200);

    // Firebase dates revocations by the second: sign out in a later second than the sign-in.
    await new Promise((r) => setTimeout(r, 1100));
    const out = await run(() => logout.action(args(post("/logout", {}, cookie), contextFor(api))));
    expect(out.location).toBe("/auth/login");

    // The copy, replayed on the dashboard: back to login.
    const replay = await run(() => layout.loader(args(get("/home", cookie), contextFor(api))));
    expect(replay.status).toBe(302);
    expect(replay.location).toBe("/auth/login");
    // Its ID token: revoked.
    await expect(contextFor(api).app.verifyIdToken(copied.idToken)).rejects.toThrow(/revoked/i);
    // Its refresh token, used directly: Firebase refuses it outright; the emulator still mints ID
    // tokens from it, but they carry the old sign-in time and are refused as revoked.
    const identity = createIdentityClient(contextFor(api).app.identity);
    const minted = await identity.refresh(copied.refreshToken).catch(() => undefined);
    if (minted) await expect(contextFor(api).app.verifyIdToken(minted.idToken)).rejects.toThrow(/revoked/i);

    // The owner signs in again as usual.
    const again = await run(() => login.action(args(post("/auth/login", { email, password: PASSWORD }), contextFor(api))));
    expect(again.location).toBe("/home");
    expect((await run(() => layout.loader(args(get("/home", cookieJar(again.headers)), contextFor(api))))).status).toBe(200);
  });
});
