// The session cookie's flags: httpOnly and SameSite=Lax always; in production also
// Secure and the __Host- prefix (pinned to this exact origin, path /, no Domain).
import { afterEach, describe, expect, it, vi } from "vitest";

async function sessionModule(env: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v as string);
  return import("~/lib/session.server");
}

async function setCookieFor(env: Record<string, string | undefined>) {
  const { sessionStorage, setSessionUser } = await sessionModule(env);
  const session = await sessionStorage.getSession();
  setSessionUser(session, { uid: "u", email: "a@b.c", idToken: "id", refreshToken: "r", expiresAt: Date.now() + 3600_000 });
  return sessionStorage.commitSession(session);
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("session cookie", () => {
  it("production: __Host- prefix, Secure, HttpOnly, SameSite=Lax, Path=/, no Domain", async () => {
    const cookie = await setCookieFor({ NODE_ENV: "production", ENCHUFA_LOCAL: "", SESSION_SECRET: "x".repeat(40) });
    expect(cookie).toMatch(/^__Host-enchufa_session=/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it("development and local mode (plain http on 127.0.0.1): HttpOnly and SameSite=Lax, no Secure", async () => {
    for (const env of [{ NODE_ENV: "development" }, { NODE_ENV: "production", ENCHUFA_LOCAL: "1" }]) {
      const cookie = await setCookieFor(env);
      expect(cookie).toMatch(/^enchufa_session=/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).not.toMatch(/; Secure/);
    }
  });

  it("the value is signed: a tampered cookie gives no user", async () => {
    const { sessionStorage } = await sessionModule({ NODE_ENV: "development" });
    const session = await sessionStorage.getSession();
    session.set("user", { uid: "u", email: "a@b.c", idToken: "id", refreshToken: "r", expiresAt: 0 });
    const cookie = (await sessionStorage.commitSession(session)).split(";")[0];
    const [name, value] = cookie.split("=");
    const forged = `${name}=${Buffer.from(JSON.stringify({ user: { uid: "someone-else" } })).toString("base64")}${value.slice(value.lastIndexOf("."))}`;
    expect((await sessionStorage.getSession(forged)).get("user")).toBeUndefined();
  });
});

describe("reading the session cookie", () => {
  const user = { uid: "u", email: "a@b.c", idToken: "id", refreshToken: "r", expiresAt: Date.now() + 3600_000 };

  it("checks a cookie's signature once, yet every request gets its own copy, and a forged cookie is still refused", async () => {
    const { sessionStorage, setSessionUser, getSession } = await sessionModule({ NODE_ENV: "development", SESSION_SECRET: "s".repeat(40) });
    const session = await sessionStorage.getSession();
    setSessionUser(session, user);
    session.set("businessId", "b-1");
    const cookie = (await sessionStorage.commitSession(session)).split(";")[0];
    const request = () => new Request("http://x/", { headers: { Cookie: cookie } });
    const verify = vi.spyOn(crypto.subtle, "verify");
    const first = await getSession(request());
    const second = await getSession(request());
    expect(verify).toHaveBeenCalledTimes(1);
    expect(second.get("user")).toEqual(user);
    // One request's change is not another's.
    first.set("businessId", "b-2");
    first.get("user")!.uid = "changed";
    const third = await getSession(request());
    expect(third.get("businessId")).toBe("b-1");
    expect(third.get("user")!.uid).toBe("u");
    // The same value with another signature is checked, and refused.
    const [name, value] = cookie.split("=");
    const forged = `${name}=${value.replace(/\.[^.]+$/, ".AAAA")}`;
    expect((await getSession(new Request("http://x/", { headers: { Cookie: forged } }))).get("user")).toBeUndefined();
    verify.mockRestore();
  });
});
