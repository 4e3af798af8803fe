// Refunds a company owes by hand (ADR 0017): Pagos360 documents no refund call, so
// what a Pagos360 driver is owed waits as "Devolución pendiente" until the operator refunds it in
// Pagos360 and records it here. Without JavaScript too: "Registrar devolución" is a link to
// ?refund={id}, which shows the confirmation with the amount (what is owed, editable); the POST
// records it. The server checks the amount again (more than 0, at most what is owed).
import { Form, Link } from "react-router";
import { Button, Callout, Flex, Text, TextField } from "@radix-ui/themes";
import { BiErrorCircle } from "~/icons";
import type { PaymentDto } from "#contract/dto";
import { operationSuffix } from "#domain/driver-payment";
import { formatArs, formatArsInput } from "#domain/money";
import { FormToken } from "~/components/FormToken";
import { PROVIDER_LABELS } from "~/components/activity/labels";

/** The banner above the payments: how many refunds are owed and how much, with a link to them. */
export function RefundsOwedBanner({ count, owedCents, listHref }: { count: number; owedCents: number; listHref: string | null }) {
  if (count <= 0) return null;
  return (
    <Callout.Root color="amber" mb="4" data-testid="refunds-owed">
      <Callout.Icon>
        <BiErrorCircle aria-hidden="true" />
      </Callout.Icon>
      <Callout.Text>
        {count === 1 ? "Tenés 1 devolución pendiente" : `Tenés ${count} devoluciones pendientes`} por {formatArs(owedCents)}. Pagos360 no devuelve los saldos
        automáticamente: devolvelos desde Pagos360 y registralos acá.{" "}
        {listHref ? (
          <Link to={listHref} preventScrollReset>
            Ver las devoluciones pendientes
          </Link>
        ) : null}
      </Callout.Text>
    </Callout.Root>
  );
}

export interface RefundReply {
  refundError?: string;
  amount?: string;
}

/** The confirmation: the payment, the amount refunded (defaults to what is owed) and the POST. */
export function RefundConfirm({ payment, cancelHref, formToken, reply, busy }: { payment: PaymentDto; cancelHref: string; formToken: string; reply?: RefundReply; busy: boolean }) {
  const error = reply?.refundError;
  const provider = PROVIDER_LABELS[payment.provider];
  return (
    <Callout.Root color="amber" role="alertdialog" aria-labelledby="refund-title" aria-describedby="refund-hint" mb="4" data-testid="refund-confirm">
      <Callout.Icon>
        <BiErrorCircle aria-hidden="true" />
      </Callout.Icon>
      <Flex direction="column" gap="3">
        <Text as="p" weight="bold" id="refund-title">
          ¿Registrar la devolución de {formatArs(payment.refundOwedCents)}?
        </Text>
        <Text as="p" size="2" id="refund-hint">
          Pago de {formatArs(payment.amountCents)} con {provider}
          {operationSuffix(payment.externalId)}
          {payment.stationName ? ` en ${payment.stationName}` : ""}: la carga costó {formatArs(payment.chargedCents ?? 0)}. Registrala solo después de devolver el
          dinero desde {provider}; le avisamos al conductor por correo. Si devolviste menos, la diferencia queda cobrada.
        </Text>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="paymentId" value={payment.id} />
          <FormToken value={formToken} />
          <Flex direction="column" gap="2">
            <Text as="label" htmlFor="refund-amount" size="2" weight="medium">
              Monto devuelto (en pesos)
            </Text>
            <TextField.Root
              id="refund-amount"
              name="amount"
              size="3"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={reply?.amount ?? formatArsInput(payment.refundOwedCents)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "refund-amount-error refund-hint" : "refund-hint"}
            />
            <div className="field-below" aria-live="polite">
              {error ? (
                <Text as="div" id="refund-amount-error" size="2" color="red" data-testid="refund-amount-error">
                  {error}
                </Text>
              ) : null}
            </div>
            <Flex gap="3" wrap="wrap">
              <Button type="submit" size="3" disabled={busy}>
                Confirmar devolución
              </Button>
              <Button asChild size="3" variant="soft" color="gray">
                <Link to={cancelHref} preventScrollReset>
                  Cancelar
                </Link>
              </Button>
            </Flex>
          </Flex>
        </Form>
      </Flex>
    </Callout.Root>
  );
}
