// Firebase Auth over its REST API: Identity Toolkit for accounts and e-mail
// action codes, Secure Token for refreshing ID tokens. Server-side only, so every auth flow
// works without JavaScript. Requests and responses carry passwords and tokens: nothing here
// logs a body, and errors keep only Firebase's error code.
import type { IdentityConfig } from "./context";

export const IDENTITY_TIMEOUT_MS = 10_000;

/** What a successful sign-in, sign-up or refresh gives back. */
export interface IdentityTokens {
  uid: string;
  email?: string;
  idToken: string;
  refreshToken: string;
  /** Epoch milliseconds when idToken expires. */
  expiresAt: number;
}

/** A Firebase error, reduced to its code (`INVALID_LOGIN_CREDENTIALS`, `WEAK_PASSWORD`…). */
export class IdentityError extends Error {
  constructor(
    public readonly code: string,
    public readonly status: number,
  ) {
    super(`Firebase Auth: ${code}`);
    this.name = "IdentityError";
  }
}

/** Error codes meaning "wrong e-mail or password", old and new (email enumeration protection). */
const BAD_CREDENTIALS = new Set(["INVALID_LOGIN_CREDENTIALS", "INVALID_PASSWORD", "EMAIL_NOT_FOUND", "USER_DISABLED"]);
const BAD_OOB_CODE = new Set(["EXPIRED_OOB_CODE", "INVALID_OOB_CODE"]);
const SESSION_GONE = new Set([
  "TOKEN_EXPIRED",
  "INVALID_REFRESH_TOKEN",
  "INVALID_GRANT_TYPE",
  "MISSING_REFRESH_TOKEN",
  "USER_NOT_FOUND",
  "USER_DISABLED",
  "INVALID_ID_TOKEN",
  "CREDENTIAL_TOO_OLD_LOGIN_AGAIN",
]);

export const isBadCredentials = (error: unknown) => error instanceof IdentityError && BAD_CREDENTIALS.has(error.code);
export const isBadOobCode = (error: unknown) => error instanceof IdentityError && BAD_OOB_CODE.has(error.code);
export const isSessionGone = (error: unknown) => error instanceof IdentityError && SESSION_GONE.has(error.code);
export const isEmailNotFound = (error: unknown) => error instanceof IdentityError && (error.code === "EMAIL_NOT_FOUND" || error.code === "USER_NOT_FOUND");

export type IdentityField = "email" | "password" | "form";

export const identityMessages = {
  badCredentials: "El correo electrónico o la contraseña no son correctos.",
  tooManyAttempts: "Demasiados intentos. Esperá unos minutos y probá de nuevo.",
  weakPassword: "Elegí una contraseña más segura: al menos 8 caracteres, combinando letras y números.",
  invalidEmail: "Ingresá un correo electrónico válido, por ejemplo nombre@empresa.com.ar.",
  oobCode: "El enlace venció o ya fue usado. Pedí uno nuevo.",
  sessionGone: "Tu sesión venció. Ingresá de nuevo.",
  unavailable: "No pudimos comunicarnos con el servicio de identidad. Probá de nuevo en unos minutos.",
  notAllowed: "El ingreso con correo y contraseña no está habilitado. Escribinos a soporte.",
  unexpected: "No pudimos completar la operación. Probá de nuevo en unos minutos.",
} as const;

/**
 * Where a Firebase error goes on a form, in Spanish. Credential errors never say whether the
 * e-mail exists: EMAIL_NOT_FOUND, INVALID_PASSWORD, INVALID_LOGIN_CREDENTIALS (and a disabled
 * account) all give the same form-level message.
 */
export function identityErrorMessage(error: unknown): { field: IdentityField; message: string } {
  if (!(error instanceof IdentityError)) return { field: "form", message: identityMessages.unavailable };
  const code = error.code;
  if (BAD_CREDENTIALS.has(code)) return { field: "form", message: identityMessages.badCredentials };
  if (code === "INVALID_EMAIL" || code === "MISSING_EMAIL") return { field: "email", message: identityMessages.invalidEmail };
  if (code === "WEAK_PASSWORD" || code === "MISSING_PASSWORD" || code === "PASSWORD_DOES_NOT_MEET_REQUIREMENTS")
    return { field: "password", message: identityMessages.weakPassword };
  if (code.startsWith("TOO_MANY_ATTEMPTS") || code === "QUOTA_EXCEEDED") return { field: "form", message: identityMessages.tooManyAttempts };
  if (BAD_OOB_CODE.has(code) || code === "MISSING_OOB_CODE") return { field: "form", message: identityMessages.oobCode };
  if (SESSION_GONE.has(code)) return { field: "form", message: identityMessages.sessionGone };
  if (code === "OPERATION_NOT_ALLOWED" || code === "PASSWORD_LOGIN_DISABLED") return { field: "form", message: identityMessages.notAllowed };
  if (code === "NETWORK" || code === "TIMEOUT" || error.status >= 500) return { field: "form", message: identityMessages.unavailable };
  return { field: "form", message: identityMessages.unexpected };
}

