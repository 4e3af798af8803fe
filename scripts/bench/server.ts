// `npm run bench:server`: server-side rendering under load, logged in as the bench operator.
// Needs a production build (`BUILD_DIR=… npm run build`) and the bench data (`npm run bench:seed`,
// DATABASE_URL or DATA_DIR as there). Starts its own Auth Emulator and server on 127.0.0.1
// (BENCH_PORT, default 3450; BENCH_AUTH_EMULATOR_PORT, default 9450), signs in through the real
// login form, then runs autocannon against each page and the floor (/healthz, a static asset)
// at 10 and 50 connections. Prints req/s, p50/p99 latency, time to ready and server RSS.
// Only loopback traffic; every run is bounded by BENCH_SECONDS (default 10) per case.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { BENCH_EMAIL, benchBusinessId } from "../../db/seed/bench";
import { EMULATOR_PROJECT_ID, ensureVerifiedAccount, startAuthEmulator } from "../emulator";
import { benchTarget, openBenchDatabase } from "./db";

const BENCH_PASSWORD = "Bench1234!";
const port = Number(process.env.BENCH_PORT ?? 3450);
const emulatorPort = Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? 9450);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const base = `http://127.0.0.1:${port}`;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function waitForHealth(child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`El servidor terminó (código ${child.exitCode}).`);
    try {
      if ((await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("El servidor no respondió a tiempo.");
}

/** Signs in through the login form (as a browser without JavaScript) and returns the cookie. */
async function login(): Promise<string> {
  const res = await fetch(`${base}/auth/login?index`, {
    method: "POST",
    body: new URLSearchParams({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
    redirect: "manual",
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (res.status >= 400 || cookies.length === 0) throw new Error(`No se pudo iniciar sesión (${res.status}).`);
  const cookie = cookies.join("; ");
  const home = await fetch(`${base}/home`, { headers: { cookie }, redirect: "manual" });
  if (home.status !== 200) throw new Error(`/home respondió ${home.status} con la sesión del benchmark.`);
  return cookie;
}

interface Result {
  url: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function cannon(url: string, connections: number, cookie?: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `${base}${url}`, connections, duration: seconds, headers: cookie ? { cookie } : {}, timeout: 10 },
      (err, r) => {
        if (err) return reject(err);
        resolve({ url, connections, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
      },
    );
  });
}

async function main() {
  const target = benchTarget();
  const clientAssets = path.join(buildDir, "client", "assets");
  const css = readdirSync(clientAssets).find((f) => f.endsWith(".css"));
  if (!css) throw new Error(`No hay build en ${buildDir}: ejecutá \`BUILD_DIR=${path.relative(process.cwd(), buildDir)} npm run build\`.`);

  const authDir = mkdtempSync(path.join(os.tmpdir(), "enchufa-bench-auth-"));
  const emulator = await startAuthEmulator({ port: emulatorPort, dataDir: authDir });
  let server: ChildProcess | null = null;
  try {
    const uid = await ensureVerifiedAccount(emulator.host, EMULATOR_PROJECT_ID, BENCH_EMAIL, BENCH_PASSWORD);
    const database = await openBenchDatabase(target);
    const businessId = await benchBusinessId(database.db);
    if (!businessId) throw new Error("No hay operador de benchmark: ejecutá primero `npm run bench:seed`.");
    await database.db.execute(sql`update business_users set firebase_uid = ${uid} where id = ${businessId}`);
    const [{ id: stationId }] = (
      (await database.db.execute(sql`select id from stations where business_id = ${businessId} order by name limit 1`)) as unknown as { rows: { id: string }[] }
    ).rows;
    await database.close();

    const env = {
      ...process.env,
      NODE_ENV: "production",
      ENCHUFA_LOCAL: "1",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      ...(target.url ? { DATABASE_URL: target.url } : { DATA_DIR: target.dataDir }),
      FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
      FIREBASE_API_KEY: "local-emulator-key",
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      SESSION_SECRET: "bench-session-secret-".padEnd(64, "x"),
      ENCRYPTION_KEY: "d".repeat(64),
      PUBLIC_URL: base,
    } as NodeJS.ProcessEnv;
    const t0 = performance.now();
    server = spawn(process.execPath, [path.join(buildDir, "server.js")], { env, stdio: ["ignore", "ignore", "inherit"] });
    await waitForHealth(server);
    const readyMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 1000));
    const idleRss = rssMb(server.pid!);
    const cookie = await login();

    console.log(`Servidor: ${target.label}, build ${path.relative(process.cwd(), buildDir)}, ${seconds} s por caso, ${os.cpus().length} núcleos, Node ${process.versions.node}`);
    console.log(`Listo en ${readyMs.toFixed(0)} ms (proceso nuevo hasta /healthz 200, base ya migrada); RSS en reposo ${idleRss} MB\n`);
    const cases: { url: string; auth: boolean }[] = [
      { url: "/healthz", auth: false },
      { url: `/assets/${css}`, auth: false },
      { url: "/home", auth: true },
      { url: "/station", auth: true },
      { url: "/charger", auth: true },
      { url: "/activity", auth: true },
      { url: `/activity?stationId=${stationId}`, auth: true },
    ];
    console.log(`${"URL".padEnd(58)} ${"conex.".padStart(6)} ${"req/s".padStart(8)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"no-2xx".padStart(7)}`);
    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server!.pid!))), 250);
    const floor: Record<number, number> = {};
    try {
      for (const connections of [10, 50]) {
        for (const c of cases) {
          const r = await cannon(c.url, connections, c.auth ? cookie : undefined);
          if (c.url === "/healthz") floor[connections] = r.rps;
          const ratio = c.auth && floor[connections] ? `  (${(floor[connections] / r.rps).toFixed(1)}× menos que /healthz)` : "";
          const shown = c.url.length > 56 ? `${c.url.slice(0, 55)}…` : c.url;
          console.log(
            `${shown.padEnd(58)} ${String(connections).padStart(6)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.non2xx + r.errors).padStart(7)}${ratio}`,
          );
        }
      }
    } finally {
      clearInterval(sampler);
    }
    console.log(`\nRSS del servidor: ${idleRss} MB en reposo, ${peakRss} MB máximo bajo carga`);
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
    await emulator.stop();
    rmSync(authDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`[bench:server] ${(err as Error).message}`);
  process.exit(1);
});
