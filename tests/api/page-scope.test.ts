// One dashboard request = one PageScope (api/page-scope.ts): its in-process API calls verify the
// token and read the caller's company once, a write in the same request makes later reads see
// the change, and nothing carries over to the next request (a revocation or a suspension takes
// effect on the very next page). Calls without a scope (over HTTP) are checked in full.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TokenClaims } from "#api/env";
import { PageScope } from "#api/page-scope";
import { businessUsers } from "#db/schema";
import { createTenant, expectProblem, expectStatus, fakeVerifyToken, openHarness, testBackends, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("page scope ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let verifications = 0;
  let revoked = false;
  const verifyToken = async (idToken: string): Promise<TokenClaims> => {
    verifications++;
    if (revoked) throw Object.assign(new Error("revoked"), { code: "auth/id-token-revoked" });
    return fakeVerifyToken(idToken);
  };

  /** An in-process call as the dashboard makes it: bound to a page's scope, or to none (HTTP). */
  const call = (scope: PageScope | undefined, method: string, path: string, body?: unknown) =>
    h.api.fetch(
      new Request(`http://enchufa.test/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${t.token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }),
      scope ? { pageScope: scope } : undefined,
    );

  beforeAll(async () => {
    h = await openHarness(backend, { verifyToken });
    t = await createTenant(h, "page-scope");
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    verifications = 0;
    revoked = false;
    await h.db.update(businessUsers).set({ status: "ACTIVE", businessName: "Empresa page-scope" }).where(eq(businessUsers.firebaseUid, t.uid));
  });

  it("verifies the token once for all of a page's calls, and every time without a scope", async () => {
    const page = new PageScope();
    const paths = ["/Business/BusinessUser", "/Business/Notification/UnreadCount", "/Business/Dashboard", "/Account/Business"];
    for (const res of await Promise.all(paths.map((p) => call(page, "GET", p)))) expect(res.status).toBe(200);
    expect(verifications).toBe(1);

    verifications = 0;
    for (const res of await Promise.all(paths.map((p) => call(undefined, "GET", p)))) expect(res.status).toBe(200);
    expect(verifications).toBe(paths.length);
  });

  it("a revocation and a suspension take effect on the next page", async () => {
    const first = new PageScope();
    expect((await call(first, "GET", "/Business/Dashboard")).status).toBe(200);

    await h.db.update(businessUsers).set({ status: "SUSPENDED" }).where(eq(businessUsers.firebaseUid, t.uid));
    expect((await expectProblem(await call(new PageScope(), "GET", "/Business/Dashboard"), 403)).type).toMatch(/business-not-active/);

    revoked = true;
    await expectProblem(await call(new PageScope(), "GET", "/Business/BusinessUser"), 401);
  });

  it("a refused token stays refused for the rest of the page", async () => {
    revoked = true;
    const page = new PageScope();
    await expectProblem(await call(page, "GET", "/Business/BusinessUser"), 401);
    revoked = false;
    await expectProblem(await call(page, "GET", "/Business/BusinessUser"), 401);
    expect(verifications).toBe(1);
  });

  it("after a write in the same request (a document POST), the loaders read the company afresh", async () => {
    const page = new PageScope();
    expect((await expectStatus(await call(page, "GET", "/Business/BusinessUser"), 200)).businessName).toBe("Empresa page-scope");
    await expectStatus(await call(page, "PATCH", "/Business/BusinessUser/Update", { businessName: "Nombre nuevo" }), 200);
    expect((await expectStatus(await call(page, "GET", "/Business/BusinessUser"), 200)).businessName).toBe("Nombre nuevo");
  });

  it("within one page, reads share one company lookup (a change made elsewhere shows on the next page)", async () => {
    const page = new PageScope();
    expect((await expectStatus(await call(page, "GET", "/Business/BusinessUser"), 200)).businessName).toBe("Empresa page-scope");
    await h.db.update(businessUsers).set({ businessName: "Cambiado por otro" }).where(eq(businessUsers.firebaseUid, t.uid));
    expect((await expectStatus(await call(page, "GET", "/Business/BusinessUser"), 200)).businessName).toBe("Empresa page-scope");
    expect((await expectStatus(await call(new PageScope(), "GET", "/Business/BusinessUser"), 200)).businessName).toBe("Cambiado por otro");
  });
});
