// Pagos → Comprobantes: the electronic vouchers ARCA authorised (or is yet to) for the sales, with
// the period, type and state filters (GET form), state chips with how many wait for ARCA, ARCA's
// reason for a rejection, «Reintentar» (POST), each voucher's PDF and the Libro IVA Ventas CSV.
// Works without JavaScript.
import { data, Link, useNavigation } from "react-router";
import { Button, Flex } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiCreditCard } from "~/icons";
import { endpoints } from "#contract/endpoints";
import { INVOICE_STATUS_LABELS, INVOICE_STATUSES, UUID_RE } from "#contract/schemas/constants";
import { invoiceListQuery } from "#contract/schemas/queries";
import { INVOICE_TYPE_CODES, INVOICE_TYPE_LABELS } from "#domain/invoice";
import { EmptyState } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { listParams } from "~/components/list";
import { ActionsHeader, ListScreen, ListTable } from "~/components/list/ListScreen";
import { FilterDate, FilterSelect, queryErrors } from "~/components/activity/filters";
import { UNAVAILABLE } from "~/components/activity/labels";
import { InvoiceRow } from "~/components/invoice/InvoiceRow";
import { createApiClient, pickParams, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/invoice";

export const meta = pageMeta("Comprobantes");

const FILTER_KEYS = ["type", "status", "from", "to"] as const;
const LIST_KEYS = [...FILTER_KEYS, "page", "pageSize"] as const;

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const raw = pickParams(url.searchParams, LIST_KEYS);
  const errors = queryErrors(invoiceListQuery.safeParse(Object.fromEntries(raw)).error?.issues);
  const query = new URLSearchParams();
  for (const [k, v] of raw) if (!errors[k] && !(k === "from" && errors.to)) query.set(k, v);
  const { page, pageSize } = listParams(url);
  const list = await createApiClient(context, user.idToken).call(endpoints.invoiceList, { query });
  const exportQuery = new URLSearchParams([...query].filter(([k]) => k === "from" || k === "to" || k === "type"));
  return data({
    filters: Object.fromEntries(FILTER_KEYS.map((k) => [k, raw.get(k) ?? ""])) as Record<(typeof FILTER_KEYS)[number], string>,
    errors,
    page: list.ok ? list.data.page : page,
    pageSize: list.ok ? list.data.pageSize : pageSize,
    items: list.ok ? list.data.items : [],
    total: list.ok ? list.data.total : 0,
    pendingCount: list.ok ? list.data.pendingCount : 0,
    error: list.ok ? null : UNAVAILABLE,
    filtered: FILTER_KEYS.some((k) => raw.has(k)),
    here: query.toString(),
    exportQuery: exportQuery.toString(),
  });
}

/** «Reintentar»: ARCA is asked again for a rejected or waiting voucher. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const search = new URL(request.url).search;
  const back = `/payment/invoice${search}`;
  const id = String(form.get("invoiceId") ?? "");
  if (form.get("intent") !== "retry" || !UUID_RE.test(id)) return redirectWithError(back, "No entendimos qué querías hacer. Probá de nuevo.");
  const res = await createApiClient(context, user.idToken).call(endpoints.invoiceRetry, { params: { id } });
  if (res.ok) return redirectWithSuccess(back, "Le volvimos a pedir el CAE a ARCA. Si no responde, lo reintentamos automáticamente.");
  if (res.status === 404) return redirectWithError(back, "Ese comprobante no existe.");
  return redirectWithError(back, res.problem.type === UNREACHABLE_PROBLEM ? "No pudimos reintentar en este momento. Probá de nuevo en unos minutos." : res.problem.title);
}

/** Todos · Autorizados · Pendientes (n) · Rechazados: links keeping the other filters. */
function StatusChips({ current, pending, here }: { current: string; pending: number; here: string }) {
  const hrefFor = (status: string) => {
    const next = new URLSearchParams(here);
    next.delete("page");
    if (status) next.set("status", status);
    else next.delete("status");
    return `/payment/invoice${next.size ? `?${next}` : ""}`;
  };
  const chips: [string, string][] = [["", "Todos"], ...INVOICE_STATUSES.map((s): [string, string] => [s, s === "PENDING" ? `${INVOICE_STATUS_LABELS[s]}s (${pending})` : `${INVOICE_STATUS_LABELS[s]}s`])];
  return (
    <Flex gap="2" wrap="wrap" mb="3" asChild>
      <nav aria-label="Estado de los comprobantes">
        {chips.map(([s, label]) => (
          <Button key={s || "all"} asChild size="1" variant={current === s ? "solid" : "soft"} radius="full">
            <Link to={hrefFor(s)} aria-current={current === s ? "page" : undefined} data-testid={`invoice-chip-${s || "ALL"}`}>
              {label}
            </Link>
          </Button>
        ))}
      </nav>
    </Flex>
  );
}

