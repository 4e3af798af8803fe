// `npm run bench:bundle`: what the browser downloads on a first visit to each route of the
// production build, gzip-compressed as server/http.ts serves it (compression, zlib level 6).
//
// Reads React Router's browser manifest (build/client/assets/manifest-*.js), which it writes from
// Vite's manifest: per route, the module, its static imports and its CSS. A route's first load
// is the client entry plus every route on its branch (root → layouts → leaf); lazy chunks
// (dynamic import(): maps, push) are left out because the page does not wait for them.
// Prints a table and the budget; `--check` also exits 1 when a route is over it.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const BUDGET = { jsGzBytes: 120 * 1024, cssGzBytes: 35 * 1024 };

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
  css?: string[];
}
interface BrowserManifest {
  entry: { module: string; imports: string[]; css?: string[] };
  routes: Record<string, ManifestRoute>;
}

export interface RouteWeight {
  route: string;
  url: string;
  jsFiles: number;
  jsGz: number;
  cssGz: number;
}

export function readBrowserManifest(clientDir: string): BrowserManifest {
  const assets = path.join(clientDir, "assets");
  const file = readdirSync(assets).find((f) => /^manifest-[0-9a-f]+\.js$/.test(f));
  if (!file) throw new Error(`No hay manifest de React Router en ${assets}: ejecutá primero \`npm run build\`.`);
  const text = readFileSync(path.join(assets, file), "utf8");
  // `__remixManifest` in builds from before React Router 7 (ADR 0013), kept so they can be compared.
  const json = text.replace(/^window\.__(reactRouter|remix)Manifest=/, "").replace(/;\s*$/, "");
  return JSON.parse(json) as BrowserManifest;
}

/** The URL a route answers at, from its ancestors' paths. */
function urlOf(routes: Record<string, ManifestRoute>, id: string): string {
  const parts: string[] = [];
  for (let r: ManifestRoute | undefined = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined) {
    if (r.path) parts.unshift(r.path);
  }
  return `/${parts.join("/")}`;
}

export function routeWeights(clientDir: string): RouteWeight[] {
  const manifest = readBrowserManifest(clientDir);
  const gzCache = new Map<string, number>();
  const gz = (url: string) => {
    let size = gzCache.get(url);
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(clientDir, url)), { level: 6 }).length;
      gzCache.set(url, size);
    }
    return size;
  };
  const out: RouteWeight[] = [];
  for (const route of Object.values(manifest.routes)) {
    if (route.id === "root") continue;
    const branch: ManifestRoute[] = [];
    for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) branch.unshift(r);
    const js = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
    const css = new Set<string>(manifest.entry.css ?? []);
    for (const r of branch) {
      js.add(r.module);
      for (const i of r.imports ?? []) js.add(i);
      for (const c of r.css ?? []) css.add(c);
    }
    out.push({
      route: route.id,
      url: urlOf(manifest.routes, route.id),
      jsFiles: js.size,
      jsGz: [...js].reduce((n, f) => n + gz(f), 0),
      cssGz: [...css].reduce((n, f) => n + gz(f), 0),
    });
  }
  return out.sort((a, b) => a.url.localeCompare(b.url));
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

function main() {
  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const rows = routeWeights(path.join(buildDir, "client"));
  const over = rows.filter((r) => r.jsGz > BUDGET.jsGzBytes || r.cssGz > BUDGET.cssGzBytes);
  console.log(`Primera carga por ruta (gzip), build: ${path.relative(process.cwd(), buildDir) || "."}`);
  console.log(`Presupuesto: JS ≤ ${kb(BUDGET.jsGzBytes)} KB, CSS ≤ ${kb(BUDGET.cssGzBytes)} KB\n`);
  const w = Math.max(...rows.map((r) => r.url.length), 5);
  const idw = Math.max(...rows.map((r) => r.route.length));
  console.log(`${"ruta".padEnd(w)}  ${"módulo".padEnd(idw)}  ${"JS KB".padStart(7)}  ${"archivos".padStart(8)}  ${"CSS KB".padStart(7)}`);
  for (const r of rows) {
    const flag = r.jsGz > BUDGET.jsGzBytes || r.cssGz > BUDGET.cssGzBytes ? "  ← excede" : "";
    console.log(`${r.url.padEnd(w)}  ${r.route.padEnd(idw)}  ${kb(r.jsGz).padStart(7)}  ${String(r.jsFiles).padStart(8)}  ${kb(r.cssGz).padStart(7)}${flag}`);
  }
  const maxJs = Math.max(...rows.map((r) => r.jsGz));
  const maxCss = Math.max(...rows.map((r) => r.cssGz));
  console.log(`\nmáximo: JS ${kb(maxJs)} KB, CSS ${kb(maxCss)} KB; rutas fuera de presupuesto: ${over.length}`);
  if (process.argv.includes("--check") && over.length > 0) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
