// The app's static Radix Themes root renders what Radix's <Theme> renders with the same props,
// and nothing in the app needs what only <Theme> provides (its context, read by Radix's Select
// and menus).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { Theme } from "@radix-ui/themes";
import { describe, expect, it } from "vitest";
import { ThemeRoot } from "~/components/ThemeRoot";

describe("ThemeRoot", () => {
  it("is Radix's Theme root, attribute for attribute", () => {
    const radix = renderToStaticMarkup(
      <Theme accentColor="sky" grayColor="gray" appearance="light" radius="medium" scaling="100%">
        <p>x</p>
      </Theme>,
    );
    expect(renderToStaticMarkup(<ThemeRoot>{<p>x</p>}</ThemeRoot>)).toBe(radix);
  });

  it("no screen uses a Radix component that needs <Theme>'s context", () => {
    const root = path.resolve(import.meta.dirname, "../../../app");
    const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.tsx?$/.test(e.name));
    const needsTheme = /\b(Theme|Select|DropdownMenu|ContextMenu|ThemePanel)\b/;
    const offenders = files.filter((e) => {
      const source = readFileSync(path.join(e.parentPath, e.name), "utf8");
      const radixImports = [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"@radix-ui\/themes"/g)].map((m) => m[1]);
      return radixImports.some((names) => needsTheme.test(names));
    });
    expect(offenders.map((e) => e.name)).toEqual([]);
  });
});
