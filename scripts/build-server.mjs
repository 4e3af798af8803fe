// Bundles server.ts (and the api/, db/, domain/ code it imports) into build/server.js for
// production; node_modules stay external so the image installs them as usual. Also bundles the
// push service worker (app/push/firebase-messaging-sw.ts, with the firebase package inlined: no
// CDN) into build/client/firebase-messaging-sw.js, which the static middleware serves at the root.
import { build } from "esbuild";

const outDir = process.env.BUILD_DIR ?? "build";

await build({
  entryPoints: ["server.ts"],
  outfile: `${outDir}/server.js`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
console.log(`${outDir}/server.js listo`);

// Admin commands for the image (no tsx there): backups, company approval, key rotation.
await build({
  entryPoints: { "db-backup": "scripts/db-backup.ts", business: "scripts/business.ts", reencrypt: "scripts/reencrypt.ts" },
  outdir: outDir,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
console.log(`${outDir}/db-backup.js, ${outDir}/business.js, ${outDir}/reencrypt.js listos`);

await build({
  entryPoints: ["app/push/firebase-messaging-sw.ts"],
  outfile: `${outDir}/client/firebase-messaging-sw.js`,
  bundle: true,
  platform: "browser",
  format: "iife",
  target: "es2020",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
console.log(`${outDir}/client/firebase-messaging-sw.js listo`);
