// PostCSS plugin for the production CSS budget (≤ 35 KB gzip, docs/benchmarks.md): Radix Themes
// ships one stylesheet for all of its ~60 components, every responsive breakpoint and the dark
// theme; this keeps only what Enchufá renders. Applied to @radix-ui/themes files only.
//
// - Components: rules whose selectors name only Radix components the app never imports are
//   dropped (a selector list keeps its other selectors). tests/unit/app/radix-css-subset.test.ts
//   fails when app code imports a component missing from RADIX_COMPONENTS.
// - Breakpoints: responsive classes (`md:rt-r-gap-3`) of props and breakpoints the app never
//   gives a responsive value ({ initial: …, md: … }); the same test checks the app's usage.
// - Dark appearance: the app is light only (<Theme appearance="light">), so `.dark` rules go.
import type { AtRule, Container, Plugin, Rule } from "postcss";

/** Radix Themes components the app imports (from "@radix-ui/themes"). */
export const RADIX_COMPONENTS = [
  "Badge",
  "Box",
  "Button",
  "Callout",
  "Card",
  "Code",
  "DataList",
  "Flex",
  "Grid",
  "Heading",
  "Separator",
  "Strong",
  "Table",
  "Text",
  "TextField",
  "Theme",
] as const;

/** Responsive breakpoints used in props like columns={{ initial: "1", md: "2" }}. */
export const RADIX_BREAKPOINTS = ["xs", "sm", "md"] as const;

/**
 * Props the app gives responsive values, with the class Radix writes for them
 * (`md:rt-r-gtc-2`). Breakpoint classes of every other prop are dropped.
 */
export const RADIX_RESPONSIVE_PROPS = {
  align: "ai",
  columns: "gtc",
  direction: "fd",
  gridColumn: "gc",
  orientation: "orientation",
} as const;

/**
 * CSS class families (`rt-<Family>…`) each imported component renders, including the shared
 * bases it is built on (Button on BaseButton and Spinner for `loading`, Card on BaseCard).
 */
const FAMILIES: Record<(typeof RADIX_COMPONENTS)[number], string[]> = {
  Badge: ["Badge"],
  Box: ["Box"],
  Button: ["Button", "BaseButton", "Spinner"],
  Callout: ["Callout"],
  Card: ["Card", "BaseCard"],
  Code: ["Code"],
  DataList: ["DataList"],
  Flex: ["Flex"],
  Grid: ["Grid"],
  Heading: ["Heading"],
  Separator: ["Separator"],
  Strong: ["Strong"],
  Table: ["Table"],
  Text: ["Text"],
  TextField: ["TextField"],
  Theme: [],
};

const ALL_BREAKPOINTS = ["xs", "sm", "md", "lg", "xl"];

export interface RadixSubsetOptions {
  components?: readonly (typeof RADIX_COMPONENTS)[number][];
  breakpoints?: readonly string[];
  /** Radix class names of the props with responsive values ("gtc", "fd", …). */
  responsiveClasses?: readonly string[];
}

/** Radix component class names in a selector (`.rt-TableRootTable` → "TableRootTable"). */
const COMPONENT_CLASS = /\.(?:[a-z]{2}\\:)?rt-([A-Z][A-Za-z]*)/g;
/** A responsive utility or prop class (`.md\:rt-r-gtc-2`): its breakpoint and prop. */
const RESPONSIVE_CLASS = /\.([a-z]{2})\\:rt-r-([a-z]+)(?![a-z])/g;

export function radixCssSubset(options: RadixSubsetOptions = {}): Plugin {
  const components = options.components ?? RADIX_COMPONENTS;
  const families = components.flatMap((c) => FAMILIES[c]);
  // "Table" keeps TableRoot, TableCell…; "Text" must not keep TextArea (a family of its own).
  const knownFamilies = [...new Set([...families, "TextArea", "TextField", "BaseMenu", "BaseDialog", "BaseTabList", "BaseRadio", "BaseCheckbox"])]
    .sort((a, b) => b.length - a.length);
  const familyOf = (cls: string) => knownFamilies.find((f) => cls.startsWith(f)) ?? cls.replace(/^([A-Z][a-z]+).*$/, "$1");
  const keptFamilies = new Set(families);
  const droppedBreakpoints = new Set(ALL_BREAKPOINTS.filter((b) => !(options.breakpoints ?? RADIX_BREAKPOINTS).includes(b)));
  const responsiveClasses = new Set<string>(options.responsiveClasses ?? Object.values(RADIX_RESPONSIVE_PROPS));

  const keepSelector = (selector: string): boolean => {
    for (const m of selector.matchAll(RESPONSIVE_CLASS)) {
      if (droppedBreakpoints.has(m[1]) || !responsiveClasses.has(m[2])) return false;
    }
    if (/(^|[\s,(>+~])\.dark(-theme)?\b/.test(selector) || /:is\(\.dark|:where\(\.dark/.test(selector)) return false;
    const classes = [...selector.matchAll(COMPONENT_CLASS)].map((m) => m[1]);
    // Every component a selector names must be kept (".rt-Card .rt-Inset" needs Inset too).
    return classes.every((c) => keptFamilies.has(familyOf(c)));
  };

  const prune = (container: Container) => {
    container.each((node) => {
      if (node.type === "rule") {
        const rule = node as Rule;
        // Keyframe steps ("from", "50%") are not selectors.
        if ((rule.parent as AtRule | undefined)?.name?.endsWith("keyframes")) return;
        const kept = rule.selectors.filter(keepSelector);
        if (kept.length === 0) rule.remove();
        else if (kept.length !== rule.selectors.length) rule.selectors = kept;
      } else if (node.type === "atrule" && (node as AtRule).nodes) {
        prune(node as AtRule);
        if ((node as AtRule).nodes?.length === 0) node.remove();
      }
    });
  };

  return {
    postcssPlugin: "enchufa-radix-css-subset",
    Once(root) {
      const file = root.source?.input.file ?? "";
      if (!/[\\/]@radix-ui[\\/]themes[\\/]/.test(file)) return;
      prune(root);
    },
  };
}
