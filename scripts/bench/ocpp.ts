// npm run bench:ocpp — N simulated chargers against a running production server (worker
// processes of ocpp-rpc clients with realistic traffic), then prints connections held,
// messages/s, response latency p50/p99 and the server's CPU and RSS. Prints figures; never
// fails on them.
//
//   npm run build && npm run bench:ocpp -- --chargers 1000 [--duration 60] [--workers 2] [--settle 30] [--v201 0.5]
//   (--v201: the share of chargers that speak OCPP 2.0.1, the rest 1.6J; default 0)
//   (--client ocpp-rpc: the simulated chargers use ocpp-rpc's RPCClient instead of the lean client)
//   (--gc: each server and simulated-charger process prints its garbage collections and event loop delay every 5 s;
//   BENCH_SERVER_STDOUT=file keeps the server's stdout, e.g. with BENCH_NODE_FLAGS="... --trace-gc-nvp")
//   (--commands R: R remote commands a second during the measurement, sent from this process as a
//   second node over LISTEN/NOTIFY to the node holding the charger; 0 turns them off; default 2)
//   DATABASE_URL=postgres://root@127.0.0.1:5432/enchufa_bench npm run bench:ocpp -- --chargers 5000
//
// Without DATABASE_URL the server uses PGlite in a scratch directory. The bench company
// (firebase uid 'bench-ocpp') is recreated on every run; nothing else is touched.
import { fork, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, openSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import { hashOcppPassword } from "#infra/crypto";
import { openDatabase, type Database } from "#db/client";
import { businessUsers, chargers, connectorTypes, connectors, rates, stations } from "#db/schema";
import { seedCatalogs } from "#db/seed/catalogs";
import { cuitCheckDigit } from "#domain/cuit";
import { SERVER_NODE_FLAGS } from "../../server/cluster";
import { createRouter } from "../../ocpp/outbound/router";
// The server's CPU and memory: its process and, with WEB_CONCURRENCY > 1, its workers.
import { clusterTicks, cpuTicks, cpuTicksOf, machineTicks, postmasterOf, rssMb, rssPerProcessMb, serverWorkers } from "./harness";

const { values: args } = parseArgs({
  options: {
    chargers: { type: "string", default: "1000" },
    duration: { type: "string", default: "60" },
    workers: { type: "string", default: "2" },
    port: { type: "string", default: "3900" },
    ramp: { type: "string", default: "100" },
    heartbeat: { type: "string", default: "60" },
    settle: { type: "string", default: "30" },
    nice: { type: "string", default: "0" },
    v201: { type: "string", default: "0" },
    gc: { type: "boolean", default: false },
    client: { type: "string", default: "lean" },
    commands: { type: "string", default: "2" },
  },
});
const N = Number(args.chargers);
const DURATION_S = Number(args.duration);
const WORKERS = Number(args.workers);
const PORT = Number(args.port);
const NICE = Number(args.nice);
const root = path.resolve(import.meta.dirname, "../..");
const buildDir = path.resolve(process.env.BUILD_DIR ?? path.join(root, "build"));
const databaseUrl = process.env.DATABASE_URL;
const dataDir = path.join(root, ".cache", "bench-ocpp-data");
const PASSWORD = "bench-ocpp-password-0123456789ab";

function validCuit(): string {
  for (let n = 70_000_000; ; n++) {
    const first10 = `30${n}`;
    const d = cuitCheckDigit(first10);
    if (d !== null) return first10 + d;
  }
}

async function prepare() {
  if (!databaseUrl) rmSync(dataDir, { recursive: true, force: true });
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir });
  const { db } = database;
  await seedCatalogs(db);
  await db.delete(businessUsers).where(eq(businessUsers.firebaseUid, "bench-ocpp"));
  const [business] = await db
    .insert(businessUsers)
    .values({ firebaseUid: "bench-ocpp", email: "bench@enchufa.local", businessName: "Bench OCPP", cuit: validCuit(), status: "ACTIVE" })
    .onConflictDoNothing()
    .returning();
  if (!business) throw new Error("No se pudo crear la empresa del bench (¿CUIT en uso?)");
  const [station] = await db
    .insert(stations)
    .values({ businessId: business.id, name: "Bench", address: "Av. Corrientes 1234", city: "Buenos Aires", province: "AR-C", latitude: -34.6, longitude: -58.38 })
    .returning();
  const [rate] = await db.insert(rates).values({ businessId: business.id, name: "Bench AC", pricePerKwhCents: 35_000, idleGraceMinutes: 15, idlePricePerMinuteCents: 2_000 }).returning();
  const [type2] = await db.select().from(connectorTypes).where(eq(connectorTypes.code, "IEC_62196_T2"));
  const t = performance.now();
  const hash = await hashOcppPassword(PASSWORD);
  const hashMs = performance.now() - t;
  const identities: string[] = [];
  const chargerIds: string[] = [];
  for (let i = 0; i < N; i += 500) {
    const batch = Array.from({ length: Math.min(500, N - i) }, (_, k) => {
      const identity = `BENCH-${String(i + k + 1).padStart(5, "0")}`;
      identities.push(identity);
      return { businessId: business.id, stationId: station.id, name: identity, ocppIdentity: identity, ocppPasswordHash: hash, heartbeatInterval: Number(args.heartbeat) };
    });
    const rows = await db.insert(chargers).values(batch).returning({ id: chargers.id });
    chargerIds.push(...rows.map((r) => r.id));
    await db.insert(connectors).values(rows.map((r) => ({ chargerId: r.id, connectorId: 1, connectorTypeId: type2.id, format: "CABLE" as const, powerType: "AC_3_PHASE" as const, maxPowerKw: 22, rateId: rate.id })));
  }
  // A database in service has planner statistics; a freshly seeded one has none until autovacuum
  // gets to it, and without them the planner reads all 5,000 chargers of the station where an
  // index would read none (seen in the bench of 26-27 November).
  if (databaseUrl) await db.execute(sql`analyze`);
  // PostgreSQL's CPU is its cluster's processes when it runs on this machine: the postmaster is
  // this backend's parent.
  const backend = databaseUrl ? ((await db.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] }).rows[0].pid : undefined;
  // A cluster without autovacuum (a CI configuration) keeps every dead row the heartbeats and
  // statuses leave: its cost per message grows through the run, which no database in service does.
  const autovacuum = databaseUrl ? String(((await db.execute(sql`show autovacuum`)) as unknown as { rows: { autovacuum: string }[] }).rows[0].autovacuum) : undefined;
  if (autovacuum === "off") console.log("  ⚠ autovacuum está apagado en este PostgreSQL: las cifras no son las de una base en servicio");
  await database.close();
  return { identities, chargerIds, hashMs, autovacuum, postmaster: backend === undefined ? undefined : postmasterOf(backend) };
}

