import { data, Link, useNavigation } from "react-router";
import { Flex, Grid, Heading } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiCreditCard } from "~/icons";
import { endpoints } from "#contract/endpoints";
import { PAYMENT_PROVIDERS, PAYMENT_STATUSES, UUID_RE } from "#contract/schemas/constants";
import { parseArsInput } from "#domain/money";
import { paymentListQuery } from "#contract/schemas/queries";
import { EmptyState } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { SortHeader, listParams } from "~/components/list";
import { ListScreen, ListTable } from "~/components/list/ListScreen";
import { Accounts, PaymentRow, Total } from "~/components/payment/PaymentList";
import { PAYMENT_STATUS_LABELS, PROVIDER_LABELS, QR_STEP_LABELS, UNAVAILABLE } from "~/components/activity/labels";
import { pickParams, createApiClient, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { FilterDate, FilterSelect, queryErrors } from "~/components/activity/filters";
import { formatArs, formatInt } from "~/components/charts/format";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { idempotencyInit, newFormToken } from "~/lib/form-token";
import { dataWithError, redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { RefundConfirm, RefundsOwedBanner, type RefundReply } from "~/components/payment/RefundPending";
import type { Route } from "./+types/index";

export const meta = pageMeta("Pagos");

const FILTER_KEYS = ["provider", "status", "step", "from", "to"] as const;
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
  // ?refund={id} asks to confirm recording a refund made by hand (Pagos360).
  const refundId = url.searchParams.get("refund");

  const [mp, p360, list] = await Promise.all([
    api.call(endpoints.mercadoPagoAccountGet),
    api.call(endpoints.pagos360AccountGet),
    api.call(endpoints.paymentList, { query }),
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
    refund: refundId
      ? {
          id: refundId,
          payment: (list.ok ? list.data.items : []).find((p) => p.id === refundId && p.step === "REFUND_PENDING" && p.refundOwedCents > 0) ?? null,
          formToken: newFormToken(),
        }
      : null,
  });
}

const REFUND_FAILED = "No pudimos registrar la devolución en este momento. Probá de nuevo en unos minutos.";

/** Where the list was (its filters, sort and page), without the refund being confirmed. */
function listHref(search: URLSearchParams | string): string {
  const params = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const k of LIST_KEYS) {
    const v = params.get(k);
    if (v) kept.set(k, v);
  }
  return `/payment${kept.size ? `?${kept}` : ""}`;
}

/**
 * Record a refund the company made by hand (Pagos360 has no refund call).
 * The amount is typed in pesos (what is owed unless changed); the API checks it against what is owed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const id = String(form.get("paymentId") ?? "");
  const back = listHref(new URL(request.url).search);
  const intent = form.get("intent");
  if ((intent !== "refund" && intent !== "block" && intent !== "unblock") || !UUID_RE.test(id)) return redirectWithError(back, "No entendimos qué querías hacer. Probá de nuevo.");
  if (intent !== "refund") return blockAction(createApiClient(context, user.idToken), id, intent === "block", back);
  const raw = String(form.get("amount") ?? "").trim().slice(0, 40);
  const cents = raw === "" ? undefined : parseArsInput(raw);
  if (cents === null || (cents !== undefined && cents <= 0)) {
    const message = cents === null ? "Ingresá un monto en pesos, por ejemplo 3.800 o 3800,50." : "Ingresá el monto que devolviste: tiene que ser mayor que cero.";
    return dataWithError(context, { refundError: message, amount: raw } satisfies RefundReply, message, { status: 422 });
  }
  const body = cents === undefined ? {} : { amountCents: cents };
  const res = await createApiClient(context, user.idToken).call(endpoints.paymentRefund, { params: { id }, body, headers: idempotencyInit(form)?.headers });
  if (res.ok) {
    const amount = cents ?? res.data.refundedCents;
    return redirectWithSuccess(back, `Registramos la devolución de ${formatArs(amount)}. Le avisamos al conductor por correo.`);
  }
  const { problem } = res;
  if (problem.type === UNREACHABLE_PROBLEM && res.status === 503) {
    return dataWithError(context, { refundError: REFUND_FAILED, amount: raw } satisfies RefundReply, REFUND_FAILED, { status: 503 });
  }
  // A problem the API worded (not a call that never got an answer) is what the screen says.
  const title = problem.type === UNREACHABLE_PROBLEM ? undefined : problem.title;
  if (res.status === 404) return redirectWithError(back, "Ese pago no existe.");
  if (res.status === 409) return redirectWithError(back, title ?? "Este pago no tiene una devolución pendiente.");
  const message = problem.errors?.amountCents?.[0] ?? title ?? REFUND_FAILED;
  return dataWithError(context, { refundError: message, amount: raw } satisfies RefundReply, message, { status: res.status >= 500 ? 502 : res.status });
}

/** Block (or unblock) the driver of a disputed or charged-back payment from the QR pages. */
async function blockAction(api: ReturnType<typeof createApiClient>, id: string, block: boolean, back: string) {
  const res = await api.call(block ? endpoints.paymentBlockDriver : endpoints.paymentUnblockDriver, { params: { id } });
  if (res.ok) return redirectWithSuccess(back, block ? "Bloqueamos al conductor: su correo ya no puede pagar en tus cargadores." : "Desbloqueamos al conductor: puede volver a pagar en tus cargadores.");
  if (res.status === 404) return redirectWithError(back, "Ese pago no existe.");
  const title = res.problem.type === UNREACHABLE_PROBLEM ? undefined : res.problem.title;
  return redirectWithError(back, res.status === 409 && title ? title : "No pudimos cambiar el bloqueo del conductor en este momento. Probá de nuevo en unos minutos.");
}

