// `npm start`: Enchufá in local mode on one machine, offline (DESIGN.md §2).
// Builds if needed, starts the Firebase Auth Emulator, migrates and seeds PGlite under .data,
// starts the server on 127.0.0.1 and stops everything it started on Ctrl-C.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startAuthEmulator, ensureVerifiedAccount, EMULATOR_PROJECT_ID } from "./emulator";
import { startPaymentsEmulator } from "./payments-emulator";
import { DEMO_PAGOS360_API_KEY, SIM_CHARGER_PASSWORD } from "./local-qr-demo";
import { seedLocalDatabase } from "./local-seed";
import { startSimCharger } from "./sim-charger";
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

function buildIfNeeded() {
  const output = path.join(buildDir, "server.js");
  const sources = ["app", "api", "db", "domain", "infra", "ocpp", "server", "public"].map((d) => path.join(root, d)).filter(existsSync);
  const newestSource = Math.max(statSync(path.join(root, "server.ts")).mtimeMs, ...sources.map(newestMtime));
  if (existsSync(output) && statSync(output).mtimeMs >= newestSource) return;
  say("compilando la aplicación (solo cuando cambió el código)…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: quiet ? "ignore" : "inherit" });
  if (result.status !== 0) throw new Error("La compilación falló.");
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`El servidor terminó (código ${child.exitCode}).`);
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
  if (!dev) buildIfNeeded();

  say("iniciando el emulador de Firebase Auth…");
  const emulator = await startAuthEmulator({ port: emulatorPort, dataDir: path.join(dataDir, "auth") });
  // Issue 23: Mercado Pago and Pagos360, emulated in this process (their checkout pages and signed webhooks).
  const payments = await startPaymentsEmulator({ port: paymentsEmulatorPort, log: quiet ? undefined : (line) => say(line) });
  const stopAll: (() => Promise<void>)[] = [() => emulator.stop(), () => payments.stop()];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say("deteniendo…");
    for (const stop of stopAll.reverse()) await stop().catch(() => undefined);
    process.exit(code);
  };
  process.once("SIGINT", () => void shutdown(0));
  process.once("SIGTERM", () => void shutdown(0));

  try {
    const uid = await ensureVerifiedAccount(emulator.host, EMULATOR_PROJECT_ID, DEMO_EMAIL, DEMO_PASSWORD);

    // Migrate and seed the database the server runs on (PostgreSQL with DATABASE_URL), before it
    // opens it: the embedded one takes one process at a time.
    const encryptionKey = process.env.ENCRYPTION_KEY ?? secrets.encryptionKey;
    const { businessId, qrDemo } = await seedLocalDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL, firebaseUid: uid, email: DEMO_EMAIL, encryptionKey, sim: !process.argv.includes("--no-sim") });
    const publicUrl = process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}`;
    // Pagos360 notifies the webhook URL set in the account (its panel): the demo account's points here.
    payments.setPagos360Webhook(DEMO_PAGOS360_API_KEY, `${publicUrl}/api/Webhook/Pagos360/${businessId}`);

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
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? secrets.encryptionKey,
      AUTO_APPROVE_BUSINESSES: "1",
      PUBLIC_URL: publicUrl,
      MERCADOPAGO_API_URL: payments.mercadoPagoUrl,
      PAGOS360_API_URL: payments.pagos360Url,
    } as NodeJS.ProcessEnv;
    const args = dev ? ["--import", "tsx", "server.ts", "--dev"] : [...SERVER_NODE_FLAGS, "--enable-source-maps", path.join(buildDir, "server.js")];
    const server = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });
    stopAll.push(
      () =>
        new Promise<void>((resolve) => {
          if (server.exitCode !== null) return resolve();
          server.once("exit", () => resolve());
          server.kill("SIGTERM");
        }),
    );
    server.once("exit", (code) => {
      if (!stopping) {
        say(`el servidor terminó (código ${code}).`);
        void shutdown(code ?? 1);
      }
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, server);
    let qrLine = "";
    if (qrDemo) {
      const sim = await startSimCharger({
        endpoint: `ws://127.0.0.1:${port}/ocpp`,
        identity: qrDemo.ocppIdentity,
        password: SIM_CHARGER_PASSWORD,
        log: quiet ? undefined : (line) => say(line),
      }).catch((error: Error) => {
        say(`no pudimos conectar el cargador simulado: ${error.message}`);
        return null;
      });
      if (sim) {
        stopAll.push(() => sim.close());
        qrLine = `  Pagar con QR ${url}/cargar/${encodeURIComponent(qrDemo.ocppIdentity)}/${qrDemo.connectorId}  (${qrDemo.stationName}, cargador simulado)`;
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      [
        "",
        `  Enchufá está listo en ${url}  (${seconds} s)`,
        "",
        `  Ingresá con  ${DEMO_EMAIL}  /  ${DEMO_PASSWORD}`,
        `  Pagos        emulador de Mercado Pago y Pagos360 en ${payments.url}  (correos en ${url}/_local/inbox)`,
        ...(qrLine ? [qrLine] : []),
        `  Datos en     ${path.relative(root, dataDir) || dataDir}  (base embebida y cuentas del emulador)`,
        "  Ctrl-C detiene todo.",
        "",
      ].join("\n"),
    );
  } catch (error) {
    console.error(`[enchufa] ${(error as Error).message}`);
    await shutdown(1);
  }
}

void run();
