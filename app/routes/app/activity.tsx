import { data } from "react-router";
import { Button, Flex, Text } from "@radix-ui/themes";
import { BiDownload, BiLineChart } from "~/icons";
import { ACTIVITY_SORTS, SESSION_PAYMENT_STATUSES, SESSION_STATUSES, STUCK_AFTER_HOURS, UUID_RE } from "#contract/schemas/constants";
import { activityQuery } from "#contract/schemas/queries";
import { EmptyState, PageHeader } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { CursorPagination, FilterBar, Pagination, listParams } from "~/components/list";
import { SessionTable, sessionRow } from "~/components/activity/SessionTable";
import { SessionDetail } from "~/components/activity/SessionDetail";
import { SESSION_PAYMENT_STATUS_LABELS, SESSION_STATUS_LABELS, UNAVAILABLE } from "~/components/activity/labels";
import { pickParams, createApiClient, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { endpoints } from "#contract/endpoints";
import { dataWithError, redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { closeSessionBody } from "#contract/schemas/queries";
import { listStationOptions } from "~/lib/charger.server";
import { FilterDate, FilterSelect, queryErrors } from "~/components/activity/filters";
import { formatArs, formatInt, formatKwh } from "~/components/charts/format";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/activity";
import { notFound, unavailable } from "~/lib/responses.server";

export const meta = pageMeta("Actividad");

/** The list's filters (they also go to the CSV export). */
export const FILTER_KEYS = ["stationId", "chargerId", "status", "paymentStatus", "stuck", "from", "to"] as const;
const LIST_KEYS = [...FILTER_KEYS, "sort", "page", "pageSize", "cursor", "before"] as const;
const DEFAULT_SORT = "-startedAt";

/** Where the CSV of the current filters is served (a resource route; see the report). */
export const EXPORT_PATH = "/activity/export.csv";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const api = createApiClient(context, user.idToken);

  // Detail view: /activity?session=<id> (an unknown or foreign id is a 404).
  const sessionId = url.searchParams.get("session");
  if (sessionId !== null) {
    if (!UUID_RE.test(sessionId)) notFound();
    const res = await api.call(endpoints.activityGet, { params: { id: sessionId } });
    if (!res.ok && (res.status === 404 || res.status === 400)) notFound();
    if (!res.ok) unavailable(UNAVAILABLE);
    const back = new URLSearchParams(url.searchParams);
    back.delete("session");
    return data({ view: "detail" as const, session: res.data, backHref: `/activity${back.size ? `?${back}` : ""}` });
  }

  // List view: validate the filters; a wrong one gets its message and is left out.
  const raw = pickParams(url.searchParams, LIST_KEYS);
  const errors = queryErrors(activityQuery.safeParse(Object.fromEntries(raw)).error?.issues);
  const query = new URLSearchParams();
  for (const [k, v] of raw) if (!errors[k]) query.set(k, v);
  // The default order pages by keyset cursor ("Siguiente"/"Anterior"); `page` is for the others.
  if ((query.get("sort") ?? DEFAULT_SORT) === DEFAULT_SORT && (query.has("cursor") || query.has("before"))) query.delete("page");
  if (errors.to && errors.to.includes("posterior")) query.delete("from");
  const { page, pageSize } = listParams(url);
  const sort = query.get("sort") ?? DEFAULT_SORT;
  const stationId = query.get("stationId");

  const [list, stations, chargers] = await Promise.all([
    api.call(endpoints.activityList, { query }),
    listStationOptions(api).then(
      (items) => ({ ok: true as const, data: { items } }),
      () => ({ ok: false as const }),
    ),
    // The first 100 chargers by name (of the chosen station): a longer list is no use in a select.
    api.call(endpoints.chargerOptions, { query: { pageSize: 100, stationId: stationId ?? undefined } }),
  ]);

  const exportQuery = pickParams(query, FILTER_KEYS);
  if (sort !== DEFAULT_SORT) exportQuery.set("sort", sort);
  return data({
    view: "list" as const,
    filters: Object.fromEntries(FILTER_KEYS.map((k) => [k, raw.get(k) ?? ""])) as Record<(typeof FILTER_KEYS)[number], string>,
    errors,
    sort,
    page: list.ok ? list.data.page : page,
    pageSize: list.ok ? list.data.pageSize : pageSize,
    items: list.ok ? list.data.items.map(sessionRow) : [],
    total: list.ok ? list.data.total : 0,
    nextCursor: list.ok ? (list.data.nextCursor ?? null) : null,
    prevCursor: list.ok ? (list.data.prevCursor ?? null) : null,
    cursorPaging: sort === DEFAULT_SORT && !(query.has("page") && query.get("page") !== "1"),
    totals: list.ok ? (list.data.totals ?? null) : null,
    error: list.ok ? null : ((list.status === 400 || list.status === 422) && list.problem.title) || UNAVAILABLE,
    stations: stations.ok ? stations.data.items.map((s) => ({ id: s.id, name: s.name })) : [],
    chargers: chargers.ok ? chargers.data.items.map((c) => ({ id: c.id, name: c.name, stationName: c.stationName })) : [],
    exportHref: `${EXPORT_PATH}${exportQuery.size ? `?${exportQuery}` : ""}`,
    filtered: FILTER_KEYS.some((k) => raw.has(k)),
  });
}

const CLOSE_FAILED = "No pudimos cerrar la carga en este momento. Probá de nuevo en unos minutos.";

/**
 * The session detail's one action: close a session the charger never stopped, with a
 * reason. The API asks a connected charger to stop first; the answer says what happened.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const id = String(form.get("sessionId") ?? "");
  if (form.get("intent") !== "close" || !UUID_RE.test(id)) return redirectWithError("/activity", "No entendimos qué querías hacer. Probá de nuevo.");
  const here = `/activity?session=${id}`;
  const parsed = closeSessionBody.safeParse({ reason: form.get("reason") ?? "" });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Contá por qué cerrás la carga.";
    return dataWithError(context, { closeError: message, reason: String(form.get("reason") ?? "").slice(0, 200) }, message, { status: 422 });
  }
  const res = await createApiClient(context, user.idToken).call(endpoints.activityClose, { params: { id }, body: parsed.data });
  if (!res.ok && res.problem.type === UNREACHABLE_PROBLEM && res.status === 503) {
    return dataWithError(context, { closeError: CLOSE_FAILED, reason: parsed.data.reason }, CLOSE_FAILED, { status: 503 });
  }
  if (res.status === 404) notFound();
  if (res.ok) {
    const body = res.data;
    const asked = body.remoteStop === "accepted" ? " El cargador aceptó detenerla." : body.remoteStop === "offline" ? " El cargador no estaba conectado: quedó cobrada hasta su última lectura." : "";
    return redirectWithSuccess(here, `Cerramos la carga #${body.transactionId ?? ""}.${asked}`);
  }
  if (res.status === 409) return redirectWithError(here, res.problem.title || "La carga ya está cerrada.");
  const message = res.problem.errors?.reason?.[0] ?? (res.problem.title || CLOSE_FAILED);
  return dataWithError(context, { closeError: message, reason: parsed.data.reason }, message, { status: res.status >= 500 ? 502 : res.status });
}

export default function Activity({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  if (d.view === "detail") return <SessionDetail session={d.session} backHref={d.backHref} close={actionData && "closeError" in actionData ? actionData : undefined} />;
  return (
    <>
      <PageHeader
        title="Actividad"
        description="Cada carga de tus cargadores con su energía, su duración, su costo y su estado de pago."
        actions={
          <Button asChild size="3" variant="soft">
            <a href={d.exportHref} download data-testid="export-csv">
              <BiDownload aria-hidden="true" /> Exportar CSV
            </a>
          </Button>
        }
      />
      <FilterBar label="Filtrar cargas">
        <FilterSelect name="stationId" label="Estación" value={d.filters.stationId} error={d.errors.stationId} options={d.stations.map((s) => [s.id, s.name])} all="Todas" />
        <FilterSelect
          name="chargerId"
          label="Cargador"
          value={d.filters.chargerId}
          error={d.errors.chargerId}
          options={d.chargers.map((c) => [c.id, c.stationName && !d.filters.stationId ? `${c.name} (${c.stationName})` : c.name])}
          all="Todos"
        />
        <FilterSelect name="status" label="Estado" value={d.filters.status} error={d.errors.status} options={SESSION_STATUSES.map((s) => [s, SESSION_STATUS_LABELS[s]])} all="Todos" />
        <FilterSelect
          name="paymentStatus"
          label="Pago"
          value={d.filters.paymentStatus}
          error={d.errors.paymentStatus}
          options={SESSION_PAYMENT_STATUSES.map((s) => [s, SESSION_PAYMENT_STATUS_LABELS[s]])}
          all="Todos"
        />
        {/* Sessions the charger probably never stopped, to close them from their detail. */}
        <FilterSelect name="stuck" label="Cierre" value={d.filters.stuck} error={d.errors.stuck} options={[["1", `Sin cerrar hace más de ${STUCK_AFTER_HOURS} h`]]} all="Todas" />
        <FilterDate name="from" label="Desde" value={d.filters.from} error={d.errors.from} />
        <FilterDate name="to" label="Hasta" value={d.filters.to} error={d.errors.to} />
        {d.sort !== DEFAULT_SORT && (ACTIVITY_SORTS as readonly string[]).includes(d.sort.replace(/^-/, "")) ? <input type="hidden" name="sort" value={d.sort} /> : null}
      </FilterBar>

      {d.error ? (
        <InfoMessage color="red" testId="activity-error">
          {d.error}
        </InfoMessage>
      ) : d.items.length === 0 ? (
        <EmptyState icon={<BiLineChart size={48} />} title={d.filtered ? "No hay cargas con estos filtros" : "Todavía no hay cargas"}>
          {d.filtered
            ? "Probá con otro período u otros filtros."
            : "Cuando un vehículo cargue en uno de tus cargadores, vas a ver la carga acá con su energía, su costo y su pago."}
        </EmptyState>
      ) : (
        <>
          <Flex gap="4" mb="3" wrap="wrap" className="activity-totals" data-testid="activity-totals">
            <Text size="3">
              <strong data-testid="activity-total-count">{formatInt(d.total)}</strong> {d.total === 1 ? "carga" : "cargas"}
            </Text>
            {d.totals?.energyWh != null ? (
              <Text size="3" data-testid="activity-total-energy">
                <strong>{formatKwh(Math.round(d.totals.energyWh) / 1000)}</strong> entregados
              </Text>
            ) : null}
            {d.totals?.totalCents != null ? (
              <Text size="3" data-testid="activity-total-amount">
                <strong>{formatArs(d.totals.totalCents)}</strong> facturados
              </Text>
            ) : null}
          </Flex>
          <SessionTable items={d.items} sort={d.sort} />
          {d.cursorPaging ? (
            <CursorPagination prevCursor={d.prevCursor} nextCursor={d.nextCursor} shown={d.items.length} total={d.total} />
          ) : (
            <Pagination page={d.page} pageSize={d.pageSize} total={d.total} />
          )}
        </>
      )}
    </>
  );
}