/**
 * What a second node adds: this process joins as one more node (its own node id, no chargers) and
 * sends commands to chargers held by the server's processes, the way an API call on one node
 * reaches a charger on another (ocpp/outbound/router.ts): the charger's row says which node holds
 * it, the command goes over NOTIFY, that node calls the charger, the answer comes back over NOTIFY.
 * A TriggerMessage the lean charger answers NotImplemented: the whole round trip, no side effect.
 */
async function startRemoteCommands(chargerIds: string[], identities: string[]) {
  const perSecond = Number(args.commands);
  if (!databaseUrl || !(perSecond > 0)) return { stop: async () => [] as number[], rows: () => [] as [string, string][] };
  const quiet = { info() {}, warn() {}, error() {} };
  const database: Database = await openDatabase({ databaseUrl });
  const router = await createRouter({ db: database.db, channels: database.channels, logger: quiet, nodeId: `bench-${randomBytes(4).toString("hex")}`, commandTimeoutMs: 8_000, connections: new Map() });
  const latencies: number[] = [];
  const outcomes = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const i = Math.floor(Math.random() * chargerIds.length);
    const t = performance.now();
    const run = router
      .deliver({ id: chargerIds[i], ocppIdentity: identities[i] }, () => ({ method: "TriggerMessage", params: { requestedMessage: "Heartbeat" } }))
      .then((answer) => {
        // Answered, even with NotImplemented, is a round trip; offline or timeout is not.
        const kind = answer.kind === "answer" || answer.kind === "rpc-error" ? "answered" : answer.kind;
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
        if (kind === "answered") latencies.push(performance.now() - t);
      })
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      await router.close();
      await database.close();
      return latencies.sort((a, b) => a - b);
    },
    rows(sorted: number[]): [string, string][] {
      const other = [...outcomes].filter(([k]) => k !== "answered").map(([k, n]) => `${n} ${k}`);
      return [
        [
          "Comando desde otro nodo (NOTIFY) p50 / p99",
          `${pct(sorted, 50).toFixed(1)} / ${pct(sorted, 99).toFixed(1)} ms (${sorted.length} respondidos${other.length ? `, ${other.join(", ")}` : ""})`,
        ],
      ];
    },
  };
}

