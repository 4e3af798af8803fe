// Support for the auth route tests: a fake load context, an in-memory Identity Toolkit served
// by msw at http://identity.test, a fake Business API for /Account/Business, and helpers that
// call loaders/actions with real Requests and read what they answer.
import type { Params, RouterContextProvider } from "react-router";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { resetAllRateLimits } from "~/lib/rate-limit.server";
import { createRequestContext, type AppContext, type VerifiedIdToken } from "~/lib/context";
import { sessionStorage, startWebSession, type SessionUser } from "~/lib/session.server";

export const IDENTITY_ORIGIN = "http://identity.test";
export const TOOLKIT = `${IDENTITY_ORIGIN}/identitytoolkit.googleapis.com`;
export const SECURE_TOKEN = `${IDENTITY_ORIGIN}/securetoken.googleapis.com`;
export const APP = "http://app.test";
export const API_BASE = "http://api.test/api";

// ---------------------------------------------------------------------------------------------
// Unsigned test ID tokens (the fake verifyIdToken reads them back).

export function makeIdToken(claims: { uid: string; email: string; email_verified: boolean; exp?: number }): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const exp = claims.exp ?? Math.floor(Date.now() / 1000) + 3600;
  return `${enc({ alg: "none" })}.${enc({ user_id: claims.uid, sub: claims.uid, email: claims.email, email_verified: claims.email_verified, exp })}.`;
}

export async function fakeVerifyIdToken(idToken: string): Promise<VerifiedIdToken> {
  const [, payload] = idToken.split(".");
  if (!payload) throw Object.assign(new Error("bad token"), { code: "auth/argument-error" });
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { sub: string; email: string; email_verified: boolean; exp: number };
  if (claims.exp * 1000 < Date.now()) throw Object.assign(new Error("expired"), { code: "auth/id-token-expired" });
  return { uid: claims.sub, email: claims.email, email_verified: claims.email_verified };
}

// ---------------------------------------------------------------------------------------------
// An in-memory Identity Toolkit.

interface Account {
  uid: string;
  email: string;
  password: string;
  emailVerified: boolean;
  disabled?: boolean;
}

export interface RecordedCall {
  method: string;
  body: Record<string, unknown>;
  headers: Headers;
}

export class FakeIdentity {
  accounts = new Map<string, Account>();
  oobCodes = new Map<string, { email: string; type: "VERIFY_EMAIL" | "PASSWORD_RESET" }>();
  refreshTokens = new Map<string, string>();
  calls: RecordedCall[] = [];
  /** "legacy": EMAIL_NOT_FOUND / INVALID_PASSWORD; "protected": INVALID_LOGIN_CREDENTIALS (enumeration protection on). */
  errorMode: "legacy" | "protected" = "legacy";
  /** Make every call fail at the network level. */
  down = false;
  private seq = 0;

  reset() {
    this.accounts.clear();
    this.oobCodes.clear();
    this.refreshTokens.clear();
    this.calls = [];
    this.errorMode = "legacy";
    this.down = false;
    this.seq = 0;
  }

  addAccount(email: string, password: string, emailVerified = true): Account {
    const account = { uid: `uid-${++this.seq}`, email: email.toLowerCase(), password, emailVerified };
    this.accounts.set(account.email, account);
    return account;
  }

  issueOob(email: string, type: "VERIFY_EMAIL" | "PASSWORD_RESET"): string {
    const code = `oob-${type}-${++this.seq}`;
    this.oobCodes.set(code, { email: email.toLowerCase(), type });
    return code;
  }

  lastOob(email: string, type: "VERIFY_EMAIL" | "PASSWORD_RESET"): string | undefined {
    return [...this.oobCodes.entries()].reverse().find(([, v]) => v.email === email.toLowerCase() && v.type === type)?.[0];
  }

  called(method: string) {
    return this.calls.filter((c) => c.method === method);
  }

  tokensFor(account: Account, expiresIn = 3600) {
    const refreshToken = `refresh-${account.uid}-${++this.seq}`;
    this.refreshTokens.set(refreshToken, account.email);
    return {
      localId: account.uid,
      email: account.email,
      idToken: makeIdToken({ uid: account.uid, email: account.email, email_verified: account.emailVerified }),
      refreshToken,
      expiresIn: String(expiresIn),
    };
  }

  private error(message: string, status = 400) {
    return HttpResponse.json({ error: { code: status, message, errors: [{ message, reason: "invalid", domain: "global" }] } }, { status });
  }

