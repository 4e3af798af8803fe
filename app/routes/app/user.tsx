// 'Mi perfil': the company profile with its photo, and the account (e-mail, "Cambiar
// contraseña"). Every form posts without JavaScript; the profile form is multipart so the photo
// travels as a file when JavaScript is off. The server side is in ./user.server.ts.
import { useEffect } from "react";
import { data, useNavigation } from "react-router";
import { Box, Grid } from "@radix-ui/themes";
import { pageMeta } from "~/lib/meta";
import { requireMember, requireUserSession } from "~/lib/auth.server";
import { passRetryAfter } from "~/lib/rate-limit.server";
import { readForm } from "~/lib/profile.server";
import { PageHeader } from "~/components/Page";
import { FormError } from "~/components/messages";
import { AccountCard } from "~/components/profile/AccountCard";
import { CompanyCard } from "~/components/profile/CompanyCard";
import { MESSAGES, type Intent } from "~/components/profile/messages";
import { changePassword, loadProfile, removePhoto, saveProfile, type ActionResult } from "./user.server";
import type { Route } from "./+types/user";

export { MESSAGES };

export const meta = pageMeta("Mi perfil");

/** A refused password check (429) says when to try again. */
export const headers = passRetryAfter;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireMember(request, context); // the whole guard and the screen's rule (memoized with the layout's)
  const { user, headers } = await requireUserSession(request, context);
  return data(await loadProfile(context, user), { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireMember(request, context); // the whole guard (memoized) and the rule of the form's intent
  const { user, session, headers } = await requireUserSession(request, context);
  const formData = await readForm(request);
  const input = { request, context, user, session, headers, formData };
  const intent = String(formData.get("intent") ?? "profile") as Intent;
  if (intent === "password") return changePassword(input);
  if (intent === "remove-photo") return removePhoto(input);
  return saveProfile(input);
}

export default function UserProfile({ loaderData, actionData: result }: Route.ComponentProps) {
  const { loaded, logged, profile, email, storedPhoto, cuitEditable } = loaderData;
  const actionData = result as ActionResult | undefined;
  const navigation = useNavigation();
  const idle = navigation.state === "idle";
  const submitting = (intent: Intent) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;

  // A failure is also logged in the browser's console, in Spanish.
  useEffect(() => {
    if (logged) console.error(`Mi perfil: ${logged}`);
  }, [logged]);
  useEffect(() => {
    if (actionData?.logged) console.error(`Mi perfil: ${actionData.logged}`);
  }, [actionData]);
  const last = (intent: Intent) => (idle && actionData?.intent === intent ? actionData.result : null);

  return (
    <>
      <PageHeader title="Mi perfil" description="Los datos de tu empresa y de tu cuenta." />
      {!loaded ? (
        <Box mb="4">
          <FormError errors={[MESSAGES.loadFailed]} />
        </Box>
      ) : null}
      <Grid columns={{ initial: "1", md: "3" }} gap="5" align="start">
        {loaded ? (
          <Box gridColumn={{ initial: "1", md: "span 2" }}>
            <CompanyCard
              profile={profile}
              storedPhoto={storedPhoto}
              cuitEditable={cuitEditable}
              lastResult={last("profile")}
              photoError={idle && actionData?.intent === "profile" ? actionData.photoError : undefined}
              saving={submitting("profile")}
              removing={submitting("remove-photo")}
            />
          </Box>
        ) : null}
        <AccountCard email={email} lastResult={last("password")} changing={submitting("password")} />
      </Grid>
    </>
  );
}
