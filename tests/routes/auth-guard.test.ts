// The app-layout guard and sign-out.
import { describe, expect, it } from "vitest";
import { sessionStorage } from "~/lib/session.server";
import * as layout from "~/routes/app/layout";
import * as logout from "~/routes/logout";
import { requireActiveBusiness, requireUser, safeRedirect, currentPath } from "~/lib/auth.server";

import { args, cookieJar, fake, FakeBusinessApi, get, makeContext, post, readSession, run, signedInCookie, type Loose, withAuthRouteTests } from "./auth-helpers";

withAuthRouteTests();

async function activeUser(opts: { ttlMs?: number; status?: "ACTIVE" | "PENDING" | "REJECTED" | "SUSPENDED" | null; verified?: boolean } = {}) {
  const account = fake.addAccount("ana@example.com", "Clave-Segura-1");
  const { cookie, user } = await signedInCookie(account, { ttlMs: opts.ttlMs, verified: opts.verified });
  const api = new FakeBusinessApi();
  if (opts.status !== null) api.businesses.set(account.uid, { status: opts.status ?? "ACTIVE", businessName: "Cargas del Sur S.A.", cuit: "30712345671" });
  return { account, cookie, user, api };
}

describe("app layout guard", () => {
  it("no session → login with redirectTo (path and query)", async () => {
    const res = await run(() => layout.loader(args(get("/station?page=2"), makeContext())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/auth/login?redirectTo=%2Fstation%3Fpage%3D2");
  });

  it("a single-fetch data request redirects to the page, not to the .data URL", async () => {
    const res = await run(() => layout.loader(args(get("/rate/new.data?_routes=routes%2Fapp%2Flayout"), makeContext())));
    expect(res.location).toBe("/auth/login?redirectTo=%2Frate%2Fnew");
  });

  it.each(["/activity", "/user", "/payment/payments/pagos360"])("%s is protected like the rest", async (path) => {
    const res = await run(() => layout.loader(args(get(path), makeContext())));
    expect(res.location).toBe(`/auth/login?redirectTo=${encodeURIComponent(path)}`);
  });

  it("/home needs no redirectTo (it is where login goes anyway)", async () => {
    const res = await run(() => layout.loader(args(get("/home"), makeContext())));
    expect(res.location).toBe("/auth/login");
  });

  it("ACTIVE → proceeds with the header data, no cookie change while the token is fresh and the company is known", async () => {
    const { cookie, api } = await activeUser();
    // The first page remembers the company the session acts for…
    const first = await run<Loose>(() => layout.loader(args(get("/home", cookie), makeContext(api))));
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ businessName: "Cargas del Sur S.A.", email: "ana@example.com", photo: "/images/blank.png", access: { role: "OWNER", roleLabel: "Dueño" } });
    const remembered = cookieJar(first.headers, cookie);
    expect((await sessionStorage.getSession(remembered)).get("businessId")).toMatch(/^00000000-/);
    // …and from then on sends it to the API, with nothing more to set.
    const res = await run<Loose>(() => layout.loader(args(get("/home", remembered), makeContext(api))));
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(fake.called("token")).toHaveLength(0);
  });

  it("refreshes the ID token under 5 minutes from expiry and returns the Set-Cookie", async () => {
    const { cookie, user, api } = await activeUser({ ttlMs: 4 * 60 * 1000 });
    const res = await run<Loose>(() => layout.loader(args(get("/home", cookie), makeContext(api))));
    expect(res.status).toBe(200);
    expect(fake.called("token")).toHaveLength(1);
    expect(fake.called("token")[0].body).toMatchObject({ grant_type: "refresh_token", refresh_token: user.refreshToken });
    const fresh = (await readSession(cookieJar(res.headers, cookie))).user!;
    expect(fresh.idToken).not.toBe(user.idToken);
    expect(fresh.expiresAt - Date.now()).toBeGreaterThan(55 * 60 * 1000);
    // The API was called with the new token.
    expect(api.requests.every((r) => r.authorization === `Bearer ${fresh.idToken}`)).toBe(true);
  });

  it("does not refresh with more than 5 minutes left", async () => {
    const { cookie, api } = await activeUser({ ttlMs: 6 * 60 * 1000 });
    await run(() => layout.loader(args(get("/home", cookie), makeContext(api))));
    expect(fake.called("token")).toHaveLength(0);
  });

  it("a refresh the provider refuses (revoked) → login, session destroyed", async () => {
    const { cookie, api } = await activeUser({ ttlMs: 60 * 1000 });
    fake.refreshTokens.clear();
    const res = await run(() => layout.loader(args(get("/rate", cookie), makeContext(api))));
    expect(res.location).toBe("/auth/login?redirectTo=%2Frate");
    expect((await readSession(cookieJar(res.headers, cookie))).user).toBeUndefined();
  });

  it("a refresh that cannot reach the provider keeps a still-valid token; an expired one → login", async () => {
    const valid = await activeUser({ ttlMs: 3 * 60 * 1000 });
    fake.down = true;
    const ok = await run(() => layout.loader(args(get("/home", valid.cookie), makeContext(valid.api))));
    expect(ok.status).toBe(200);

    const { cookie } = await signedInCookie(valid.account, { ttlMs: -1000 });
    const gone = await run(() => layout.loader(args(get("/home", cookie), makeContext(valid.api))));
    expect(gone.location).toBe("/auth/login");
  });

  it("a session whose user is not verified → login", async () => {
    const { cookie, api } = await activeUser({ verified: false });
    const res = await run(() => layout.loader(args(get("/home", cookie), makeContext(api))));
    expect(res.location).toBe("/auth/login");
  });

  it("a token firebase-admin rejects → login", async () => {
    const { cookie, api } = await activeUser();
    const context = makeContext(api, { verifyIdToken: () => Promise.reject(new Error("auth/id-token-revoked")) });
    const res = await run(() => layout.loader(args(get("/home", cookie), context)));
    expect(res.location).toBe("/auth/login");
  });

  it("no company → login-company (coming back afterwards)", async () => {
    const { cookie, api } = await activeUser({ status: null });
    const res = await run(() => layout.loader(args(get("/station/new", cookie), makeContext(api))));
    expect(res.location).toBe("/auth/login-company?redirectTo=%2Fstation%2Fnew");
  });

  it.each(["PENDING", "REJECTED", "SUSPENDED"] as const)("%s → verify-company", async (status) => {
    const { cookie, api } = await activeUser({ status });
    const res = await run(() => layout.loader(args(get("/home", cookie), makeContext(api))));
    expect(res.location).toBe("/auth/verify-company");
  });

  it("redirects after a refresh carry the new cookie too", async () => {
    const { cookie, api } = await activeUser({ status: "PENDING", ttlMs: 60 * 1000 });
    const res = await run(() => layout.loader(args(get("/home", cookie), makeContext(api))));
    expect(res.location).toBe("/auth/verify-company");
    expect((await readSession(cookieJar(res.headers, cookie))).user?.expiresAt).toBeGreaterThan(Date.now() + 55 * 60 * 1000);
  });

  it("the Business API down → 503 for the error boundary, not a login loop", async () => {
    const { cookie, api } = await activeUser();
    api.failWith = 502;
    const res = await run(() => layout.loader(args(get("/home", cookie), makeContext(api))));
    expect(res.status).toBe(503);
  });

  it("one refresh and one company lookup per request, shared by the layout and its children", async () => {
    const { cookie, api } = await activeUser({ ttlMs: 60 * 1000 });
    const context = makeContext(api);
    const request = get("/rate", cookie);
    const [a, b, c] = await Promise.all([requireActiveBusiness(request, context), requireUser(request, context), requireActiveBusiness(request, context)]);
    expect(fake.called("token")).toHaveLength(1);
    expect(api.requests.filter((r) => r.path === "/Account/Business")).toHaveLength(1);
    expect(a.user.idToken).toBe(b.idToken);
    expect(c.user.idToken).toBe(b.idToken);
  });
});

