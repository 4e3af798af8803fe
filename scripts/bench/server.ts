// `npm run bench:server`: server-side rendering under load, logged in as the bench operator.
// Needs a production build (`BUILD_DIR=… npm run build`) and the bench data (`npm run bench:seed`,
// DATABASE_URL or DATA_DIR as there). Starts its own Auth Emulator and server on 127.0.0.1
// (BENCH_PORT, default 3450; BENCH_AUTH_EMULATOR_PORT, default 9450), signs in through the real
// login form, then runs autocannon against each page and the floor (/healthz, a static asset)
// at 10 and 50 connections. Prints req/s, p50/p99 latency, time to ready and server RSS.
// Only loopback traffic; every run is bounded by BENCH_SECONDS (default 10) per case, after
// BENCH_WARMUP seconds (default 2) not counted. The server runs as in production: one process
// per core with PostgreSQL (BENCH_WEB_CONCURRENCY sets WEB_CONCURRENCY) and SERVER_NODE_FLAGS
// (BENCH_NODE_FLAGS replaces them).
//
// `npm run bench:server -- --open` (bench:server:open) measures instead with an open loop
// (scripts/bench/open-loop.ts): signed-in pages — /home and the lists, in turn — arrive at a fixed
// rate (BENCH_RATE, default 40 per second) for BENCH_OPEN_SECONDS (default 30), after a warm-up
// of BENCH_WARMUP seconds (default 10) at the same rate, and each latency counts from the
// request's scheduled time. Target: p99 under 100 ms at 40 requests/s (embedded) and at 80 (PostgreSQL, two
// processes). BENCH_TIMELINE=<file> writes each request's scheduled time, latency and path.
import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { cpuTicks, ownCpuTicks, rssMb, serverWorkers, startBenchServer } from "./harness";
import { httpSender, openLoop } from "./open-loop";
const port = Number(process.env.BENCH_PORT ?? 3450);
const emulatorPort = Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? 9450);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");

interface Result {
  url: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function cannon(base: string, url: string, connections: number, cookie?: string, duration = seconds): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      // As a browser asks: compressed (the server answers brotli or gzip, as it does to Chrome).
      { url: `${base}${url}`, connections, duration, headers: { "accept-encoding": "gzip, deflate, br", ...(cookie ? { cookie } : {}) }, timeout: 10 },
      (err, r) => {
        if (err) return reject(err);
        resolve({ url, connections, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
      },
    );
  });
}

/**
 * Each case is measured warm: first BENCH_WARMUP seconds (default 2) of the same load, not
 * counted. A page's first requests compile its code (V8 optimizes as it goes) and, with several
 * processes, reach a worker that has not served it yet; cold-start is §5's figure, not this one.
 */
const warmup = Number(process.env.BENCH_WARMUP ?? 2);
async function measured(base: string, url: string, connections: number, cookie?: string): Promise<Result> {
  if (warmup > 0) await cannon(base, url, connections, cookie, warmup);
  return cannon(base, url, connections, cookie);
}

