// Login (/auth/login): loader and action against an msw-mocked Identity Toolkit.
import { describe, expect, it, vi } from "vitest";
import * as login from "~/routes/auth/login";
import { resetAllRateLimits } from "~/lib/rate-limit.server";
import { openSecret } from "~/lib/session.server";
import { args, cookieJar, fake, get, makeContext, post, readSession, run, signedInCookie, type Loose, withAuthRouteTests } from "./auth-helpers";

withAuthRouteTests();

const PASSWORD = "Clave-Segura-1";
const BAD_CREDENTIALS = "El correo electrónico o la contraseña no son correctos.";

function submit(fields: Record<string, string>, context = makeContext(), path = "/auth/login") {
  return run<Loose>(() => login.action(args(post(path, fields), context)));
}

describe("login loader", () => {
  it("offers the form with a same-site redirectTo", async () => {
    const res = await run(() => login.loader(args(get("/auth/login?redirectTo=%2Fstation%3Fpage%3D2"), makeContext())));
    expect(res.data).toEqual({ redirectTo: "/station?page=2" });
  });

  it.each(["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/auth/login", "/logout"])(
    "drops an unsafe redirectTo (%s)",
    async (target) => {
      const res = await run(() => login.loader(args(get(`/auth/login?redirectTo=${encodeURIComponent(target)}`), makeContext())));
      expect(res.data).toEqual({ redirectTo: undefined });
    },
  );

  it("sends a signed-in user on", async () => {
    const account = fake.addAccount("ana@example.com", PASSWORD);
    const { cookie } = await signedInCookie(account);
    const res = await run(() => login.loader(args(get("/auth/login?redirectTo=%2Frate", cookie), makeContext())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/rate");
  });
});

describe("login action", () => {
  it("validates on the server with the shared schema: first rule per field, password never echoed", async () => {
    const res = await submit({ email: "no-es-un-correo", password: "x" });
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({ email: ["Ingresá un correo electrónico válido, por ejemplo nombre@empresa.com.ar."] });
    expect(res.data.result.initialValue).toEqual({ email: "no-es-un-correo" });
    expect(fake.calls).toHaveLength(0);

    const empty = await submit({});
    expect(empty.data.result.error).toEqual({ email: ["Ingresá tu correo electrónico."], password: ["Ingresá tu contraseña."] });
  });

  it("signs a verified user in: session cookie, then login-company when there is no company", async () => {
    fake.addAccount("ana@example.com", PASSWORD);
    const context = makeContext();
    const res = await submit({ email: " Ana@Example.com ", password: PASSWORD }, context);
    expect(res.status).toBe(302);
    expect(res.location).toBe("/auth/login-company");
    const { user, pending } = await readSession(cookieJar(res.headers));
    expect(user).toMatchObject({ email: "ana@example.com", uid: "uid-1" });
    expect(user!.expiresAt).toBeGreaterThan(Date.now() + 55 * 60 * 1000);
    expect(pending).toBeUndefined();
    // The Business API was asked with the new token.
    // The sign-in into the company is recorded (last sign-in, the default company).
    expect(context.api.requests[0]).toMatchObject({ method: "POST", path: "/Account/SignIn" });
    expect(context.api.requests[0].authorization).toBe(`Bearer ${user!.idToken}`);
    // The cookie is httpOnly and SameSite=Lax.
    const setCookie = res.headers.getSetCookie()[0];
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
  });

  it("honours a same-site redirectTo for an active company, and carries it through login-company", async () => {
    const account = fake.addAccount("ana@example.com", PASSWORD);
    const context = makeContext();
    let res = await submit({ email: "ana@example.com", password: PASSWORD, redirectTo: "/rate/new" }, context);
    expect(res.location).toBe("/auth/login-company?redirectTo=%2Frate%2Fnew");

    context.api.businesses.set(account.uid, { status: "ACTIVE", businessName: "Cargas del Sur", cuit: "30712345671" });
    res = await submit({ email: "ana@example.com", password: PASSWORD, redirectTo: "/rate/new" }, makeContext(context.api));
    expect(res.location).toBe("/rate/new");

    res = await submit({ email: "ana@example.com", password: PASSWORD, redirectTo: "https://evil.example/" }, makeContext(context.api));
    expect(res.location).toBe("/home");
  });

  it.each(["PENDING", "REJECTED", "SUSPENDED"] as const)("sends a %s company to verify-company", async (status) => {
    const account = fake.addAccount("ana@example.com", PASSWORD);
    const context = makeContext();
    context.api.businesses.set(account.uid, { status, businessName: "Cargas del Sur", cuit: "30712345671" });
    const res = await submit({ email: "ana@example.com", password: PASSWORD, redirectTo: "/rate" }, context);
    expect(res.location).toBe("/auth/verify-company");
  });

  it("still signs in when the Business API is down (the app guard routes later)", async () => {
    fake.addAccount("ana@example.com", PASSWORD);
    const api = makeContext().api;
    api.failWith = 503;
    const res = await submit({ email: "ana@example.com", password: PASSWORD }, makeContext(api));
    expect(res.location).toBe("/home");
    expect((await readSession(cookieJar(res.headers))).user).toBeDefined();
  });

  describe("never reveals whether the e-mail exists", () => {
    it.each([
      ["legacy codes", "legacy"],
      ["INVALID_LOGIN_CREDENTIALS", "protected"],
    ] as const)("same answer for an unknown e-mail and a wrong password (%s)", async (_label, mode) => {
      fake.errorMode = mode;
      fake.addAccount("ana@example.com", PASSWORD);
      const wrongPassword = await submit({ email: "ana@example.com", password: "otra-clave" });
      const unknownEmail = await submit({ email: "nadie@example.com", password: "otra-clave" });
      for (const res of [wrongPassword, unknownEmail]) {
        expect(res.status).toBe(401);
        expect(res.data.result.error).toEqual({ "": [BAD_CREDENTIALS] });
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    });

    it("a disabled account answers like a wrong password", async () => {
      fake.addAccount("ana@example.com", PASSWORD).disabled = true;
      const res = await submit({ email: "ana@example.com", password: PASSWORD });
      expect(res.data.result.error).toEqual({ "": [BAD_CREDENTIALS] });
    });
  });

  it("an unverified e-mail: the exact info message, no session, a sealed resend ticket", async () => {
    fake.addAccount("ana@example.com", PASSWORD, false);
    const res = await submit({ email: "ana@example.com", password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.data.unverified).toBe(true);
    expect(login.UNVERIFIED_MESSAGE).toBe("Por favor, verifique su casilla para validar su correo");
    const { user, pending } = await readSession(cookieJar(res.headers));
    expect(user).toBeUndefined();
    expect(pending).toMatchObject({ email: "ana@example.com", kind: "verify" });
    expect(openSecret(pending!.sealed)).toMatch(/^refresh-uid-1-/);
    // Not readable in the cookie itself.
    expect(decodeURIComponent(cookieJar(res.headers))).not.toContain("refresh-uid");
  });

  it("a signed-in user who logs in as an unverified one loses the old session", async () => {
    const verified = fake.addAccount("ana@example.com", PASSWORD);
    fake.addAccount("beto@example.com", PASSWORD, false);
    const { cookie } = await signedInCookie(verified);
    const res = await run<Loose>(() => login.action(args(post("/auth/login", { email: "beto@example.com", password: PASSWORD }, cookie), makeContext())));
    expect((await readSession(cookieJar(res.headers, cookie))).user).toBeUndefined();
  });

  it("maps an unreachable identity service to a Spanish form error (503)", async () => {
    fake.down = true;
    const res = await submit({ email: "ana@example.com", password: PASSWORD });
    expect(res.status).toBe(503);
    expect(res.data.result.error[""][0]).toMatch(/No pudimos comunicarnos con el servicio de identidad/);
  });

  describe("rate limits (failed attempts)", () => {
    const attacker = () => makeContext(undefined, { clientIp: "198.51.100.66" });
    const owner = () => makeContext(undefined, { clientIp: "203.0.113.7" });

    it("an attacker who knows the e-mail cannot lock the owner out: the owner signs in from their own address", async () => {
      fake.addAccount("ana@example.com", PASSWORD);
      for (let i = 0; i < 40; i++) await submit({ email: "ana@example.com", password: `mal-${i}` }, attacker());
      // The attacker's address is slowed down, even with the right password.
      expect((await submit({ email: "ana@example.com", password: PASSWORD }, attacker())).status).toBe(429);
      // The owner, at their own address, is not.
      const res = await submit({ email: "ana@example.com", password: PASSWORD }, owner());
      expect(res.status).toBe(302);
    });

    it("per account and address: the 6th failure within a minute gets 429 with Retry-After; the waits grow with more failures", async () => {
      fake.addAccount("ana@example.com", PASSWORD);
      for (let i = 0; i < 5; i++) expect((await submit({ email: "ana@example.com", password: `mal-${i}` }, attacker())).status).toBe(401);
      const res = await submit({ email: "ana@example.com", password: PASSWORD }, attacker());
      expect(res.status).toBe(429);
      const first = Number(res.headers.get("Retry-After"));
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThanOrEqual(120); // within two one-minute windows
      expect(res.data.result.error[""][0]).toMatch(/^Demasiados intentos\. Esperá \d+ minutos? y probá de nuevo\.$/);
      expect(fake.called("accounts:signInWithPassword")).toHaveLength(5);

      // Past the minute tier, ten failures in 15 minutes make the wait longer.
      await resetAllRateLimits();
      const { limiters } = await import("~/lib/rate-limit.server");
      for (let i = 0; i < 10; i++) await limiters.loginAccountAddress[1].count("198.51.100.66 ana@example.com");
      const later = await submit({ email: "ana@example.com", password: PASSWORD }, attacker());
      expect(later.status).toBe(429);
      expect(Number(later.headers.get("Retry-After"))).toBeGreaterThan(first);
    });

    it("per address: 30 failures across accounts block that address, not others", async () => {
      for (let i = 0; i < 30; i++) await submit({ email: `x${i}@example.com`, password: "mal" });
      expect((await submit({ email: "otro@example.com", password: "mal" })).status).toBe(429);
      const elsewhere = makeContext(undefined, { clientIp: "198.51.100.1" });
      expect((await submit({ email: "otro@example.com", password: "mal" }, elsewhere)).status).toBe(401);
    });

    it("a successful login clears the account's failures from that address", async () => {
      fake.addAccount("ana@example.com", PASSWORD);
      for (let i = 0; i < 4; i++) await submit({ email: "ana@example.com", password: "mal" });
      expect((await submit({ email: "ana@example.com", password: PASSWORD })).status).toBe(302);
      for (let i = 0; i < 4; i++) expect((await submit({ email: "ana@example.com", password: "mal" })).status).toBe(401);
    });

    it("the page and its .data answer carry Retry-After (the route passes it on)", () => {
      const headers = new Headers(
        login.headers({ actionHeaders: new Headers({ "Retry-After": "42" }), loaderHeaders: new Headers(), parentHeaders: new Headers(), errorHeaders: undefined }),
      );
      expect(headers.get("Retry-After")).toBe("42");
    });
  });

  it("never logs passwords or tokens", async () => {
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m));
    fake.addAccount("ana@example.com", PASSWORD);
    fake.addAccount("beto@example.com", PASSWORD, false);
    await submit({ email: "ana@example.com", password: PASSWORD });
    await submit({ email: "ana@example.com", password: "mal" });
    await submit({ email: "beto@example.com", password: PASSWORD });
    const logged = spies.flatMap((s) => s.mock.calls.flat()).map(String).join("\n");
    expect(logged).not.toContain(PASSWORD);
    expect(logged).not.toMatch(/refresh-uid|eyJ/);
    spies.forEach((s) => s.mockRestore());
  });
});
