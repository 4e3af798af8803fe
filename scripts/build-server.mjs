// Bundles server.ts (and the api/, db/, domain/ code it imports) into build/server.js for
// production; node_modules stay external so the image installs them as usual.
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: `${process.env.BUILD_DIR ?? "build"}/server.js`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
console.log(`${process.env.BUILD_DIR ?? "build"}/server.js listo`);
