// Ports for the browser tests: by default the first free block from 3100 (the app,
// plus +1…+13 for the suites' own servers, +14 for the payment providers' emulator) and from 9199 (the Auth Emulator and the two ports
// after it), so a developer's second `npm start` on 3100 does not break `npm test`. E2E_PORT and
// E2E_AUTH_EMULATOR_PORT choose them; a chosen port that is taken fails at once, naming the variable.
// Playwright loads its config in the runner and again in each worker: the runner's choice goes
// into process.env, which the workers inherit, so every process agrees.
import { execFileSync } from "node:child_process";

const APP_BLOCK = 15;
const EMULATOR_BLOCK = 3;

// Synchronous (the config is): a child process tries to listen on each port of a block.
const PROBE = `
const net = require("node:net");
const [first, size, step, tries] = process.argv.slice(1).map(Number);
const free = (port) => new Promise((ok) => { const s = net.createServer(); s.once("error", () => ok(false)); s.listen(port, "127.0.0.1", () => s.close(() => ok(true))); });
(async () => {
  for (let base = first, n = 0; n < tries; n++, base += step) {
    let all = true;
    for (let p = base; p < base + size && all; p++) all = await free(p);
    if (all) return console.log(base);
  }
  console.log(0);
})();`;

function firstFreeBlock(first: number, size: number, step: number, tries: number): number {
  return Number(execFileSync(process.execPath, ["-e", PROBE, String(first), String(size), String(step), String(tries)], { encoding: "utf8" }).trim());
}

// Set by the runner once both are resolved; the workers (and servers they start) only read.
const RESOLVED = "ENCHUFA_E2E_PORTS_RESOLVED";

function resolve(variable: string, fallback: number, size: number): number {
  const chosen = process.env[variable];
  if (chosen && process.env[RESOLVED]) return Number(chosen);
  if (chosen) {
    const port = Number(chosen);
    if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`${variable}=${chosen} no es un puerto válido.`);
    if (firstFreeBlock(port, size, 1, 1) !== port) {
      throw new Error(`Alguno de los puertos ${port}–${port + size - 1} (${variable}) está ocupado: cerrá lo que lo usa o elegí otro ${variable}.`);
    }
    return port;
  }
  const port = firstFreeBlock(fallback, size, 100, 50);
  if (!port) throw new Error(`No encontramos puertos libres para las pruebas del navegador: elegilos con ${variable}.`);
  process.env[variable] = String(port);
  return port;
}

// Only the runner probes: the workers read what it chose.
export const E2E_PORT = resolve("E2E_PORT", 3100, APP_BLOCK);
export const E2E_AUTH_EMULATOR_PORT = resolve("E2E_AUTH_EMULATOR_PORT", 9199, EMULATOR_BLOCK);
/** The payment providers' emulator that local mode starts beside the server under test. */
export const E2E_PAYMENTS_EMULATOR_PORT = E2E_PORT + 14;
process.env[RESOLVED] = "1";
