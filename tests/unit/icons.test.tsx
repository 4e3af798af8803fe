// The icon sprite: app/icons/sprite.svg must be exactly what `npm run icons` writes
// from app/icons/names.ts, and every exported icon must point at a symbol that exists.
import { readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as icons from "~/icons";
import { ICON_NAMES } from "~/icons/names";
import { buildSprite, SPRITE_PATH } from "../../scripts/icons/sprite";

describe("icon sprite", () => {
  const sprite = readFileSync(SPRITE_PATH, "utf8");

  it("is in step with the list of names (run `npm run icons` after changing it)", () => {
    expect(sprite).toBe(buildSprite());
  });

  it("has one symbol per exported icon, and nothing else", () => {
    const symbols = [...sprite.matchAll(/<symbol id="([^"]+)" viewBox="0 0 24 24">/g)].map((m) => m[1]);
    const exported = Object.keys(icons).filter((k) => /^Bi[A-Z]/.test(k));
    expect(symbols).toEqual([...ICON_NAMES]);
    expect(exported.sort()).toEqual([...ICON_NAMES].sort());
  });

  it("renders a <use> of its symbol with the react-icons props", () => {
    const html = renderToStaticMarkup(<icons.BiTrash size={48} aria-hidden="true" color="#005a87" />);
    expect(html).toMatch(
      /^<svg stroke="currentColor" fill="currentColor" stroke-width="0" width="48" height="48" focusable="false" aria-hidden="true" style="color:#005a87"><use href="[^"]*sprite[^"]*\.svg#BiTrash"><\/use><\/svg>$/,
    );
  });

  it("refuses a name react-icons does not have", () => {
    expect(() => buildSprite(["BiNoExiste"])).toThrow(/BiNoExiste/);
  });
});