  private accountFromIdToken(idToken: unknown): Account | undefined {
    if (typeof idToken !== "string") return undefined;
    const [, payload] = idToken.split(".");
    try {
      const { email } = JSON.parse(Buffer.from(payload, "base64url").toString()) as { email: string };
      return this.accounts.get(email);
    } catch {
      return undefined;
    }
  }

  handlers() {
    const toolkit = (method: string, handle: (body: Record<string, unknown>) => Response) =>
      // A RegExp: the colon in `accounts:signUp` would read as a path parameter in a string pattern.
      http.post(new RegExp(`^${TOOLKIT.replace(/[.]/g, "\\.")}/v1/${method}(\\?|$)`), async ({ request }) => {
        if (this.down) return HttpResponse.error();
        const url = new URL(request.url);
        if (url.searchParams.get("key") !== "test-api-key") return this.error("API_KEY_INVALID");
        const body = (await request.json()) as Record<string, unknown>;
        this.calls.push({ method, body, headers: request.headers });
        return handle(body);
      });

    return [
      toolkit("accounts:signUp", (b) => {
        const email = String(b.email ?? "").toLowerCase();
        const password = String(b.password ?? "");
        if (this.accounts.has(email)) return this.error("EMAIL_EXISTS");
        if (password.length < 6) return this.error("WEAK_PASSWORD : Password should be at least 6 characters");
        return HttpResponse.json(this.tokensFor(this.addAccount(email, password, false)));
      }),
      toolkit("accounts:signInWithPassword", (b) => {
        const account = this.accounts.get(String(b.email ?? "").toLowerCase());
        if (!account) return this.error(this.errorMode === "legacy" ? "EMAIL_NOT_FOUND" : "INVALID_LOGIN_CREDENTIALS");
        if (account.password !== b.password) return this.error(this.errorMode === "legacy" ? "INVALID_PASSWORD" : "INVALID_LOGIN_CREDENTIALS");
        if (account.disabled) return this.error("USER_DISABLED");
        return HttpResponse.json({ ...this.tokensFor(account), registered: true });
      }),
      toolkit("accounts:sendOobCode", (b) => {
        if (b.requestType === "VERIFY_EMAIL") {
          const account = this.accountFromIdToken(b.idToken);
          if (!account) return this.error("INVALID_ID_TOKEN");
          this.issueOob(account.email, "VERIFY_EMAIL");
          return HttpResponse.json({ email: account.email });
        }
        const account = this.accounts.get(String(b.email ?? "").toLowerCase());
        if (!account) return this.error("EMAIL_NOT_FOUND");
        this.issueOob(account.email, "PASSWORD_RESET");
        return HttpResponse.json({ email: account.email });
      }),
      toolkit("accounts:update", (b) => {
        if (typeof b.oobCode === "string") {
          const code = this.oobCodes.get(b.oobCode);
          if (!code || code.type !== "VERIFY_EMAIL") return this.error("INVALID_OOB_CODE");
          this.oobCodes.delete(b.oobCode);
          const account = this.accounts.get(code.email)!;
          account.emailVerified = true;
          return HttpResponse.json({ email: account.email, emailVerified: true });
        }
        const account = this.accountFromIdToken(b.idToken);
        if (!account) return this.error("INVALID_ID_TOKEN");
        account.password = String(b.password);
        return HttpResponse.json(this.tokensFor(account));
      }),
      toolkit("accounts:resetPassword", (b) => {
        const code = typeof b.oobCode === "string" ? this.oobCodes.get(b.oobCode) : undefined;
        if (!code || code.type !== "PASSWORD_RESET") return this.error(b.oobCode === "expired-code" ? "EXPIRED_OOB_CODE" : "INVALID_OOB_CODE");
        if (b.newPassword === undefined) return HttpResponse.json({ email: code.email, requestType: "PASSWORD_RESET" });
        if (String(b.newPassword).length < 6) return this.error("WEAK_PASSWORD : Password should be at least 6 characters");
        this.oobCodes.delete(b.oobCode as string);
        this.accounts.get(code.email)!.password = String(b.newPassword);
        return HttpResponse.json({ email: code.email, requestType: "PASSWORD_RESET" });
      }),
      http.post(`${SECURE_TOKEN}/v1/token`, async ({ request }) => {
        if (this.down) return HttpResponse.error();
        const form = new URLSearchParams(await request.text());
        this.calls.push({ method: "token", body: Object.fromEntries(form), headers: request.headers });
        const email = this.refreshTokens.get(form.get("refresh_token") ?? "");
        const account = email ? this.accounts.get(email) : undefined;
        if (!account) return this.error("INVALID_REFRESH_TOKEN");
        if (account.disabled) return this.error("USER_DISABLED");
        const t = this.tokensFor(account);
        return HttpResponse.json({ id_token: t.idToken, refresh_token: t.refreshToken, expires_in: t.expiresIn, user_id: account.uid, token_type: "Bearer" });
      }),
    ];
  }
}

