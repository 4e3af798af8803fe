// The production CSS keeps only the Radix Themes rules the app renders (CSS budget). These tests
// fail when app code starts using a component, a responsive prop or a breakpoint the subset
// drops, instead of letting it ship unstyled.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import postcss from "postcss";
import { describe, expect, it } from "vitest";
import { RADIX_BREAKPOINTS, RADIX_COMPONENTS, RADIX_RESPONSIVE_PROPS, radixCssSubset } from "../../../scripts/vite/radix-css-subset";

const appDir = path.resolve(import.meta.dirname, "../../../app");
const radixFile = (f: string) => path.resolve(import.meta.dirname, "../../../node_modules/@radix-ui/themes", f);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.(tsx?|jsx?)$/.test(e.name) ? [full] : [];
  });
}

const appCode = sources(appDir).map((file) => ({ file, text: readFileSync(file, "utf8") }));

async function subset(css: string, from: string) {
  return (await postcss([radixCssSubset()]).process(css, { from })).css;
}

describe("Radix Themes CSS subset", () => {
  it("lists every component the app imports from @radix-ui/themes", () => {
    const imported = new Set<string>();
    for (const { text } of appCode) {
      for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"@radix-ui\/themes"/g)) {
        for (const name of m[1].split(",")) {
          const clean = name.replace(/\btype\b/, "").split(" as ")[0].trim();
          if (clean && /^[A-Z]/.test(clean)) imported.add(clean);
        }
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    const missing = [...imported].filter((c) => !(RADIX_COMPONENTS as readonly string[]).includes(c));
    expect(missing, "add them to RADIX_COMPONENTS in scripts/vite/radix-css-subset.ts").toEqual([]);
  });

  it("keeps the responsive props and breakpoints the app uses", () => {
    const props = new Set<string>();
    const breakpoints = new Set<string>();
    for (const { text } of appCode) {
      for (const m of text.matchAll(/(\w+)=\{\{\s*initial:([^}]*)\}\}/g)) {
        props.add(m[1]);
        for (const bp of m[2].matchAll(/\b(xs|sm|md|lg|xl):/g)) breakpoints.add(bp[1]);
      }
    }
    expect(props.size).toBeGreaterThan(0);
    expect([...props].filter((p) => !(p in RADIX_RESPONSIVE_PROPS))).toEqual([]);
    expect([...breakpoints].filter((b) => !(RADIX_BREAKPOINTS as readonly string[]).includes(b))).toEqual([]);
  });

  it("drops unused components, breakpoints and the dark theme, and keeps what is used", async () => {
    const from = radixFile("components.css");
    const css = `
      .rt-Button:where(.rt-variant-solid) { color: red }
      .rt-TextFieldRoot, .rt-TextAreaRoot { color: blue }
      .rt-SliderRoot { color: green }
      .rt-BaseMenuItem { color: green }
      .rt-Card .rt-Inset { color: green }
      @media (min-width: 1024px) { .md\\:rt-r-gtc-2 { grid-template-columns: 1fr 1fr } .md\\:rt-r-gap-3 { gap: 1px } }
      @media (min-width: 1280px) { .lg\\:rt-r-gtc-2 { grid-template-columns: 1fr 1fr } }
      .dark, .dark-theme { --gray-1: black }
      .radix-themes { --x: 1 }
      @keyframes rt-fade-in { from { opacity: 0 } to { opacity: 1 } }`;
    const out = await subset(css, from);
    expect(out).toContain(".rt-Button:where(.rt-variant-solid)");
    expect(out).toContain(".rt-TextFieldRoot");
    expect(out).not.toContain("TextAreaRoot");
    expect(out).not.toContain("Slider");
    expect(out).not.toContain("BaseMenu");
    expect(out).not.toContain("Inset");
    expect(out).toContain(".md\\:rt-r-gtc-2");
    expect(out).not.toContain("rt-r-gap");
    expect(out).not.toContain("1280px");
    expect(out).not.toContain(".dark");
    expect(out).toContain(".radix-themes");
    expect(out).toContain("@keyframes rt-fade-in");
  });

  it("leaves other stylesheets alone", async () => {
    const css = ".rt-SliderRoot { color: green } .dark { color: black }";
    expect(await subset(css, path.join(appDir, "styles/app.css"))).toBe(css);
  });

  it("shrinks Radix's components.css by more than half", async () => {
    const file = radixFile("components.css");
    const full = readFileSync(file, "utf8");
    const out = await subset(full, file);
    expect(out.length).toBeLessThan(full.length / 2);
    expect(out).toContain(".rt-BaseButton");
    expect(out).toContain(".rt-DataListRoot");
  });
});
