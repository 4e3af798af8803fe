// `npm start`: Enchufá in local mode on one machine, offline.
// Builds if needed, starts the Firebase Auth Emulator, migrates and seeds PGlite under .data,
// starts the server on 127.0.0.1 and stops everything it started on Ctrl-C.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startAuthEmulator, ensureVerifiedAccount, EMULATOR_PROJECT_ID } from "./emulator";
import { startPaymentsEmulator } from "./payments-emulator";
import { DEMO_POINT_OF_SALE } from "./local-arca-demo";
import { DEMO_PAGOS360_API_KEY, SIM_CHARGER_PASSWORD, type QrDemo } from "./local-qr-demo";
import type { DemoCharger } from "./local-demo-chargers";
import { seedLocalDatabase } from "./local-seed";
import { startSimCharger } from "./sim-charger";
import { hasEnded, stopProcess } from "./processes";
import { SERVER_NODE_FLAGS } from "../server/cluster";

const DEMO_EMAIL = "demo@enchufa.local";
const DEMO_PASSWORD = "Demo1234!";

const root = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");
const dataDir = path.resolve(root, process.env.DATA_DIR ?? ".data");
const port = Number(process.env.PORT ?? 3000);
const emulatorPort = Number(process.env.AUTH_EMULATOR_PORT ?? 9099);
/** The payment providers' emulator: PAYMENTS_EMULATOR_PORT, else the app's port + 1000 (4000 beside 3000). */
const paymentsEmulatorPort = Number(process.env.PAYMENTS_EMULATOR_PORT ?? port + 1000);
const quiet = process.env.ENCHUFA_QUIET === "1";
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const started = Date.now();

/** Past this, a stop that hangs gives way: every child process is killed and the launcher exits. */
const SHUTDOWN_TIMEOUT_MS = 40_000;

const say = (line: string) => console.log(`[enchufa] ${line}`);

