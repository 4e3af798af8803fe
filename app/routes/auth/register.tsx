import { data, redirect, Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Flex, Text } from "@radix-ui/themes";
import { pageMeta } from "~/lib/meta";
import { PASSWORD_HINT } from "~/lib/auth-messages";
import { registerSchema } from "~/lib/schemas/auth";
import { clientKey, identityClient, redirectIfSignedIn } from "~/lib/auth.server";
import { IdentityError, identityErrorMessage } from "~/lib/identity.server";
import { consume, limiters, passRetryAfter, retryAfterHeaders } from "~/lib/rate-limit.server";
import { commitSession, getSession, setPendingEmail } from "~/lib/session.server";
import { CheckboxField, Field, VALIDATE_ON } from "~/components/form";
import { FormError, InfoMessage, ScreenHeading } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";
import { onFirstInteraction } from "~/components/first-interaction";
import type { Route } from "./+types/register";

export const meta = pageMeta("Creá tu cuenta");

/** A refused attempt (429) says when to try again, on the page and on its `.data` answer. */
export const headers = passRetryAfter;

const HIDE = ["password", "confirmPassword"];

export async function loader({ request }: Route.LoaderArgs) {
  await redirectIfSignedIn(request);
  // An invitation link opened first: its address is the one to register.
  const invitation = (await getSession(request)).get("invitation");
  return { invitation: invitation ? { email: invitation.email, businessName: invitation.businessName } : null };
}

/**
 * Honeypot: a field people never see nor reach with the keyboard, which form-filling bots
 * fill. A filled one gets the same answer as a real registration, and nothing is created.
 */
export const HONEYPOT_FIELD = "website";

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const trap = formData.get(HONEYPOT_FIELD);
  if (typeof trap === "string" && trap.trim() !== "") {
    const email = String(formData.get("email") ?? "").trim().toLowerCase();
    const session = await getSession(request);
    if (email.length <= 254) setPendingEmail(session, { email, kind: "verify" });
    return redirect("/auth/email-send", { headers: { "Set-Cookie": await commitSession(session) } });
  }
  const submission = parseWithZod(formData, { schema: registerSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: HIDE }) }, { status: 400 });
  }
  const { email, password } = submission.value;

  const limited = await consume(
    [
      { limiter: limiters.registerIp, key: clientKey(context) },
      { limiter: limiters.resendEmail, key: email },
    ],
    { count: true },
  );
  if (limited) {
    return data({ result: submission.reply({ formErrors: [limited.message], hideFields: HIDE }) }, { status: 429, headers: retryAfterHeaders(limited) });
  }

  const identity = identityClient(context);
  let refreshToken: string | undefined;
  try {
    const tokens = await identity.signUp(email, password);
    refreshToken = tokens.refreshToken;
    try {
      await identity.sendEmailVerification(tokens.idToken);
    } catch {
      // The account exists; the e-mail can be sent again from the next screen.
    }
  } catch (error) {
    if (!(error instanceof IdentityError && error.code === "EMAIL_EXISTS")) {
      const { field, message } = identityErrorMessage(error);
      const reply =
        field === "form"
          ? submission.reply({ formErrors: [message], hideFields: HIDE })
          : submission.reply({ fieldErrors: { [field]: [message] }, hideFields: HIDE });
      return data({ result: reply }, { status: error instanceof IdentityError && error.status < 500 ? 400 : 503 });
    }
    // The address already has an account. Say nothing different (never reveal that an e-mail
    // exists): its owner gets a password-reset e-mail, and this screen moves on as usual.
    await identity.sendPasswordReset(email).catch(() => undefined);
  }

  const session = await getSession(request);
  setPendingEmail(session, { email, kind: "verify", refreshToken });
  return redirect("/auth/email-send", { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const invitation = loaderData?.invitation ?? null;
  const onValidate = useLazySchema(() => import("~/lib/schemas/auth").then((m) => m.registerSchema), onFirstInteraction);
  const [form, fields] = useForm({
    id: "register",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate,
    defaultValue: invitation ? { email: invitation.email } : undefined,
    ...VALIDATE_ON,
  });
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/register");

  return (
    <>
      <ScreenHeading title="Creá tu cuenta">Registrate para administrar tus estaciones de carga.</ScreenHeading>
      <Flex direction="column" gap="4">
        {invitation ? (
          <InfoMessage testId="register-invitation">
            Creá tu cuenta con {invitation.email} para unirte a «{invitation.businessName}»: después de verificar tu correo, ingresá y te sumamos.
          </InfoMessage>
        ) : null}
        <FormError errors={form.errors} id={form.errorId} />
        <Form method="post" {...getFormProps(form)}>
          <Flex direction="column" gap="4">
            <div aria-hidden="true" style={{ position: "absolute", left: "-10000px", top: "auto", width: 1, height: 1, overflow: "hidden" }}>
              <label>
                No completar este campo
                <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
              </label>
            </div>
            <Field meta={fields.email} label="Correo electrónico" type="email" autoComplete="email" inputMode="email" />
            <Field meta={fields.password} label="Contraseña" type="password" autoComplete="new-password" hint={PASSWORD_HINT} />
            <Field meta={fields.confirmPassword} label="Repetir contraseña" type="password" autoComplete="new-password" />
            <CheckboxField meta={fields.terms} onChange={() => form.validate({ name: fields.terms.name })}>
              Acepto los{" "}
              <Link to="/auth/terms-conditions" target="_blank" rel="noopener">
                términos y condiciones
              </Link>
            </CheckboxField>
            <Button type="submit" size="3" disabled={busy}>
              Crear cuenta
            </Button>
          </Flex>
        </Form>
        <Text as="p" size="2" align="center">
          ¿Ya tenés cuenta? <Link to="/auth/login">Ingresá</Link>
        </Text>
      </Flex>
    </>
  );
}
