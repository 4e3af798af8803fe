// The state of a payment-provider account (connected / not connected / error) and the
// two-step disconnect that works without JavaScript (a link to ?confirm=disconnect, then a POST).
import { Form, Link } from "react-router";
import { Badge, Button, Callout, Card, DataList, Flex, Heading, Text } from "@radix-ui/themes";
import { BiCheckCircle, BiErrorCircle, BiLinkExternal, BiUnlink } from "~/icons";
import type { PaymentAccountDto } from "#contract/dto";
import { formatDateTime } from "~/components/charts/format";
import { PROVIDER_LABELS } from "~/components/activity/labels";

export const PROVIDER_PATHS: Record<PaymentAccountDto["provider"], string> = {
  MERCADOPAGO: "/payment/payments/mercadoPago",
  PAGOS360: "/payment/payments/pagos360",
};

export const ACCOUNT_STATUS: Record<PaymentAccountDto["status"], { label: string; color: "green" | "gray" | "red" }> = {
  CONNECTED: { label: "Conectada", color: "green" },
  DISCONNECTED: { label: "No conectada", color: "gray" },
  ERROR: { label: "Con error", color: "red" },
};

/** The account's status badge. */
export function AccountBadge({ account }: { account: PaymentAccountDto }) {
  const s = ACCOUNT_STATUS[account.status];
  return (
    <Badge size="2" color={s.color} data-testid={`account-status-${account.provider}`}>
      {account.status === "CONNECTED" ? <BiCheckCircle aria-hidden="true" /> : account.status === "ERROR" ? <BiErrorCircle aria-hidden="true" /> : null}
      {s.label}
    </Badge>
  );
}

/** What we know of the account, never the credentials (only their last 4 characters). */
export function AccountDetails({ account }: { account: PaymentAccountDto }) {
  if (account.status === "DISCONNECTED") {
    return (
      <Text as="p" color="gray" size="2">
        Todavía no conectaste una cuenta de {PROVIDER_LABELS[account.provider]}.
      </Text>
    );
  }
  return (
    <Flex direction="column" gap="3">
      {account.status === "ERROR" && account.lastError ? (
        <Callout.Root color="red" size="1" role="alert">
          <Callout.Icon>
            <BiErrorCircle aria-hidden="true" />
          </Callout.Icon>
          <Callout.Text>{account.lastError}</Callout.Text>
        </Callout.Root>
      ) : null}
      <DataList.Root size="2">
        {account.accountLabel ? (
          <DataList.Item>
            <DataList.Label minWidth="120px">Cuenta</DataList.Label>
            <DataList.Value>{account.accountLabel}</DataList.Value>
          </DataList.Item>
        ) : null}
        <DataList.Item>
          <DataList.Label minWidth="120px">Credencial</DataList.Label>
          <DataList.Value>
            <span data-testid={`account-last4-${account.provider}`}>termina en ••••{account.last4 ?? "????"}</span>
          </DataList.Value>
        </DataList.Item>
        {account.environment ? (
          <DataList.Item>
            <DataList.Label minWidth="120px">Entorno</DataList.Label>
            <DataList.Value>
              <Badge color={account.environment === "TEST" ? "amber" : "green"} variant="soft">
                {account.environment === "TEST" ? "Pruebas (TEST)" : "Producción"}
              </Badge>
            </DataList.Value>
          </DataList.Item>
        ) : null}
        {account.updatedAt ? (
          <DataList.Item>
            <DataList.Label minWidth="120px">Actualizada</DataList.Label>
            <DataList.Value>{formatDateTime(account.updatedAt)}</DataList.Value>
          </DataList.Item>
        ) : null}
      </DataList.Root>
    </Flex>
  );
}

/** A provider's card on the Pagos screen. */
export function ProviderCard({ account, canManage = true }: { account: PaymentAccountDto; canManage?: boolean }) {
  const name = PROVIDER_LABELS[account.provider];
  return (
    <Card size="3" data-testid={`provider-${account.provider}`}>
      <Flex direction="column" gap="3" height="100%">
        <Flex justify="between" align="center" gap="2" wrap="wrap">
          <Heading as="h2" size="5">
            {name}
          </Heading>
          <AccountBadge account={account} />
        </Flex>
        <AccountDetails account={account} />
        <Flex mt="auto" pt="2">
          <Button asChild size="3" variant={account.status === "CONNECTED" ? "soft" : "solid"}>
            <Link to={PROVIDER_PATHS[account.provider]}>
              <BiLinkExternal aria-hidden="true" /> {!canManage ? `Ver ${name}` : account.status === "DISCONNECTED" ? `Conectar ${name}` : `Administrar ${name}`}
            </Link>
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}

/** Disconnect: first a link that asks for confirmation, then the POST. */
export function DisconnectSection({ account, confirming, busy }: { account: PaymentAccountDto; confirming: boolean; busy: boolean }) {
  if (account.status === "DISCONNECTED") return null;
  const name = PROVIDER_LABELS[account.provider];
  if (!confirming) {
    return (
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Text size="2" color="gray">
          Si desconectás la cuenta, no vas a poder cobrar cargas con {name} hasta que la vuelvas a conectar.
        </Text>
        <Button asChild size="3" color="red" variant="soft">
          <Link to="?confirm=disconnect" preventScrollReset>
            <BiUnlink aria-hidden="true" /> Desconectar
          </Link>
        </Button>
      </Flex>
    );
  }
  return (
    <Callout.Root color="red" role="alertdialog" aria-labelledby="disconnect-title" data-testid="disconnect-confirm">
      <Callout.Icon>
        <BiErrorCircle aria-hidden="true" />
      </Callout.Icon>
      <Flex direction="column" gap="3">
        <Text as="p" weight="bold" id="disconnect-title">
          ¿Desconectar la cuenta de {name}?
        </Text>
        <Text as="p" size="2">
          Vamos a borrar las credenciales guardadas. Las cargas nuevas no se van a poder cobrar con {name} hasta que la vuelvas a conectar.
        </Text>
        <Flex gap="3" wrap="wrap">
          <Form method="post">
            <input type="hidden" name="intent" value="disconnect" />
            <Button type="submit" size="3" color="red" disabled={busy}>
              Sí, desconectar
            </Button>
          </Form>
          <Button asChild size="3" variant="soft" color="gray">
            <Link to="." preventScrollReset>
              Cancelar
            </Link>
          </Button>
        </Flex>
      </Flex>
    </Callout.Root>
  );
}
