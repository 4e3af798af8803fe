// `npm run bench:compare`: this checkout against an earlier commit, side by side in one run on one
// machine. The other commit (`--ref`, default 25ef57b: the last Remix release) is checked out in a
// git worktree under .bench/, with this checkout's node_modules when the lockfiles match and
// otherwise its own, installed once and kept there. Each side starts in local mode (its own
// `scripts/local.ts --fresh`: the embedded database, one process, its own fresh demo data, its own
// Auth Emulator), built by its launcher when the code changed. The same signed-in pages are asked
// of both, one request at a time, in small batches that alternate the two servers (and which
// goes first), so a slower minute of a shared machine falls on both alike. Prints, per page and
// side: median and p95 latency and the server's CPU time per page (utime + stime of the server
// process around each batch, which other load on the machine inflates far less than latency).
// `--open 20,40` then runs the open-loop mix (home, station, charger, activity) against each side
// in turn at each rate.
//
// Flags: --ref <commit> (25ef57b), --rounds N (12), --batch N (5 requests per page and side per
// round), --pages /home,/station,… , --open RATES (none), --open-seconds N (20), --keep (leave
// both servers running until Ctrl-C). Ports: BENCH_COMPARE_PORT (3470; the other side +1, their
// emulators +100 and +200 above).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { cpuTicks } from "./harness";
import { httpSender, openLoop, quantile } from "./open-loop";

const root = path.resolve(import.meta.dirname, "../..");
const benchDir = path.join(root, ".bench");
const DEMO_EMAIL = "demo@enchufa.local";
const DEMO_PASSWORD = "Demo1234!";
const DEFAULT_PAGES = ["/home", "/station", "/charger", "/activity", "/payment", "/healthz"];
const OPEN_LOOP_PAGES = ["/home", "/station", "/charger", "/activity"];

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

const ref = flag("ref") ?? "25ef57b";
const rounds = Number(flag("rounds") ?? 12);
const batch = Number(flag("batch") ?? 5);
const pages = (flag("pages") ?? DEFAULT_PAGES.join(",")).split(",").filter(Boolean);
const openRates = (flag("open") ?? "").split(",").filter(Boolean).map(Number);
const openSeconds = Number(flag("open-seconds") ?? 20);
const basePort = Number(process.env.BENCH_COMPARE_PORT ?? 3470);

const say = (line: string) => console.log(`[bench:compare] ${line}`);

function git(args: string[], cwd = root): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** Runs a command to completion with its output in a log file; throws with the log's end when it fails. */
function run(cmd: string, args: string[], cwd: string, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const log = createWriteStream(logFile, { flags: "a" });
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once("close", (code) => {
      log.end(() => {
        if (code === 0) return resolve();
        const tail = readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-15).join("\n");
        reject(new Error(`${cmd} ${args.join(" ")} falló (código ${code}):\n${tail}`));
      });
    });
  });
}

/**
 * The other commit's checkout, ready to build: a detached worktree under .bench/, and its
 * dependencies. The same lockfile means the same packages: this checkout's node_modules is linked.
 * Another lockfile gets its own install, once (a marker file records it); `npm ci` first, and
 * `npm install` with the same lockfile when npm refuses it as out of sync (lockfiles written by an
 * older npm lack the optional packages of other platforms).
 */
