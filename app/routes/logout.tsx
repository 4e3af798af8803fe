import { redirect } from "react-router";
import { appContext } from "~/lib/context";
import { endAllWebSessions, endWebSession, destroySession, getSession, webSessionIsLive } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/logout";

export const MESSAGES = {
  signedOut: "Cerraste sesión.",
  signedOutEverywhere: "Cerraste sesión en todos los dispositivos.",
} as const;

/** Firebase's refresh tokens of the account, revoked; a failure is logged and sign-out goes on. */
async function revokeIdentityTokens(context: Route.ActionArgs["context"], uid: string) {
  const revoke = appContext(context).revokeRefreshTokens;
  if (!revoke) return;
  try {
    await revoke(uid);
  } catch (error) {
    console.warn("Cerrar sesión: no se pudieron revocar los tokens de Firebase", error instanceof Error ? error.message : String(error));
  }
}

/**
 * Sign out (a POST from the app header, the company screens and Mi perfil). The sign-in's row on
 * the server is deleted (ADR 0027), so a copy of the cookie signs no one in afterwards, and the
 * cookie is cleared. When no other sign-in of the account is left — or with `scope=all`
 * ("Cerrar sesión en todos los dispositivos", which ends every one) — the account's Firebase
 * refresh tokens are revoked too, so tokens copied out of a cookie stop working as well.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const session = await getSession(request);
  const user = session.get("user");
  const form = await request.formData().catch(() => undefined);
  const everywhere = form?.get("scope") === "all";
  // Only a sign-in that is still live may end others or revoke tokens (not a stale copy).
  const live = user ? await webSessionIsLive(session) : false;
  if (user && live && everywhere) {
    await endAllWebSessions(user.uid);
    await revokeIdentityTokens(context, user.uid);
  } else if (user && live) {
    const left = await endWebSession(session);
    if (left === 0) await revokeIdentityTokens(context, user.uid);
  }
  const message = everywhere && live ? MESSAGES.signedOutEverywhere : MESSAGES.signedOut;
  return redirectWithSuccess("/auth/login", message, { headers: { "Set-Cookie": await destroySession(session) } });
}

// A GET never signs out (links can be prefetched or forged); it just goes home.
export const loader = () => redirect("/home");
