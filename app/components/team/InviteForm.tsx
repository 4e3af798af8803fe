// Equipo: "Invitar a alguien" — an e-mail and the role it joins with.
import { Form, useNavigation } from "react-router";
import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { Button, Flex, Text } from "@radix-ui/themes";
import { ASSIGNABLE_ROLES, ROLE_LABELS } from "#domain/permissions";
import { BiUserPlus } from "~/icons";
import { Field, FieldError, VALIDATE_ON } from "~/components/form";
import { withAutoFocus } from "~/lib/autofocus";
import { FormError } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";

export function InviteForm({ lastResult }: { lastResult: unknown }) {
  const navigation = useNavigation();
  const onValidate = useLazySchema(() => import("#contract/schemas/team").then((m) => m.invitationInputSchema));
  const [form, fields] = useForm({
    id: "invite",
    lastResult: navigation.state === "idle" ? (lastResult as never) : null,
    onValidate,
    defaultValue: { role: "TECHNICIAN" },
    ...VALIDATE_ON,
  });
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "invite";
  const { key: _key, ...roleSelect } = withAutoFocus(fields.role, getSelectProps(fields.role)) as ReturnType<typeof getSelectProps> & { key?: string };
  return (
    <Form method="post" {...getFormProps(form)} data-testid="invite-form">
      <input type="hidden" name="intent" value="invite" />
      <Flex direction="column" gap="3">
        <FormError errors={form.errors} id={form.errorId} />
        <Field
          meta={fields.email}
          label="Correo electrónico"
          type="email"
          autoComplete="off"
          inputMode="email"
          hint="Le llega un enlace que vale una sola vez, por 7 días."
        />
        <Flex direction="column" gap="1">
          <Text as="label" htmlFor={fields.role.id} size="2" weight="medium">
            Rol
          </Text>
          <select {...roleSelect} className="field-select">
            {ASSIGNABLE_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
          <FieldError meta={fields.role} className="field-error-slot" />
        </Flex>
        <div>
          <Button type="submit" size="3" disabled={busy}>
            <BiUserPlus aria-hidden="true" /> Enviar invitación
          </Button>
        </div>
      </Flex>
    </Form>
  );
}
