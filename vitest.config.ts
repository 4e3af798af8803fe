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
  },
});
