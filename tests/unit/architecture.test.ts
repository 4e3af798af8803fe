// The code's shape, checked: imports run one way, from the HTTP server down to the pure domain,
// no file reaches itself through its imports, nothing imports the end-of-life Remix v2 packages,
// and the central system answers the API in facts, not in Spanish.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf } from "./source-imports";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Top to bottom: a layer may import its own folder and the layers after it, never one before it. */
const LAYERS = ["server", "app", "api", "payments", "invoicing", "ocpi", "ocpp", "infra", "db", "contract", "domain"] as const;
type Layer = (typeof LAYERS)[number];

const ALIASES: Record<string, Layer> = { "~": "app", "#api": "api", "#contract": "contract", "#db": "db", "#domain": "domain", "#infra": "infra", "#ocpp": "ocpp" };

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs|js)$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

function layerOfFile(file: string): Layer | undefined {
  if (file === "server.ts") return "server";
  const top = file.split(path.sep)[0] as Layer;
  return LAYERS.includes(top) ? top : undefined;
}

function layerOfImport(file: string, specifier: string): Layer | undefined {
  const alias = Object.keys(ALIASES).find((a) => specifier === a || specifier.startsWith(`${a}/`));
  if (alias) return ALIASES[alias];
  if (!specifier.startsWith(".")) return undefined; // a package
  return layerOfFile(path.relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier)));
}

const PRODUCT = ["server.ts", ...LAYERS.flatMap(sourceFiles)];

/** The product file an import names (relative or aliased, extension or index.ts implied), or undefined for a package or an asset. */
function resolveImport(file: string, specifier: string): string | undefined {
  const alias = Object.keys(ALIASES).find((a) => specifier === a || specifier.startsWith(`${a}/`));
  let target: string;
  if (alias) target = path.join(ALIASES[alias], specifier.slice(alias.length + 1));
  else if (specifier.startsWith(".")) target = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier));
  else return undefined;
  const stem = target.replace(/\.(js|mjs)$/, "");
  const candidates = [target, `${stem}.ts`, `${stem}.tsx`, path.join(target, "index.ts"), path.join(target, "index.tsx")];
  return candidates.find((c) => existsSync(path.join(ROOT, c)) && statSync(path.join(ROOT, c)).isFile() && /\.(ts|tsx|mjs|js)$/.test(c));
}

/** The strongly connected components of more than one file (or a file importing itself), by Tarjan's algorithm. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
// ocpp/ logs in Spanish (for whoever reads the logs) and writes notifications, but what it
// returns to the API is facts: outcome, status, settings, file name, CALLERROR code. The API words
// them (contract/schemas/command-messages.ts), so a result reads the same wherever it is shown and
// its wording changes in one place.
const SPANISH = /«|»|[áéíóúñ¿¡]|\b(cargador|conector|Probá|usá|falló|rechazó|aceptó)\b/i;
const MESSAGE_VALUE = /\bmessage:\s*(["'`])((?:(?!\1)[^\\]|\\.)*)\1/g;
const WORDING_NAMES =
  /\b(COMMAND_LABELS|MAINTENANCE_LABELS|FIRMWARE_STATUS_LABELS|INTERVAL_LABELS|RESERVE_REFUSALS|SETTING_STATUS_TEXT|REPORT_NOT_ON_16|firmwareStatusLabel|commandMessage|commandResult|maintenanceMessage|maintenanceResult)\b/;

/** What in a central-system source words results for people: Spanish `message:` values, the wording's names, an import of its module. */
function wordingFor(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
  const messages = [...code.matchAll(MESSAGE_VALUE)].map((m) => m[2]).filter((text) => SPANISH.test(text));
  const name = WORDING_NAMES.exec(code)?.[0];
  const imports = importsOf(source).filter((s) => s.includes("command-messages"));
  return [...messages.map((text) => `message: ${text}`), ...(name ? [name] : []), ...imports.map((s) => `imports ${s}`)];
}

const EVERYTHING = [...PRODUCT, ...["scripts", "tests"].flatMap(sourceFiles), "vite.config.ts", "vitest.config.ts", "playwright.config.ts", "react-router.config.ts"];

describe("architecture", () => {
  it("reads the imports of every form (static, type-only, re-export, dynamic, side effect)", () => {
    const source = `import a from "./a";\nimport type { B } from "#api/b";\nexport { c } from "../c";\nconst d = await import("~/d");\nimport "./e.css";\nimport {\n  f,\n} from "#db/f";`;
    expect(importsOf(source)).toEqual(["./a", "#api/b", "../c", "~/d", "./e.css", "#db/f"]);
  });

  it(`imports run one way: ${LAYERS.join(" → ")}`, () => {
    const upward: string[] = [];
    for (const file of PRODUCT) {
      const from = layerOfFile(file)!;
      for (const specifier of importsOf(readFileSync(path.join(ROOT, file), "utf8"))) {
        const to = layerOfImport(file, specifier);
        if (to && LAYERS.indexOf(to) < LAYERS.indexOf(from)) upward.push(`${file} (${from}) imports ${specifier} (${to})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("no import circles between product files (type-only imports included)", () => {
    const graph = new Map<string, string[]>();
    for (const file of PRODUCT) {
      const targets = importsOf(readFileSync(path.join(ROOT, file), "utf8")).map((s) => resolveImport(file, s));
      graph.set(file, [...new Set(targets.filter((t): t is string => t !== undefined))]);
    }
    expect(importCycles(graph).map((c) => c.join(" ↔ "))).toEqual([]);
  });

  it("nothing imports Remix v2 (@remix-run/*, end of life since 2026-06-17) or react-router-dom (gone in v8): React Router 7 replaces them", () => {
    const remix = EVERYTHING.filter((file) => {
      try {
        return importsOf(readFileSync(path.join(ROOT, file), "utf8")).some((s) => s.startsWith("@remix-run/") || s === "react-router-dom");
      } catch {
        return false; // a config file that does not exist
      }
    });
    expect(remix).toEqual([]);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    const declared = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
    expect(declared.filter((name) => name.startsWith("@remix-run/") || name === "react-router-dom")).toEqual([]);
  });

  it("ocpp/ returns no Spanish messages to the API, and the labels for people live in the contract", () => {
    const found = sourceFiles("ocpp").flatMap((file) => wordingFor(readFileSync(path.join(ROOT, file), "utf8")).map((w) => `${file}: ${w}`));
    expect(found).toEqual([]);
  });

  it("that check finds a Spanish message, a moved label and the wording module, but not a log or a comment", () => {
    const before = [
      "// Words: COMMAND_LABELS live in contract/schemas/command-messages.ts.",
      'logger.warn({ identity }, "OCPP: el cargador se reconecta demasiado seguido");',
      'return { command, outcome: "timeout", message: `El cargador no respondió a tiempo a «${COMMAND_LABELS[command]}».` };',
      'import { maintenanceMessage } from "#contract/schemas/command-messages";',
    ].join("\n");
    expect(wordingFor(before)).toEqual(["message: El cargador no respondió a tiempo a «${COMMAND_LABELS[command]}».", "COMMAND_LABELS", "imports #contract/schemas/command-messages"]);
  });
});
