// verify-email, reset-password and confirm-password: the e-mail action codes.
import { describe, expect, it } from "vitest";
import * as verifyEmail from "~/routes/auth/verify-email";
import * as resetPassword from "~/routes/auth/reset-password";
import * as confirmPassword from "~/routes/auth/confirm-password";
import * as login from "~/routes/auth/login";
import * as register from "~/routes/auth/register";
import { authEntryTarget } from "~/routes/auth/index";

import { args, cookieJar, fake, get, makeContext, post, readSession, run, type Loose, withAuthRouteTests } from "./auth-helpers";

withAuthRouteTests();

const PASSWORD = "Clave-Segura-1";

describe("Firebase action links (/auth?mode=…)", () => {
  it("route to verify-email and confirm-password with the code", () => {
    expect(authEntryTarget(new URL("http://x/auth?mode=verifyEmail&oobCode=abc"))).toBe("/auth/verify-email?mode=verifyEmail&oobCode=abc");
    expect(authEntryTarget(new URL("http://x/auth?mode=resetPassword&oobCode=abc"))).toBe("/auth/confirm-password?mode=resetPassword&oobCode=abc");
    expect(authEntryTarget(new URL("http://x/auth"))).toBe("/auth/login");
  });
});

describe("verify-email", () => {
  it("register → code → verified: the pending resend ticket is cleared, login works", async () => {
    const reg = await run(() =>
      register.action(args(post("/auth/register", { email: "nueva@example.com", password: PASSWORD, confirmPassword: PASSWORD, terms: "on" }), makeContext())),
    );
    const cookie = cookieJar(reg.headers);
    const code = fake.lastOob("nueva@example.com", "VERIFY_EMAIL")!;
    const res = await run<Loose>(() => verifyEmail.loader(args(get(`/auth/verify-email?mode=verifyEmail&oobCode=${code}`, cookie), makeContext())));
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ verified: true, message: verifyEmail.VERIFIED_MESSAGE });
    expect((await readSession(cookieJar(res.headers, cookie))).pending).toBeUndefined();

    const signIn = await run(() => login.action(args(post("/auth/login", { email: "nueva@example.com", password: PASSWORD }), makeContext())));
    expect(signIn.location).toBe("/auth/login-company");
  });

  it("a used or unknown code gets a clear message (400)", async () => {
    const res = await run<Loose>(() => verifyEmail.loader(args(get("/auth/verify-email?oobCode=usado"), makeContext())));
    expect(res.status).toBe(400);
    expect(res.data.verified).toBe(false);
    expect(res.data.message).toMatch(/venció o ya fue usado/);
  });

  it("no code at all", async () => {
    const res = await run<Loose>(() => verifyEmail.loader(args(get("/auth/verify-email"), makeContext())));
    expect(res.status).toBe(400);
    expect(res.data.verified).toBe(false);
  });

  it("never re-applies the code on revalidation", () => {
    expect(verifyEmail.shouldRevalidate()).toBe(false);
  });
});

describe("reset-password", () => {
  it("same answer whether or not the account exists", async () => {
    fake.addAccount("ana@example.com", PASSWORD);
    const known = await run(() => resetPassword.action(args(post("/auth/reset-password", { email: "ana@example.com" }), makeContext())));
    const unknown = await run(() => resetPassword.action(args(post("/auth/reset-password", { email: "nadie@example.com" }), makeContext())));
    for (const res of [known, unknown]) {
      expect(res.status).toBe(302);
      expect(res.location).toBe("/auth/email-send");
    }
    expect((await readSession(cookieJar(known.headers))).pending).toMatchObject({ email: "ana@example.com", kind: "reset" });
    expect((await readSession(cookieJar(unknown.headers))).pending).toMatchObject({ email: "nadie@example.com", kind: "reset" });
    expect(fake.lastOob("ana@example.com", "PASSWORD_RESET")).toBeDefined();
  });

  it("validates the address", async () => {
    const res = await run<Loose>(() => resetPassword.action(args(post("/auth/reset-password", { email: "" }), makeContext())));
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({ email: ["Ingresá tu correo electrónico."] });
  });

  it("is rate-limited per e-mail (3 per 15 minutes) and per IP", async () => {
    for (let i = 0; i < 3; i++) await run(() => resetPassword.action(args(post("/auth/reset-password", { email: "ana@example.com" }), makeContext())));
    const res = await run<Loose>(() => resetPassword.action(args(post("/auth/reset-password", { email: "ana@example.com" }), makeContext())));
    expect(res.status).toBe(429);
    expect(res.data.result.error[""][0]).toMatch(/^Demasiados intentos/);

    for (let i = 0; i < 7; i++) await run(() => resetPassword.action(args(post("/auth/reset-password", { email: `x${i}@example.com` }), makeContext())));
    const byIp = await run<Loose>(() => resetPassword.action(args(post("/auth/reset-password", { email: "otra@example.com" }), makeContext())));
    expect(byIp.status).toBe(429);
  });

  it("an unreachable identity service is said (it reveals nothing about the address)", async () => {
    fake.down = true;
    const res = await run<Loose>(() => resetPassword.action(args(post("/auth/reset-password", { email: "ana@example.com" }), makeContext())));
    expect(res.status).toBe(503);
  });
});

