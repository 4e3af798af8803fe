// Register (/auth/register) → verification e-mail → email-send.
import { describe, expect, it } from "vitest";
import * as register from "~/routes/auth/register";

import { openSecret } from "~/lib/session.server";
import { APP, args, cookieJar, fake, get, makeContext, post, readSession, run, server, signedInCookie, type Loose, withAuthRouteTests } from "./auth-helpers";

withAuthRouteTests();

const VALID = { email: "nueva@example.com", password: "Clave-Segura-1", confirmPassword: "Clave-Segura-1", terms: "on" };

function submit(fields: Record<string, string>, context = makeContext()) {
  return run<Loose>(() => register.action(args(post("/auth/register", fields), context)));
}

describe("register loader", () => {
  it("shows the form to visitors and sends signed-in users home", async () => {
    expect((await run(() => register.loader(args(get("/auth/register"), makeContext())))).data).toEqual({ invitation: null });
    const account = fake.addAccount("ana@example.com", "Clave-Segura-1");
    const { cookie } = await signedInCookie(account);
    const res = await run(() => register.loader(args(get("/auth/register", cookie), makeContext())));
    expect(res.location).toBe("/home");
  });
});

describe("register action", () => {
  it("checks each field: first failing rule only, passwords not echoed", async () => {
    const res = await submit({ email: "nueva@example.com", password: "corta", confirmPassword: "otra" });
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({
      password: ["La contraseña debe tener al menos 8 caracteres."],
      terms: ["Tenés que aceptar los términos y condiciones para crear tu cuenta."],
    });
    expect(res.data.result.initialValue).toEqual({ email: "nueva@example.com" });
    expect(fake.calls).toHaveLength(0);
  });

  it("says when the passwords differ", async () => {
    const res = await submit({ ...VALID, confirmPassword: "Clave-Segura-2" });
    expect(res.data.result.error).toEqual({ confirmPassword: ["Las contraseñas no coinciden."] });
  });

  it("creates the account, sends the verification e-mail in Spanish with the continue URL, goes to email-send without a session", async () => {
    const res = await submit(VALID);
    expect(res.status).toBe(302);
    expect(res.location).toBe("/auth/email-send");
    expect(fake.called("accounts:signUp")[0].body).toMatchObject({ email: "nueva@example.com", returnSecureToken: true });
    const [send] = fake.called("accounts:sendOobCode");
    expect(send.body).toMatchObject({ requestType: "VERIFY_EMAIL", continueUrl: `${APP}/auth` });
    expect(send.headers.get("x-firebase-locale")).toBe("es-419");
    expect(fake.lastOob("nueva@example.com", "VERIFY_EMAIL")).toBeDefined();

    const { user, pending } = await readSession(cookieJar(res.headers));
    expect(user).toBeUndefined();
    expect(pending).toMatchObject({ email: "nueva@example.com", kind: "verify" });
    expect(openSecret(pending!.sealed)).toMatch(/^refresh-/);
  });

  it("an address that already has an account looks exactly the same (its owner gets a reset e-mail)", async () => {
    fake.addAccount("ana@example.com", "Clave-Vieja-1");
    const existing = await submit({ ...VALID, email: "ana@example.com" });
    const fresh = await submit({ ...VALID, email: "otra@example.com" });
    expect(existing.status).toBe(fresh.status);
    expect(existing.location).toBe(fresh.location);
    const a = await readSession(cookieJar(existing.headers));
    const b = await readSession(cookieJar(fresh.headers));
    expect(Object.keys(a.pending!)).toEqual(Object.keys(b.pending!));
    expect(a.pending!.sealed.length).toBe(b.pending!.sealed.length);
    expect(openSecret(a.pending!.sealed)).toBeUndefined();
    expect(fake.lastOob("ana@example.com", "PASSWORD_RESET")).toBeDefined();
  });

  it("maps a Firebase WEAK_PASSWORD to the password field", async () => {
    server.use(
      ...[
        // A project with a stricter password policy than ours.
        (await import("msw")).http.post(/accounts:signUp/, () =>
          Response.json({ error: { code: 400, message: "WEAK_PASSWORD : Password should be at least 12 characters" } }, { status: 400 }),
        ),
      ],
    );
    const res = await submit(VALID);
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({ password: ["Elegí una contraseña más segura: al menos 8 caracteres, combinando letras y números."] });
  });

  it("is rate-limited per IP (429, Spanish message)", async () => {
    for (let i = 0; i < 10; i++) expect((await submit({ ...VALID, email: `n${i}@example.com` })).status).toBe(302);
    const res = await submit({ ...VALID, email: "n11@example.com" });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBeTruthy();
    expect(res.data.result.error[""][0]).toMatch(/^Demasiados intentos/);
  });
});

describe("register honeypot", () => {
  it("a filled honeypot gets the usual answer and creates nothing", async () => {
    const res = await submit({ ...VALID, [register.HONEYPOT_FIELD]: "https://spam.example" });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/auth/email-send");
    expect(fake.calls).toHaveLength(0);
    expect(fake.accounts.size).toBe(0);
  });

  it("an empty honeypot (people) registers as usual", async () => {
    const res = await submit({ ...VALID, [register.HONEYPOT_FIELD]: "" });
    expect(res.location).toBe("/auth/email-send");
    expect(fake.called("accounts:signUp")).toHaveLength(1);
  });
});

describe("register with the identity provider down", () => {
  it("says so in Spanish (503) and keeps what was typed, without passwords", async () => {
    fake.down = true;
    const res = await submit(VALID);
    expect(res.status).toBe(503);
    expect(res.data.result.error[""][0]).toMatch(/No pudimos comunicarnos con el servicio de identidad/);
    expect(res.data.result.initialValue).toEqual({ email: "nueva@example.com", terms: "on" });
  });
});
