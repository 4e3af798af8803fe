// Builds app/icons/sprite.svg: one <symbol> per name in app/icons/names.ts, drawn from
// react-icons/bi (the BoxIcons the app always used). Used by `npm run icons` and by the test
// that keeps the committed sprite in step with the list.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import * as bi from "react-icons/bi";
import { ICON_NAMES } from "~/icons/names";

export const SPRITE_PATH = "app/icons/sprite.svg";

export function buildSprite(names: readonly string[] = ICON_NAMES): string {
  const symbols = names.map((name) => {
    const component = (bi as Record<string, unknown>)[name];
    if (typeof component !== "function") throw new Error(`react-icons/bi no tiene el ícono ${name}`);
    const svg = renderToStaticMarkup(createElement(component as () => null));
    const match = /^<svg[^>]*\sviewBox="([^"]+)"[^>]*>(.*)<\/svg>$/s.exec(svg);
    if (!match) throw new Error(`SVG inesperado para ${name}`);
    return `<symbol id="${name}" viewBox="${match[1]}">${match[2]}</symbol>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join("\n")}\n</svg>\n`;
}