/**
 * Where the server's PostgreSQL connections are, sampled twice a second during the measurement:
 * running a statement, waiting for a lock or for the WAL, or "idle in transaction" (holding a
 * pool connection between the statements of a transaction while the node's event loop gets to
 * the next one). The average of each is printed: when the event loop falls behind, the last one
 * grows, and the pool's connections run out before PostgreSQL's CPU does. (This process's own
 * connections carry the same application name; they run single statements, a handful at most.)
 */
async function startActivitySampler() {
  if (!databaseUrl) return { stop: async () => [] as [string, string][] };
  const database: Database = await openDatabase({ databaseUrl });
  const totals = new Map<string, number>();
  let samples = 0;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void (database.db.execute(sql`
      select case when state = 'active' and wait_event_type = 'Lock' then 'bloqueo'
                  when state = 'active' and wait_event in ('WALSync', 'WALWrite', 'WALInsert') then 'WAL'
                  when state = 'active' then 'activa'
                  when state like 'idle in transaction%' then 'idle in transaction'
                  else 'libre' end as what, count(*)::int as n
      from pg_stat_activity
      where datname = current_database() and application_name like 'enchufa%' and pid <> pg_backend_pid()
      group by 1`) as unknown as Promise<{ rows: { what: string; n: number }[] }>)
      .then(({ rows }) => {
        samples++;
        for (const r of rows) totals.set(r.what, (totals.get(r.what) ?? 0) + r.n);
      })
      .catch(() => {})
      .finally(() => (busy = false));
  }, 500);
  return {
    async stop(): Promise<[string, string][]> {
      clearInterval(timer);
      await database.close();
      const avg = (k: string) => ((totals.get(k) ?? 0) / Math.max(1, samples)).toFixed(1);
      return [["Conexiones del servidor a PostgreSQL (promedio)", `${avg("activa")} activas, ${avg("WAL")} esperando el WAL, ${avg("bloqueo")} esperando un bloqueo, ${avg("idle in transaction")} idle in transaction (${samples} muestras)`]];
    },
  };
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

/** --gc: the server's processes and the simulated chargers' print their GC and event loop delay. */
const gcWatch = args.gc ? ["--import", path.join(import.meta.dirname, "gc-watch.mjs")] : [];
/** BENCH_NODE_FLAGS replaces the server's V8 flags (as in bench:server); BENCH_CLIENT_FLAGS adds the simulated chargers'. */
const serverFlags = process.env.BENCH_NODE_FLAGS === undefined ? SERVER_NODE_FLAGS : process.env.BENCH_NODE_FLAGS.split(" ").filter(Boolean);
const clientFlags = (process.env.BENCH_CLIENT_FLAGS ?? "").split(" ").filter(Boolean);

