// Bundles server.ts (and the api/, db/, domain/ code it imports) into build/server.js for
// production; node_modules stay external so the image installs them as usual. Also bundles the
// push service worker (app/push/firebase-messaging-sw.ts, with the firebase package inlined: no
// CDN) into build/client/firebase-messaging-sw.js, which the static middleware serves at the root.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
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

// The hashed assets compressed once here, at the highest levels, instead of on every request: the
// server answers brotli or gzip from these files (server/http.ts, express-static-gzip).
const assetsDir = `${outDir}/client/assets`;
let precompressed = 0;
for (const file of readdirSync(assetsDir)) {
  if (!/\.(js|css|svg|json)$/.test(file)) continue;
  const source = readFileSync(path.join(assetsDir, file));
  if (source.length < 1024) continue; // like compression's threshold: not worth a header
  writeFileSync(path.join(assetsDir, `${file}.br`), brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }));
  writeFileSync(path.join(assetsDir, `${file}.gz`), gzipSync(source, { level: 9 }));
  precompressed++;
}
console.log(`${assetsDir}: ${precompressed} archivos precomprimidos (brotli y gzip)`);
