import { data, redirect, Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Flex, Text } from "@radix-ui/themes";
import { pageMeta } from "~/lib/meta";
import { loginSchema } from "~/lib/schemas/auth";
import {
  UnverifiedEmailError,
  clientKey,
  createAuthenticator,
  destinationFor,
  fetchBusinessAccount,
  redirectIfSignedIn,
  safeRedirect,
} from "~/lib/auth.server";
import { identityErrorMessage, isBadCredentials } from "~/lib/identity.server";
import { clearLoginFailures, consume, countFailure, loginChecks, passRetryAfter, retryAfterHeaders } from "~/lib/rate-limit.server";
import { commitSession, endWebSession, getSession, setPendingEmail, startWebSession } from "~/lib/session.server";
import { joinWithInvitation, rememberedInvitation } from "~/lib/team.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError, InfoMessage, ScreenHeading } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";
import { onFirstInteraction } from "~/components/first-interaction";
import type { Route } from "./+types/login";

export const meta = pageMeta("Ingresá");

/** A refused attempt (429) says when to try again, on the page and on its `.data` answer. */
export const headers = passRetryAfter;

/** Exactly this text, and no session. */
export const UNVERIFIED_MESSAGE = "Por favor, verifique su casilla para validar su correo";

const HIDE = ["password"];

export async function loader({ request, url }: Route.LoaderArgs) {
  await redirectIfSignedIn(request);
  const redirectTo = url.searchParams.get("redirectTo");
  const safe = safeRedirect(redirectTo, "");
  return { redirectTo: safe || undefined };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.clone().formData();
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: HIDE }), unverified: false }, { status: 400 });
  }
  const { email, redirectTo } = submission.value;

  // Failed attempts per (account, client address) and per address: never per account alone,
  // or anyone who knows an operator's e-mail could lock them out.
  const address = clientKey(context);
  const limits = loginChecks(email, address);
  const limited = await consume(limits, { count: false });
  if (limited) {
    return data(
      { result: submission.reply({ formErrors: [limited.message], hideFields: HIDE }), unverified: false },
      { status: 429, headers: retryAfterHeaders(limited) },
    );
  }

  let user;
  try {
    user = await createAuthenticator(context).authenticate("form", request);
  } catch (error) {
    if (error instanceof UnverifiedEmailError) {
      // No session: only what the resend button needs, sealed.
      const session = await getSession(request);
      await endWebSession(session);
      session.unset("user");
      session.unset("sid");
      setPendingEmail(session, { email: error.email, kind: "verify", refreshToken: error.refreshToken });
      return data(
        { result: submission.reply({ hideFields: HIDE }), unverified: true },
        { status: 403, headers: { "Set-Cookie": await commitSession(session) } },
      );
    }
    const bad = isBadCredentials(error);
    if (bad) await countFailure(limits);
    const { field, message } = identityErrorMessage(error);
    const reply =
      field === "form"
        ? submission.reply({ formErrors: [message], hideFields: HIDE })
        : submission.reply({ fieldErrors: { [field]: [message] }, hideFields: HIDE });
    return data({ result: reply, unverified: false }, { status: bad ? 401 : 503 });
  }

  await clearLoginFailures(email, address);
  const session = await getSession(request);
  await startWebSession(session, user);
  // An invitation link opened before signing in: joined now, and that company chosen.
  const invitation = rememberedInvitation(session);
  session.unset("invitation");
  const joined = invitation ? await joinWithInvitation(context, session, user.idToken, invitation) : undefined;
  // Route by company state now (the app guard would do it too, one hop later); the sign-in into
  // the company (the last one used, or the one just joined) is recorded.
  const business = await fetchBusinessAccount(context, user.idToken, { signIn: true }).catch(() => undefined);
  if (business?.businessId) session.set("businessId", business.businessId);
  const to = destinationFor(business, redirectTo);
  const headers = { "Set-Cookie": await commitSession(session) };
  if (joined?.ok) return redirectWithSuccess(to, joined.message, { headers });
  if (joined) return redirectWithError(to, `No pudimos sumarte a la empresa de la invitación: ${joined.message}`, { headers });
  return redirect(to, { headers });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo } = loaderData;
  const navigation = useNavigation();
  const onValidate = useLazySchema(() => import("~/lib/schemas/auth").then((m) => m.loginSchema), onFirstInteraction);
  const [form, fields] = useForm({
    id: "login",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate,
    ...VALIDATE_ON,
  });
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/login");

  return (
    <>
      <ScreenHeading title="Ingresá">Ingresá con tu correo electrónico y tu contraseña.</ScreenHeading>
      <Flex direction="column" gap="4">
        {actionData?.unverified ? (
          <>
            <InfoMessage testId="unverified">{UNVERIFIED_MESSAGE}</InfoMessage>
            <Form method="post" action="/auth/email-send">
              <input type="hidden" name="intent" value="resend" />
              <Button type="submit" variant="soft" size="3" style={{ width: "100%" }}>
                Reenviar correo de verificación
              </Button>
            </Form>
          </>
        ) : null}
        <FormError errors={form.errors} id={form.errorId} />
        <Form method="post" {...getFormProps(form)}>
          <Flex direction="column" gap="4">
            {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
            <Field meta={fields.email} label="Correo electrónico" type="email" autoComplete="username" inputMode="email" />
            <Field meta={fields.password} label="Contraseña" type="password" autoComplete="current-password" />
            <Flex justify="end">
              <Link to="/auth/reset-password">¿Olvidaste tu contraseña?</Link>
            </Flex>
            <Button type="submit" size="3" disabled={busy}>
              Ingresar
            </Button>
          </Flex>
        </Form>
        <Text as="p" size="2" align="center">
          ¿No tenés cuenta? <Link to="/auth/register">Creá tu cuenta</Link>
        </Text>
      </Flex>
    </>
  );
}
