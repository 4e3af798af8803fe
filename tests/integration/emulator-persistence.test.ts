import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureVerifiedAccount, startAuthEmulator, EMULATOR_PROJECT_ID } from "../../scripts/emulator";

// Local mode promises that accounts survive a restart: the emulator exports them to
// the data directory on exit and imports them on the next start.
const PORT = 9390;
const dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-emulator-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const signIn = (email: string, password: string) =>
  fetch(`http://127.0.0.1:${PORT}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=local`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  }).then((r) => r.json() as Promise<{ localId?: string }>);

describe("the Auth Emulator of local mode", () => {
  it("keeps accounts across a restart", { timeout: 180_000 }, async () => {
    const dataDir = path.join(dir, "auth");
    let emulator = await startAuthEmulator({ port: PORT, dataDir });
    let uid: string;
    try {
      uid = await ensureVerifiedAccount(emulator.host, EMULATOR_PROJECT_ID, "persiste@example.com", "Persiste123!");
      expect(uid).toMatch(/\w{10,}/);
    } finally {
      await emulator.stop();
    }
    emulator = await startAuthEmulator({ port: PORT, dataDir });
    try {
      expect((await signIn("persiste@example.com", "Persiste123!")).localId).toBe(uid);
      // Idempotent: the demo account is found, not created again.
      expect(await ensureVerifiedAccount(emulator.host, EMULATOR_PROJECT_ID, "persiste@example.com", "Persiste123!")).toBe(uid);
    } finally {
      await emulator.stop();
    }
  });
});
