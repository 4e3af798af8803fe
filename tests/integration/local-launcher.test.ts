// The local launcher (`npm start`, scripts/local.ts) stops everything it started, however the
// server ended: after the server is killed (SIGKILL, as the kernel's OOM killer would), the
// launcher exits by itself and the app's, the payments emulator's and the Auth Emulator's ports
// are all free again, so the next `npm start` can use them. Development mode (`--dev`) spares
// the test a production build; the processes and the way they are stopped are the same.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "enchufa-launcher-"));
const started: number[] = [];
let launcher: ChildProcess | undefined;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(() => {
  // Whatever the outcome, nothing this test started keeps running.
  for (const pid of [...started, launcher?.pid ?? 0]) if (pid && alive(pid)) process.kill(pid, "SIGKILL");
  if (!process.env.KEEP_LAUNCHER_DATA) rmSync(dataDir, { recursive: true, force: true });
});

const free = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

async function freeBlock(from: number, size: number): Promise<number> {
  for (let base = from; base < from + 5000; base += 37) {
    let all = true;
    for (let p = base; p < base + size && all; p++) all = await free(p);
    if (all) return base;
  }
  throw new Error("no free ports");
}

/** The launcher's child processes: pid and command line. */
function childrenOf(pid: number): { pid: number; args: string }[] {
  let out = "";
  try {
    out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" });
  } catch {
    return []; // ps exits 1 when there are none
  }
  return out
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), args: m[2] }));
}

describe("the local launcher", () => {
  it("exits and frees every port after its server is killed by a signal", { timeout: 420_000 }, async () => {
    const port = await freeBlock(20_000 + (process.pid % 2000) * 2, 2);
    const emulatorPort = await freeBlock(24_000 + (process.pid % 2000) * 3, 3);
    const ports = [port, port + 1, emulatorPort, emulatorPort + 1, emulatorPort + 2];
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), PAYMENTS_EMULATOR_PORT: String(port + 1), AUTH_EMULATOR_PORT: String(emulatorPort), DATA_DIR: dataDir, LOG_LEVEL: "warn" };
    delete env.DATABASE_URL; // the embedded database, in the data directory
    launcher = spawn(process.execPath, ["--import", "tsx", "scripts/local.ts", "--dev", "--fresh"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    launcher.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => launcher!.once("exit", () => resolve()));

    const deadline = Date.now() + 300_000;
    while (!output.includes("está listo en") && Date.now() < deadline && launcher.exitCode === null) await new Promise((r) => setTimeout(r, 250));
    expect(output, output).toContain("está listo en");

    const children = childrenOf(launcher.pid!);
    started.push(...children.map((c) => c.pid));
    const server = children.find((c) => /server\.(ts|js)/.test(c.args));
    expect(server, JSON.stringify(children)).toBeDefined();
    expect(children.some((c) => c.args.includes("firebase"))).toBe(true);

    process.kill(server!.pid, "SIGKILL");
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 45_000))]);
    expect(stopped, `the launcher is still running:\n${output}`).toBe(true);

    // The server and the Auth Emulator (tsx's own esbuild helper leaves with its parent, on its own time).
    for (const child of children.filter((c) => /server\.(ts|js)|firebase/.test(c.args))) expect(alive(child.pid), child.args).toBe(false);
    for (const p of ports) expect(await free(p), `port ${p}`).toBe(true);
  });
});
