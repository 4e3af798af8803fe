// The pieces of the payments screen (routes/app/payment/index.tsx): its two accounts, the totals
// of the filtered list and one payment's row (with a dispute's amount at risk, a double payment's
// first, and the action that blocks a disputing driver).
import { Form, Link } from "react-router";
import { Badge, Button, Card, Grid, Heading, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import type { PaymentAccountDto, PaymentDto } from "#contract/dto";
import { ProviderCard } from "~/components/payment/ProviderStatus";
import { PAYMENT_STATUS_COLORS, PAYMENT_STATUS_LABELS, PROVIDER_LABELS, QR_STEP_LABELS } from "~/components/activity/labels";
import { formatArs, formatDateTime } from "~/components/charts/format";

/** The two payment accounts; one that could not be read says so instead of its card. */
export function Accounts({ accounts, canManage }: { accounts: (PaymentAccountDto | null)[]; canManage: boolean }) {
  return (
    <section aria-label="Cuentas de cobro">
      <Grid columns={{ initial: "1", sm: "2" }} gap="4" mb="6">
        {accounts.map((a, i) =>
          a ? (
            <ProviderCard key={a.provider} account={a} canManage={canManage} />
          ) : (
            <Card key={i} size="3">
              <Heading as="h2" size="5" mb="2">
                {i === 0 ? "Mercado Pago" : "Pagos360"}
              </Heading>
              <Text color="gray">No pudimos consultar el estado de esta cuenta. Probá de nuevo en unos minutos.</Text>
            </Card>
          ),
        )}
      </Grid>
    </section>
  );
}

/** Blocks (or unblocks) the driver of a disputed or charged-back payment: one button, without JavaScript too. */
function BlockDriverForm({ payment: p, busy }: { payment: PaymentDto; busy: boolean }) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="paymentId" value={p.id} />
      <input type="hidden" name="intent" value={p.driverBlocked ? "unblock" : "block"} />
      <Button type="submit" size="1" variant="soft" color={p.driverBlocked ? "gray" : "red"} disabled={busy} data-testid={p.driverBlocked ? "unblock-driver" : "block-driver"}>
        {p.driverBlocked ? "Desbloquear al conductor" : "Bloquear a este conductor"}
      </Button>
    </Form>
  );
}

/** What a dispute or chargeback puts at stake, whether its driver is blocked, and the action; and a second payment's first. */
function AfterLife({ payment: p, canBlock, busy }: { payment: PaymentDto; canBlock: boolean; busy: boolean }) {
  const disputed = p.status === "IN_DISPUTE" || p.status === "CHARGED_BACK";
  return (
    <>
      {p.parentPaymentId ? (
        <Text as="div" size="1" color="gray" data-testid="payment-double">
          Pago doble de {p.parentExternalId ? `la operación ${p.parentExternalId}` : "otro pago de la misma carga"}: se devuelve completo
        </Text>
      ) : null}
      {disputed ? (
        <Text as="div" size="1" color="red" data-testid="payment-at-risk">
          {p.status === "IN_DISPUTE" ? "En riesgo" : "Perdido"}: {formatArs(p.atRiskCents)}
        </Text>
      ) : null}
      {p.driverBlocked ? (
        <Text as="div" size="1" color="gray" data-testid="driver-blocked">
          Conductor bloqueado
        </Text>
      ) : null}
      {canBlock && (disputed || p.driverBlocked) ? <BlockDriverForm payment={p} busy={busy} /> : null}
    </>
  );
}

/** `refundHref` is null for the roles that may not record refunds; `canBlock`, whether the role may block a driver. */
export function PaymentRow({ payment: p, refundHref, canBlock = false, busy = false }: { payment: PaymentDto; refundHref: string | null; canBlock?: boolean; busy?: boolean }) {
  return (
    <Table.Row data-testid="payment-row">
      <Table.RowHeaderCell className="nowrap">{formatDateTime(p.createdAt)}</Table.RowHeaderCell>
      <Table.Cell>
        {p.sessionId ? (
          <Link to={`/activity?session=${p.sessionId}`}>
            {p.transactionId ? `#${p.transactionId}` : "Ver carga"}
            {p.stationName ? ` · ${p.stationName}` : ""}
          </Link>
        ) : (
          (p.stationName ?? "—")
        )}
        {p.origin === "QR" ? (
          <Text as="div" size="1" color="gray">
            Carga con QR{p.chargedCents != null ? ` · costó ${formatArs(p.chargedCents)}` : ""}
          </Text>
        ) : null}
        {p.externalId ? (
          <Text as="div" size="1" color="gray">
            Operación {p.externalId}
          </Text>
        ) : null}
      </Table.Cell>
      <Table.Cell>{PROVIDER_LABELS[p.provider]}</Table.Cell>
      <Table.Cell className="num nowrap">{formatArs(p.amountCents)}</Table.Cell>
      <Table.Cell className="num nowrap">{p.refundedCents ? formatArs(p.refundedCents) : "—"}</Table.Cell>
      <Table.Cell className="num nowrap" data-testid="payment-fee">{p.feeCents != null ? formatArs(p.feeCents) : "—"}</Table.Cell>
      <Table.Cell className="num nowrap">{formatArs(p.netCents)}</Table.Cell>
      <Table.Cell>
        <Badge color={PAYMENT_STATUS_COLORS[p.status]}>{PAYMENT_STATUS_LABELS[p.status]}</Badge>
        {p.step === "REFUND_PENDING" ? (
          <>
            <Badge color="amber" data-testid="payment-step">
              {QR_STEP_LABELS[p.step]}
            </Badge>
            <Text as="div" size="1" color="gray" data-testid="refund-owed">
              A devolver {formatArs(p.refundOwedCents)}
            </Text>
            {refundHref ? (
              <Link to={refundHref} preventScrollReset data-testid="refund-link">
                Registrar devolución
              </Link>
            ) : null}
          </>
        ) : p.step ? (
          <Text as="div" size="1" color="gray" data-testid="payment-step">
            {QR_STEP_LABELS[p.step]}
          </Text>
        ) : null}
        <AfterLife payment={p} canBlock={canBlock} busy={busy} />
      </Table.Cell>
    </Table.Row>
  );
}

export function Total({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card size="1" data-testid={testId}>
      <Text as="div" size="2" color="gray">
        {label}
      </Text>
      <Text as="div" size="4" weight="bold">
        {value}
      </Text>
    </Card>
  );
}
