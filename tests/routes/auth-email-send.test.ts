// email-send: where the e-mail went, and "send it again" (rate-limited).
import { describe, expect, it } from "vitest";
import * as emailSend from "~/routes/auth/email-send";
import * as login from "~/routes/auth/login";
import * as resetPassword from "~/routes/auth/reset-password";

import { args, cookieJar, fake, get, makeContext, post, run, type Loose, withAuthRouteTests } from "./auth-helpers";
import { pendingToast } from "~/lib/context";
import { sessionStorage } from "~/lib/session.server";

withAuthRouteTests();

const PASSWORD = "Clave-Segura-1";

/** An unverified login leaves the resend ticket in the cookie. */
async function unverifiedCookie(email = "ana@example.com") {
  fake.addAccount(email, PASSWORD, false);
  const res = await run(() => login.action(args(post("/auth/login", { email, password: PASSWORD }), makeContext())));
  return cookieJar(res.headers);
}

describe("email-send loader", () => {
  it("names the address and the kind of e-mail", async () => {
    const cookie = await unverifiedCookie();
    const res = await run(() => emailSend.loader(args(get("/auth/email-send", cookie), makeContext())));
    expect(res.data).toEqual({ email: "ana@example.com", kind: "verify", joining: null });
    expect(emailSend.afterVerifying(null)).toContain("registrar tu empresa");
  });

  it("after registering through an invitation, the next step is joining that company, not registering one", async () => {
    const session = await sessionStorage.getSession();
    session.set("pending", { email: "invitada@example.com", kind: "verify", sealed: "" });
    session.set("invitation", { sealed: "x", email: "invitada@example.com", businessName: "Cargas del Sur" });
    const cookie = (await sessionStorage.commitSession(session)).split(";")[0];
    const res = await run(() => emailSend.loader(args(get("/auth/email-send", cookie), makeContext())));
    expect(res.data).toEqual({ email: "invitada@example.com", kind: "verify", joining: "Cargas del Sur" });
    const text = emailSend.afterVerifying(res.data.joining);
    expect(text).toBe("Abrí el enlace del correo para verificar tu cuenta. Después vas a poder ingresar y sumarte a Cargas del Sur.");
    expect(text).not.toContain("registrar tu empresa");
  });

  it("without a pending e-mail shows the generic text", async () => {
    const res = await run(() => emailSend.loader(args(get("/auth/email-send"), makeContext())));
    expect(res.data).toEqual({ email: undefined, kind: undefined, joining: null });
  });
});

describe("email-send action (resend)", () => {
  it("resends the verification e-mail with a fresh ID token, then back here with a success toast", async () => {
    const cookie = await unverifiedCookie();
    const before = fake.called("accounts:sendOobCode").length;
    const res = await run(() => emailSend.action(args(post("/auth/email-send", { intent: "resend" }, cookie), makeContext())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/auth/email-send");
    expect(fake.called("token")).toHaveLength(1);
    const sends = fake.called("accounts:sendOobCode");
    expect(sends.length).toBe(before + 1);
    expect(sends.at(-1)!.body.requestType).toBe("VERIFY_EMAIL");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("toast-session="))).toBe(true);
  });

  it("resends a reset link after reset-password", async () => {
    fake.addAccount("ana@example.com", PASSWORD);
    const sent = await run(() => resetPassword.action(args(post("/auth/reset-password", { email: "ana@example.com" }), makeContext())));
    const cookie = cookieJar(sent.headers);
    const res = await run(() => emailSend.action(args(post("/auth/email-send", { intent: "resend" }, cookie), makeContext())));
    expect(res.location).toBe("/auth/email-send");
    expect(fake.called("accounts:sendOobCode").map((c) => c.body.requestType)).toEqual(["PASSWORD_RESET", "PASSWORD_RESET"]);
  });

  it("with nothing pending, asks to log in", async () => {
    const res = await run(() => emailSend.action(args(post("/auth/email-send", { intent: "resend" }), makeContext())));
    expect(res.location).toBe("/auth/login");
  });

  it("answers the same when the account's token no longer works", async () => {
    const cookie = await unverifiedCookie();
    fake.refreshTokens.clear();
    const res = await run(() => emailSend.action(args(post("/auth/email-send", { intent: "resend" }, cookie), makeContext())));
    expect(res.location).toBe("/auth/email-send");
  });

  it("is rate-limited per e-mail: 429 with an error toast (shown without JavaScript too)", async () => {
    const cookie = await unverifiedCookie();
    for (let i = 0; i < 3; i++) {
      expect((await run(() => emailSend.action(args(post("/auth/email-send", { intent: "resend" }, cookie), makeContext())))).status).toBe(302);
    }
    const context = makeContext();
    const res = await run<Loose>(() => emailSend.action(args(post("/auth/email-send", { intent: "resend" }, cookie), context)));
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBeTruthy();
    expect(res.data.error).toMatch(/^Demasiados intentos/);
    expect(pendingToast(context)).toEqual({ type: "error", message: res.data.error });
  });

  it("with JavaScript (single fetch) the 429 toast travels in the flash cookie", async () => {
    const cookie = await unverifiedCookie();
    for (let i = 0; i < 3; i++) await run(() => emailSend.action(args(post("/auth/email-send", { intent: "resend" }, cookie), makeContext())));
    const res = await run<Loose>(() => emailSend.action(args(post("/auth/email-send", { intent: "resend" }, cookie), makeContext(undefined, { isDataRequest: true }))));
    expect(res.status).toBe(429);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("toast-session="))).toBe(true);
  });
});
