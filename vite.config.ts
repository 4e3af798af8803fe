import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";
import remixConfig from "./remix.config.js";
import { radixCssSubset } from "./scripts/vite/radix-css-subset";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
  build: { target: "es2019", cssMinify: true },
  // Keeps only the Radix Themes rules the app renders (CSS budget, docs/benchmarks.md).
  css: { postcss: { plugins: [radixCssSubset()] } },
  plugins: [
    remix({ future: remixConfig.future, buildDirectory: process.env.BUILD_DIR ?? "build" }),
  ],
});
