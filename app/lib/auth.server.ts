// Sign-in, the session guard and the business-state routing.
import { data, redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { Strategy } from "remix-auth/strategy";
import { endpoints } from "#contract/endpoints";
import { createApiClient, isRateLimitedPage, throwIfRateLimited } from "./api.server";
import { createIdentityClient, isSessionGone, type IdentityClient } from "./identity.server";
import { commitSession, destroySession, getSession, webSessionIsLive, type AppSession, type SessionUser } from "./session.server";
import { type RequestContext, appContext, setChosenCompany } from "~/lib/context";
import { holds, needFor } from "~/lib/access.server";
import { refusalMessage, type Permission, type Role } from "#domain/permissions";
import { unavailable } from "~/lib/responses.server";
import type { BusinessStatus } from "#contract/schemas/business-constants";

/** The ID token is refreshed when it has less than this left. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

const ORIGIN = "http://enchufa.invalid";

/** A path a browser would read as another host (`//host`, `/\\host`), or with control characters. */
// eslint-disable-next-line no-control-regex
const UNSAFE_PATH = /^[\\/][\\/]|[\u0000-\u001f\u007f\\]/;

/**
 * Only same-site paths are honoured as a place to come back to after login. The URL parser
 * normalises what it is given (dot segments, `%2e`, backslashes, tabs and newlines removed), so
 * what is checked is the path it produces — the value returned — and that path decoded once
 * (`%2f`, `%5c`, `%09` hidden in it): neither may start with two slashes or backslashes nor hold
 * control characters or backslashes. An auth screen or the sign-out is never a destination.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/home"): string {
  if (!to || typeof to !== "string") return fallback;
  const value = to.trim();
  if (!value.startsWith("/") || UNSAFE_PATH.test(value)) return fallback;
  let url: URL;
  let decoded: string;
  try {
    url = new URL(value, ORIGIN);
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return fallback;
  }
  if (url.origin !== ORIGIN) return fallback;
  const result = url.pathname + url.search + url.hash;
  if (!result.startsWith("/") || UNSAFE_PATH.test(url.pathname) || UNSAFE_PATH.test(decoded)) return fallback;
  const path = new URL(decoded.replace(/[?#]/g, "_"), ORIGIN).pathname;
  if (path === "/auth" || path.startsWith("/auth/") || path === "/logout") return fallback;
  return result;
}

/** Where the request was going, as a same-site path (single-fetch `.data` suffix and params removed). */
export function currentPath(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  url.searchParams.delete("index");
  // `/stations.data` is /stations; with trailing-slash-aware data requests `/_.data` is / and
  // `/a/_.data` is /a/ (react-router.config.ts).
  const pathname = url.pathname.replace(/\.data$/, "").replace(/\/_$/, "/") || "/";
  const search = url.searchParams.toString();
  return pathname + (search ? `?${search}` : "");
}

function withRedirectTo(path: string, redirectTo: string | undefined) {
  const target = redirectTo ? safeRedirect(redirectTo, "") : "";
  if (!target || target === "/home" || target === "/") return path;
  return `${path}?${new URLSearchParams({ redirectTo: target })}`;
}

/** A redirect to the login screen that brings the user back here afterwards. */
export function loginRedirect(request: Request, init?: ResponseInit) {
  return redirect(withRedirectTo("/auth/login", currentPath(request)), init);
}

export const identityClient = (context: RequestContext): IdentityClient => createIdentityClient(appContext(context).identity);

// ---------------------------------------------------------------------------------------------
// Login: remix-auth 4 with a small form strategy.

/** remix-auth's form strategy: hands the posted form to the verify function. */
export class FormStrategy<User> extends Strategy<User, { form: FormData; request: Request }> {
  name = "form";
  async authenticate(request: Request): Promise<User> {
    const form = await request.clone().formData();
    return this.verify({ form, request });
  }
}

/** The e-mail is not verified yet: no session; the refresh token lets us resend. */
export class UnverifiedEmailError extends Error {
  constructor(
    public readonly email: string,
    public readonly refreshToken: string,
  ) {
    super("email not verified");
    this.name = "UnverifiedEmailError";
  }
}

/**
 * One authenticator per request (the strategy needs the request's identity configuration):
 * signInWithPassword → verifyIdToken (firebase-admin) → verified user, or UnverifiedEmailError.
 * Identity errors propagate as IdentityError for the action to map.
 */
export function createAuthenticator(context: RequestContext) {
  const authenticator = new Authenticator<SessionUser>();
  authenticator.use(
    new FormStrategy<SessionUser>(async ({ form }) => {
      const email = String(form.get("email") ?? "").trim().toLowerCase();
      const password = String(form.get("password") ?? "");
      const tokens = await identityClient(context).signInWithPassword(email, password);
      const claims = await appContext(context).verifyIdToken(tokens.idToken);
      if (!claims.email_verified) throw new UnverifiedEmailError(tokens.email ?? email, tokens.refreshToken);
      return {
        uid: claims.uid,
        email: claims.email ?? tokens.email ?? email,
        displayName: claims.name || undefined,
        photoUrl: claims.picture || undefined,
        idToken: tokens.idToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt,
      };
    }),
    "form",
  );
  return authenticator;
}

// ---------------------------------------------------------------------------------------------
// The company behind the account (endpoints.accountBusinessGet).

export type { BusinessStatus };

export interface CompanyChoice {
  businessId: string;
  businessName: string;
  status: BusinessStatus;
  role: Role;
}

/** The account's company state: the company the request acts for, the caller's role in it, and all their companies. */
export interface BusinessAccount {
  exists: boolean;
  status?: BusinessStatus;
  businessName?: string;
  businessId?: string;
  role?: Role;
  companies?: CompanyChoice[];
}

/**
 * The caller's company state; `undefined` when the API refused the caller (401/403: a bad token,
 * an unverified e-mail, or no longer a member of the session's company). Throws 503 when the API
 * fails. `signIn` records the sign-in into that company (endpoints.accountSignIn).
 */
export async function fetchBusinessAccount(context: RequestContext, idToken: string, opts: { signIn?: boolean } = {}): Promise<BusinessAccount | undefined> {
  let response: Response;
  try {
    const api = createApiClient(context, idToken);
    response = await api.request(opts.signIn ? endpoints.accountSignIn : endpoints.accountBusinessGet);
  } catch (error) {
    // Over the account's request limit: the page says so and when to come back (429).
    if (isRateLimitedPage(error)) throw error;
    serviceUnavailable();
  }
  throwIfRateLimited(response);
  // 401: the token was refused; 403: the API refuses unverified e-mails. Either way, no session.
  if (response.status === 401 || response.status === 403) return undefined;
  if (response.status === 404) return { exists: false };
  if (!response.ok) serviceUnavailable();
  const body = (await response.json().catch(() => undefined)) as BusinessAccount | undefined;
  if (!body || typeof body.exists !== "boolean") serviceUnavailable();
  return body;
}

function serviceUnavailable(): never {
  unavailable("El servicio no está disponible en este momento. Probá de nuevo en unos minutos.");
}

/** Where a signed-in user goes next, by company state. */
export function destinationFor(business: BusinessAccount | undefined, redirectTo?: string | null): string {
  if (business && !business.exists) return withRedirectTo("/auth/login-company", redirectTo ?? undefined);
  if (business?.status && business.status !== "ACTIVE") return "/auth/verify-company";
  return safeRedirect(redirectTo);
}

// ---------------------------------------------------------------------------------------------
// The guard. Memoized per request (the load context is one object per request), so the layout
// loader and its children share one refresh and one company lookup.

export interface UserSession {
  user: SessionUser;
  session: AppSession;
  /** Set-Cookie when the ID token was refreshed: the caller must send it. */
  headers: Headers;
}

const userMemo = new WeakMap<object, Promise<UserSession>>();
const businessMemo = new WeakMap<object, Promise<{ user: SessionUser; business: BusinessAccount; headers: Headers }>>();

async function signOutTo(request: Request, session: AppSession): Promise<never> {
  throw loginRedirect(request, { headers: { "Set-Cookie": await destroySession(session) } });
}

async function resolveUser(request: Request, context: RequestContext): Promise<UserSession> {
  const session = await getSession(request);
  const stored = session.get("user");
  if (!stored) throw loginRedirect(request);
  // Signed out (here, or everywhere) or expired on the server: a copy of the cookie is worth nothing.
  let live: boolean;
  try {
    live = await webSessionIsLive(session);
  } catch {
    serviceUnavailable();
  }
  if (!live) await signOutTo(request, session);
  // Every API call of this request acts for the session's company (checked against membership there).
  setChosenCompany(context, session.get("businessId") ?? null);
  const headers = new Headers();
  let user = stored;

  if (user.expiresAt - Date.now() < REFRESH_MARGIN_MS) {
    try {
      const fresh = await identityClient(context).refresh(user.refreshToken);
      user = { ...user, idToken: fresh.idToken, refreshToken: fresh.refreshToken, expiresAt: fresh.expiresAt };
      session.set("user", user);
      headers.append("Set-Cookie", await commitSession(session));
    } catch (error) {
      // Revoked, disabled, deleted: the session is over. A network failure while the token is
      // still good for a while: keep going, the next request refreshes.
      const stillValid = user.expiresAt - Date.now() > 30_000;
      if (isSessionGone(error) || !stillValid) await signOutTo(request, session);
    }
  }

  let claims;
  try {
    claims = await appContext(context).verifyIdToken(user.idToken);
  } catch {
    return signOutTo(request, session);
  }
  if (!claims.email_verified || claims.uid !== user.uid) await signOutTo(request, session);
  return { user, session, headers };
}

/** The signed-in, verified user with a fresh ID token, plus the Set-Cookie to send if it was refreshed. */
export function requireUserSession(request: Request, context: RequestContext): Promise<UserSession> {
  let pending = userMemo.get(context);
  if (!pending) {
    pending = resolveUser(request, context);
    userMemo.set(context, pending);
  }
  return pending;
}

/**
 * The signed-in operator of an ACTIVE company, or the guard's redirect:
 * every loader and action under the app layout checks the whole guard itself, because on a
 * client-side navigation React Router does not re-run the layout's loader (so a company
 * suspended mid-session is sent to verify-company from any screen, not shown an error).
 * Memoized per request, so with the layout it is still one company lookup. Then the member's
 * role must hold what the screen needs (app/lib/access.server.ts): 403 in Spanish otherwise.
 */
export async function requireUser(request: Request, context: RequestContext): Promise<SessionUser> {
  return (await requireMember(request, context)).user;
}

/** requireUser's guard, with the company (role, the account's companies) and the headers to send. */
export async function requireMember(request: Request, context: RequestContext) {
  const signedIn = await requireActiveBusiness(request, context);
  await authorizeScreen(request, signedIn.business.role);
  return signedIn;
}

/** 403 with the Spanish refusal for a member whose role cannot do `permission` (actions with finer needs). */
export function forbidden(role: Role | undefined, permission: Permission): never {
  throw data({ message: refusalMessage(role, permission) }, { status: 403 });
}

/** The screen's rule for this request (app/lib/access.server.ts): GET its `read`, a POST its `write` for the form's intent. */
async function authorizeScreen(request: Request, role: Role | undefined) {
  const pathname = new URL(currentPath(request), ORIGIN).pathname.replace(/\/$/, "") || "/";
  let intent: string | null = null;
  if (request.method !== "GET" && request.method !== "HEAD") {
    try {
      const value = (await request.clone().formData()).get("intent");
      intent = typeof value === "string" ? value : null;
    } catch {
      intent = null;
    }
  }
  const need = needFor(pathname, request.method, intent);
  if (!need) throw data({ message: "Esta pantalla no está habilitada." }, { status: 403 });
  if (!holds(role, need)) throw data({ message: need === "member" ? "Tu cuenta no es miembro de esta empresa." : refusalMessage(role, need) }, { status: 403 });
}

/**
 * The whole guard of the app layout: no session → login with redirectTo; token
 * refreshed under 5 minutes from expiry (Set-Cookie in `headers`); refresh failure or
 * unverified → login; no longer a member of the session's company → signed out;
 * no company → login-company; PENDING / REJECTED / SUSPENDED → verify-company (which explains
 * each); ACTIVE → proceed, the session remembering the company it acts for.
 */
export function requireActiveBusiness(request: Request, context: RequestContext) {
  let pending = businessMemo.get(context);
  if (!pending) {
    pending = (async () => {
      const { user, session, headers } = await requireUserSession(request, context);
      const business = await fetchBusinessAccount(context, user.idToken);
      if (!business) return signOutTo(request, session);
      if (!business.exists) throw redirect(withRedirectTo("/auth/login-company", currentPath(request)), { headers });
      if (business.status !== "ACTIVE") throw redirect("/auth/verify-company", { headers });
      if (business.businessId && session.get("businessId") !== business.businessId) {
        session.set("businessId", business.businessId);
        headers.append("Set-Cookie", await commitSession(session));
        setChosenCompany(context, business.businessId);
      }
      return { user, business, headers };
    })();
    businessMemo.set(context, pending);
  }
  return pending;
}

/** Auth screens for anonymous visitors (login, register): a signed-in user goes on instead. */
export async function redirectIfSignedIn(request: Request) {
  const session = await getSession(request);
  if (!session.get("user")) return;
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  throw redirect(safeRedirect(redirectTo));
}

/** Normalized client address for per-IP limits. */
export function clientKey(context: RequestContext): string {
  return (appContext(context).clientIp || "unknown").replace(/^::ffff:/, "");
}
