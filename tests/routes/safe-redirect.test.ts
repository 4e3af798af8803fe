// Open redirects after sign-in: whatever safeRedirect returns must itself be a same-site path,
// after the URL parser has normalised it (dot segments, encoded dots, backslashes, tabs).
import { describe, expect, it } from "vitest";
import * as login from "~/routes/auth/login";
import { safeRedirect } from "~/lib/auth.server";

import { args, fake, get, makeContext, post, run, signedInCookie, type Loose, withAuthRouteTests } from "./auth-helpers";

withAuthRouteTests();

/** Values that browsers would follow to another host if they came back as a Location. */
const BYPASSES = [
  "//evil.example/x",
  "/\\evil.example/x",
  "/.//evil.example/x",
  "/a/..//evil.example/x",
  "/..//evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "/a/%2e%2e//evil.example",
  "/./\\evil.example",
  "/%2f/evil.example",
  "/%2F%2Fevil.example",
  "/%5cevil.example",
  "/%5C%5Cevil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n//evil.example",
  "\t//evil.example",
  "/%09/evil.example",
  "/%0a/evil.example",
  "https://evil.example/",
  "http:/evil.example",
  "javascript:alert(1)",
  "/auth/login",
  "/auth/../auth/login",
  "/%61uth/login",
  "/logout",
];

/** What a browser does with a Location header relative to the app. */
const followed = (location: string) => new URL(location, "https://enchufa.test/home");

describe("safeRedirect refuses every known bypass", () => {
  it.each(BYPASSES)("%j → the fallback", (value) => {
    expect(safeRedirect(value)).toBe("/home");
    expect(safeRedirect(value, "")).toBe("");
  });

  it.each(["/station?page=2#x", "/rate/edit/12", "/a/../station", "/home"])("keeps a same-site path (%j)", (value) => {
    const result = safeRedirect(value);
    expect(result.startsWith("/") && !result.startsWith("//")).toBe(true);
    expect(followed(result).host).toBe("enchufa.test");
  });
});

describe("the login screen never sends a signed-in user to another host", () => {
  it.each(BYPASSES)("GET /auth/login?redirectTo=%j", async (value) => {
    const account = fake.addAccount("ana@example.com", "Clave-Segura-1");
    const { cookie } = await signedInCookie(account);
    const res = await run(() => login.loader(args(get(`/auth/login?redirectTo=${encodeURIComponent(value)}`, cookie), makeContext())));
    expect(res.status).toBe(302);
    expect(followed(res.location!).host).toBe("enchufa.test");
    expect(res.location).toBe("/home");
  });

  it.each(BYPASSES)("the anonymous form does not carry %j", async (value) => {
    const res = await run<Loose>(() => login.loader(args(get(`/auth/login?redirectTo=${encodeURIComponent(value)}`), makeContext())));
    expect(res.data).toEqual({ redirectTo: undefined });
  });

  it.each(["/.//evil.example/x", "/a/..//evil.example/x", "/%2e//evil.example"])("POST with the right password and redirectTo=%j", async (value) => {
    const account = fake.addAccount("ana@example.com", "Clave-Segura-1");
    const context = makeContext();
    context.api.businesses.set(account.uid, { status: "ACTIVE", businessName: "Cargas del Sur S.A.", cuit: "30712345671" });
    const res = await run(() => login.action(args(post("/auth/login", { email: "ana@example.com", password: "Clave-Segura-1", redirectTo: value }), context)));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/home");
  });
});
