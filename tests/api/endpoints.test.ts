// The endpoint registry (contract/endpoints.ts) and the API agree: every route the API registers
// has exactly one entry, and every entry is a route. A route without an entry would be refused
// by the access guard; an entry without a route would be a lie in the OpenAPI document and the
// typed client.
import { describe, expect, it } from "vitest";
import { createTestApi, TEST_KEYS } from "./helpers";
import { endpointKey, endpoints, type EndpointDef } from "#contract/endpoints";
import type { Db } from "#db/client";

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** `METHOD /path` of every handler route (middlewares are ALL), without /api, once each. */
function registeredRoutes(): string[] {
  // Registering routes reads no data: the database is never touched here.
  const api = createTestApi({ db: {} as Db, verifyToken: async () => { throw new Error("no token in this test"); }, encryptionKeys: TEST_KEYS, logger: quiet, publicOrigin: "https://enchufa.test" });
  const keys = api.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path.replace(/^\/api(?=\/)/, "")}`);
  return [...new Set(keys)].sort();
}

describe("endpoint registry", () => {
  const entries = Object.values(endpoints as Record<string, EndpointDef>).map(endpointKey);

  it("names each endpoint once", () => {
    expect(entries.filter((key, i) => entries.indexOf(key) !== i)).toEqual([]);
  });

  it("has exactly the routes the API registers", () => {
    const routes = registeredRoutes();
    expect(routes.filter((key) => !entries.includes(key))).toEqual([]);
    expect(entries.filter((key) => !routes.includes(key))).toEqual([]);
  });
});
