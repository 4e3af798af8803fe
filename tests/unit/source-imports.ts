// The import specifiers of a TypeScript/JavaScript source, for tests about the code's shape.
const IMPORT = /(?:^|[^\w.])(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']|(?:^|[^\w.])import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s+["']([^"']+)["']/gm;

/** Every import of a source: static, type-only, re-exports, dynamic import() and side-effect imports. */
export function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
}
