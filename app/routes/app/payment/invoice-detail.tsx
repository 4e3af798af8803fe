// Comprobantes → one voucher: its number, receiver, amounts, state and CAE, the PDF, and — for a
// monthly invoice of an access group — the group, the month and every session it covers, each a
// link to the session in Actividad. Read-only; works without JavaScript.
import { Link } from "react-router";
import { Badge, Button, Card, DataList, Flex, Heading, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { endpoints } from "#contract/endpoints";
import { INVOICE_STATUS_LABELS, type InvoiceStatus } from "#contract/schemas/constants";
import { formatCuit } from "#domain/cuit";
import { PageHeader } from "~/components/Page";
import { formatArs, formatDateTime, formatKwh } from "~/components/charts/format";
import { monthName, sessionsLabel } from "~/components/invoice/month";
import { apiFor, ensureLoaded, idParam } from "~/lib/resource.server";
import { notFound } from "~/lib/responses.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/invoice-detail";

export const meta = pageMeta("Comprobante");

const STATUS_COLORS: Record<InvoiceStatus, "green" | "amber" | "red"> = { AUTHORIZED: "green", PENDING: "amber", REJECTED: "red" };
const dmy = (d: string) => d.split("-").reverse().join("/");

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const res = await api.call(endpoints.invoiceGet, { params: { id: idParam(params.id) } });
  if (!res.ok && res.status === 404) notFound("Ese comprobante no existe.");
  return { invoice: ensureLoaded(res) };
}

export default function InvoiceDetail({ loaderData: { invoice: i } }: Route.ComponentProps) {
  const title = `${i.typeLabel ?? "Comprobante"}${i.formattedNumber ? ` N° ${i.formattedNumber}` : ""}`;
  const receiver = i.receiver.docType === 80 ? `${i.receiver.name ?? ""} · CUIT ${formatCuit(i.receiver.docNumber)}` : "Consumidor final";
  return (
    <>
      <PageHeader
        title={title}
        description={i.billingMonth ? `Factura mensual de ${monthName(i.billingMonth)} · ${sessionsLabel(i.sessions.length)}` : i.paymentId ? "Pago con QR" : undefined}
        actions={
          <Flex gap="2" wrap="wrap">
            {i.status === "AUTHORIZED" && i.cae ? (
              <Button asChild variant="soft">
                <a href={`/payment/invoice/${i.id}/pdf`} target="_blank" rel="noopener" data-testid="invoice-pdf">
                  Descargar PDF
                </a>
              </Button>
            ) : null}
            <Button asChild variant="ghost">
              <Link to="/payment/invoice">Volver a Comprobantes</Link>
            </Button>
          </Flex>
        }
      />
      <Card size="3" mb="4">
        <DataList.Root size="2" orientation={{ initial: "vertical", sm: "horizontal" }}>
          <DataList.Item>
            <DataList.Label>Estado</DataList.Label>
            <DataList.Value>
              <Flex direction="column" gap="1">
                <Badge color={STATUS_COLORS[i.status]} data-testid="invoice-status" style={{ alignSelf: "flex-start" }}>
                  {INVOICE_STATUS_LABELS[i.status]}
                </Badge>
                {i.lastError ? (
                  <Text size="1" color={i.status === "REJECTED" ? "red" : "gray"}>
                    {i.lastError}
                  </Text>
                ) : null}
              </Flex>
            </DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Receptor</DataList.Label>
            <DataList.Value data-testid="invoice-receiver">{receiver}</DataList.Value>
          </DataList.Item>
          {i.accessGroup ? (
            <DataList.Item>
              <DataList.Label>Grupo</DataList.Label>
              <DataList.Value>{i.accessGroup.id && i.accessGroup.name ? <Link to={`/group/edit/${i.accessGroup.id}`}>{i.accessGroup.name}</Link> : "Grupo eliminado"}</DataList.Value>
            </DataList.Item>
          ) : null}
          <DataList.Item>
            <DataList.Label>Período</DataList.Label>
            <DataList.Value>
              {dmy(i.serviceFrom)} al {dmy(i.serviceTo)}
            </DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Importes</DataList.Label>
            <DataList.Value>
              Neto {formatArs(i.netCents)} · IVA {formatArs(i.vatCents)} · Total {formatArs(i.totalCents)}
            </DataList.Value>
          </DataList.Item>
          {i.cae ? (
            <DataList.Item>
              <DataList.Label>CAE</DataList.Label>
              <DataList.Value>
                {i.cae}
                {i.caeDueDate ? ` · vence ${dmy(i.caeDueDate)}` : ""}
              </DataList.Value>
            </DataList.Item>
          ) : null}
        </DataList.Root>
      </Card>
      {i.billingMonth ? <CoveredSessions sessions={i.sessions} /> : null}
    </>
  );
}

function CoveredSessions({ sessions }: { sessions: Route.ComponentProps["loaderData"]["invoice"]["sessions"] }) {
  return (
    <section aria-labelledby="invoice-sessions">
      <Heading as="h2" size="4" mb="3" id="invoice-sessions">
        Cargas que cubre
      </Heading>
      <Table.DataTable caption="Cargas que cubre la factura">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>Carga</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Terminó</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Estación</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Tarjeta</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell className="num">Energía</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell className="num">Importe (IVA incl.)</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {sessions.map((s) => (
            <Table.Row key={s.id} data-testid="invoice-session">
              <Table.RowHeaderCell className="nowrap">
                <Link to={`/activity?session=${s.id}`}>N° {s.transactionId}</Link>
              </Table.RowHeaderCell>
              <Table.Cell className="nowrap">{formatDateTime(s.stoppedAt)}</Table.Cell>
              <Table.Cell>{s.stationName ?? "—"}</Table.Cell>
              <Table.Cell>{s.idTag}</Table.Cell>
              <Table.Cell className="num nowrap">{formatKwh(s.energyWh / 1000)}</Table.Cell>
              <Table.Cell className="num nowrap">{formatArs(s.totalCents)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.DataTable>
    </section>
  );
}