async function main() {
  const clientAssets = path.join(buildDir, "client", "assets");
  const css = readdirSync(clientAssets).find((f) => f.endsWith(".css"));
  if (!css) throw new Error(`No hay build en ${buildDir}: ejecutá \`BUILD_DIR=${path.relative(process.cwd(), buildDir)} npm run build\`.`);
  const srv = await startBenchServer({ port, emulatorPort, buildDir });
  const base = srv.base;
  try {
    const { cookie, stationId, readyMs, idleRssMb: idleRss } = srv;
    console.log(`Servidor: ${srv.target.label}, build ${path.relative(process.cwd(), buildDir)}, ${seconds} s por caso, ${os.cpus().length} núcleos, Node ${process.versions.node}, carga media ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    const workers = serverWorkers(srv.pid).length;
    const processes = workers ? `${workers} procesos (WEB_CONCURRENCY)` : "un proceso";
    console.log(`Listo en ${readyMs.toFixed(0)} ms (proceso nuevo hasta /healthz 200, base ya migrada); ${processes}; RSS en reposo ${idleRss} MB\n`);
    if (process.argv.includes("--open")) return await openLoopRun(base, cookie, srv.pid, idleRss);
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
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(srv.pid))), 250);
    const floor: Record<number, number> = {};
    try {
      for (const connections of [10, 50]) {
        for (const c of cases) {
          const r = await measured(base, c.url, connections, c.auth ? cookie : undefined);
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
    console.log(`\nRSS del servidor: ${idleRss} MB en reposo, ${peakRss} MB máximo bajo carga; carga media al terminar ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  } finally {
    await srv.stop();
  }
}

const rate = Number(process.env.BENCH_RATE ?? 40);
/**
 * The open loop's warm-up, at the same rate (BENCH_WARMUP, default 10 s): on 2 cores V8 keeps
 * optimizing the pages' code for several seconds after their first requests, on threads that take
 * CPU from them, and each new database connection prepares its statements. Its p99 is printed
 * apart.
 */
const openWarmup = Number(process.env.BENCH_WARMUP ?? 10);
const openSeconds = Number(process.env.BENCH_OPEN_SECONDS ?? 30);
const OPEN_LOOP_PAGES = ["/home", "/station", "/charger", "/activity"];

async function openLoopRun(base: string, cookie: string, pid: number, idleRss: number) {
  // BENCH_SCHEDULING=lifo: the sockets as measured before 29 November (one hot connection).
  const sender = httpSender(base, { cookie }, undefined, process.env.BENCH_SCHEDULING === "lifo" ? "lifo" : "fifo");
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 250);
  try {
    const warm = openWarmup > 0 ? await openLoop({ rate, seconds: openWarmup, urls: OPEN_LOOP_PAGES, send: sender.send }) : undefined;
    const cpu0 = cpuTicks(pid);
    const processes = [pid, ...serverWorkers(pid)];
    const perProcess0 = processes.map(ownCpuTicks);
    const r = await openLoop({ rate, seconds: openSeconds, urls: OPEN_LOOP_PAGES, send: sender.send, timelineFile: process.env.BENCH_TIMELINE });
    // CPU time the server spent per answered page (clock ticks of 10 ms): what a page costs,
    // less sensitive than latency to what else the machine is running.
    const cpuMsPerPage = ((cpuTicks(pid) - cpu0) * 10) / Math.max(1, r.sent - r.failed);
    if (warm) console.log(`Calentamiento (no cuenta): ${openWarmup} s al mismo ritmo, p50 ${warm.p50.toFixed(1)} ms, p99 ${warm.p99.toFixed(1)} ms, máx. ${warm.max.toFixed(1)} ms`);
    console.log(`Lazo abierto: ${rate} req/s durante ${openSeconds} s (${r.sent} pedidos), páginas con sesión en turno: ${OPEN_LOOP_PAGES.join(", ")}`);
    console.log(`CPU del servidor: ${cpuMsPerPage.toFixed(1)} ms por página respondida`);
    // How the pages spread over the processes: a worker busier than the others queues pages the
    // others could have served.
    const split = processes.map((p, i) => (ownCpuTicks(p) - perProcess0[i]) / 100 / openSeconds);
    console.log(`CPU por proceso (núcleos): ${split.map((c) => c.toFixed(2)).join(" / ")} (el primario primero)`);
    console.log(`Latencia desde la hora programada: p50 ${r.p50.toFixed(1)} ms, p90 ${r.p90.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, máx. ${r.max.toFixed(1)} ms; fallidos ${r.failed}`);
    for (const [url, v] of Object.entries(r.byUrl)) console.log(`  ${url.padEnd(12)} ${String(v.sent).padStart(5)} pedidos, p99 ${v.p99.toFixed(1)} ms`);
    console.log(`Retraso máximo del generador al enviar: ${r.maxSendLagMs.toFixed(1)} ms`);
    console.log(`Objetivo: p99 < 100 ms → ${r.p99 < 100 ? "cumplido" : "no cumplido"}`);
  } finally {
    clearInterval(sampler);
    sender.close();
  }
  console.log(`RSS del servidor: ${idleRss} MB en reposo, ${peakRss} MB máximo bajo carga; carga media al terminar ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}

main().catch((err) => {
  console.error(`[bench:server] ${(err as Error).message}`);
  process.exit(1);
});