export default function Invoices({ loaderData: d }: Route.ComponentProps) {
  const { can } = useAccess();
  const canRetry = can("invoice.retry");
  const busy = useNavigation().state === "submitting";
  const summary = (
    <>
      <StatusChips current={d.filters.status} pending={d.pendingCount} here={d.here} />
      {d.pendingCount > 0 ? (
        <InfoMessage color="amber">
          <span data-testid="invoice-pending-count">
            {d.pendingCount === 1 ? "1 comprobante espera" : `${d.pendingCount} comprobantes esperan`} a ARCA: los reintentamos automáticamente.
          </span>
        </InfoMessage>
      ) : null}
    </>
  );
  return (
    <ListScreen
      title="Comprobantes"
      description="Las facturas electrónicas y notas de crédito de tus ventas, autorizadas por ARCA."
      actions={
        <Flex gap="2" wrap="wrap">
          <Button asChild variant="soft">
            <a href={`/payment/invoice/export.csv${d.exportQuery ? `?${d.exportQuery}` : ""}`} download data-testid="invoice-csv">
              Descargar CSV
            </a>
          </Button>
          <Button asChild variant="ghost">
            <Link to="/payment">Volver a Pagos</Link>
          </Button>
        </Flex>
      }
      filters={{
        label: "Filtrar comprobantes",
        fields: (
          <>
            <FilterSelect name="type" label="Tipo" value={d.filters.type} error={d.errors.type} options={INVOICE_TYPE_CODES.map((t) => [String(t), INVOICE_TYPE_LABELS[t]])} />
            <FilterSelect name="status" label="Estado" value={d.filters.status} error={d.errors.status} options={INVOICE_STATUSES.map((s) => [s, INVOICE_STATUS_LABELS[s]])} />
            <FilterDate name="from" label="Desde" value={d.filters.from} error={d.errors.from} />
            <FilterDate name="to" label="Hasta" value={d.filters.to} error={d.errors.to} />
          </>
        ),
      }}
      noMatch={
        d.error ? (
          <InfoMessage color="red">{d.error}</InfoMessage>
        ) : d.items.length === 0 ? (
          <>
            {summary}
            <EmptyState icon={<BiCreditCard size={48} />} title={d.filtered ? "No hay comprobantes con estos filtros" : "Todavía no hay comprobantes"}>
              {d.filtered ? "Probá con otro período u otros filtros." : "Cuando se cobre una carga con QR, su factura aparece acá."}
            </EmptyState>
          </>
        ) : null
      }
      pagination={d}
    >
      {summary}
      <ListTable
        caption="Comprobantes"
        head={
          <>
            <Table.ColumnHeaderCell>Comprobante</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Receptor</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell className="num">Neto</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell className="num">IVA</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell className="num">Total</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Estado</Table.ColumnHeaderCell>
            <ActionsHeader />
          </>
        }
      >
        {d.items.map((i) => (
          <InvoiceRow key={i.id} invoice={i} canRetry={canRetry} busy={busy} />
        ))}
      </ListTable>
    </ListScreen>
  );
}
