// The access guard (api/access.ts) on its own: an endpoint without a rule is refused, whoever
// calls it; an unknown path is still a 404; rules are looked up by the route that answers.
import { describe, expect, it } from "vitest";
import { Hono } from "hono";
import { accessGuard, FORBIDDEN_ENDPOINT_MESSAGE, type EndpointRule } from "#api/access";
import { ApiError } from "#api/problem";
import type { ApiServices, AppEnv } from "#api/env";
import { fakeVerifyToken } from "./helpers";

function app(rules: Record<string, EndpointRule>) {
  const errors: unknown[] = [];
  const services = { logger: { info() {}, warn() {}, error: (obj: unknown) => errors.push(obj) } } as unknown as ApiServices;
  const api = new Hono<AppEnv>().basePath("/api");
  api.use(accessGuard(services, fakeVerifyToken, async () => {}, rules));
  api.get("/Thing/Options", (c) => c.text("options"));
  api.get("/Thing/:id", (c) => c.text("one"));
  api.get("/Open", (c) => c.text("open"));
  api.onError((err, c) => (err instanceof ApiError ? c.json(err.toProblem(), err.status as 403) : c.text("error", 500)));
  return { api, errors };
}

describe("access guard", () => {
  it("refuses an endpoint with no rule (403 in Spanish), even to anonymous callers, and logs it", async () => {
    const { api, errors } = app({ "GET /Open": { permission: "public" } });
    const res = await api.fetch(new Request("http://x/api/Thing/abc"));
    expect(res.status).toBe(403);
    expect((await res.json()).title).toBe(FORBIDDEN_ENDPOINT_MESSAGE);
    expect(errors).toEqual([{ endpoint: "GET /Thing/:id" }]);
    expect((await api.fetch(new Request("http://x/api/Open"))).status).toBe(200);
  });

  it("looks the rule up by the route that answers (a literal path before a parameter)", async () => {
    const { api } = app({ "GET /Thing/Options": { permission: "public" } });
    expect(await (await api.fetch(new Request("http://x/api/Thing/Options"))).text()).toBe("options");
    expect((await api.fetch(new Request("http://x/api/Thing/other"))).status).toBe(403);
  });

  it("leaves unknown paths and methods to the 404", async () => {
    const { api } = app({});
    expect((await api.fetch(new Request("http://x/api/Nope"))).status).toBe(404);
    expect((await api.fetch(new Request("http://x/api/Open", { method: "DELETE" }))).status).toBe(404);
  });
});
