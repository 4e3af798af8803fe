// Several server processes on one machine (ADR 0011). One Node process renders pages on
// one core; with PostgreSQL the server already runs as many nodes as wanted (rate limits, OCPP
// command routing and live events go through the database), so a machine with more cores runs
// one node per core: node:cluster shares the listening port among workers, each a whole server
// with its own pool and OCPP sockets. PGlite lives inside one process, so it always runs one.
import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import type { Logger } from "./logger";

/** How many server processes this machine runs: WEB_CONCURRENCY ("auto": one per core), only with PostgreSQL. */
export function workerCount(env: { WEB_CONCURRENCY: number | "auto"; DATABASE_URL?: string }, cores = os.availableParallelism()): number {
  if (!env.DATABASE_URL) return 1;
  return env.WEB_CONCURRENCY === "auto" ? Math.max(1, cores) : env.WEB_CONCURRENCY;
}

/**
 * V8 flags every server process runs with (Dockerfile, `npm start`, the benchmarks, and the
 * workers):
 * - a 32 MB young generation instead of 16 MB. A page allocates a few MB of short-lived objects
 *   (rows, JSON, React's output); with the default, scavenges ran several times per page and
 *   promoted garbage to the old generation. Measured: +10–15 % requests/s on the list pages, ~40 MB
 *   more resident memory per process (docs/benchmarks.md §3).
 * - the old generation grows to twice what the last full GC left before the next one (V8 picks
 *   1.1–1.5× for a heap like ours). A process holding 2,500 chargers keeps ~86 MB alive and
 *   promotes ~0.7 MB/s: V8's own limit ran a full GC every 10–15 s, a 15–40 ms pause felt by every
 *   charger of that process at once, and those seconds made the OCPP p99 (ADR 0025). ~+50 MB per
 *   process under that load.
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=32", "--heap-growing-percent=100"];

/** A worker that crashes is replaced; this many crashes within a minute end the whole server (exit 1). */
const MAX_CRASHES_PER_MINUTE = 5;
/** SIGTERM: each worker drains in under 10 s (server.ts); past this the primary exits anyway. */
const STOP_TIMEOUT_MS = 12_000;

export interface ClusterOptions {
  workers: number;
  /** Environment of worker `index` (1-based), e.g. its NODE_ID. */
  workerEnv(index: number): Record<string, string>;
  logger: Logger;
  /** Script the workers run (default: this process's own). */
  exec?: string;
}

/**
 * The primary process: starts one worker and waits until it listens (it migrates the database
 * and seeds the catalogues, which must not run twice at once), then the others. Replaces a worker
 * that dies, and on SIGTERM/SIGINT asks every worker to drain and exits when they have.
 */
export function runPrimary({ workers, workerEnv, logger, exec }: ClusterOptions): void {
  const given = new Set(process.execArgv.map((flag) => flag.split("=")[0]));
  const execArgv = [...process.execArgv, ...SERVER_NODE_FLAGS.filter((flag) => !given.has(flag.split("=")[0]))];
  cluster.setupPrimary({ execArgv, ...(exec ? { exec } : {}) });
  const indexOf = new Map<Worker, number>();
  const crashes: number[] = [];
  let stopping = false;
  let exitCode = 0;
  let ready = false;

  const fork = (index: number) => {
    const worker = cluster.fork(workerEnv(index));
    indexOf.set(worker, index);
    return worker;
  };

  cluster.on("exit", (worker, code, signal) => {
    const index = indexOf.get(worker) ?? 0;
    indexOf.delete(worker);
    if (stopping) {
      if (indexOf.size === 0) process.exit(exitCode);
      return;
    }
    if (!ready) {
      // The first worker could not start (configuration, database): the others would fail the same way.
      logger.error({ worker: index, code, signal }, "el servidor no pudo iniciar");
      process.exit(1);
    }
    const now = Date.now();
    crashes.push(now);
    while (crashes.length && crashes[0] < now - 60_000) crashes.shift();
    if (crashes.length >= MAX_CRASHES_PER_MINUTE) {
      logger.error({ crashes: crashes.length }, "los procesos del servidor terminan una y otra vez: se detiene");
      stopAll(1);
      return;
    }
    logger.error({ worker: index, code, signal }, "un proceso del servidor terminó: se reemplaza");
    fork(index);
  });

  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const worker of indexOf.keys()) worker.process.kill("SIGTERM");
    setTimeout(() => process.exit(1), STOP_TIMEOUT_MS).unref();
    if (indexOf.size === 0) process.exit(exitCode);
  };
  process.once("SIGTERM", () => stopAll(0));
  process.once("SIGINT", () => stopAll(0));

  fork(1).once("listening", () => {
    ready = true;
    for (let index = 2; index <= workers && !stopping; index++) fork(index);
    logger.info({ workers }, "servidor en varios procesos");
  });
}

/** NODE_ID of worker `index`: the configured one with the worker's number, or random per process. */
export function workerNodeId(base: string | undefined, index: number): Record<string, string> {
  return base ? { NODE_ID: `${base}-${index}` } : {};
}
