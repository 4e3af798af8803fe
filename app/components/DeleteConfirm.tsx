// Deleting something — a charger, a station, a rate, a group, a tag — is one pattern on every
// screen, and it works without JavaScript: a link ("Eliminar …", soft red, in the page's header)
// opens the confirmation as a state of the page (`?delete=1` on an edit screen, `?delete=<id>` on
// a list); the confirmation is a POST form (intent=delete) with "Sí, eliminar" and "Cancelar"
// (back to the page). A refused delete (say, still in use) shows its reason in the confirmation.
// `intent` and `fields` serve an action that asks for its own intent or extra hidden values.
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button, Callout, Flex, Text } from "@radix-ui/themes";
import { BiErrorCircle, BiTrash } from "~/icons";

/** The header's "Eliminar …" link that asks for the confirmation. */
export function DeleteLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Button asChild size="3" variant="soft" color="red">
      <Link to={to} replace preventScrollReset>
        <BiTrash aria-hidden="true" /> {children}
      </Link>
    </Button>
  );
}

export function DeleteConfirm({
  id,
  title,
  children,
  action,
  cancelTo,
  error,
  testId = "delete-confirm",
  errorTestId = "delete-error",
  intent = "delete",
  fields,
}: {
  id: string;
  title: string;
  children: ReactNode;
  action: string;
  cancelTo: string;
  error?: string;
  testId?: string;
  errorTestId?: string;
  intent?: string;
  fields?: Record<string, string>;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Callout.Root color="red" role="alertdialog" aria-labelledby={`${testId}-title`} mb="5" data-testid={testId}>
      <Callout.Icon>
        <BiTrash aria-hidden="true" />
      </Callout.Icon>
      <Flex direction="column" gap="3">
        <Text as="p" weight="bold" id={`${testId}-title`}>
          {title}
        </Text>
        <Text as="p" size="2">
          {children}
        </Text>
        {error ? (
          <Text as="p" size="2" weight="medium" role="alert" data-testid={errorTestId}>
            <BiErrorCircle aria-hidden="true" style={{ verticalAlign: "-2px" }} /> {error}
          </Text>
        ) : null}
        <Form method="post" action={action}>
          <input type="hidden" name="id" value={id} />
          {fields ? Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />) : null}
          <Flex gap="3" wrap="wrap">
            <Button type="submit" name="intent" value={intent} color="red" size="3" disabled={busy}>
              Sí, eliminar
            </Button>
            <Button asChild size="3" variant="soft" color="gray">
              <Link to={cancelTo} replace preventScrollReset>
                Cancelar
              </Link>
            </Button>
          </Flex>
        </Form>
      </Flex>
    </Callout.Root>
  );
}