describe("confirm-password", () => {
  it("loader checks the code without using it", async () => {
    fake.addAccount("ana@example.com", PASSWORD);
    const code = fake.issueOob("ana@example.com", "PASSWORD_RESET");
    const res = await run<Loose>(() => confirmPassword.loader(args(get(`/auth/confirm-password?mode=resetPassword&oobCode=${code}`), makeContext())));
    expect(res.data).toEqual({ valid: true, oobCode: code, email: "ana@example.com" });
    expect(fake.oobCodes.has(code)).toBe(true);
  });

  it.each(["usado", "expired-code"])("an invalid or expired code (%s): clear message", async (code) => {
    const res = await run<Loose>(() => confirmPassword.loader(args(get(`/auth/confirm-password?oobCode=${code}`), makeContext())));
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ valid: false, message: confirmPassword.EXPIRED_MESSAGE });
  });

  it("reset → confirm → login with the new password (and the old one fails)", async () => {
    fake.addAccount("ana@example.com", PASSWORD);
    await run(() => resetPassword.action(args(post("/auth/reset-password", { email: "ana@example.com" }), makeContext())));
    const code = fake.lastOob("ana@example.com", "PASSWORD_RESET")!;
    const res = await run(() =>
      confirmPassword.action(
        args(post(`/auth/confirm-password?oobCode=${code}`, { oobCode: code, password: "Nueva-Clave-9", confirmPassword: "Nueva-Clave-9" }), makeContext()),
      ),
    );
    expect(res.status).toBe(302);
    expect(res.location).toBe("/auth/login");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("toast-session="))).toBe(true);

    const oldOne = await run(() => login.action(args(post("/auth/login", { email: "ana@example.com", password: PASSWORD }), makeContext())));
    expect(oldOne.status).toBe(401);
    const newOne = await run(() => login.action(args(post("/auth/login", { email: "ana@example.com", password: "Nueva-Clave-9" }), makeContext())));
    expect(newOne.status).toBe(302);
  });

  it("validates: at least 8 characters, both equal; passwords not echoed", async () => {
    const res = await run<Loose>(() => confirmPassword.action(args(post("/auth/confirm-password", { oobCode: "c", password: "corta", confirmPassword: "corta" }), makeContext())));
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({ password: ["La contraseña debe tener al menos 8 caracteres."] });
    expect(res.data.result.initialValue).toEqual({ oobCode: "c" });

    const differ = await run<Loose>(() =>
      confirmPassword.action(args(post("/auth/confirm-password", { oobCode: "c", password: "Nueva-Clave-9", confirmPassword: "Nueva-Clave-8" }), makeContext())),
    );
    expect(differ.data.result.error).toEqual({ confirmPassword: ["Las contraseñas no coinciden."] });
  });

  it("a code used meanwhile: expired, with the link to ask again", async () => {
    const res = await run<Loose>(() =>
      confirmPassword.action(args(post("/auth/confirm-password", { oobCode: "usado", password: "Nueva-Clave-9", confirmPassword: "Nueva-Clave-9" }), makeContext())),
    );
    expect(res.status).toBe(400);
    expect(res.data.expired).toBe(true);
    expect(res.data.result.error).toEqual({ "": [confirmPassword.EXPIRED_MESSAGE] });
  });
});