/** Secrets generated once and kept in .data, so sessions survive restarts. */
function localSecrets() {
  const file = path.join(dataDir, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as { sessionSecret: string; encryptionKey: string };
  const secrets = { sessionSecret: crypto.randomBytes(32).toString("hex"), encryptionKey: crypto.randomBytes(32).toString("hex") };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Where the data directory's files are, as the banner shows them (relative to the checkout when inside it). */
const shown = (file: string) => {
  const relative = path.relative(root, file);
  return relative && !relative.startsWith("..") ? relative : file;
};

/** The last `lines` lines of a log file, to show why something failed. */
function tail(file: string, lines: number): string {
  if (!existsSync(file)) return "";
  return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
}

/** What the build prints as it reaches each step, and how the launcher names it. */
const BUILD_STEPS: [RegExp, string][] = [
  [/building for production/, "la interfaz del navegador"],
  [/building SSR bundle/, "las páginas del servidor"],
  [/server\.js listo/, "el servidor y los archivos precomprimidos"],
];

/**
 * Builds when the code changed since the last build. Its output (hundreds of lines: every asset)
 * goes to build.log in the data directory; the terminal gets one line per step, and the end of
 * the log if it fails.
 */
async function buildIfNeeded(children: ChildProcess[]) {
  const output = path.join(buildDir, "server.js");
  const sources = ["app", "api", "db", "domain", "infra", "ocpp", "server", "public"].map((d) => path.join(root, d)).filter(existsSync);
  const newestSource = Math.max(statSync(path.join(root, "server.ts")).mtimeMs, ...sources.map(newestMtime));
  if (existsSync(output) && statSync(output).mtimeMs >= newestSource) return;
  const logFile = path.join(dataDir, "build.log");
  say(`compilando la aplicación (solo cuando cambió el código; la primera vez tarda 1–2 min, detalle en ${shown(logFile)})…`);
  const began = Date.now();
  const log = createWriteStream(logFile);
  const child = spawn("npm", ["run", "build"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let recent = "";
  let step = 0;
  const onOutput = (chunk: Buffer) => {
    log.write(chunk);
    recent = (recent + chunk.toString()).slice(-4096);
    while (step < BUILD_STEPS.length && BUILD_STEPS[step][0].test(recent)) {
      if (!quiet) say(`  ${step + 1}/${BUILD_STEPS.length} ${BUILD_STEPS[step][1]}`);
      recent = "";
      step++;
    }
  };
  child.stdout!.on("data", onOutput);
  child.stderr!.on("data", onOutput);
  const code = await new Promise<number | null>((resolve) => child.once("close", (status) => resolve(status)));
  await new Promise<void>((resolve) => log.end(() => resolve()));
  if (code !== 0) {
    console.error(tail(logFile, 25));
    throw new Error(`La compilación falló (detalle en ${shown(logFile)}).`);
  }
  say(`compilada en ${((Date.now() - began) / 1000).toFixed(0)} s`);
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasEnded(child)) throw new Error(`El servidor terminó (código ${child.exitCode ?? child.signalCode}).`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("El servidor no respondió a tiempo.");
}

async function run() {
  // --fresh: start from an empty data directory (the browser tests use their own).
  if (process.argv.includes("--fresh")) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const secrets = localSecrets();

  // Everything started is stopped in reverse order, whatever way the run ends: Ctrl-C, SIGTERM,
  // a failed start or the server's own end (its exit code, or a signal such as the OOM killer's).
  // A second Ctrl-C does not wait: every child process is killed at once.
  const stopAll: (() => Promise<void>)[] = [];
  const children: ChildProcess[] = [];
  let stopping = false;
  const forceExit = (code: number) => {
    for (const child of children) if (!hasEnded(child)) child.kill("SIGKILL");
    process.exit(code);
  };
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say("deteniendo… (Ctrl-C otra vez para forzar)");
    setTimeout(() => forceExit(code || 1), SHUTDOWN_TIMEOUT_MS);
    for (const stop of stopAll.reverse()) await stop().catch(() => undefined);
    for (const child of children) if (!hasEnded(child)) child.kill("SIGTERM"); // e.g. a build under way
    process.exit(code);
  };
  const onSignal = () => (stopping ? forceExit(130) : void shutdown(0));
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  try {
    if (!dev) await buildIfNeeded(children);
    await start({ secrets, children, stopAll, isStopping: () => stopping, shutdown });
  } catch (error) {
    console.error(`[enchufa] ${(error as Error).message}`);
    await shutdown(1);
  }
}

interface Lifecycle {
  secrets: { sessionSecret: string; encryptionKey: string };
  children: ChildProcess[];
  stopAll: (() => Promise<void>)[];
  isStopping(): boolean;
  shutdown(code: number): Promise<void>;
}

async function start({ secrets, children, stopAll, isStopping, shutdown }: Lifecycle) {
  say("iniciando el emulador de Firebase Auth…");
  const emulator = await startAuthEmulator({ port: emulatorPort, dataDir: path.join(dataDir, "auth") });
  children.push(emulator.process);
  stopAll.push(() => emulator.stop());
  // Mercado Pago and Pagos360, emulated in this process (their checkout pages and signed webhooks).
  const payments = await startPaymentsEmulator({ port: paymentsEmulatorPort, log: quiet ? undefined : (line) => say(line) });
  stopAll.push(() => payments.stop());

  const uid = await ensureVerifiedAccount(emulator.host, EMULATOR_PROJECT_ID, DEMO_EMAIL, DEMO_PASSWORD);
  // Migrate and seed the database the server runs on (PostgreSQL with DATABASE_URL), before it
  // opens it: the embedded one takes one process at a time.
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const encryptionKey = process.env.ENCRYPTION_KEY ?? secrets.encryptionKey;
  const sim = !process.argv.includes("--no-sim");
  const { businessId, qrDemo, demoChargers, knownPayments, arcaDemo } = await seedLocalDatabase({ dataDir, databaseUrl, firebaseUid: uid, email: DEMO_EMAIL, encryptionKey, sim });
  // The demo's payments exist at the emulated providers too: Conciliación finds no difference.
  payments.registerKnownPayments(knownPayments);
  const url = `http://127.0.0.1:${port}`;
  const publicUrl = process.env.PUBLIC_URL ?? url;
  // Pagos360 notifies the webhook URL set in the account (its panel): the demo account's points here.
  payments.setPagos360Webhook(DEMO_PAGOS360_API_KEY, `${publicUrl}/api/Webhook/Pagos360/${businessId}`);
  // ARCA trusts the certificate it issued: the emulator, the demo operator's (point of sale 3).
  // …and remembers what it authorised before this start: the demo's vouchers, so the next number follows them.
  if (arcaDemo) {
    payments.arca.registerTaxpayer(arcaDemo.cuit, arcaDemo.certPem, [DEMO_POINT_OF_SALE]);
    payments.arca.knowVouchers(arcaDemo.vouchers);
  }

  const env = {
    ...process.env,
    NODE_ENV: dev ? "development" : "production",
    ENCHUFA_LOCAL: "1",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    BUILD_DIR: buildDir,
    FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
    FIREBASE_API_KEY: process.env.FIREBASE_API_KEY ?? "local-emulator-key",
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    SESSION_SECRET: process.env.SESSION_SECRET ?? secrets.sessionSecret,
    ENCRYPTION_KEY: encryptionKey,
    AUTO_APPROVE_BUSINESSES: "1",
    PUBLIC_URL: publicUrl,
    MERCADOPAGO_API_URL: payments.mercadoPagoUrl,
    PAGOS360_API_URL: payments.pagos360Url,
    ARCA_WSAA_URL: payments.arcaWsaaUrl,
    ARCA_WSFE_URL: payments.arcaWsfeUrl,
  } as NodeJS.ProcessEnv;
  const args = dev ? ["--import", "tsx", "server.ts", "--dev"] : [...SERVER_NODE_FLAGS, "--enable-source-maps", path.join(buildDir, "server.js")];
  // The server's log lines go to server.log, so the terminal keeps the banner readable. The
  // browser tests (ENCHUFA_QUIET=1) keep them on the launcher's own output, where their runner
  // shows the errors.
  const serverLog = path.join(dataDir, "server.log");
  const logFd = quiet ? undefined : openSync(serverLog, "a");
  say("iniciando el servidor…");
  const server = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", logFd ?? "inherit", logFd ?? "inherit"] });
  children.push(server);
  // The server drains in under 10 s (server.ts); past 15 s it is killed.
  stopAll.push(() => stopProcess(server, "SIGTERM", 15_000));
  server.once("exit", (code, signal) => {
    if (isStopping()) return;
    if (logFd !== undefined) console.error(tail(serverLog, 20));
    say(`el servidor terminó (${signal ? `señal ${signal}` : `código ${code}`}).`);
    void shutdown(code ?? 1);
  });
  await waitForHealth(url, server);

  const simulated = await startSimulatedChargers({ qrDemo, demoChargers, stopAll });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const qrLine = simulated.qr && qrDemo ? `  Pagar con QR ${url}/cargar/${encodeURIComponent(qrDemo.ocppIdentity)}/${qrDemo.connectorId}  (${qrDemo.stationName}, cargador simulado)` : "";
  const total = simulated.online + (simulated.qr ? 1 : 0);
  console.log(
    [
      "",
      `  Enchufá está listo en ${url}  (${seconds} s)`,
      "",
      `  Ingresá con  ${DEMO_EMAIL}  /  ${DEMO_PASSWORD}`,
      `  Pagos        emulador de Mercado Pago y Pagos360: panel en ${payments.url}/_emulator  (correos en ${url}/_local/inbox)`,
      `  ARCA         emulador de factura electrónica: ${payments.url}/_emulator/arca`,
      ...(qrLine ? [qrLine] : []),
      ...(total ? [`  Cargadores   ${total} de la demo, simulados: en línea mientras esto siga corriendo`] : []),
      `  Datos en     ${databaseUrl ? "PostgreSQL (DATABASE_URL); cuentas del emulador en " + shown(dataDir) : `${shown(dataDir)}  (base embebida y cuentas del emulador)`}`,
      ...(logFd !== undefined ? [`  Registro     ${shown(serverLog)}  (tail -f ${shown(serverLog)})`] : []),
      "  Ctrl-C detiene todo.",
      "",
    ].join("\n"),
  );
}

/**
 * The demo's simulated chargers: the QR demo's (it boots and takes charges from the QR page) and
 * one per charger the demo shows online, which resumes with its seeded state and only keeps its
 * heartbeats. One that cannot connect is reported and left out.
 */
async function startSimulatedChargers({ qrDemo, demoChargers, stopAll }: { qrDemo: QrDemo | null; demoChargers: DemoCharger[]; stopAll: (() => Promise<void>)[] }) {
  const endpoint = `ws://127.0.0.1:${port}/ocpp`;
  const log = quiet ? undefined : (line: string) => say(line);
  const connect = (options: Omit<Parameters<typeof startSimCharger>[0], "endpoint" | "password">) =>
    startSimCharger({ endpoint, password: SIM_CHARGER_PASSWORD, ...options }).then(
      (charger) => {
        stopAll.push(() => charger.close());
        return true;
      },
      (error: Error) => {
        say(`no pudimos conectar el cargador simulado ${options.identity}: ${error.message}`);
        return false;
      },
    );
  const qr = qrDemo ? await connect({ identity: qrDemo.ocppIdentity, log }) : false;
  const online = await Promise.all(
    demoChargers.map((c) => connect({ identity: c.ocppIdentity, connectors: c.connectors, heartbeatSeconds: c.heartbeatSeconds, boot: false })),
  );
  return { qr, online: online.filter(Boolean).length };
}

void run();
