import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
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
const APP_COMMON = /\/app\/(lib\/(hydrated|autofocus|meta|access|numbers)\.ts|components\/(FormToken|ReadOnly|messages|Page|plain)\.tsx)$/;
function manualChunks(id: string): string | undefined {
  if (FRAMEWORK.test(id)) return "framework";
  if (/node_modules\/@radix-ui\/themes\/dist\/esm\/components\/(data-list|callout|separator|code|badge|strong)[.\w-]*\.js$/.test(id)) return undefined;
  if (/node_modules\/(@radix-ui|radix-ui|classnames|clsx)\/.*\.m?js$/.test(id)) return "radix";
  if (APP_COMMON.test(id)) return "app-common";
  return undefined;
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
    rollupOptions: { output: { manualChunks } },
  },
  // Keeps only the Radix Themes rules the app renders (CSS budget, docs/benchmarks.md).
  css: { postcss: { plugins: [radixCssSubset()] } },
  plugins: [reactRouter()],
});
