// The import aliases of tsconfig.json's "paths", for Vite and Vitest (tsx and esbuild read
// tsconfig.json themselves): `~/` is the dashboard (app/), `#<layer>/` the layers below it.
import { fileURLToPath } from "node:url";

const root = (folder: string) => fileURLToPath(new URL(`../../${folder}`, import.meta.url));

export const aliases = {
  "~": root("app"),
  "#api": root("api"),
  "#contract": root("contract"),
  "#db": root("db"),
  "#domain": root("domain"),
  "#infra": root("infra"),
  "#ocpp": root("ocpp"),
};