async function prepareRef(): Promise<{ sha: string; dir: string }> {
  const sha = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  const dir = path.join(benchDir, `ref-${sha.slice(0, 7)}`);
  mkdirSync(benchDir, { recursive: true });
  if (!existsSync(path.join(dir, "package.json"))) {
    say(`worktree de ${sha.slice(0, 7)} en ${path.relative(root, dir)}`);
    git(["worktree", "add", "--detach", dir, sha]);
  }
  const modules = path.join(dir, "node_modules");
  const sameLock = readFileSync(path.join(dir, "package-lock.json"), "utf8") === readFileSync(path.join(root, "package-lock.json"), "utf8");
  const marker = path.join(modules, ".enchufa-bench-installed");
  if (existsSync(modules)) {
    say(existsSync(marker) ? "dependencias: las instaladas antes en el worktree" : "dependencias: node_modules ya presente en el worktree");
  } else if (sameLock) {
    symlinkSync(realpathSync(path.join(root, "node_modules")), modules);
    say("dependencias: mismo package-lock.json, node_modules de este checkout enlazado");
  } else {
    const logFile = path.join(benchDir, `ref-${sha.slice(0, 7)}.install.log`);
    say(`dependencias: otro package-lock.json; instalando en el worktree una sola vez (detalle en ${path.relative(root, logFile)})…`);
    const t0 = Date.now();
    try {
      await run("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], dir, logFile);
    } catch {
      say("npm ci rechazó el lockfile (desincronizado); npm install con el mismo lockfile…");
      await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], dir, logFile);
    }
    writeFileSync(marker, `${new Date().toISOString()}\n`);
    say(`instaladas en ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  return { sha, dir };
}

interface Side {
  label: string;
  dir: string;
  port: number;
  base: string;
  launcher: ChildProcess;
  serverPid: number;
  cookie: string;
}

/** The server process the launcher started: its child running build/server.js. */
function findServerPid(launcherPid: number): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent !== launcherPid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("server.js")) return Number(entry);
    } catch {
      /* gone meanwhile */
    }
  }
  return undefined;
}

async function waitForHealth(base: string, launcher: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (launcher.exitCode !== null) throw new Error("el lanzador terminó antes de servir");
    try {
      if ((await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("no respondió a tiempo");
}

/** Signs in through the login form, as a browser without JavaScript; answers the session cookie. */
async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/auth/login?index`, { method: "POST", body: new URLSearchParams({ email: DEMO_EMAIL, password: DEMO_PASSWORD }), redirect: "manual" });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (res.status >= 400 || !cookie) throw new Error(`no se pudo iniciar sesión (${res.status})`);
  const home = await fetch(`${base}/home`, { headers: { cookie }, redirect: "manual" });
  if (home.status !== 200) throw new Error(`/home respondió ${home.status} con la sesión`);
  return cookie;
}

/** One side in local mode, fresh: its own launcher, data directory, ports and build. */
async function startSide(label: string, dir: string, index: number): Promise<Side> {
  const port = basePort + index;
  const base = `http://127.0.0.1:${port}`;
  const logFile = path.join(benchDir, `compare-${label}.log`);
  const log = createWriteStream(logFile);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    AUTH_EMULATOR_PORT: String(port + 100 + index * 10),
    PAYMENTS_EMULATOR_PORT: String(port + 200),
    DATA_DIR: path.join(benchDir, `data-${label}`),
    BUILD_DIR: path.join(dir === root ? benchDir : dir, dir === root ? "build-head" : "build"),
    ENCHUFA_QUIET: "1",
    LOG_LEVEL: "warn",
    // One account asking for pages back to back is the benchmark, not abuse: without this the
    // per-account API limit would answer 429 and the bench would measure the limiter.
    API_REQUESTS_PER_ACCOUNT_MINUTE: "100000000",
  };
  delete env.DATABASE_URL; // the embedded database, as `npm start`
  say(`${label}: iniciando en modo local (compila si hace falta; detalle en ${path.relative(root, logFile)})…`);
  const t0 = Date.now();
  const launcher = spawn(process.execPath, ["--import", "tsx", "scripts/local.ts", "--fresh", "--no-sim"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  launcher.stdout!.pipe(log);
  launcher.stderr!.pipe(log);
  try {
    await waitForHealth(base, launcher, 15 * 60_000);
  } catch (err) {
    throw new Error(`${label}: ${(err as Error).message}; ver ${path.relative(root, logFile)}`);
  }
  const serverPid = findServerPid(launcher.pid!);
  if (!serverPid) throw new Error(`${label}: no encontré el proceso del servidor`);
  const cookie = await login(base);
  say(`${label}: listo en ${((Date.now() - t0) / 1000).toFixed(0)} s (${base}, pid ${serverPid})`);
  return { label, dir, port, base, launcher, serverPid, cookie };
}

async function stopSide(side: Side) {
  if (side.launcher.exitCode !== null) return;
  const exited = new Promise((r) => side.launcher.once("exit", r));
  side.launcher.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 45_000))]);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One request as a browser asks (compressed), the body read whole; answers the status and the time. */
function get(base: string, url: string, cookie: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get(`${base}${url}`, { agent, headers: { cookie, "accept-encoding": "gzip, deflate, br" }, timeout: 30_000 }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      res.on("error", () => resolve({ status: 0, ms: performance.now() - t0 }));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve({ status: 0, ms: performance.now() - t0 }));
  });
}

interface Samples {
  latencies: number[];
  cpuTicks: number;
  requests: number;
  failed: number;
}

async function measureBatch(side: Side, url: string, n: number, into?: Samples) {
  const cpu0 = cpuTicks(side.serverPid);
  for (let i = 0; i < n; i++) {
    const r = await get(side.base, url, url === "/healthz" ? "" : side.cookie);
    if (!into) continue;
    into.latencies.push(r.ms);
    if (r.status !== 200) into.failed++;
  }
  if (into) {
    into.cpuTicks += cpuTicks(side.serverPid) - cpu0;
    into.requests += n;
  }
}

