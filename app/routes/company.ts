// POST /company: the header's company switcher. The Business API checks that the
// account is a member of the chosen company (and records the sign-in into it); only then does
// the session act for it. Every screen's ids belong to one company, so it lands on the home.
import { redirect } from "react-router";
import { UUID_RE } from "#contract/schemas/constants";
import { destinationFor, fetchBusinessAccount, requireUserSession } from "~/lib/auth.server";
import { setChosenCompany } from "~/lib/context";
import { commitSession } from "~/lib/session.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/company";

export const SWITCH_REFUSED_MESSAGE = "No podés entrar a esa empresa: no sos miembro.";

export async function action({ request, context }: Route.ActionArgs) {
  const { user, session, headers } = await requireUserSession(request, context);
  const form = await request.formData();
  const businessId = String(form.get("businessId") ?? "").toLowerCase();
  if (!UUID_RE.test(businessId)) return redirectWithError("/home", SWITCH_REFUSED_MESSAGE, { headers });
  const previous = session.get("businessId") ?? null;
  setChosenCompany(context, businessId);
  const account = await fetchBusinessAccount(context, user.idToken, { signIn: true }).catch(() => undefined);
  if (!account?.exists || account.businessId !== businessId) {
    setChosenCompany(context, previous);
    return redirectWithError("/home", SWITCH_REFUSED_MESSAGE, { headers });
  }
  session.set("businessId", businessId);
  headers.append("Set-Cookie", await commitSession(session));
  return redirectWithSuccess(destinationFor(account, "/home"), `Ahora estás en «${account.businessName}».`, { headers });
}

// A GET never changes anything: it just goes home.
export const loader = () => redirect("/home");
