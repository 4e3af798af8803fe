// Deleting a rate, confirmed on a page of its own state (`?delete=…`), so it works without
// JavaScript: a link asks, a POST form confirms. A rate in use is refused by the API (409).
import { Form, Link, useNavigation } from "react-router";
import { Button, Callout, Flex, Text } from "@radix-ui/themes";
import { BiErrorCircle, BiTrash } from "~/icons";
import { connectorCountLabel } from "./format";

export function DeleteRateConfirm({
  rate,
  action,
  cancelTo,
  error,
}: {
  rate: { id: string; name: string; connectorCount: number };
  action: string;
  cancelTo: string;
  error?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete";
  return (
    <Callout.Root color="red" role="alertdialog" aria-labelledby="delete-rate-title" mb="5" data-testid="delete-rate-confirm">
      <Callout.Icon>
        <BiTrash aria-hidden="true" />
      </Callout.Icon>
      <Flex direction="column" gap="3">
        <Text as="p" weight="bold" id="delete-rate-title">
          ¿Eliminar la tarifa «{rate.name}»?
        </Text>
        <Text as="p" size="2">
          No se puede deshacer. Las cargas ya registradas conservan los precios con los que se cobraron.
          {rate.connectorCount > 0 ? ` Está en uso: ${connectorCountLabel(rate.connectorCount)}; asignales otra tarifa antes de eliminarla.` : null}
        </Text>
        {error ? (
          <Text as="p" size="2" weight="medium" role="alert" data-testid="delete-rate-error">
            <BiErrorCircle aria-hidden="true" style={{ verticalAlign: "-2px" }} /> {error}
          </Text>
        ) : null}
        <Form method="post" action={action}>
          <input type="hidden" name="id" value={rate.id} />
          <Flex gap="3" wrap="wrap">
            <Button type="submit" name="intent" value="delete" color="red" size="3" disabled={busy}>
              Sí, eliminar
            </Button>
            <Button asChild variant="soft" color="gray" size="3">
              <Link to={cancelTo} replace>
                Cancelar
              </Link>
            </Button>
          </Flex>
        </Form>
      </Flex>
    </Callout.Root>
  );
}
