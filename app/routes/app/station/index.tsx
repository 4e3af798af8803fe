import { lazy, Suspense, useState } from "react";
import { Link } from "react-router";
import { Button, Card } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { GhostButtonLink, PlainBadge, PlainFlex, PlainText } from "~/components/plain";
import { BiEditAlt, BiMap, BiPlus, BiPlusCircle, BiTrash } from "~/icons";
import { STATION_SORTS, UUID_RE } from "#contract/schemas/constants";
import type { StationDto } from "#contract/dto";
import { PROVINCES, isProvinceCode } from "#domain/provinces";
import { EmptyState } from "~/components/Page";
import { listParams, SortHeader } from "~/components/list";
import { ActionsHeader, ListScreen, ListTable, useListDelete } from "~/components/list/ListScreen";
import { FilterField, SelectFilter, type Options } from "~/components/list/fields";
import { DeleteStationConfirm } from "~/components/station/DeleteStation";
import { InfoMessage } from "~/components/messages";
import { StatusSummary } from "~/components/station/StatusSummary";
import { useHydrated } from "~/lib/hydrated";
import { apiFor } from "~/lib/station.server";
import { LOAD_FAILED_MESSAGE } from "~/components/station/messages";
import { endpoints } from "#contract/endpoints";
import { safeRedirect } from "~/lib/auth.server";
import { MAPS_FAILED_NOTICE } from "~/lib/maps";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { useLiveRevalidation } from "~/components/LiveRevalidation";
import type { Route } from "./+types/index";
import { doneMessage } from "~/lib/done-message";

export const meta = pageMeta("Mis estaciones");

const StationsMap = lazy(() => import("~/components/station/LocationMap.client").then((m) => ({ default: m.StationsMap })));

const DELETE_FAILED_MESSAGE = "No pudimos eliminar la estación. Probá de nuevo en unos minutos.";

type Sort = `${"" | "-"}${(typeof STATION_SORTS)[number]}`;
const SORTS = new Set<string>(STATION_SORTS.flatMap((s) => [s, `-${s}`]));

