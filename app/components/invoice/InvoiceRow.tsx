// One voucher in Comprobantes: its type and number (a link to its detail), receiver (and the
// access group and month of a monthly invoice), amounts, state (with ARCA's reason
// for a rejection or why it waits), the PDF once authorised, and «Reintentar» (a POST form).
import { Form, Link } from "react-router";
import { Badge, Button, Flex, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import type { InvoiceDto } from "#contract/dto";
import { INVOICE_STATUS_LABELS, type InvoiceStatus } from "#contract/schemas/constants";
import { formatArs, formatDateTime } from "~/components/charts/format";
import { monthName, sessionsLabel } from "./month";

const STATUS_COLORS: Record<InvoiceStatus, "green" | "amber" | "red"> = { AUTHORIZED: "green", PENDING: "amber", REJECTED: "red" };

/** "26/11/2026" from an ARCA date. */
const dmy = (d: string) => d.split("-").reverse().join("/");

export function InvoiceRow({ invoice: i, canRetry, busy }: { invoice: InvoiceDto; canRetry: boolean; busy: boolean }) {
  return (
    <Table.Row data-testid="invoice-row">
      <Table.RowHeaderCell className="nowrap">
        <Link to={`/payment/invoice/${i.id}`} data-testid="invoice-link">
          {i.typeLabel ?? "Comprobante"} {i.formattedNumber ? `N° ${i.formattedNumber}` : ""}
        </Link>
        <Text as="div" size="1" color="gray">
          {i.status === "AUTHORIZED" ? `Emitido el ${dmy(i.issueDate)}` : `Creado ${formatDateTime(i.createdAt)}`}
        </Text>
      </Table.RowHeaderCell>
      <Table.Cell>
        {i.receiver.docType === 80 ? `${i.receiver.name ?? ""} · CUIT ${i.receiver.docNumber}` : "Consumidor final"}
        {i.paymentId ? (
          <Text as="div" size="1" color="gray">
            Pago con QR
          </Text>
        ) : i.billingMonth ? (
          <Text as="div" size="1" color="gray" data-testid="invoice-group">
            {i.accessGroup?.name ? `Grupo «${i.accessGroup.name}» · ` : ""}
            <Link to={`/payment/invoice/${i.id}`}>
              {sessionsLabel(i.sessionIds?.length ?? 0)} de {monthName(i.billingMonth)}
            </Link>
          </Text>
        ) : null}
      </Table.Cell>
      <Table.Cell className="num nowrap">{formatArs(i.netCents)}</Table.Cell>
      <Table.Cell className="num nowrap">{formatArs(i.vatCents)}</Table.Cell>
      <Table.Cell className="num nowrap">{formatArs(i.totalCents)}</Table.Cell>
      <Table.Cell>
        <Badge color={STATUS_COLORS[i.status]} data-testid="invoice-status">
          {INVOICE_STATUS_LABELS[i.status]}
        </Badge>
        {i.cae ? (
          <Text as="div" size="1" color="gray">
            CAE {i.cae}
            {i.caeDueDate ? ` · vence ${dmy(i.caeDueDate)}` : ""}
          </Text>
        ) : null}
        {i.lastError ? (
          <Text as="div" size="1" color={i.status === "REJECTED" ? "red" : "gray"} data-testid="invoice-reason">
            {i.lastError}
          </Text>
        ) : null}
      </Table.Cell>
      <Table.Cell>
        <Flex gap="2" align="center" wrap="wrap">
          {i.status === "AUTHORIZED" && i.cae ? (
            <a href={`/payment/invoice/${i.id}/pdf`} target="_blank" rel="noopener" data-testid="invoice-pdf">
              PDF
            </a>
          ) : null}
          {canRetry && i.status !== "AUTHORIZED" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="retry" />
              <input type="hidden" name="invoiceId" value={i.id} />
              <Button type="submit" size="1" variant="soft" disabled={busy} data-testid="invoice-retry">
                Reintentar
              </Button>
            </Form>
          ) : null}
        </Flex>
      </Table.Cell>
    </Table.Row>
  );
}
