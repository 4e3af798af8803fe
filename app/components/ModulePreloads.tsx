import { useContext, useState } from "react";
import { UNSAFE_FrameworkContext, useMatches } from "react-router";

/**
 * The modules the first load hydrates with, preloaded at low priority (Lighthouse).
 *
 * React Router's `<Scripts>` writes a `<link rel="modulepreload">` for each of them, at the browser's
 * default (high) priority. The page paints without JavaScript (every screen works without it), so
 * on a slow connection those ~25 modules should not compete with the stylesheet and the fonts.
 * Rendered just before `<Scripts>`, these links start the same requests first, with
 * `fetchpriority="low"`; the browser's module map then reuses them for React Router's links and imports
 * instead of fetching again. Lighthouse's simulation counted the high-priority preloads that
 * happened to finish before the first paint as render-blocking, which made its mobile FCP jump
 * between ~1.2 and ~2.5 s for the same files.
 *
 * The list is the one `<Scripts>` builds (entry, its imports, each matched route's module, the
 * client modules split from it and its imports), computed once: like `<Scripts>`, it describes
 * the first load, not later navigations.
 */
export function LowPriorityModulePreloads() {
  const manifest = useContext(UNSAFE_FrameworkContext)?.manifest;
  const matches = useMatches();
  const [hrefs] = useState(() => {
    if (!manifest) return [];
    const routes = matches.flatMap(({ id }) => {
      const route = manifest.routes[id];
      if (!route) return [];
      // The route module and the client modules split from it (future.v8_splitRouteModules).
      const split = [route.clientActionModule, route.clientLoaderModule, route.hydrateFallbackModule].filter((href): href is string => !!href);
      return [route.module, ...split, ...(route.imports ?? [])];
    });
    return [...new Set([manifest.entry.module, ...manifest.entry.imports, ...routes])];
  });
  // Lowercase: React 18 passes it through as an attribute (it does not know fetchPriority).
  return hrefs.map((href) => <link key={href} rel="modulepreload" href={href} {...{ fetchpriority: "low" }} />);
}
