import crypto from "node:crypto";
import { createCookieSessionStorage, createSession, type Session } from "react-router";
import { getWebSessionStore, newSessionId, sessionIdHash } from "#infra/web-sessions";

/** What the session cookie carries: the verified Firebase identity. */
export interface SessionUser {
  uid: string;
  email: string;
  displayName?: string;
  photoUrl?: string;
  idToken: string;
  refreshToken: string;
  /** Epoch milliseconds when idToken expires. */
  expiresAt: number;
}

/**
 * An e-mail we just sent and may be asked to send again (email-send screen), for someone who
 * is NOT signed in: after registering, or after an unverified login. `sealed` holds the
 * account's refresh token, encrypted (see sealSecret), so the server can get a fresh ID token
 * to resend the verification e-mail without asking for the password again. It never grants a
 * session (the guard only reads `user`), and being encrypted and padded, a registration for
 * an address that already has an account looks exactly like a new one.
 */
export interface PendingEmail {
  email: string;
  kind: "verify" | "reset";
  sealed: string;
}

/**
 * An invitation link opened before signing in or registering: accepted right after the
 * next sign-in. The token is sealed (see sealSecret); the address is only for the screens.
 */
export interface PendingInvitation {
  sealed: string;
  email: string;
  businessName: string;
}

interface SessionData {
  user: SessionUser;
  /** This sign-in's id on the server (infra/web-sessions.ts): gone there, the cookie signs no one in. */
  sid: string;
  pending: PendingEmail;
  /** The company the session acts for; checked against membership by the API on every call. */
  businessId: string;
  invitation: PendingInvitation;
}

const production = process.env.NODE_ENV === "production";
const local = process.env.ENCHUFA_LOCAL === "1";
// Rotatable: the first secret signs, all of them verify (SESSION_SECRET="new,old").
const secrets = (process.env.SESSION_SECRET ?? "").split(",").map((s) => s.trim()).filter(Boolean);

const signingSecrets = secrets.length ? secrets : ["enchufa-dev-only-secret"];

export const SESSION_MAX_AGE_S = 60 * 60 * 24 * 14;

export const sessionStorage = createCookieSessionStorage<SessionData>({
  cookie: {
    // The __Host- prefix pins the cookie to this exact origin over HTTPS (production only).
    name: production && !local ? "__Host-enchufa_session" : "enchufa_session",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: production && !local,
    secrets: signingSecrets,
    maxAge: SESSION_MAX_AGE_S,
  },
});

export type AppSession = Session<SessionData>;

/** Cookie headers whose signature was checked, with what they carry (the oldest leaves first). */
const verifiedCookies = new Map<string, Partial<SessionData>>();
const VERIFIED_COOKIES_KEPT = 2_000;

/**
 * The session the request's cookie carries. Checking the signature (HMAC through WebCrypto) cost
 * ~1 ms of CPU on every page; a signed value never changes what it says, so a Cookie header already
 * checked and read is taken from memory, as a new copy each time (a request may change its own).
 */
export async function getSession(request: Request): Promise<AppSession> {
  const header = request.headers.get("Cookie");
  const known = header ? verifiedCookies.get(header) : undefined;
  if (known) return createSession<SessionData>(structuredClone(known) as SessionData);
  const session = await sessionStorage.getSession(header);
  if (header && session.get("user")) {
    verifiedCookies.set(header, structuredClone(session.data));
    while (verifiedCookies.size > VERIFIED_COOKIES_KEPT) verifiedCookies.delete(verifiedCookies.keys().next().value!);
  }
  return session;
}

export const commitSession = (session: AppSession) => sessionStorage.commitSession(session);
export const destroySession = (session: AppSession) => sessionStorage.destroySession(session);

/** The signed-in user as stored, without checking or refreshing anything. */
export async function getSessionUser(request: Request): Promise<SessionUser | undefined> {
  return (await getSession(request)).get("user");
}

/** Sign in: the user replaces whatever was pending (an invitation stays until it is accepted). */
export function setSessionUser(session: AppSession, user: SessionUser) {
  session.unset("pending");
  session.unset("businessId");
  session.set("user", user);
}

/**
 * Sign in for real: the user goes into the cookie and the sign-in gets its row on the server
 * (ADR 0027), which the guard checks on every request and sign-out deletes. A previous sign-in
 * carried by the same cookie is ended first.
 */
export async function startWebSession(session: AppSession, user: SessionUser): Promise<void> {
  await endWebSession(session);
  const sid = newSessionId();
  await getWebSessionStore().add(sessionIdHash(sid), user.uid, new Date(Date.now() + SESSION_MAX_AGE_S * 1000));
  setSessionUser(session, user);
  session.set("sid", sid);
}

/** Whether the cookie's sign-in is still live on the server (not signed out, not expired). */
export async function webSessionIsLive(session: AppSession): Promise<boolean> {
  const sid = session.get("sid");
  const user = session.get("user");
  if (!sid || !user) return false;
  return getWebSessionStore().isLive(sessionIdHash(sid), user.uid);
}

/** Sign out of this sign-in on the server; answers how many of the account's sign-ins are still live. */
export async function endWebSession(session: AppSession): Promise<number> {
  const sid = session.get("sid");
  const uid = session.get("user")?.uid;
  if (sid) await getWebSessionStore().remove(sessionIdHash(sid));
  return uid ? getWebSessionStore().countLive(uid) : 0;
}

/** Sign the account out of every sign-in, on every device. */
export function endAllWebSessions(uid: string): Promise<number> {
  return getWebSessionStore().removeAll(uid);
}

// The cookie is signed, not encrypted: whoever holds it can read it. Values that must stay
// opaque even to the holder are sealed with AES-256-GCM under a key derived from the session
// secrets (the first seals, any opens: rotation works as for signing).
const SEAL_PAD = 1024;
const sealKeys = signingSecrets.map((secret) => crypto.createHash("sha256").update(`enchufa:seal:${secret}`).digest());

/**
 * Encrypt a short secret (or nothing), padded so every sealed value has the same length. `pad`:
 * the length it is padded to (an invitation token needs no disguise, and the cookie stays under
 * the browsers' 4 KB with both a pending e-mail and an invitation in it).
 */
export function sealSecret(value: string | undefined, pad = SEAL_PAD): string {
  const plain = Buffer.from(JSON.stringify({ v: value ?? null }), "utf8");
  const padded = Buffer.alloc(Math.max(pad, Math.ceil((plain.length + 2) / pad) * pad));
  padded.writeUInt16BE(plain.length, 0);
  plain.copy(padded, 2);
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", sealKeys[0], iv);
  const body = Buffer.concat([cipher.update(padded), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** The sealed value, or undefined when there is none or it cannot be opened. */
export function openSecret(sealed: string | undefined): string | undefined {
  if (!sealed) return undefined;
  const raw = Buffer.from(sealed, "base64url");
  if (raw.length < 28 + 2) return undefined;
  for (const key of sealKeys) {
    try {
      const decipher = crypto.createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const padded = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
      const length = padded.readUInt16BE(0);
      const parsed = JSON.parse(padded.subarray(2, 2 + length).toString("utf8")) as { v: string | null };
      return parsed.v ?? undefined;
    } catch {
      /* try the next key */
    }
  }
  return undefined;
}

export function setPendingEmail(session: AppSession, pending: { email: string; kind: PendingEmail["kind"]; refreshToken?: string }) {
  session.set("pending", { email: pending.email, kind: pending.kind, sealed: sealSecret(pending.refreshToken) });
}