export default function Payments({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  // Facturación and Lectura see the accounts without managing them.
  const { can } = useAccess();
  const canManage = can("payment.write");
  const canRefund = can("payment.refund");
  const canBlock = can("payment.block");
  const busy = useNavigation().state === "submitting";
  const here = new URLSearchParams();
  for (const k of LIST_KEYS) {
    const v = k === "sort" ? (d.sort !== DEFAULT_SORT ? d.sort : "") : k === "page" ? (d.page > 1 ? String(d.page) : "") : k === "pageSize" ? "" : (d.filters as Record<string, string>)[k];
    if (v) here.set(k, v);
  }
  const cancelHref = `/payment${here.size ? `?${here}` : ""}`;
  const refundHref = (id: string) => {
    const next = new URLSearchParams(here);
    next.set("refund", id);
    return `/payment?${next}`;
  };
  // What the whole filtered list adds up to, over its rows or its empty state.
  const summary = (
    <>
      {d.totals && d.filters.step !== "REFUND_PENDING" ? (
        <RefundsOwedBanner count={d.totals.refundPendingCount} owedCents={d.totals.refundOwedCents} listHref="/payment?step=REFUND_PENDING" />
      ) : null}
      {d.refund && !canRefund ? <InfoMessage color="sky">Las devoluciones las registra el Dueño o un Administrador.</InfoMessage> : null}
      {d.refund && canRefund ? (
        d.refund.payment ? (
          <RefundConfirm payment={d.refund.payment} cancelHref={cancelHref} formToken={d.refund.formToken} reply={actionData ?? undefined} busy={busy} />
        ) : (
          <InfoMessage color="sky">No encontramos esa devolución pendiente en esta lista: puede que ya esté registrada.</InfoMessage>
        )
      ) : null}
      {d.totals ? (
        <Grid columns={{ initial: "2", sm: "3", md: "6" }} gap="3" mb="4" data-testid="payment-totals">
          <Total label="Pagos" value={formatInt(d.totals.count)} testId="total-count" />
          <Total label="Aprobados" value={formatArs(d.totals.approvedCents)} testId="total-approved" />
          <Total label="Pendientes" value={formatArs(d.totals.pendingCents)} testId="total-pending" />
          <Total label="Devueltos" value={formatArs(d.totals.refundedCents)} testId="total-refunded" />
          <Total label="Comisiones" value={formatArs(d.totals.feeCents)} testId="total-fee" />
          <Total label="Neto" value={formatArs(d.totals.netCents)} testId="total-net" />
        </Grid>
      ) : null}
    </>
  );
  return (
    <ListScreen
      title="Pagos"
      description="Tus cuentas de cobro y los pagos de las cargas."
      intro={
        <>
          <Accounts accounts={d.accounts} canManage={canManage} />
          <Flex justify="between" align="center" gap="3" wrap="wrap" mb="3">
            <Heading as="h2" size="5">
              Pagos recibidos
            </Heading>
            <Flex gap="4" wrap="wrap">
              <Link to="/payment/invoice" data-testid="invoices-link">
                Comprobantes (facturas)
              </Link>
              <Link to="/payment/reconciliation" data-testid="reconciliation-link">
                Conciliación con los proveedores
              </Link>
            </Flex>
          </Flex>
        </>
      }
      filters={{
        label: "Filtrar pagos",
        keep: { sort: d.sort !== DEFAULT_SORT ? d.sort : undefined },
        fields: (
          <>
            <FilterSelect name="provider" label="Proveedor" value={d.filters.provider} error={d.errors.provider} options={PAYMENT_PROVIDERS.map((p) => [p, PROVIDER_LABELS[p]])} />
            <FilterSelect name="status" label="Estado" value={d.filters.status} error={d.errors.status} options={PAYMENT_STATUSES.map((s) => [s, PAYMENT_STATUS_LABELS[s]])} />
            <FilterSelect name="step" label="Carga con QR" value={d.filters.step} error={d.errors.step} all="Todas" options={Object.entries(QR_STEP_LABELS)} />
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
            <EmptyState icon={<BiCreditCard size={48} />} title={d.filtered ? "No hay pagos con estos filtros" : "Todavía no recibiste pagos"}>
              {d.filtered ? "Probá con otro período u otros filtros." : "Cuando un conductor pague una carga, vas a ver el pago acá."}
            </EmptyState>
          </>
        ) : null
      }
      pagination={d}
    >
      {summary}
      <ListTable
        caption="Pagos"
        head={
          <>
            <SortHeader field="createdAt" sort={d.sort}>
              Fecha
            </SortHeader>
            <Table.ColumnHeaderCell>Carga</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Proveedor</Table.ColumnHeaderCell>
            <SortHeader field="amountCents" sort={d.sort}>
              Monto
            </SortHeader>
            <Table.ColumnHeaderCell className="num">Devuelto</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell className="num">Comisión</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell className="num">Neto</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Estado</Table.ColumnHeaderCell>
          </>
        }
      >
        {d.items.map((p) => (
          <PaymentRow key={p.id} payment={p} refundHref={canRefund ? refundHref(p.id) : null} canBlock={canBlock} busy={busy} />
        ))}
      </ListTable>
    </ListScreen>
  );
}
