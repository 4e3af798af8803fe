import { redirect } from "react-router";
import { destroySession, getSession } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/logout";

/** Sign out (a POST from the app header and the company screens): the session cookie is cleared. */
export async function action({ request }: Route.ActionArgs) {
  const session = await getSession(request);
  return redirectWithSuccess("/auth/login", "Cerraste sesión.", { headers: { "Set-Cookie": await destroySession(session) } });
}

// A GET never signs out (links can be prefetched or forged); it just goes home.
export const loader = () => redirect("/home");
