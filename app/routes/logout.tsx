import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { destroySession, getSession } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";

/** Sign out (a POST from the app header and the company screens): the session cookie is cleared. */
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  return redirectWithSuccess("/auth/login", "Cerraste sesión.", { headers: { "Set-Cookie": await destroySession(session) } });
}

// A GET never signs out (links can be prefetched or forged); it just goes home.
export const loader = () => redirect("/home");
