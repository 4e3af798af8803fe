// login-company and verify-company: the company behind a verified account.
import { describe, expect, it } from "vitest";
import * as loginCompany from "~/routes/auth/login-company";
import * as verifyCompany from "~/routes/auth/verify-company";

import { args, cookieJar, fake, FakeBusinessApi, get, makeContext, post, readSession, resetFake, run, signedInCookie, type Loose, withAuthRouteTests } from "./auth-helpers";

withAuthRouteTests();

const COMPANY = { businessName: "Cargas del Sur S.A.", cuit: "30-71234567-1", businessAddress: "Av. Corrientes 1234, CABA", phoneNumber: "11 4321-5678" };

async function signedIn(opts: { ttlMs?: number } = {}) {
  const account = fake.addAccount("ana@example.com", "Clave-Segura-1");
  const { cookie, user } = await signedInCookie(account, opts);
  return { account, cookie, user };
}

describe("login-company loader", () => {
  it("no session → login, coming back here", async () => {
    const res = await run(() => loginCompany.loader(args(get("/auth/login-company"), makeContext())));
    // Auth screens are never a redirectTo: after login the company state decides anyway.
    expect(res.location).toBe("/auth/login");
  });

  it("a verified account without a company gets the form", async () => {
    const { cookie } = await signedIn();
    const ok = await run(() => loginCompany.loader(args(get("/auth/login-company?redirectTo=%2Frate", cookie), makeContext())));
    expect(ok.data).toEqual({ email: "ana@example.com", redirectTo: "/rate" });
  });

  it("a company already registered goes on: ACTIVE → redirectTo, otherwise verify-company", async () => {
    const { account, cookie } = await signedIn();
    const api = new FakeBusinessApi();
    api.businesses.set(account.uid, { status: "ACTIVE", businessName: "X", cuit: "30712345671" });
    expect((await run(() => loginCompany.loader(args(get("/auth/login-company?redirectTo=%2Frate", cookie), makeContext(api))))).location).toBe("/rate");
    api.businesses.set(account.uid, { status: "PENDING", businessName: "X", cuit: "30712345671" });
    expect((await run(() => loginCompany.loader(args(get("/auth/login-company", cookie), makeContext(api))))).location).toBe("/auth/verify-company");
  });

  it("refreshes a token close to expiry and sends the new cookie", async () => {
    const { cookie, user } = await signedIn({ ttlMs: 2 * 60 * 1000 });
    const res = await run(() => loginCompany.loader(args(get("/auth/login-company", cookie), makeContext())));
    expect(res.status).toBe(200);
    const refreshed = (await readSession(cookieJar(res.headers, cookie))).user!;
    expect(refreshed.idToken).not.toBe(user.idToken);
    expect(refreshed.expiresAt).toBeGreaterThan(Date.now() + 55 * 60 * 1000);
  });
});