export const fake = new FakeIdentity();
export const server = setupServer(...fake.handlers());

export function resetFake() {
  fake.reset();
}

/**
 * The hooks every auth route test file needs: the fake Identity Toolkit listening (any request it
 * does not serve fails the test), and a fresh identity store and rate limits for each test.
 */
export function withAuthRouteTests() {
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  beforeEach(() => {
    resetFake();
    resetAllRateLimits();
  });
}

// ---------------------------------------------------------------------------------------------
// A fake Business API (the /Account/Business contract) behind the context's apiFetch.

export interface FakeBusiness {
  status: "PENDING" | "ACTIVE" | "REJECTED" | "SUSPENDED";
  businessName: string;
  cuit: string;
}

export class FakeBusinessApi {
  businesses = new Map<string, FakeBusiness>();
  /** Registrations of a CUIT another company holds: no company, read as pending review. */
  held = new Map<string, FakeBusiness>();
  autoApprove = true;
  failWith?: number;
  requests: { method: string; path: string; body?: unknown; authorization: string | null }[] = [];

  fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/api/, "");
    const body = request.method === "GET" ? undefined : await request.json().catch(() => undefined);
    const authorization = request.headers.get("authorization");
    this.requests.push({ method: request.method, path, body, authorization });
    if (this.failWith) return Response.json({ title: "Servicio no disponible.", status: this.failWith }, { status: this.failWith });
    const token = authorization?.replace(/^Bearer /, "") ?? "";
    let claims: VerifiedIdToken;
    try {
      claims = await fakeVerifyIdToken(token);
    } catch {
      return problem(401, "Sesión inválida o vencida.");
    }
    if (!claims.email_verified) return problem(403, "Por favor, verifique su casilla para validar su correo");
    const mine = this.businesses.get(claims.uid);
    if ((path === "/Account/Business" && request.method === "GET") || (path === "/Account/SignIn" && request.method === "POST")) {
      const mine = this.businesses.get(claims.uid) ?? this.held.get(claims.uid);
      const businessId = `00000000-0000-4000-8000-${claims.uid.replace(/[^0-9a-f]/g, "").padStart(12, "0").slice(-12)}`;
      const companies = mine ? [{ businessId, businessName: mine.businessName, status: mine.status, role: "OWNER" }] : [];
      return Response.json(mine ? { exists: true, status: mine.status, businessName: mine.businessName, businessId, role: "OWNER", companies } : { exists: false, companies });
    }
    if (path === "/Account/Business" && request.method === "POST") {
      const input = body as { businessName: string; cuit: string; businessAddress: string; phoneNumber: string };
      // Like the API: a CUIT another company holds is answered as pending review, and no company is created.
      if ([...this.businesses.values()].some((b) => b.cuit === input.cuit)) {
        this.held.set(claims.uid, { status: "PENDING", businessName: input.businessName, cuit: input.cuit });
        return Response.json({ ...input, photoUrl: null, status: "PENDING" }, { status: 201 });
      }
      const created: FakeBusiness = { status: this.autoApprove ? "ACTIVE" : "PENDING", businessName: input.businessName, cuit: input.cuit };
      this.businesses.set(claims.uid, created);
      this.held.delete(claims.uid);
      return Response.json({ ...input, photoUrl: null, status: created.status }, { status: 201 });
    }
    if (path === "/Business/BusinessUser" && request.method === "GET") {
      if (!mine) return problem(403, "Primero registrá tu empresa.");
      return Response.json({ businessName: mine.businessName, cuit: mine.cuit, businessAddress: "", phoneNumber: "", photoUrl: null, status: mine.status });
    }
    return problem(404, "El recurso no existe.");
  };
}

function problem(status: number, title: string, errors?: Record<string, string[]>) {
  return new Response(JSON.stringify({ type: "about:blank", title, status, ...(errors ? { errors } : {}) }), {
    status,
    headers: { "Content-Type": "application/problem+json" },
  });
}

/** A loader's or action's `context`, as server/http.ts builds it; `api` and `app` are for the test's eyes. */
export type TestContext = RouterContextProvider & { api: FakeBusinessApi; app: AppContext };

