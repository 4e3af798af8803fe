// The production image keeps only `dependencies` (npm prune --omit=dev): every package the
// server bundle and the image's admin commands import must be one (a transitive dev-only copy
// once made the container fail at start with ERR_MODULE_NOT_FOUND).
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("production dependencies", () => {
  it("every package imported by build/server.js, db-backup.js and business.js is a dependency", async () => {
    const result = await build({
      entryPoints: ["server.ts", "scripts/db-backup.ts", "scripts/business.ts"].map((f) => path.join(ROOT, f)),
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      write: false,
      outdir: "/tmp/enchufa-deps-check",
      metafile: true,
      logLevel: "silent",
    });
    const packages = new Set<string>();
    for (const input of Object.values(result.metafile.inputs)) {
      for (const imp of input.imports) {
        if (!imp.external || imp.path.startsWith("node:") || builtinModules.includes(imp.path)) continue;
        const m = /^(@[^/]+\/[^/]+|[^/]+)/.exec(imp.path);
        if (m) packages.add(m[1]);
      }
    }
    const deps = Object.keys((JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);
    // vite is only loaded by `--dev` (never in the image).
    const missing = [...packages].filter((p) => !deps.includes(p) && p !== "vite");
    expect(packages.size).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});
