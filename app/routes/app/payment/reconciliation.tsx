// Pagos → Conciliación: every payment of a period against the provider's own record (ADR 0040).
// The period is a GET form (works without JavaScript); «Conciliar ahora» asks again and notifies
// the differences not notified before; «Descargar CSV» is the same differences as a file.
import { data, Form, Link, useNavigation } from "react-router";
import { Button, Flex } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { endpoints } from "#contract/endpoints";
import { reconciliationQuery } from "#contract/schemas/queries";
import { InfoMessage } from "~/components/messages";
import { ListScreen, ListTable } from "~/components/list/ListScreen";
import { FilterDate, queryErrors } from "~/components/activity/filters";
import { DifferenceRow, NoDifferences, ReconciliationTotals } from "~/components/payment/Reconciliation";
import { UNAVAILABLE } from "~/components/activity/labels";
import { createApiClient, pickParams, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/reconciliation";

export const meta = pageMeta("Conciliación");

const PERIOD_KEYS = ["from", "to"] as const;

/** The period asked, the fields' errors, and the query the API gets (only the valid ones). */
function period(url: URL) {
  const raw = pickParams(url.searchParams, PERIOD_KEYS);
  const errors = queryErrors(reconciliationQuery.safeParse(Object.fromEntries(raw)).error?.issues);
  const query = new URLSearchParams();
  for (const [k, v] of raw) if (!errors[k] && !errors.to) query.set(k, v);
  return { raw, errors, query };
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const { raw, errors, query } = period(url);
  const res = await createApiClient(context, user.idToken).call(endpoints.paymentReconciliation, { query });
  const apiErrors = res.ok ? {} : Object.fromEntries(Object.entries(res.problem.errors ?? {}).map(([k, v]) => [k, v[0]]));
  return data({
    filters: { from: raw.get("from") ?? "", to: raw.get("to") ?? "" },
    errors: { ...apiErrors, ...errors } as Record<string, string>,
    report: res.ok ? res.data : null,
    error: res.ok || res.status === 422 ? null : UNAVAILABLE,
    query: query.toString(),
  });
}

/** «Conciliar ahora»: the same period, asked again; new differences are notified once. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const { query } = period(url);
  const back = `/payment/reconciliation${query.size ? `?${query}` : ""}`;
  const form = await request.formData();
  if (form.get("intent") !== "run") return redirectWithError(back, "No entendimos qué querías hacer. Probá de nuevo.");
  const res = await createApiClient(context, user.idToken).call(endpoints.paymentReconciliationRun, { query });
  if (!res.ok) {
    const first = Object.values(res.problem.errors ?? {})[0]?.[0];
    return redirectWithError(back, first ?? (res.problem.type === UNREACHABLE_PROBLEM ? UNAVAILABLE : res.problem.title));
  }
  const { differences, reported = 0 } = res.data;
  const message = differences.length === 0 ? "Listo: cada pago coincide con el proveedor." : `Listo: ${differences.length} ${differences.length === 1 ? "diferencia" : "diferencias"}${reported ? `, ${reported} ${reported === 1 ? "nueva notificada" : "nuevas notificadas"}` : ""}.`;
  return redirectWithSuccess(back, message);
}

export default function Reconciliation({ loaderData: d }: Route.ComponentProps) {
  const { can } = useAccess();
  const busy = useNavigation().state === "submitting";
  const csvHref = `/payment/reconciliation/export.csv${d.query ? `?${d.query}` : ""}`;
  const report = d.report;
  return (
    <ListScreen
      title="Conciliación"
      description="Cada pago que mostramos, comparado con lo que registra Mercado Pago o Pagos360. Sin fechas, los últimos 7 días."
      actions={
        <Flex gap="2" wrap="wrap">
          {can("payment.reconcile") ? (
            <Form method="post" action={`/payment/reconciliation${d.query ? `?${d.query}` : ""}`}>
              <input type="hidden" name="intent" value="run" />
              <Button type="submit" disabled={busy} data-testid="reconcile-now">
                Conciliar ahora
              </Button>
            </Form>
          ) : null}
          <Button asChild variant="soft">
            <a href={csvHref} download data-testid="reconciliation-csv">
              Descargar CSV
            </a>
          </Button>
          <Button asChild variant="ghost">
            <Link to="/payment">Volver a Pagos</Link>
          </Button>
        </Flex>
      }
      filters={{
        label: "Período",
        fields: (
          <>
            <FilterDate name="from" label="Desde" value={d.filters.from} error={d.errors.from} />
            <FilterDate name="to" label="Hasta" value={d.filters.to} error={d.errors.to} />
          </>
        ),
      }}
      noMatch={
        d.error ? (
          <InfoMessage color="red">{d.error}</InfoMessage>
        ) : !report ? (
          <InfoMessage color="red">Revisá el período: {Object.values(d.errors)[0] ?? "no es válido."}</InfoMessage>
        ) : report.differences.length === 0 ? (
          <>
            {report.unchecked.map((u) => (
              <InfoMessage key={u.provider} color="amber">
                {u.reason}
              </InfoMessage>
            ))}
            <ReconciliationTotals totals={report.totals} checked={report.checked} />
            <NoDifferences report={report} />
          </>
        ) : null
      }
    >
      {report ? (
        <>
          {report.unchecked.map((u) => (
            <InfoMessage key={u.provider} color="amber">
              {u.reason}
            </InfoMessage>
          ))}
          <ReconciliationTotals totals={report.totals} checked={report.checked} />
          <ListTable
            caption="Diferencias con los proveedores"
            head={
              <>
                <Table.ColumnHeaderCell>Diferencia</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Proveedor</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Pago</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>En Enchufá</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>En el proveedor</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Detalle</Table.ColumnHeaderCell>
              </>
            }
          >
            {report.differences.map((diff) => (
              <DifferenceRow key={`${diff.kind}-${diff.paymentId}-${diff.externalId ?? ""}`} d={diff} />
            ))}
          </ListTable>
        </>
      ) : null}
    </ListScreen>
  );
}
