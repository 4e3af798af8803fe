import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";
import { E2E_AUTH_EMULATOR_PORT, E2E_PAYMENTS_EMULATOR_PORT, E2E_PORT } from "./tests/e2e/ports";

// Browser tests run against a production build in local mode, with their own fresh data
// directory and emulator ports, in two projects: JavaScript on and JavaScript off.
// Free ports unless E2E_PORT / E2E_AUTH_EMULATOR_PORT say otherwise (tests/e2e/ports.ts).
// Local mode also starts the payment providers' emulator on a port of the app's block,
// and points MERCADOPAGO_API_URL / PAGOS360_API_URL at it: nothing goes to the internet. --no-sim:
// no simulated charger on the demo company (the specs connect their own chargers).
export { E2E_AUTH_EMULATOR_PORT, E2E_PAYMENTS_EMULATOR_PORT, E2E_PORT };

// Debian's Chromium. Its headless shell (package chromium-headless-shell, the same build without
// the full browser's GPU process and compositor) is what Playwright itself runs headless; on this
// 2-core machine it runs the suite in about two thirds of the time. CHROMIUM_PATH overrides.
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

/** Specs the no-js project leaves out: without JavaScript they would test nothing new. */
const JAVASCRIPT_ONLY_SPECS = [
  "activity.spec.ts", // GET filters, sort and page links: plain links without JavaScript
  "home.spec.ts", // server-rendered KPIs and charts, a GET period form
  "layout.spec.ts", // CSS measurements, the same markup in both projects
  "ocpp.spec.ts", // the OCPP protocol; the charger forms are covered by chargers/charger-maintenance
  "ocpp201.spec.ts",
  "ocpp201-screen.spec.ts",
  "server.spec.ts", // HTTP headers, preloads and the CSP
  "stored-xss.spec.ts", // escaping is server-side; only scripts can run a payload
  "error-boundary.spec.ts", // the same server-rendered error page
].map((f) => `**/${f}`);

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
    // A trace records every frame of every test, which cost a third of the suite's time: only a
    // retried test records one (CI retries a failed test once).
    trace: "on-first-retry",
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    // Without JavaScript the suite runs where that changes what is tested: forms posted by the
    // browser, redirects, the driver's pages, the switcher's fallback button, the server's own
    // answers to a double submit. A spec that only reads what the server rendered (the same HTML
    // in both projects), checks headers, or drives a charger over OCPP runs once, with JavaScript.
    { name: "no-js", use: { javaScriptEnabled: false }, testIgnore: JAVASCRIPT_ONLY_SPECS },
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
