// The Firebase Auth Emulator (firebase-tools, pure Node) for local mode and the browser tests.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { hasEnded, stopProcess } from "./processes";

export const EMULATOR_PROJECT_ID = "demo-enchufa";

/** firebase-tools takes 10–20 s to serve on an idle machine, and over a minute on a busy one (measured: 73 s at load 19 on 2 cores). */
const START_TIMEOUT_MS = 180_000;

export interface Emulator {
  host: string;
  projectId: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

async function waitFor(url: string, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasEnded(child)) throw new Error(`El emulador de Firebase terminó (código ${child.exitCode ?? child.signalCode}).`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`El emulador de Firebase no respondió en ${timeoutMs / 1000} s.`);
}

/**
 * Start the Auth Emulator on `port` (hub and logging on the next two ports), keeping its
 * accounts under `dataDir` across restarts. Spawned with node directly (not npx) so stopping
 * it stops it, and with CI=1 so it never looks for updates.
 */
export async function startAuthEmulator(opts: { port: number; dataDir: string; log?: (line: string) => void }): Promise<Emulator> {
  const { port, dataDir } = opts;
  mkdirSync(dataDir, { recursive: true });
  const configDir = path.resolve(dataDir, "..", "firebase");
  mkdirSync(configDir, { recursive: true });
  const configPath = path.join(configDir, "firebase.json");
  writeFileSync(
    configPath,
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port },
        hub: { host: "127.0.0.1", port: port + 1 },
        logging: { host: "127.0.0.1", port: port + 2 },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const require = createRequire(import.meta.url);
  const cli = path.join(path.dirname(require.resolve("firebase-tools/package.json")), "lib/bin/firebase.js");
  const args = [cli, "emulators:start", "--only", "auth", "--project", EMULATOR_PROJECT_ID, "--config", configPath];
  args.push("--export-on-exit", path.resolve(dataDir));
  if (existsSync(path.join(dataDir, "firebase-export-metadata.json"))) args.push("--import", path.resolve(dataDir));
  // firebase-tools finds "the running hub" of a project through a file in the temp directory; a
  // temp directory per instance keeps a second emulator (tests, another checkout) from
  // answering this one's export on exit.
  const tmpDir = path.join(configDir, "tmp");
  mkdirSync(tmpDir, { recursive: true });
  const child = spawn(process.execPath, args, {
    cwd: configDir,
    env: { ...process.env, CI: "1", FIREBASE_CLI_DISABLE_UPDATE_CHECK: "1", TMPDIR: tmpDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // firebase-tools serves the Auth Emulator first and imports the saved accounts after: the
  // config endpoint answers before they are there. "All emulators ready" comes after the import,
  // so until then a sign-in could miss an account that exists (and local mode would create the
  // demo operator again). Under load the gap is long enough to hit.
  let output = "";
  let ready = false;
  let onReady: (() => void) | undefined;
  child.stdout?.on("data", (chunk: Buffer) => {
    if (ready) return;
    output = (output + chunk.toString()).slice(-4096);
    if (output.includes("All emulators ready")) {
      ready = true;
      onReady?.();
    }
  });
  const forward = (chunk: Buffer) => opts.log?.(chunk.toString());
  child.stdout?.on("data", forward);
  child.stderr?.on("data", forward);
  const host = `127.0.0.1:${port}`;
  try {
    await waitFor(`http://${host}/emulator/v1/projects/${EMULATOR_PROJECT_ID}/config`, START_TIMEOUT_MS, child);
    if (!ready) {
      await new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          clearTimeout(timer);
          child.off("exit", exited);
          onReady = undefined;
          if (error) reject(error);
          else resolve();
        };
        const exited = (code: number | null) => done(new Error(`El emulador de Firebase terminó (código ${code}).`));
        const timer = setTimeout(() => done(new Error(`El emulador de Firebase no terminó de cargar sus cuentas en ${START_TIMEOUT_MS / 1000} s.`)), START_TIMEOUT_MS);
        child.once("exit", exited);
        onReady = () => done();
      });
    }
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    host,
    projectId: EMULATOR_PROJECT_ID,
    process: child,
    // SIGINT lets it export the accounts before leaving; one that hangs is killed after 15 s.
    stop: () => stopProcess(child, "SIGINT", 15_000),
  };
}

/** Make sure an account exists with a verified e-mail (the demo operator); returns its uid. */
export async function ensureVerifiedAccount(host: string, projectId: string, email: string, password: string): Promise<string> {
  const base = `http://${host}/identitytoolkit.googleapis.com/v1`;
  const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    return { ok: res.ok, json: (await res.json()) as Record<string, unknown> };
  };
  let signIn = await post(`${base}/accounts:signInWithPassword?key=local`, { email, password, returnSecureToken: true });
  if (!signIn.ok) {
    const created = await post(`${base}/accounts:signUp?key=local`, { email, password, returnSecureToken: true });
    if (!created.ok) throw new Error(`No se pudo crear la cuenta demo: ${JSON.stringify(created.json)}`);
    signIn = created;
  }
  const uid = String(signIn.json.localId);
  // "Bearer owner" is the emulator's admin credential.
  const updated = await post(
    `${base}/projects/${projectId}/accounts:update`,
    { localId: uid, emailVerified: true, displayName: "Operador Demo" },
    { authorization: "Bearer owner" },
  );
  if (!updated.ok) throw new Error(`No se pudo verificar la cuenta demo: ${JSON.stringify(updated.json)}`);
  return uid;
}