async function main() {
  if (!existsSync(path.join(buildDir, "server.js"))) throw new Error(`Falta el build en ${buildDir}: corré antes "npm run build".`);
  console.log(`bench:ocpp — ${N} cargadores, ${WORKERS} procesos, ${DURATION_S} s de medición, base ${databaseUrl ? "PostgreSQL" : "PGlite"}`);
  const { identities, chargerIds, hashMs, autovacuum, postmaster } = await prepare();
  const pgTicks = () => (postmaster ? clusterTicks(postmaster) : cpuTicksOf("postgres"));

  // As production runs it: the V8 flags, and one process per core with PostgreSQL (WEB_CONCURRENCY to change it).
  const server = spawn(process.execPath, [...serverFlags, ...gcWatch, ...(process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []), path.join(buildDir, "server.js")], {
    cwd: root,
    stdio: ["ignore", process.env.BENCH_SERVER_STDOUT ? openSync(process.env.BENCH_SERVER_STDOUT, "w") : "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      ENCHUFA_LOCAL: "1",
      HOST: "127.0.0.1",
      PORT: String(PORT),
      BUILD_DIR: buildDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
      FIREBASE_PROJECT_ID: "demo-enchufa",
      FIREBASE_API_KEY: "bench",
      FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9",
      SESSION_SECRET: randomBytes(32).toString("hex"),
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LOG_LEVEL: "warn",
      // Every simulated charger connects from 127.0.0.1: the per-address limit (600 a minute per
      // process) would pace the ramp and refuse the rest, where real chargers come from their own
      // addresses. The per-charger limit stays as in production.
      OCPP_CONNECTIONS_PER_IP_MINUTE: "1000000",
    },
  });
  const stopServer = () => new Promise<void>((resolve) => (server.exitCode !== null ? resolve() : (server.once("exit", () => resolve()), server.kill("SIGTERM"))));
  try {
    for (let i = 0; ; i++) {
      const ok = await fetch(`http://127.0.0.1:${PORT}/healthz`).then((r) => r.status < 600, () => false);
      if (ok) break;
      if (i > 120 || server.exitCode !== null) throw new Error("El servidor no arrancó");
      await new Promise((r) => setTimeout(r, 500));
    }
    const pid = server.pid!;
    await new Promise((r) => setTimeout(r, 2000)); // the other workers start once the first listens
    const processes = Math.max(1, serverWorkers(pid).length);
    const idleRss = rssMb(pid);

    const state = new Map<number, { connected: number; failed: number }>();
    /** Start of the measurement window: answers that came before it are not counted. */
    let t0 = Infinity;
    /** Call latencies while the chargers were still connecting. */
    const rampWindow: number[] = [];
    let windowCalls = 0;
    let windowErrors = 0;
    let windowLatencies: [string, number, number][] = [];
    let measuring = false;
    const workers = Array.from({ length: WORKERS }, (_, w) => {
      const child = fork(path.join(import.meta.dirname, "ocpp-worker.ts"), [], { execArgv: ["--import", "tsx", ...gcWatch, ...clientFlags], stdio: ["ignore", "inherit", "inherit", "ipc"] });
      // --nice N: the simulated chargers yield the CPU to the server and PostgreSQL, as if they
      // ran on other machines (their latencies are then, if anything, overstated).
      if (NICE > 0 && child.pid) os.setPriority(child.pid, NICE);
      child.on("message", (m: { type: string; connected: number; failedConnects: number; calls: number; errors: number; latencies: [string, number, number][] }) => {
        state.set(w, { connected: m.connected, failed: m.failedConnects });
        if (!measuring && t0 === Infinity) rampWindow.push(...m.latencies.map(([, ms]) => ms));
        if (measuring) {
          windowCalls += m.calls;
          windowErrors += m.errors;
          windowLatencies = windowLatencies.concat(m.latencies.filter(([, , at]) => at >= t0));
        }
      });
      child.send({
        type: "start",
        job: { endpoint: `ws://127.0.0.1:${PORT}/ocpp`, identities: identities.filter((_, i) => i % WORKERS === w), password: PASSWORD, rampPerSecond: Number(args.ramp) / WORKERS, heartbeatSeconds: Number(args.heartbeat), meterSeconds: 10, v201Share: Math.min(1, Math.max(0, Number(args.v201) || 0)), client: args.client === "ocpp-rpc" ? "ocpp-rpc" : "lean" },
      });
      return child;
    });
    const held = () => [...state.values()].reduce((a, s) => a + s.connected, 0);
    const failed = () => [...state.values()].reduce((a, s) => a + s.failed, 0);

    const rampStart = Date.now();
    while (held() + failed() < N && Date.now() - rampStart < Math.max(120_000, (N / Number(args.ramp)) * 3000)) {
      await new Promise((r) => setTimeout(r, 1000));
      process.stdout.write(`\r  conectando… ${held()}/${N}   `);
    }
    const rampS = (Date.now() - rampStart) / 1000;
    process.stdout.write("\n");

    // The connection storm (every charger booting within the ramp) is reported on its own;
    // the window then measures the steady traffic once its backlog has drained.
    const rampLatencies = rampWindow.splice(0).sort((a, b) => a - b);
    const settleS = Number(args.settle);
    for (let s = 0; s < settleS; s += 2) {
      await new Promise((r) => setTimeout(r, 2000));
      process.stdout.write(`\r  asentando… ${s + 2}/${settleS} s   `);
    }
    if (settleS > 0) process.stdout.write("\n");

    t0 = Date.now();
    measuring = true;
    const ticksPerSecond = 100;
    const cpu0 = cpuTicks(pid);
    // Where the rest of the machine's CPU goes: the simulated chargers, and PostgreSQL when it
    // runs on this machine (its processes are named "postgres"). The chargers share the cores
    // with the server, so a busier machine overstates the latencies they measure.
    const clientCpu0 = workers.reduce((sum, w) => sum + cpuTicks(w.pid!), 0);
    const pgCpu0 = pgTicks();
    const machine0 = machineTicks();
    let maxRss = 0;
    let maxRssEach: number[] = [];
    let maxClientRss = 0;
    let minHeld = Infinity;
    const remote = await startRemoteCommands(chargerIds, identities);
    const activity = await startActivitySampler();
    while (Date.now() - t0 < DURATION_S * 1000) {
      await new Promise((r) => setTimeout(r, 2000));
      maxRss = Math.max(maxRss, rssMb(pid));
      const each = rssPerProcessMb(pid);
      maxRssEach = each.map((mb, i) => Math.max(mb, maxRssEach[i] ?? 0));
      maxClientRss = Math.max(maxClientRss, workers.reduce((sum, w) => sum + rssMb(w.pid!), 0));
      minHeld = Math.min(minHeld, held());
      process.stdout.write(`\r  midiendo… ${Math.round((Date.now() - t0) / 1000)}/${DURATION_S} s, ${held()} conectados   `);
    }
    const elapsed = (Date.now() - t0) / 1000;
    const cpuPct = ((cpuTicks(pid) - cpu0) / ticksPerSecond / elapsed) * 100;
    const clientCpuPct = ((workers.reduce((sum, w) => sum + cpuTicks(w.pid!), 0) - clientCpu0) / ticksPerSecond / elapsed) * 100;
    const pgCpuPct = ((pgTicks() - pgCpu0) / ticksPerSecond / elapsed) * 100;
    const machine1 = machineTicks();
    const machinePct = ((machine1.busy - machine0.busy) / Math.max(1, machine1.total - machine0.total)) * 100;
    measuring = false;
    const commandLatencies = await remote.stop();
    const activityRows = await activity.stop();
    process.stdout.write("\n");
    for (const w of workers) w.send({ type: "stop" });
    await Promise.all(workers.map((w) => new Promise((r) => w.once("exit", r))));

    const sorted = windowLatencies.map(([, ms]) => ms).sort((a, b) => a - b);
    // Per message type, and the slowest seconds of the window: where the tail comes from.
    const byMethod = new Map<string, number[]>();
    const bySecond = new Map<number, number[]>();
    for (const [method, ms, at] of windowLatencies) {
      byMethod.set(method, [...(byMethod.get(method) ?? []), ms]);
      const second = Math.floor((at - t0) / 1000);
      bySecond.set(second, [...(bySecond.get(second) ?? []), ms]);
    }
    const rows: [string, string][] = [
      ["Máquina", `${os.cpus().length} núcleos, Node ${process.versions.node}`],
      ["Base de datos", databaseUrl ? `PostgreSQL (autovacuum ${autovacuum})` : "PGlite"],
      ["Cargadores pedidos", String(N)],
      ["Conexiones sostenidas (mín. en la medición)", String(minHeld === Infinity ? held() : minHeld)],
      ["Conexiones fallidas", String(failed())],
      ["Rampa de conexión", `${rampS.toFixed(1)} s (hash de una contraseña: ${hashMs.toFixed(0)} ms)`],
      ["Latencia durante la rampa p50 / p99", `${pct(rampLatencies, 50).toFixed(1)} / ${pct(rampLatencies, 99).toFixed(1)} ms (${rampLatencies.length} llamadas)`],
      ["Espera antes de medir", `${settleS} s`],
      ["Prioridad de los clientes simulados", NICE > 0 ? `nice ${NICE}` : "la misma que el servidor"],
      ["Cliente OCPP simulado", args.client === "ocpp-rpc" ? "RPCClient de ocpp-rpc" : "liviano (WebSocket y JSON, lean-charger.ts)"],
      ["Mensajes/s (cargador → servidor)", (windowCalls / elapsed).toFixed(1)],
      ["Errores en la medición", String(windowErrors)],
      ["Latencia p50", `${pct(sorted, 50).toFixed(1)} ms`],
      ["Latencia p99", `${pct(sorted, 99).toFixed(1)} ms`],
      ["Latencia máx.", `${(sorted.at(-1) ?? NaN).toFixed(1)} ms`],
      ["CPU del servidor (promedio)", `${cpuPct.toFixed(0)} % de un núcleo, ${processes} proceso${processes > 1 ? "s" : ""}`],
      ["CPU de los cargadores simulados", `${clientCpuPct.toFixed(0)} % de un núcleo, ${WORKERS} procesos`],
      ...(databaseUrl ? ([["CPU de PostgreSQL (procesos locales)", `${pgCpuPct.toFixed(0)} % de un núcleo`]] as [string, string][]) : []),
      ["CPU de la máquina", `${machinePct.toFixed(0)} % de ${os.cpus().length} núcleos`],
      ["RSS del servidor", `${idleRss.toFixed(0)} MB en reposo, ${maxRss.toFixed(0)} MB máx. bajo carga`],
      ["RSS máx. por proceso del servidor", `${maxRssEach.map((mb) => `${mb} MB`).join(" + ")} (el primario primero)`],
      ["RSS máx. de los cargadores simulados", `${maxClientRss} MB, ${WORKERS} procesos`],
      ...remote.rows(commandLatencies),
      ...activityRows,
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log(rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join("\n"));
    console.log("\n  por mensaje                 llamadas      p50      p99      máx.");
    for (const [method, list] of [...byMethod].sort((a, b) => b[1].length - a[1].length)) {
      const l = list.sort((a, b) => a - b);
      console.log(`  ${method.padEnd(26)}${String(l.length).padStart(10)}${pct(l, 50).toFixed(1).padStart(9)}${pct(l, 99).toFixed(1).padStart(9)}${(l.at(-1) ?? NaN).toFixed(1).padStart(10)}`);
    }
    const worst = [...bySecond].map(([sec, l]) => [sec, pct(l.sort((a, b) => a - b), 99), l.length] as const).sort((a, b) => b[1] - a[1]).slice(0, 5);
    if (args.gc) {
      console.log(`  la medición empezó a las ${new Date(t0).toISOString().slice(11, 19)} (UTC; las líneas [gc …] usan la misma hora)`);
      console.log(`  p99 por segundo: ${[...bySecond].sort((a, b) => a[0] - b[0]).map(([sec, l]) => `s${sec} ${pct(l, 99).toFixed(0)}`).join(" ")}`);
    }
    console.log(`  segundos con peor p99: ${worst.map(([sec, p99, n]) => `s${sec} ${p99.toFixed(0)} ms (${n})`).join(" · ")}`);
  } finally {
    await stopServer();
    if (!databaseUrl) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