export function makeContext(api = new FakeBusinessApi(), overrides: Partial<AppContext> = {}): TestContext {
  const app: AppContext = {
    cspNonce: "nonce",
    isDataRequest: false,
    apiFetch: api.fetch,
    apiBaseUrl: API_BASE,
    verifyIdToken: fakeVerifyIdToken,
    identity: {
      apiKey: "test-api-key",
      projectId: "demo-enchufa",
      identityToolkitUrl: TOOLKIT,
      secureTokenUrl: SECURE_TOKEN,
      continueUrl: `${APP}/auth`,
    },
    clientIp: "203.0.113.7",
    config: { appName: "Enchufá" },
    ...overrides,
  };
  return Object.assign(createRequestContext(app), { api, app });
}

// ---------------------------------------------------------------------------------------------
// Requests and answers.

export function get(path: string, cookie?: string): Request {
  return new Request(`${APP}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}

export function post(path: string, fields: Record<string, string>, cookie?: string): Request {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (cookie) headers.Cookie = cookie;
  return new Request(`${APP}${path}`, { method: "POST", headers, body: new URLSearchParams(fields).toString() });
}

/** Answers are read loosely in tests (action data unions); one escape hatch, named. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  data: T;
  location: string | null;
  thrown: boolean;
}

/** Run a loader/action; normalize a returned/thrown Response, a data() result or a plain object. */
export async function run<T = Loose>(fn: () => unknown): Promise<Answer<T>> {
  let value: unknown;
  let thrown = false;
  try {
    value = await fn();
  } catch (error) {
    value = error;
    thrown = true;
  }
  if (value instanceof Response) {
    const type = value.headers.get("content-type") ?? "";
    const body = type.includes("json") ? await value.json() : await value.text();
    return { status: value.status, headers: value.headers, data: body as T, location: value.headers.get("Location"), thrown };
  }
  if (value && typeof value === "object" && (value as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = value as { data: T; init: ResponseInit | null };
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), data, location: null, thrown };
  }
  if (thrown) throw value;
  return { status: 200, headers: new Headers(), data: value as T, location: null, thrown };
}

/** The `name=value` pairs of every Set-Cookie in `headers`, merged over `previous`. */
export function cookieJar(headers: Headers, previous = ""): string {
  const jar = new Map<string, string>();
  for (const part of previous.split(/;\s*/).filter(Boolean)) {
    const [name, ...rest] = part.split("=");
    jar.set(name, rest.join("="));
  }
  for (const setCookie of headers.getSetCookie()) {
    const [pair] = setCookie.split(";");
    const [name, ...rest] = pair.split("=");
    const value = rest.join("=");
    if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(setCookie)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** What the session cookie in `cookie` holds. */
export async function readSession(cookie: string) {
  const session = await sessionStorage.getSession(cookie);
  return { user: session.get("user"), pending: session.get("pending") };
}

/** A cookie for a signed-in user (verified, token valid for `ttlMs`). */
export async function signedInCookie(account: { uid: string; email: string }, opts: { ttlMs?: number; verified?: boolean; refreshToken?: string } = {}) {
  const ttlMs = opts.ttlMs ?? 60 * 60 * 1000;
  const user: SessionUser = {
    uid: account.uid,
    email: account.email,
    idToken: makeIdToken({ uid: account.uid, email: account.email, email_verified: opts.verified ?? true, exp: Math.floor((Date.now() + ttlMs) / 1000) }),
    refreshToken: opts.refreshToken ?? fake.tokensFor(fake.accounts.get(account.email) ?? (account as never)).refreshToken,
    expiresAt: Date.now() + ttlMs,
  };
  const session = await sessionStorage.getSession();
  await startWebSession(session, user);
  const setCookie = await sessionStorage.commitSession(session);
  return { cookie: setCookie.split(";")[0], user };
}

/**
 * A loader's or action's arguments (Route.LoaderArgs / Route.ActionArgs) for a request, as React
 * Router passes them with future.v8_passThroughRequests: the raw request, and `url` without the
 * single-fetch `.data` suffix and its `_routes` / `index` parameters.
 */
export function args<P extends Params = Params>(request: Request, context: RouterContextProvider, params: P = {} as P) {
  const url = new URL(request.url);
  url.pathname = url.pathname.replace(/\.data$/, "").replace(/\/_$/, "/") || "/";
  url.searchParams.delete("_routes");
  url.searchParams.delete("index");
  return { request, context, params, url, pattern: "" };
}
