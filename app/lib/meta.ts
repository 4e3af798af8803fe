import type { MetaFunction } from "react-router";

type RootData = { appName?: string } | undefined;

/** `{pageTitle} - {product}` (spec §1); the product name comes from APP_NAME through the root loader. */
export function pageMeta(pageTitle: string): MetaFunction {
  return ({ matches }) => {
    const root = matches.find((m) => m.id === "root")?.loaderData as RootData;
    return [{ title: `${pageTitle} - ${root?.appName ?? "Enchufá"}` }];
  };
}