type Fetch = typeof fetch;

/** `WEAK_PASSWORD : Password should be…` → `WEAK_PASSWORD`. */
function errorCode(body: unknown): string | undefined {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === "string" ? message.split(":")[0].trim() : undefined;
}

export interface IdentityClient {
  signUp(email: string, password: string): Promise<IdentityTokens>;
  signInWithPassword(email: string, password: string): Promise<IdentityTokens>;
  /** accounts:sendOobCode VERIFY_EMAIL for the signed-in user. */
  sendEmailVerification(idToken: string): Promise<void>;
  /** accounts:sendOobCode PASSWORD_RESET. Rejects with EMAIL_NOT_FOUND: callers must not reveal it. */
  sendPasswordReset(email: string): Promise<void>;
  /** accounts:update with the code from a verify-email link. */
  applyEmailVerification(oobCode: string): Promise<{ email?: string }>;
  /** accounts:resetPassword without a new password: checks the code and names the account, without using it. */
  checkPasswordResetCode(oobCode: string): Promise<{ email?: string }>;
  /** accounts:resetPassword: sets the new password and uses the code up. */
  confirmPasswordReset(oobCode: string, newPassword: string): Promise<{ email?: string }>;
  /** accounts:update with idToken + password (a signed-in password change). */
  changePassword(idToken: string, newPassword: string): Promise<IdentityTokens>;
  /** securetoken: a fresh ID token from a refresh token. */
  refresh(refreshToken: string): Promise<IdentityTokens>;
}

/**
 * The Identity Toolkit / Secure Token client for one configuration (the real Google APIs or
 * the Auth Emulator: `config` comes from the load context). 10 s timeout on every call;
 * Firebase failures become IdentityError, network failures IdentityError("NETWORK").
 */
export function createIdentityClient(config: IdentityConfig, fetchImpl: Fetch = (input, init) => fetch(input, init)): IdentityClient {
  const toolkit = config.identityToolkitUrl.replace(/\/$/, "");
  const secureToken = config.secureTokenUrl.replace(/\/$/, "");
  const key = encodeURIComponent(config.apiKey);

  async function call<T>(url: string, init: RequestInit): Promise<T> {
    let response: Response;
    try {
      response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(IDENTITY_TIMEOUT_MS) });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new IdentityError(timedOut ? "TIMEOUT" : "NETWORK", 503);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    if (!response.ok) throw new IdentityError(errorCode(body) ?? `HTTP_${response.status}`, response.status);
    if (body === undefined) throw new IdentityError("BAD_RESPONSE", 502);
    return body as T;
  }

  const post = <T>(method: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call<T>(`${toolkit}/v1/${method}?key=${key}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(payload),
    });

  // Firebase writes its e-mails in this language (templates configured in the console).
  const locale = { "X-Firebase-Locale": "es-419" };
  const continueUrl = config.continueUrl ? { continueUrl: config.continueUrl } : {};

  interface SignInBody {
    localId: string;
    email?: string;
    idToken: string;
    refreshToken: string;
    expiresIn: string;
  }
  const tokens = (b: SignInBody): IdentityTokens => ({
    uid: b.localId,
    email: b.email,
    idToken: b.idToken,
    refreshToken: b.refreshToken,
    expiresAt: Date.now() + Number(b.expiresIn || 3600) * 1000,
  });

  return {
    async signUp(email, password) {
      return tokens(await post<SignInBody>("accounts:signUp", { email, password, returnSecureToken: true }));
    },
    async signInWithPassword(email, password) {
      return tokens(await post<SignInBody>("accounts:signInWithPassword", { email, password, returnSecureToken: true }));
    },
    async sendEmailVerification(idToken) {
      await post("accounts:sendOobCode", { requestType: "VERIFY_EMAIL", idToken, ...continueUrl }, locale);
    },
    async sendPasswordReset(email) {
      await post("accounts:sendOobCode", { requestType: "PASSWORD_RESET", email, ...continueUrl }, locale);
    },
    async applyEmailVerification(oobCode) {
      const b = await post<{ email?: string }>("accounts:update", { oobCode });
      return { email: b.email };
    },
    async checkPasswordResetCode(oobCode) {
      const b = await post<{ email?: string }>("accounts:resetPassword", { oobCode });
      return { email: b.email };
    },
    async confirmPasswordReset(oobCode, newPassword) {
      const b = await post<{ email?: string }>("accounts:resetPassword", { oobCode, newPassword });
      return { email: b.email };
    },
    async changePassword(idToken, newPassword) {
      return tokens(await post<SignInBody>("accounts:update", { idToken, password: newPassword, returnSecureToken: true }));
    },
    async refresh(refreshToken) {
      const b = await call<{ id_token: string; refresh_token: string; expires_in: string; user_id: string }>(
        `${secureToken}/v1/token?key=${key}`,
        {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }).toString(),
        },
      );
      return {
        uid: b.user_id,
        idToken: b.id_token,
        refreshToken: b.refresh_token,
        expiresAt: Date.now() + Number(b.expires_in || 3600) * 1000,
      };
    },
  };
}
