import { data, Link } from "react-router";
import { Badge, Card, Grid, Heading, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiCreditCard } from "~/icons";
import type { PaymentAccountDto, PaymentPage } from "#api/types";
import { PAYMENT_PROVIDERS, PAYMENT_STATUSES } from "#api/schemas/constants";
import { paymentListQuery } from "#api/schemas/queries";
import { EmptyState, PageHeader } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { FilterBar, Pagination, SortHeader, listParams } from "~/components/list";
import { DataTable } from "~/components/table";
import { ProviderCard } from "~/components/payment/ProviderStatus";
import { PAYMENT_STATUS_COLORS, PAYMENT_STATUS_LABELS, PROVIDER_LABELS, QR_STEP_LABELS, UNAVAILABLE } from "~/components/activity/labels";
import { fetchJson, pickParams, createApiClient } from "~/lib/api.server";
import { FilterDate, FilterSelect, queryErrors } from "~/components/activity/filters";
import { formatArs, formatDateTime, formatInt } from "~/components/charts/format";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import type { Route } from "./+types/index";

export const meta = pageMeta("Pagos");

const FILTER_KEYS = ["provider", "status", "from", "to"] as const;
const LIST_KEYS = [...FILTER_KEYS, "sort", "page", "pageSize"] as const;
const DEFAULT_SORT = "-createdAt";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const api = createApiClient(context, user.idToken);

  const raw = pickParams(url.searchParams, LIST_KEYS);
  const errors = queryErrors(paymentListQuery.safeParse(Object.fromEntries(raw)).error?.issues);
  const query = new URLSearchParams();
  for (const [k, v] of raw) if (!errors[k]) query.set(k, v);
  const { page, pageSize } = listParams(url);

  const [mp, p360, list] = await Promise.all([
    fetchJson<PaymentAccountDto>(api, "/MercadoPago/BusinessUser"),
    fetchJson<PaymentAccountDto>(api, "/Pagos360/BusinessUser"),
    fetchJson<PaymentPage>(api, `/Business/Payments?${query}`),
  ]);
  return data({
    accounts: [mp, p360].map((r) => (r.ok ? r.data : null)),
    filters: Object.fromEntries(FILTER_KEYS.map((k) => [k, raw.get(k) ?? ""])) as Record<(typeof FILTER_KEYS)[number], string>,
    errors,
    sort: query.get("sort") ?? DEFAULT_SORT,
    page: list.ok ? list.data.page : page,
    pageSize: list.ok ? list.data.pageSize : pageSize,
    items: list.ok ? list.data.items : [],
    total: list.ok ? list.data.total : 0,
    totals: list.ok ? list.data.totals : null,
    error: list.ok ? null : UNAVAILABLE,
    filtered: FILTER_KEYS.some((k) => raw.has(k)),
  });
}

export default function Payments({ loaderData }: Route.ComponentProps) {
  const d = loaderData;
  // Issue 26: Facturación and Lectura see the accounts without managing them.
  const canManage = useAccess().can("payment.write");
  return (
    <>
      <PageHeader title="Pagos" description="Tus cuentas de cobro y los pagos de las cargas." />
      <section aria-label="Cuentas de cobro">
        <Grid columns={{ initial: "1", sm: "2" }} gap="4" mb="6">
          {d.accounts.map((a, i) =>
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

      <Heading as="h2" size="5" mb="3">
        Pagos recibidos
      </Heading>
      <FilterBar label="Filtrar pagos">
        <FilterSelect name="provider" label="Proveedor" value={d.filters.provider} error={d.errors.provider} options={PAYMENT_PROVIDERS.map((p) => [p, PROVIDER_LABELS[p]])} />
        <FilterSelect name="status" label="Estado" value={d.filters.status} error={d.errors.status} options={PAYMENT_STATUSES.map((s) => [s, PAYMENT_STATUS_LABELS[s]])} />
        <FilterDate name="from" label="Desde" value={d.filters.from} error={d.errors.from} />
        <FilterDate name="to" label="Hasta" value={d.filters.to} error={d.errors.to} />
        {d.sort !== DEFAULT_SORT ? <input type="hidden" name="sort" value={d.sort} /> : null}
      </FilterBar>

      {d.error ? (
        <InfoMessage color="red">{d.error}</InfoMessage>
      ) : (
        <>
          {d.totals ? (
            <Grid columns={{ initial: "2", md: "4" }} gap="3" mb="4" data-testid="payment-totals">
              <Total label="Pagos" value={formatInt(d.totals.count)} testId="total-count" />
              <Total label="Aprobados" value={formatArs(d.totals.approvedCents)} testId="total-approved" />
              <Total label="Pendientes" value={formatArs(d.totals.pendingCents)} testId="total-pending" />
              <Total label="Devueltos" value={formatArs(d.totals.refundedCents)} testId="total-refunded" />
            </Grid>
          ) : null}
          {d.items.length === 0 ? (
            <EmptyState icon={<BiCreditCard size={48} />} title={d.filtered ? "No hay pagos con estos filtros" : "Todavía no recibiste pagos"}>
              {d.filtered ? "Probá con otro período u otros filtros." : "Cuando un conductor pague una carga, vas a ver el pago acá."}
            </EmptyState>
          ) : (
            <>
              <DataTable caption="Pagos">
                <Table.Header>
                  <Table.Row>
                    <SortHeader field="createdAt" sort={d.sort}>
                      Fecha
                    </SortHeader>
                    <Table.ColumnHeaderCell>Carga</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Proveedor</Table.ColumnHeaderCell>
                    <SortHeader field="amountCents" sort={d.sort}>
                      Monto
                    </SortHeader>
                    <Table.ColumnHeaderCell className="num">Devuelto</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell className="num">Neto</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Estado</Table.ColumnHeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {d.items.map((p) => (
                    <Table.Row key={p.id} data-testid="payment-row">
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
                      <Table.Cell className="num nowrap">{formatArs(p.netCents)}</Table.Cell>
                      <Table.Cell>
                        <Badge color={PAYMENT_STATUS_COLORS[p.status]}>{PAYMENT_STATUS_LABELS[p.status]}</Badge>
                        {p.step ? (
                          <Text as="div" size="1" color="gray" data-testid="payment-step">
                            {QR_STEP_LABELS[p.step]}
                          </Text>
                        ) : null}
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </DataTable>
              <Pagination page={d.page} pageSize={d.pageSize} total={d.total} />
            </>
          )}
        </>
      )}
    </>
  );
}

function Total({ label, value, testId }: { label: string; value: string; testId: string }) {
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