describe("sign out", () => {
  it("POST /logout destroys the session and goes to login with a toast", async () => {
    const { cookie } = await activeUser();
    const res = await run(() => logout.action(args(post("/logout", {}, cookie), makeContext())));
    expect(res.location).toBe("/auth/login");
    expect((await readSession(cookieJar(res.headers, cookie))).user).toBeUndefined();
    expect(res.headers.getSetCookie().some((c) => c.startsWith("toast-session="))).toBe(true);
  });

  it("GET /logout does not sign out", async () => {
    const res = await run(() => logout.loader());
    expect(res.location).toBe("/home");
  });
});

describe("safeRedirect and currentPath", () => {
  it.each([
    ["/station?page=2#x", "/station?page=2#x"],
    ["/rate/edit/12", "/rate/edit/12"],
    ["//evil.example", "/home"],
    ["/\\evil.example", "/home"],
    ["/%5Cevil.example", "/home"],
    ["https://evil.example", "/home"],
    ["http:/evil.example", "/home"],
    ["/\t/evil.example", "/home"],
    ["javascript:alert(1)", "/home"],
    ["", "/home"],
    ["/auth/login", "/home"],
    ["/logout", "/home"],
  ])("safeRedirect(%j) → %j", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it("currentPath drops the single-fetch suffix and params", () => {
    // Trailing-slash-aware data requests (react-router.config.ts): the root's data is /_.data.
    expect(currentPath(new Request("http://x/_.data"))).toBe("/");
    expect(currentPath(new Request("http://x/station/_.data?index"))).toBe("/station/");
    expect(currentPath(new Request("http://x/station.data?page=2&_routes=a"))).toBe("/station?page=2");
  });
});
