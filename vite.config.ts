import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import type { Rollup } from "vite";
import { aliases } from "./scripts/vite/aliases";
import { radixCssSubset } from "./scripts/vite/radix-css-subset";

// Code every page loads anyway travels as one file: one gzip stream compresses better than
// several (docs/benchmarks.md §1): React and React Router. Radix Themes' components go
// in one "radix" file too: split per component they were ~10 small files per route, and merged
// every route's first load is smaller (largest 119.3 → 116.7 KB gz) and needs ~6 fewer requests.
// Only its JavaScript: its CSS stays in the one subsetted stylesheet (root.tsx).
const FRAMEWORK = /node_modules\/(react|react-dom|scheduler|react-router|turbo-stream)\//;
// The app's own few-hundred-byte helpers that most screens use travel together as well: as
// separate files each paid its own request and gzip overhead (station edit loaded 9 of them).
// The error texts (RouteError) too: the root and the app layout both render them.
const APP_COMMON = /\/(app\/(lib\/(hydrated|autofocus|meta|access|numbers)\.ts|components\/(FormToken|ReadOnly|messages|Page|plain|RouteError)\.tsx)|domain\/ocpp-status-summary\.ts)$/;
// The station screens' status summary and delete confirmation travel as one file with the shared
// DeleteConfirm they build on (Rollup puts a manual chunk's own imports in it): as three small
// files each paid its own gzip overhead and station edit went over its first-load budget.
const STATION_COMMON = /\/app\/components\/station\/(StatusSummary|DeleteStation)\.tsx$/;
// Conform and the lazy validation that every form screen loads first: one file (Rollup had split
// them in two as the screens using them grew, each paying its own gzip overhead).
const FORMS = /(node_modules\/@conform-to\/(dom|react)\/.*\.m?js|\/app\/components\/lazy-validation\.ts)$/;
// Vite's helper for lazy imports goes with the framework every page loads: left to Rollup it landed
// in whichever manual chunk first needed it (the forms' one), and every screen with a lazy part
// (the app layout's push registration among them) loaded conform with it.
const PRELOAD_HELPER = /vite\/preload-helper/;
function manualChunks(id: string): string | undefined {
  if (FRAMEWORK.test(id) || PRELOAD_HELPER.test(id)) return "framework";
  if (/node_modules\/@radix-ui\/themes\/dist\/esm\/components\/(data-list|callout|separator|code|badge|strong)[.\w-]*\.js$/.test(id)) return undefined;
  if (/node_modules\/(@radix-ui|radix-ui|classnames|clsx)\/.*\.m?js$/.test(id)) return "radix";
  if (APP_COMMON.test(id)) return "app-common";
  if (STATION_COMMON.test(id)) return "station-common";
  if (FORMS.test(id)) return "form";
  return undefined;
}

// Build warnings known to be harmless, each for a reason (`npm start`'s first build should
// print nothing alarming). Anything else is printed as usual.
const HARMLESS_WARNINGS: { why: string; matches: (w: Rollup.RollupLog) => boolean }[] = [
  {
    // zod 4 writes explanatory comments containing "@__PURE__" where Rollup expects only the
    // annotation; Rollup drops the comment and tree-shaking is unaffected. Not our code.
    why: "zod's comments that mention @__PURE__",
    matches: (w) => w.code === "INVALID_ANNOTATION" && /node_modules[\\/]zod[\\/]/.test(w.id ?? ""),
  },
  {
    // Resource routes (CSV exports, /logout, /live…) have only server exports: their browser
    // module is empty by design and React Router never loads it.
    why: "resource routes' empty browser chunks",
    matches: (w) => w.code === "EMPTY_BUNDLE",
  },
  {
    // The forms import their zod schemas lazily in the browser (lazy-validation.ts) while the
    // actions import the same schemas statically: in the server bundle the dynamic import has
    // nothing to split, which is what Vite is saying. The browser bundle is split as intended.
    why: "schemas imported lazily by forms and statically by actions",
    matches: (w) => w.plugin === "vite:reporter" && /is dynamically imported by .* but also statically imported by/.test(w.message),
  },
];

function onwarn(warning: Rollup.RollupLog, warn: (w: Rollup.RollupLog) => void) {
  if (!HARMLESS_WARNINGS.some((h) => h.matches(warning))) warn(warning);
}

export default defineConfig({
  resolve: { alias: aliases },
  server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
  build: {
    // es2020 (Chrome 80, Safari 14, Firefox 74): `?.` and `??` ship as written instead of being
    // expanded. Terser compresses ~5 KB gz more than esbuild per route (JS budget, docs/benchmarks.md §1).
    target: "es2020",
    // BUILD_SOURCEMAP=1 writes source maps, to see what a chunk is made of (docs/benchmarks.md §1).
    sourcemap: process.env.BUILD_SOURCEMAP === "1",
    cssMinify: true,
    minify: "terser",
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    // The icon sprite is referenced by <use href>, which a data: URL cannot serve: always a file.
    assetsInlineLimit: (file) => (file.endsWith(".svg") ? false : undefined),
    rollupOptions: { output: { manualChunks }, onwarn },
  },
  // Keeps only the Radix Themes rules the app renders (CSS budget, docs/benchmarks.md).
  css: { postcss: { plugins: [radixCssSubset()] } },
  plugins: [reactRouter()],
});
