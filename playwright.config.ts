import { defineConfig } from "@playwright/test";
import { E2E_AUTH_EMULATOR_PORT, E2E_PAYMENTS_EMULATOR_PORT, E2E_PORT } from "./tests/e2e/ports";

// Browser tests run against a production build in local mode, with their own fresh data
// directory and emulator ports, in two projects: JavaScript on and JavaScript off.
// Free ports unless E2E_PORT / E2E_AUTH_EMULATOR_PORT say otherwise (tests/e2e/ports.ts).
// Local mode also starts the payment providers' emulator (issue 23) on a port of the app's block,
// and points MERCADOPAGO_API_URL / PAGOS360_API_URL at it: nothing goes to the internet. --no-sim:
// no simulated charger on the demo company (the specs connect their own chargers).
export { E2E_AUTH_EMULATOR_PORT, E2E_PAYMENTS_EMULATOR_PORT, E2E_PORT };

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // Two browsers on 2 cores. A third was measured on 27 November: every test got slower (the
  // one-process PGlite server is shared) and the whole suite did not get shorter, while the
  // longest tests neared their timeouts.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: "es-AR",
    timezoneId: "America/Argentina/Buenos_Aires",
    trace: "retain-on-failure",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: "node --import tsx scripts/local.ts --fresh --no-sim",
    url: `http://127.0.0.1:${E2E_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(E2E_PORT),
      AUTH_EMULATOR_PORT: String(E2E_AUTH_EMULATOR_PORT),
      PAYMENTS_EMULATOR_PORT: String(E2E_PAYMENTS_EMULATOR_PORT),
      DATA_DIR: `tests/.e2e-data/${E2E_PORT}`,
      LOG_LEVEL: "warn",
      ENCHUFA_QUIET: "1",
    },
  },
});
