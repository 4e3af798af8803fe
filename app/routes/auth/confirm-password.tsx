import { data, Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Flex, Strong, Text } from "@radix-ui/themes";
import { pageMeta } from "~/lib/meta";
import { PASSWORD_HINT } from "~/lib/auth-messages";
import { confirmPasswordSchema } from "~/lib/schemas/auth";
import { clientKey, identityClient } from "~/lib/auth.server";
import { identityErrorMessage, isBadOobCode } from "~/lib/identity.server";
import { clearLoginFailures } from "~/lib/rate-limit.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError, ScreenHeading } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";
import { onFirstInteraction } from "~/components/first-interaction";
import type { Route } from "./+types/confirm-password";

export const meta = pageMeta("Confirmar contraseña");

export const EXPIRED_MESSAGE = "El enlace para cambiar la contraseña venció o ya fue usado. Pedí uno nuevo.";
export const PASSWORD_CHANGED = "Listo, tu contraseña se actualizó. Ingresá con la nueva contraseña.";

const HIDE = ["password", "confirmPassword"];

/** Checks the code from the e-mail link without using it up, to show the form or say it expired. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const oobCode = url.searchParams.get("oobCode");
  if (!oobCode) return data({ valid: false as const, message: EXPIRED_MESSAGE }, { status: 400 });
  try {
    const { email } = await identityClient(context).checkPasswordResetCode(oobCode);
    return { valid: true as const, oobCode, email };
  } catch (error) {
    if (isBadOobCode(error)) return data({ valid: false as const, message: EXPIRED_MESSAGE }, { status: 400 });
    return data({ valid: false as const, message: identityErrorMessage(error).message }, { status: 503 });
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: confirmPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: HIDE }), expired: false }, { status: 400 });
  const { oobCode, password } = submission.value;
  try {
    const { email } = await identityClient(context).confirmPasswordReset(oobCode, password);
    // A new password wipes the failed attempts counted against the account from this address.
    if (email) await clearLoginFailures(email, clientKey(context));
  } catch (error) {
    if (isBadOobCode(error)) {
      return data({ result: submission.reply({ formErrors: [EXPIRED_MESSAGE], hideFields: HIDE }), expired: true }, { status: 400 });
    }
    const { field, message } = identityErrorMessage(error);
    const reply =
      field === "password"
        ? submission.reply({ fieldErrors: { password: [message] }, hideFields: HIDE })
        : submission.reply({ formErrors: [message], hideFields: HIDE });
    return data({ result: reply, expired: false }, { status: field === "password" ? 400 : 503 });
  }
  return redirectWithSuccess("/auth/login", PASSWORD_CHANGED);
}

export default function ConfirmPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const onValidate = useLazySchema(() => import("~/lib/schemas/auth").then((m) => m.confirmPasswordSchema), onFirstInteraction);
  const [form, fields] = useForm({
    id: "confirm-password",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate,
    ...VALIDATE_ON,
  });
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/confirm-password");

  if (!loaderData.valid || actionData?.expired) {
    return (
      <>
        <ScreenHeading title="Confirmar contraseña" />
        <Flex direction="column" gap="4">
          <FormError errors={[loaderData.valid ? EXPIRED_MESSAGE : loaderData.message]} />
          <Button asChild size="3">
            <Link to="/auth/reset-password">Pedir un enlace nuevo</Link>
          </Button>
          <Text as="p" size="2" align="center">
            <Link to="/auth/login">Volver al ingreso</Link>
          </Text>
        </Flex>
      </>
    );
  }

  return (
    <>
      <ScreenHeading title="Confirmar contraseña">
        Elegí una nueva contraseña{loaderData.email ? <> para <Strong>{loaderData.email}</Strong></> : null}.
      </ScreenHeading>
      <Flex direction="column" gap="4">
        <FormError errors={form.errors} id={form.errorId} />
        <Form method="post" {...getFormProps(form)}>
          <Flex direction="column" gap="4">
            <input type="hidden" name="oobCode" value={loaderData.oobCode} />
            <Field meta={fields.password} label="Nueva contraseña" type="password" autoComplete="new-password" hint={PASSWORD_HINT} />
            <Field meta={fields.confirmPassword} label="Repetir contraseña" type="password" autoComplete="new-password" />
            <Button type="submit" size="3" disabled={busy}>
              Guardar contraseña
            </Button>
          </Flex>
        </Form>
      </Flex>
    </>
  );
}