describe("login-company action", () => {
  it("validates with the shared schema (CUIT check digit, phone, address)", async () => {
    const { cookie } = await signedIn();
    const context = makeContext();
    const res = await run<Loose>(() =>
      loginCompany.action(args(post("/auth/login-company", { businessName: "", cuit: "20-12345678-3", businessAddress: "x", phoneNumber: "abc" }, cookie), context)),
    );
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({
      businessName: ["Ingresá la razón social."],
      cuit: ["El dígito verificador del CUIT no es correcto. Revisá el número."],
      businessAddress: ["Ingresá el domicilio completo (calle, número y localidad)."],
      phoneNumber: ["Ingresá un teléfono válido, con código de área (por ejemplo 11 4321-5678)."],
    });
    expect(context.api.requests).toHaveLength(0);
  });

  it("registers the company with the CUIT as 11 digits; local mode (ACTIVE) → home with a toast", async () => {
    const { cookie, user } = await signedIn();
    const context = makeContext();
    const res = await run(() => loginCompany.action(args(post("/auth/login-company", COMPANY, cookie), context)));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/home");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("toast-session="))).toBe(true);
    const created = context.api.requests.find((r) => r.method === "POST")!;
    expect(created.path).toBe("/Account/Business");
    expect(created.authorization).toBe(`Bearer ${user.idToken}`);
    expect(created.body).toEqual({ ...COMPANY, cuit: "30712345671" });
  });

  it("plain digits are accepted too, and redirectTo is honoured", async () => {
    const { cookie } = await signedIn();
    const res = await run(() => loginCompany.action(args(post("/auth/login-company", { ...COMPANY, cuit: "30712345671", redirectTo: "/station/new" }, cookie), makeContext())));
    expect(res.location).toBe("/station/new");
  });

  it("without auto-approval → verify-company", async () => {
    const { cookie } = await signedIn();
    const api = new FakeBusinessApi();
    api.autoApprove = false;
    const res = await run(() => loginCompany.action(args(post("/auth/login-company", COMPANY, cookie), makeContext(api))));
    expect(res.location).toBe("/auth/verify-company");
  });

  it("a CUIT already registered: the same redirect, toast and pending screen as a fresh registration", async () => {
    async function register(cuitTaken: boolean) {
      resetFake();
      const { account, cookie } = await signedIn();
      const api = new FakeBusinessApi();
      api.autoApprove = false;
      if (cuitTaken) api.businesses.set("someone-else", { status: "ACTIVE", businessName: "Otra", cuit: "30712345671" });
      const res = await run(() => loginCompany.action(args(post("/auth/login-company", COMPANY, cookie), makeContext(api))));
      const jar = cookieJar(res.headers, cookie);
      const toast = res.headers.getSetCookie().some((c) => c.startsWith("toast-session="));
      const next = await run(() => verifyCompany.loader(args(get("/auth/verify-company", jar), makeContext(api))));
      const back = await run(() => loginCompany.loader(args(get("/auth/login-company", jar), makeContext(api))));
      return { account, api, shown: { status: res.status, location: res.location, toast, next: next.data, back: back.location } };
    }
    const fresh = await register(false);
    const taken = await register(true);
    expect(taken.shown).toEqual(fresh.shown);
    expect(taken.shown).toMatchObject({ status: 302, location: "/auth/verify-company", toast: true, back: "/auth/verify-company" });
    expect(taken.shown.next).toEqual({ status: "PENDING", businessName: COMPANY.businessName, email: "ana@example.com" });
    expect(taken.api.businesses.has(taken.account.uid)).toBe(false);
    expect(loginCompany.REGISTRATION_RECEIVED_MESSAGE).toBe("Recibimos tu solicitud. Te avisamos cuando la revisemos.");
  });

  it("an API failure without field errors becomes a form error", async () => {
    const { cookie } = await signedIn();
    const api = new FakeBusinessApi();
    api.failWith = 500;
    // The session check itself does not call the API; the POST fails.
    const res = await run<Loose>(() => loginCompany.action(args(post("/auth/login-company", COMPANY, cookie), makeContext(api))));
    expect(res.status).toBe(500);
    expect(res.data.result.error).toEqual({ "": ["Servicio no disponible."] });
  });

  it("no session → login", async () => {
    const res = await run(() => loginCompany.action(args(post("/auth/login-company", COMPANY), makeContext())));
    expect(res.location).toBe("/auth/login");
  });
});

describe("verify-company loader", () => {
  it.each(["PENDING", "REJECTED", "SUSPENDED"] as const)("explains a %s company", async (status) => {
    const { account, cookie } = await signedIn();
    const api = new FakeBusinessApi();
    api.businesses.set(account.uid, { status, businessName: "Cargas del Sur S.A.", cuit: "30712345671" });
    const res = await run(() => verifyCompany.loader(args(get("/auth/verify-company", cookie), makeContext(api))));
    expect(res.data).toEqual({ status, businessName: "Cargas del Sur S.A.", email: "ana@example.com" });
  });

  it("no company → login-company; ACTIVE → home; no session → login", async () => {
    const { account, cookie } = await signedIn();
    const api = new FakeBusinessApi();
    expect((await run(() => verifyCompany.loader(args(get("/auth/verify-company", cookie), makeContext(api))))).location).toBe("/auth/login-company");
    api.businesses.set(account.uid, { status: "ACTIVE", businessName: "X", cuit: "30712345671" });
    expect((await run(() => verifyCompany.loader(args(get("/auth/verify-company", cookie), makeContext(api))))).location).toBe("/home");
    expect((await run(() => verifyCompany.loader(args(get("/auth/verify-company"), makeContext(api))))).location).toMatch(/^\/auth\/login/);
  });

  it("a token the API refuses ends the session", async () => {
    const { cookie } = await signedIn();
    const api = new FakeBusinessApi();
    api.fetch = async () => Response.json({ title: "Sesión inválida o vencida.", status: 401 }, { status: 401 });
    const res = await run(() => verifyCompany.loader(args(get("/auth/verify-company", cookie), makeContext(api))));
    expect(res.location).toMatch(/^\/auth\/login/);
    expect((await readSession(cookieJar(res.headers, cookie))).user).toBeUndefined();
  });
});
