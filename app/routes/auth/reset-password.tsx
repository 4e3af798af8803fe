import { data, redirect, Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Flex, Text } from "@radix-ui/themes";
import { pageMeta } from "~/lib/meta";
import { resetPasswordSchema } from "~/lib/schemas/auth";
import { clientKey, identityClient } from "~/lib/auth.server";
import { IdentityError, identityErrorMessage } from "~/lib/identity.server";
import { consume, limiters, passRetryAfter, retryAfterHeaders } from "~/lib/rate-limit.server";
import { commitSession, getSession, setPendingEmail } from "~/lib/session.server";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError, ScreenHeading } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";
import { onFirstInteraction } from "~/components/first-interaction";
import type { Route } from "./+types/reset-password";

// "Reestablecer" (sic, for "Restablecer") is the screen title the product spec prescribes word for
// word; it stays as written there.
export const meta = pageMeta("Reestablecer contraseña");

/** A refused attempt (429) says when to try again, on the page and on its `.data` answer. */
export const headers = passRetryAfter;

/** Same answer whether or not the account exists: e-mail sent → email-send. */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: resetPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { email } = submission.value;

  const limited = await consume(
    [
      { limiter: limiters.resetIp, key: clientKey(context) },
      { limiter: limiters.resetEmail, key: email },
    ],
    { count: true },
  );
  if (limited) return data({ result: submission.reply({ formErrors: [limited.message] }) }, { status: 429, headers: retryAfterHeaders(limited) });

  try {
    await identityClient(context).sendPasswordReset(email);
  } catch (error) {
    // EMAIL_NOT_FOUND and any other answer about the account: silence. Only an unreachable
    // identity service is worth telling (it says nothing about the address).
    if (!(error instanceof IdentityError) || error.status >= 500) {
      return data({ result: submission.reply({ formErrors: [identityErrorMessage(error).message] }) }, { status: 503 });
    }
  }
  const session = await getSession(request);
  setPendingEmail(session, { email, kind: "reset" });
  return redirect("/auth/email-send", { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const onValidate = useLazySchema(() => import("~/lib/schemas/auth").then((m) => m.resetPasswordSchema), onFirstInteraction);
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate,
    ...VALIDATE_ON,
  });
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/reset-password");

  return (
    <>
      <ScreenHeading title="Reestablecer contraseña">
        Escribí el correo electrónico de tu cuenta y te enviamos un enlace para elegir una nueva contraseña.
      </ScreenHeading>
      <Flex direction="column" gap="4">
        <FormError errors={form.errors} id={form.errorId} />
        <Form method="post" {...getFormProps(form)}>
          <Flex direction="column" gap="4">
            <Field meta={fields.email} label="Correo electrónico" type="email" autoComplete="email" inputMode="email" />
            <Button type="submit" size="3" disabled={busy}>
              Enviar enlace
            </Button>
          </Flex>
        </Form>
        <Text as="p" size="2" align="center">
          ¿Te acordaste? <Link to="/auth/login">Volver al ingreso</Link>
        </Text>
      </Flex>
    </>
  );
}
