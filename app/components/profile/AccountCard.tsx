// 'Mi perfil': the account — its e-mail, "Cambiar contraseña" and closing every session.
import { Form } from "react-router";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Button, Flex, Text } from "@radix-ui/themes";
import { BiKey, BiLogOut } from "~/icons";
import { TitledCard } from "~/components/Page";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { PASSWORD_HINT } from "~/lib/auth-messages";
import { useLazySchema } from "~/components/lazy-validation";
import { ReadOnlyField } from "./ReadOnlyField";

export interface AccountCardProps {
  email: string;
  /** The last answer of the password form, once the page is idle. */
  lastResult: SubmissionResult<string[]> | null | undefined;
  changing: boolean;
}

export function AccountCard({ email, lastResult, changing }: AccountCardProps) {
  const validatePassword = useLazySchema(() => import("~/lib/schemas/profile").then((m) => m.passwordChangeSchema));
  const [passwordForm, passwordFields] = useForm({ id: "password", lastResult, onValidate: validatePassword, ...VALIDATE_ON });
  return (
    <TitledCard title="Cuenta" id="account-card">
      <Flex direction="column" gap="4">
        <ReadOnlyField id="account-email" label="Correo electrónico" value={email} testId="account-email" hint="Es el correo con el que ingresás." />
        <Form method="post" {...getFormProps(passwordForm)}>
          <input type="hidden" name="intent" value="password" />
          <Flex direction="column" gap="4">
            <Text as="p" size="3" weight="bold">
              Cambiar contraseña
            </Text>
            <FormError errors={passwordForm.errors} id={passwordForm.errorId} />
            {/* The account's e-mail, for password managers. */}
            <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
            <Field meta={passwordFields.currentPassword} label="Contraseña actual" type="password" autoComplete="current-password" />
            <Field meta={passwordFields.newPassword} label="Nueva contraseña" type="password" autoComplete="new-password" hint={PASSWORD_HINT} />
            <Field meta={passwordFields.confirmPassword} label="Repetir contraseña" type="password" autoComplete="new-password" />
            <Button type="submit" size="3" variant="outline" disabled={changing}>
              <BiKey aria-hidden="true" /> Cambiar contraseña
            </Button>
          </Flex>
        </Form>
        {/* A plain form to /logout: works without JavaScript; the login screen confirms it with a toast. */}
        <Form method="post" action="/logout" data-testid="logout-everywhere">
          <input type="hidden" name="scope" value="all" />
          <Flex direction="column" gap="2">
            <Text as="p" size="3" weight="bold">
              Sesiones
            </Text>
            <Text as="p" size="2" color="gray">
              Cerrá la sesión en todos los navegadores y dispositivos donde ingresaste con tu cuenta, incluido este. Vas a tener que
              volver a ingresar.
            </Text>
            <Button type="submit" size="3" variant="soft" color="red">
              <BiLogOut aria-hidden="true" /> Cerrar sesión en todos los dispositivos
            </Button>
          </Flex>
        </Form>
      </Flex>
    </TitledCard>
  );
}