const fmt = (n: number) => n.toFixed(1).padStart(7);

function printTable(sides: Side[], results: Map<string, Samples>[]) {
  const [a, b] = sides;
  console.log(`\n${"página".padEnd(12)} | ${`${a.label}: mediana   p95   CPU/pág`.padStart(34)} | ${`${b.label}: mediana   p95   CPU/pág`.padStart(34)} | mediana ${b.label}/${a.label}`);
  for (const url of pages) {
    const cells = results.map((r) => {
      const s = r.get(url)!;
      const sorted = [...s.latencies].sort((x, y) => x - y);
      return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), cpu: (s.cpuTicks * 10) / s.requests, failed: s.failed };
    });
    const failed = cells.some((c) => c.failed) ? `  (no-200: ${cells.map((c) => c.failed).join(" / ")})` : "";
    console.log(
      `${url.padEnd(12)} | ${"".padStart(10)}${fmt(cells[0].median)} ${fmt(cells[0].p95)} ${fmt(cells[0].cpu)} ms | ${"".padStart(10)}${fmt(cells[1].median)} ${fmt(cells[1].p95)} ${fmt(cells[1].cpu)} ms | ×${(cells[1].median / cells[0].median).toFixed(2)}${failed}`,
    );
  }
}

async function main() {
  const { sha, dir } = await prepareRef();
  const head = git(["rev-parse", "--short", "HEAD"]);
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]) ? "+cambios" : "";
  const refLabel = sha.slice(0, 7);
  const headLabel = `${head}${dirty}`;
  say(`${refLabel} contra este checkout (${headLabel}); ${os.cpus().length} núcleos, Node ${process.versions.node}, carga media ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  const sides: Side[] = [];
  const stopAll = async () => {
    for (const side of sides) await stopSide(side);
  };
  process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
  try {
    // One after the other: two builds and two emulators starting at once would only slow both.
    sides.push(await startSide(refLabel, dir, 0));
    sides.push(await startSide(headLabel, root, 1));
    // Warm: each page's code compiled and optimized on both before anything counts.
    for (const side of sides) for (const url of pages) await measureBatch(side, url, 10);
    const results = sides.map(() => new Map(pages.map((url) => [url, { latencies: [], cpuTicks: 0, requests: 0, failed: 0 } as Samples])));
    const loadBefore = os.loadavg()[0];
    for (let round = 0; round < rounds; round++) {
      for (const url of pages) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) await measureBatch(sides[i], url, batch, results[i].get(url));
      }
    }
    say(`${rounds} rondas × ${batch} pedidos por página y lado, uno a la vez, alternados; carga media ${loadBefore.toFixed(1)} al empezar, ${os.loadavg()[0].toFixed(1)} al terminar`);
    printTable(sides, results);
    for (const rate of openRates) {
      console.log(`\nLazo abierto, ${rate} pedidos/s durante ${openSeconds} s, ${OPEN_LOOP_PAGES.join(", ")} en turno:`);
      for (const side of sides) {
        const sender = httpSender(side.base, { cookie: side.cookie });
        await openLoop({ rate, seconds: 2, urls: OPEN_LOOP_PAGES, send: sender.send });
        const cpu0 = cpuTicks(side.serverPid);
        const r = await openLoop({ rate, seconds: openSeconds, urls: OPEN_LOOP_PAGES, send: sender.send });
        const cpu = ((cpuTicks(side.serverPid) - cpu0) * 10) / Math.max(1, r.sent - r.failed);
        sender.close();
        console.log(
          `  ${side.label.padEnd(16)} p50 ${fmt(r.p50)}  p90 ${fmt(r.p90)}  p99 ${fmt(r.p99)}  máx. ${fmt(r.max)} ms  CPU ${cpu.toFixed(1)} ms/pág  fallidos ${r.failed}  (carga ${os.loadavg()[0].toFixed(1)})`,
        );
      }
    }
    if (process.argv.includes("--keep")) {
      say(`los dos siguen corriendo: ${sides.map((s) => s.base).join(" y ")}; Ctrl-C los detiene`);
      await new Promise(() => undefined);
    }
  } finally {
    agent.destroy();
    await stopAll();
  }
}

main().catch((err) => {
  console.error(`[bench:compare] ${(err as Error).message}`);
  process.exit(1);
});
