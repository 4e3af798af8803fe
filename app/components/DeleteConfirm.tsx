// Deleting a tag or a group, confirmed on a page of its own state (`?delete=…`), so it works
// without JavaScript: a link asks, a POST form confirms.
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button, Callout, Flex, Text } from "@radix-ui/themes";
import { BiErrorCircle, BiTrash } from "~/icons";

export function DeleteConfirm({ id, title, children, action, cancelTo, error }: { id: string; title: string; children: ReactNode; action: string; cancelTo: string; error?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete";
  return (
    <Callout.Root color="red" role="alertdialog" aria-labelledby="delete-title" mb="5" data-testid="delete-confirm">
      <Callout.Icon>
        <BiTrash aria-hidden="true" />
      </Callout.Icon>
      <Flex direction="column" gap="3">
        <Text as="p" weight="bold" id="delete-title">
          {title}
        </Text>
        <Text as="p" size="2">
          {children}
        </Text>
        {error ? (
          <Text as="p" size="2" weight="medium" role="alert" data-testid="delete-error">
            <BiErrorCircle aria-hidden="true" style={{ verticalAlign: "-2px" }} /> {error}
          </Text>
        ) : null}
        <Form method="post" action={action}>
          <input type="hidden" name="id" value={id} />
          <Flex gap="3" wrap="wrap">
            <Button type="submit" name="intent" value="delete" color="red" size="3" disabled={busy}>
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
