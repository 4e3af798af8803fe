import { redirect } from "react-router";
import type { Route } from "./+types/index";

/**
 * Firebase e-mail action links land on /auth?mode=…&oobCode=…:
 * resetPassword → confirm-password, verifyEmail → verify-email, anything else → login.
 * The other query parameters (oobCode, apiKey, lang…) travel along.
 */
export function authEntryTarget(url: URL): string {
  const mode = url.searchParams.get("mode");
  const screen = mode === "resetPassword" ? "confirm-password" : mode === "verifyEmail" ? "verify-email" : "login";
  const search = screen === "login" ? "" : url.search;
  return `/auth/${screen}${search}`;
}

export const loader = ({ url }: Route.LoaderArgs) => redirect(authEntryTarget(url));
