// The bench operator's production server, started for a benchmark: its own Auth Emulator and
// `build/server.js` on 127.0.0.1 against the bench database (DATABASE_URL or DATA_DIR), signed
// in through the real login form. Used by bench:server and bench:lighthouse.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { BENCH_EMAIL, benchBusinessId } from "#db/seed/bench";
import { SERVER_NODE_FLAGS } from "../../server/cluster";
import { EMULATOR_PROJECT_ID, ensureVerifiedAccount, startAuthEmulator } from "../emulator";
import { benchTarget, openBenchDatabase, type BenchDatabaseTarget } from "./db";

const BENCH_PASSWORD = "Bench1234!";

/** Resident memory of one process in kB (0 once it is gone). */
function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0; // gone meanwhile
  }
}

/** Resident memory of the server: the process and its children (the workers, WEB_CONCURRENCY > 1). */
export function rssMb(pid: number): number {
  return Math.round([pid, ...serverWorkers(pid)].reduce((sum, p) => sum + rssKb(p), 0) / 1024);
}

/** Resident memory of each process of the server, the primary first, in MB. */
export function rssPerProcessMb(pid: number): number[] {
  return [pid, ...serverWorkers(pid)].map((p) => Math.round(rssKb(p) / 1024));
}

/**
 * CPU time in clock ticks of one PostgreSQL cluster: its postmaster and every process it forked
 * (backends, WAL writer, checkpointer, autovacuum). Another cluster on the same machine (the
 * tests' database, shared by other runs) is not counted, as it would be by command name.
 */
export function clusterTicks(postmaster: number): number {
  return [postmaster, ...serverWorkers(postmaster)].reduce((sum, p) => sum + (procStat(p)?.ticks ?? 0), 0);
}

/** The postmaster of a local backend (its parent), or undefined when the database is on another machine. */
export function postmasterOf(backendPid: number): number | undefined {
  const stat = procStat(backendPid);
  return stat?.comm === "postgres" ? stat.parent : undefined;
}

/** CPU time of the server in clock ticks (utime + stime): the process and its workers. */
export function cpuTicks(pid: number): number {
  return [pid, ...serverWorkers(pid)].reduce((sum, p) => sum + (procStat(p)?.ticks ?? 0), 0);
}

/** CPU time of one process alone (not its children) in clock ticks. */
export function ownCpuTicks(pid: number): number {
  return procStat(pid)?.ticks ?? 0;
}

/** CPU time in clock ticks of every process whose command name is `comm` (e.g. "postgres": the local database's backends). */
export function cpuTicksOf(comm: string): number {
  return readdirSync("/proc").reduce((sum, entry) => {
    const stat = /^\d+$/.test(entry) ? procStat(Number(entry)) : undefined;
    return stat?.comm === comm ? sum + stat.ticks : sum;
  }, 0);
}

/** The whole machine's CPU: busy and total clock ticks over all cores since boot (/proc/stat). */
export function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const n = fields.map(Number);
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - n[3] - n[4], total }; // idle and iowait are not busy
}

/** Child processes of `pid` (from /proc: the cluster workers of the server). */
export function serverWorkers(pid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && procStat(Number(entry))?.parent === pid)
    .map(Number);
}

/**
 * What the bench reads of /proc/<pid>/stat: the command name (between the first "(" and the last
 * ")", since it may hold spaces and parentheses), the parent's pid and the CPU time in clock
 * ticks (utime + stime). Undefined once the process is gone.
 */
function procStat(pid: number): { comm: string; parent: number; ticks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined; // exited meanwhile
  }
}

export interface BenchServer {
  base: string;
  target: BenchDatabaseTarget;
  /** Session cookie of the bench operator. */
  cookie: string;
  stationId: string;
  pid: number;
  /** New process to /healthz 200 (database already migrated). */
  readyMs: number;
  idleRssMb: number;
  stop(): Promise<void>;
}

export async function startBenchServer(opts: { port: number; emulatorPort: number; buildDir: string; nodeArgs?: string[] }): Promise<BenchServer> {
  const target = benchTarget();
  const base = `http://127.0.0.1:${opts.port}`;
  const authDir = mkdtempSync(path.join(os.tmpdir(), "enchufa-bench-auth-"));
  const emulator = await startAuthEmulator({ port: opts.emulatorPort, dataDir: authDir });
  let server: ChildProcess | null = null;
  const stop = async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
    await emulator.stop();
    rmSync(authDir, { recursive: true, force: true });
  };
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
      PORT: String(opts.port),
      BUILD_DIR: opts.buildDir,
      LOG_LEVEL: "warn",
      // One account asking for pages as fast as the server answers is the benchmark, not abuse:
      // the per-account API limit (every page makes 3–5 API calls) would turn it into 429s and
      // measure the limiter (at ~140 pages/s the local mode's 30,000 calls a minute run out).
      API_REQUESTS_PER_ACCOUNT_MINUTE: "100000000",
      // The server's own default ("auto": one process per core with PostgreSQL) unless set.
      ...(process.env.BENCH_WEB_CONCURRENCY ? { WEB_CONCURRENCY: process.env.BENCH_WEB_CONCURRENCY } : {}),
      ...(target.url ? { DATABASE_URL: target.url } : { DATA_DIR: target.dataDir }),
      FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
      FIREBASE_API_KEY: "local-emulator-key",
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      SESSION_SECRET: "bench-session-secret-".padEnd(64, "x"),
      ENCRYPTION_KEY: "d".repeat(64),
      PUBLIC_URL: base,
    } as NodeJS.ProcessEnv;
    const t0 = performance.now();
    // As the container runs it (Dockerfile CMD): the same V8 flags. BENCH_NODE_FLAGS replaces them
    // (empty: none), to compare with a build from before they existed as it ran then.
    const flags = process.env.BENCH_NODE_FLAGS === undefined ? SERVER_NODE_FLAGS : process.env.BENCH_NODE_FLAGS.split(" ").filter(Boolean);
    server = spawn(process.execPath, [...flags, ...(opts.nodeArgs ?? []), path.join(opts.buildDir, "server.js")], { env, stdio: ["ignore", "ignore", "inherit"] });
    await waitForHealth(base, server);
    const readyMs = performance.now() - t0;
    // With several processes /healthz answers once the first listens; the others start then.
    await new Promise((r) => setTimeout(r, serverWorkers(server!.pid!).length > 1 ? 3000 : 1000));
    const idleRssMb = rssMb(server.pid!);
    const cookie = await login(base);
    return { base, target, cookie, stationId, pid: server.pid!, readyMs, idleRssMb, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitForHealth(base: string, child: ChildProcess, timeoutMs = 60_000) {
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
async function login(base: string): Promise<string> {
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
