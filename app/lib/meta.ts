import type { MetaFunction } from "react-router";

type RootData = { appName?: string } | undefined;

/**
 * `{pageTitle} - {product}`; the product name comes from APP_NAME through the root loader.
 * A title that depends on the page's data is a function of its loader data (undefined on errors).
 */
export function pageMeta(pageTitle: string | ((loaderData: unknown) => string)): MetaFunction {
  return ({ matches, loaderData }) => {
    const root = matches.find((m) => m.id === "root")?.loaderData as RootData;
    const title = typeof pageTitle === "function" ? pageTitle(loaderData) : pageTitle;
    return [{ title: `${title} - ${root?.appName ?? "Enchufá"}` }];
  };
}
