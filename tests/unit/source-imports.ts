// The import specifiers of a TypeScript/JavaScript source, for tests about the code's shape.
const IMPORT = /(?:^|[^\w.])(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']|(?:^|[^\w.])import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s+["']([^"']+)["']/gm;

/** Every import of a source: static, type-only, re-exports, dynamic import() and side-effect imports. */
export function importsOf(source: string): string[] {
  // A comment may show an import as an example; only code imports.
  const code = source.replace(/^\s*(\/\/|\/?\*).*$/gm, "");
  return [...code.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
}
