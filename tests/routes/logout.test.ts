// Sign-out ends the sign-in on the server (ADR 0027): a copy of the cookie taken before signing
// out no longer opens the dashboard, and the account's Firebase refresh tokens are revoked when
// no other sign-in is left; "Cerrar sesión en todos los dispositivos" ends every sign-in.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as layout from "~/routes/app/layout";
import * as logout from "~/routes/logout";
import { resetAllRateLimits } from "~/lib/rate-limit.server";
import { getWebSessionStore } from "#infra/web-sessions";
import { args, cookieJar, fake, FakeBusinessApi, get, makeContext, post, readSession, resetFake, run, server, signedInCookie } from "./auth-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
beforeEach(async () => {
  resetFake();
  await resetAllRateLimits();
  await getWebSessionStore().clear();
});

async function operator() {
  const account = fake.addAccount("ana@example.com", "Clave-Segura-1");
  const api = new FakeBusinessApi();
  api.businesses.set(account.uid, { status: "ACTIVE", businessName: "Cargas del Sur S.A.", cuit: "30712345671" });
  return { account, api };
}

const home = (cookie: string, api: FakeBusinessApi) => run(() => layout.loader(args(get("/home", cookie), makeContext(api))));

describe("POST /logout", () => {
  it("a cookie copied before signing out no longer opens the dashboard", async () => {
    const { account, api } = await operator();
    const { cookie } = await signedInCookie(account);
    expect((await home(cookie, api)).status).toBe(200);

    const res = await run(() => logout.action(args(post("/logout", {}, cookie), makeContext(api))));
    expect(res.location).toBe("/auth/login");
    expect((await readSession(cookieJar(res.headers, cookie))).user).toBeUndefined();

    // The copy, replayed: signed out, sent to login, its cookie cleared.
    const replay = await home(cookie, api);
    expect(replay.status).toBe(302);
    expect(replay.location).toBe("/auth/login");
    expect((await readSession(cookieJar(replay.headers, cookie))).user).toBeUndefined();
  });

  it("an expired token in the copy is not refreshed with its refresh token either", async () => {
    const { account, api } = await operator();
    const { cookie } = await signedInCookie(account, { ttlMs: 60_000 });
    await run(() => logout.action(args(post("/logout", {}, cookie), makeContext(api))));
    const replay = await home(cookie, api);
    expect(replay.location).toBe("/auth/login");
    expect(fake.called("token")).toHaveLength(0);
  });

  it("the last sign-in of the account revokes its Firebase refresh tokens; with another one left, only this one ends", async () => {
    const { account, api } = await operator();
    const revokeRefreshTokens = vi.fn(async () => {});
    const phone = await signedInCookie(account);
    const laptop = await signedInCookie(account);

    await run(() => logout.action(args(post("/logout", {}, laptop.cookie), makeContext(api, { revokeRefreshTokens }))));
    expect(revokeRefreshTokens).not.toHaveBeenCalled();
    expect((await home(phone.cookie, api)).status).toBe(200);
    expect((await home(laptop.cookie, api)).location).toBe("/auth/login");

    await run(() => logout.action(args(post("/logout", {}, phone.cookie), makeContext(api, { revokeRefreshTokens }))));
    expect(revokeRefreshTokens).toHaveBeenCalledWith(account.uid);
  });

  it("«Cerrar sesión en todos los dispositivos» ends every sign-in of the account and revokes its tokens, with a toast", async () => {
    const { account, api } = await operator();
    const other = fake.addAccount("beto@example.com", "Clave-Segura-1");
    api.businesses.set(other.uid, { status: "ACTIVE", businessName: "Beto S.R.L.", cuit: "30712345671" });
    const revokeRefreshTokens = vi.fn(async () => {});
    const phone = await signedInCookie(account);
    const laptop = await signedInCookie(account);
    const someoneElse = await signedInCookie(other);

    const res = await run(() => logout.action(args(post("/logout", { scope: "all" }, laptop.cookie), makeContext(api, { revokeRefreshTokens }))));
    expect(res.location).toBe("/auth/login");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("toast-session="))).toBe(true);
    expect(revokeRefreshTokens).toHaveBeenCalledWith(account.uid);
    expect((await home(phone.cookie, api)).location).toBe("/auth/login");
    expect((await home(laptop.cookie, api)).location).toBe("/auth/login");
    // Another account's sign-in is not touched.
    expect((await home(someoneElse.cookie, api)).status).toBe(200);
  });

  it("a stale copy cannot sign the account out everywhere nor revoke its tokens", async () => {
    const { account, api } = await operator();
    const revokeRefreshTokens = vi.fn(async () => {});
    const stale = await signedInCookie(account);
    await run(() => logout.action(args(post("/logout", {}, stale.cookie), makeContext(api))));
    const current = await signedInCookie(account);
    await run(() => logout.action(args(post("/logout", { scope: "all" }, stale.cookie), makeContext(api, { revokeRefreshTokens }))));
    expect(revokeRefreshTokens).not.toHaveBeenCalled();
    expect((await home(current.cookie, api)).status).toBe(200);
  });

  it("a revocation that fails does not stop the sign-out", async () => {
    const { account, api } = await operator();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { cookie } = await signedInCookie(account);
    const res = await run(() => logout.action(args(post("/logout", {}, cookie), makeContext(api, { revokeRefreshTokens: async () => Promise.reject(new Error("sin red")) }))));
    expect(res.location).toBe("/auth/login");
    expect((await home(cookie, api)).location).toBe("/auth/login");
    warn.mockRestore();
  });
});