function filtersFrom(url: URL) {
  const { page, pageSize, sort } = listParams(url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const province = url.searchParams.get("province") ?? "";
  const published = url.searchParams.get("published") ?? "";
  return {
    q,
    province: isProvinceCode(province) ? province : "",
    published: published === "true" || published === "false" ? published : "",
    sort: (sort && SORTS.has(sort) ? sort : "name") as Sort,
    page,
    pageSize,
  };
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const filters = filtersFrom(url);
  const query = {
    sort: filters.sort,
    page: filters.page,
    pageSize: filters.pageSize,
    q: filters.q || undefined,
    province: isProvinceCode(filters.province) ? filters.province : undefined,
    published: filters.published === "true" || filters.published === "false" ? (filters.published as "true" | "false") : undefined,
  };

  const deleteId = url.searchParams.get("delete");
  const [list, toDelete] = await Promise.all([
    api.call(endpoints.stationList, { query }).then((r) => (r.ok ? r.data : undefined)),
    deleteId && UUID_RE.test(deleteId) ? api.call(endpoints.stationGet, { params: { id: deleteId } }).then((r) => (r.ok ? r.data : undefined)) : undefined,
  ]);
  return {
    filters,
    list: list ?? null,
    confirm: toDelete ? { id: toDelete.id, name: toDelete.name, chargerCount: toDelete.chargerCount } : null,
  };
}

/** Back to the list the user came from (only /station…), without the confirmation. */
function backTo(value: FormDataEntryValue | null): string {
  const target = safeRedirect(typeof value === "string" ? value : null, "/station");
  if (target !== "/station" && !target.startsWith("/station?")) return "/station";
  const url = new URL(target, "http://x");
  url.searchParams.delete("delete");
  const search = url.searchParams.toString();
  return `/station${search ? `?${search}` : ""}`;
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  const form = await request.formData();
  const back = backTo(form.get("returnTo"));
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");
  if (intent !== "delete-confirmed" || !UUID_RE.test(id)) return redirectWithError(back, "Elegí la estación que querés eliminar.");
  const name = String(form.get("name") ?? "").slice(0, 120);
  const result = await api.call(endpoints.stationDelete, { params: { id } });
  if (result.ok) return redirectWithSuccess(back, doneMessage("deleted", "la estación", name));
  if (result.status === 404) return redirectWithError(back, "La estación ya no existe.");
  // 409: it still has chargers — the API's Spanish message says what to do.
  return redirectWithError(back, result.status === 409 && result.problem.title ? result.problem.title : DELETE_FAILED_MESSAGE);
}

const fmt = new Intl.NumberFormat("es-AR");

const PUBLISHED_OPTIONS = [
  ["", "Todas"],
  ["true", "Publicadas"],
  ["false", "Sin publicar"],
] as const;
const PROVINCE_OPTIONS: Options = [["", "Todas"], ...PROVINCES.map((p) => [p.code, p.name] as const)];

export default function Stations({ loaderData, matches }: Route.ComponentProps) {
  const { filters, list, confirm } = loaderData;
  // Live: statuses follow the chargers while the page is open (server-sent events).
  useLiveRevalidation();
  const hydrated = useHydrated();
  const [mapFailed, setMapFailed] = useState(false);
  const filtered = Boolean(filters.q || filters.province || filters.published);
  // Only the roles that may change stations see how to (the server refuses the rest anyway).
  const canWrite = useAccess().can("station.write");
  const del = useListDelete(canWrite);
  const newButton = canWrite && (
    <Button asChild size="3">
      <Link to="/station/new">
        <BiPlus aria-hidden="true" /> Nueva estación
      </Link>
    </Button>
  );
  const mapsKey = matches[0].loaderData.googleMapsApiKey;

  return (
    <ListScreen
      title="Mis estaciones"
      description="Dónde están tus cargadores, cómo están ahora y si los conductores las ven."
      actions={newButton}
      confirm={confirm && canWrite ? <DeleteStationConfirm station={confirm} returnTo={del.action} cancelTo={del.cancelTo} /> : null}
      filters={{
        label: "Buscar estaciones",
        keep: { sort: filters.sort !== "name" ? filters.sort : undefined },
        fields: (
          <>
            <FilterField id="station-q" label="Buscar" className="filter-field filter-search">
              <input id="station-q" name="q" type="search" defaultValue={filters.q} placeholder="Nombre, dirección o localidad" className="station-input station-search" maxLength={100} />
            </FilterField>
            <SelectFilter id="station-province" label="Provincia" name="province" defaultValue={filters.province} options={PROVINCE_OPTIONS} className="filter-field" />
            <SelectFilter id="station-published" label="Publicación" name="published" defaultValue={filters.published} options={PUBLISHED_OPTIONS} className="filter-field" />
          </>
        ),
      }}
      noMatch={
        !list ? (
          <InfoMessage color="red" testId="stations-error">
            {LOAD_FAILED_MESSAGE}
          </InfoMessage>
        ) : list.total > 0 ? null : filtered ? (
          <EmptyState icon={<BiMap size={48} />} title="No encontramos estaciones con esos filtros" action={<Button asChild size="3" variant="soft"><Link to="/station">Ver todas</Link></Button>}>
            Probá con otra búsqueda o quitá algún filtro.
          </EmptyState>
        ) : (
          <EmptyState icon={<BiMap size={48} />} title="Todavía no tenés estaciones" action={newButton}>
            Empezá por crear tu primera estación: dónde está, cuándo abre y qué servicios ofrece. Después le sumás los cargadores.
          </EmptyState>
        )
      }
      pagination={list ?? undefined}
    >
      {mapsKey && hydrated && !mapFailed && list ? (
        <Card size="2" mb="4">
          <Suspense fallback={<div className="station-map station-map-loading">Cargando el mapa…</div>}>
            <StationsMap apiKey={mapsKey} stations={list.items} onFailed={() => setMapFailed(true)} />
          </Suspense>
        </Card>
      ) : null}
      {mapsKey && mapFailed ? (
        <InfoMessage color="amber" testId="maps-failed">
          {MAPS_FAILED_NOTICE}
        </InfoMessage>
      ) : null}
      <ListTable
        caption="Mis estaciones"
        head={
          <>
            <SortHeader field="name" sort={filters.sort}>
              Nombre
            </SortHeader>
            <SortHeader field="city" sort={filters.sort}>
              Dirección
            </SortHeader>
            <SortHeader field="province" sort={filters.sort}>
              Provincia
            </SortHeader>
            <Table.ColumnHeaderCell>Cargadores</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Estado</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Publicada</Table.ColumnHeaderCell>
            <ActionsHeader />
          </>
        }
      >
        {list?.items.map((s) => <StationRow key={s.id} station={s} deleteHref={del.deleteHref(s.id)} />)}
      </ListTable>
    </ListScreen>
  );
}

// Plain stand-ins for Radix components in rows (app/components/plain.tsx): same markup, a fraction of the render time.
/** `deleteHref` is null for the roles that may not change stations: they get no add or delete. */
function StationRow({ station: s, deleteHref }: { station: StationDto; deleteHref: string | null }) {
  return (
    <Table.Row data-testid="station-row">
      <Table.RowHeaderCell>
        <Link to={`/station/edit/${s.id}`} className="station-name">
          {s.name}
        </Link>
      </Table.RowHeaderCell>
      <Table.Cell>
        <PlainText as="div" size="2">
          {s.address}
        </PlainText>
        <PlainText as="div" size="1" color="gray">
          {s.city}
          {s.postalCode ? ` (${s.postalCode})` : ""}
        </PlainText>
      </Table.Cell>
      <Table.Cell>
        <PlainText size="2">{s.provinceName}</PlainText>
      </Table.Cell>
      <Table.Cell>
        <PlainText size="2" style={{ whiteSpace: "nowrap" }}>
          {fmt.format(s.chargerCount)} {s.chargerCount === 1 ? "cargador" : "cargadores"}
        </PlainText>
        <PlainText as="div" size="1" color="gray" style={{ whiteSpace: "nowrap" }}>
          {fmt.format(s.connectorCount)} {s.connectorCount === 1 ? "conector" : "conectores"}
        </PlainText>
      </Table.Cell>
      <Table.Cell>
        <StatusSummary summary={s.statusSummary} />
      </Table.Cell>
      <Table.Cell>
        <PlainBadge color={s.published ? "green" : "gray"} variant="soft">
          {s.published ? "Publicada" : "Sin publicar"}
        </PlainBadge>
      </Table.Cell>
      <Table.Cell>
        <PlainFlex gap="2" wrap="nowrap">
          <GhostButtonLink to={`/station/edit/${s.id}`} title="Editar" aria-label={`Editar ${s.name}`}>
            <BiEditAlt aria-hidden="true" />
          </GhostButtonLink>
          {deleteHref ? (
            <>
              <GhostButtonLink to={`/charger/add?stationId=${s.id}`} title="Añadir cargador" aria-label={`Añadir cargador a ${s.name}`}>
                <BiPlusCircle aria-hidden="true" />
              </GhostButtonLink>
              <GhostButtonLink to={deleteHref} color="red" title="Eliminar" aria-label={`Eliminar ${s.name}`} preventScrollReset={false}>
                <BiTrash aria-hidden="true" />
              </GhostButtonLink>
            </>
          ) : null}
        </PlainFlex>
      </Table.Cell>
    </Table.Row>
  );
}
