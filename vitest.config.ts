import os from "node:os";
import { defineConfig } from "vitest/config";
import { aliases } from "./scripts/vite/aliases";

export default defineConfig({
  resolve: { alias: aliases },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/api/**/*.test.ts", "tests/routes/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts", "tests/ocpp/**/*.test.ts", "tests/ocpi/**/*.test.ts"],
    environment: "node",
    setupFiles: ["tests/setup/vitest.setup.ts"],
    globalSetup: ["tests/setup/global-db.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two test files at a time even on 2 cores (vitest's default there is one): the data tests
    // wait on PostgreSQL and the emulators as much as they compute, and every file has its own
    // databases (tests/setup/db.ts). Measured on 27 November: 486 s → 318 s for the whole run.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // On CI a failed test is run once more, as the browser tests are (playwright.config.ts): a
    // timing race there should not hold back everything else. A test that fails twice still fails,
    // and tests/setup/flaky-reporter.ts lists the ones that needed the retry, with their errors.
    retry: process.env.CI ? 1 : 0,
    reporters: ["default", "./tests/setup/flaky-reporter.ts"],
  },
});
