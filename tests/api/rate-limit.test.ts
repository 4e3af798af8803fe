// The Business API's per-account limit: counted after the token, per uid, in the
// process-wide store (PostgreSQL when nodes share one; memory here).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRateLimitStore } from "#infra/rate-limit";
import { createTenant, expectProblem, openHarness, testBackends, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("API rate limit per account ($name)", (backend) => {
  let h: Harness;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    h = await openHarness(backend, { accountRequestsPerMinute: 5 });
    await getRateLimitStore().clear();
    a = await createTenant(h, `rl-a-${backend.name}`);
    b = await createTenant(h, `rl-b-${backend.name}`);
    await getRateLimitStore().clear();
  });
  afterAll(() => h?.close());

  it("answers 429 in Spanish with Retry-After past the limit; other accounts are unaffected", async () => {
    for (let i = 0; i < 5; i++) expect((await h.call("GET", "/Business/BusinessUser", { token: a.token })).status).toBe(200);
    const refused = await h.call("GET", "/Business/BusinessUser", { token: a.token });
    const problem = await expectProblem(refused, 429);
    expect(problem.title).toMatch(/^Demasiados intentos\. Esperá \d+ minutos? y probá de nuevo\.$/);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await h.call("GET", "/Business/BusinessUser", { token: b.token })).status).toBe(200);
  });

  it("the public contract is not counted", async () => {
    for (let i = 0; i < 10; i++) expect((await h.call("GET", "/openapi.json")).status).toBe(200);
  });
});
