import { lazy, Suspense, useState } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { GhostButtonLink, PlainBadge, PlainFlex, PlainText } from "~/components/plain";
import { BiEditAlt, BiMap, BiPlus, BiPlusCircle, BiTrash } from "~/icons";
import { STATION_SORTS, UUID_RE } from "#contract/schemas/constants";
import { PROVINCES, isProvinceCode } from "#domain/provinces";
import { EmptyState, PageHeader } from "~/components/Page";
import { FilterBar, listParams, Pagination, SortHeader } from "~/components/list";
import { DataTable } from "~/components/table";
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

export default function Stations({ loaderData, matches }: Route.ComponentProps) {
  const { filters, list, confirm } = loaderData;
  // Live: statuses follow the chargers while the page is open (server-sent events).
  useLiveRevalidation();
  const location = useLocation();
  const hydrated = useHydrated();
  const [mapFailed, setMapFailed] = useState(false);
  const filtered = Boolean(filters.q || filters.province || filters.published);
  // Only the roles that may change stations see how to (the server refuses the rest anyway).
  const canWrite = useAccess().can("station.write");
  const newButton = canWrite && (
    <Button asChild size="3">
      <Link to="/station/new">
        <BiPlus aria-hidden="true" /> Nueva estación
      </Link>
    </Button>
  );
  const mapsKey = matches[0].loaderData.googleMapsApiKey;

  return (
    <>
      <PageHeader title="Mis estaciones" description="Dónde están tus cargadores, cómo están ahora y si los conductores las ven." actions={newButton} />

      {confirm && canWrite ? <ConfirmDelete station={confirm} returnTo={location.pathname + location.search} /> : null}

      <FilterBar label="Buscar estaciones">
        <Flex direction="column" gap="1" className="filter-field filter-search">
          <Text as="label" htmlFor="station-q" size="2" weight="medium">
            Buscar
          </Text>
          <input id="station-q" name="q" type="search" defaultValue={filters.q} placeholder="Nombre, dirección o localidad" className="station-input station-search" maxLength={100} />
        </Flex>
        <Flex direction="column" gap="1" className="filter-field">
          <Text as="label" htmlFor="station-province" size="2" weight="medium">
            Provincia
          </Text>
          <select id="station-province" name="province" defaultValue={filters.province} className="field-select">
            <option value="">Todas</option>
            {PROVINCES.map((p) => (
              <option key={p.code} value={p.code}>
                {p.name}
              </option>
            ))}
          </select>
        </Flex>
        <Flex direction="column" gap="1" className="filter-field">
          <Text as="label" htmlFor="station-published" size="2" weight="medium">
            Publicación
          </Text>
          <select id="station-published" name="published" defaultValue={filters.published} className="field-select">
            <option value="">Todas</option>
            <option value="true">Publicadas</option>
            <option value="false">Sin publicar</option>
          </select>
        </Flex>
        {filters.sort !== "name" ? <input type="hidden" name="sort" value={filters.sort} /> : null}
      </FilterBar>

      {!list ? (
        <InfoMessage color="red" testId="stations-error">
          {LOAD_FAILED_MESSAGE}
        </InfoMessage>
      ) : list.total === 0 ? (
        filtered ? (
          <EmptyState icon={<BiMap size={48} />} title="No encontramos estaciones con esos filtros" action={<Button asChild size="3" variant="soft"><Link to="/station">Ver todas</Link></Button>}>
            Probá con otra búsqueda o quitá algún filtro.
          </EmptyState>
        ) : (
          <EmptyState icon={<BiMap size={48} />} title="Todavía no tenés estaciones" action={newButton}>
            Empezá por crear tu primera estación: dónde está, cuándo abre y qué servicios ofrece. Después le sumás los cargadores.
          </EmptyState>
        )
      ) : (
        <>
          {mapsKey && hydrated && !mapFailed ? (
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
          <DataTable caption="Mis estaciones">
            <Table.Header>
              <Table.Row>
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
                <Table.ColumnHeaderCell>
                  <span className="visually-hidden">Acciones</span>
                </Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {list.items.map((s) => (
                // Plain stand-ins for Radix components in rows (app/components/plain.tsx): same markup, a fraction of the render time.
                <Table.Row key={s.id} data-testid="station-row">
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
                      {canWrite ? (
                        <>
                          <GhostButtonLink to={`/charger/add?stationId=${s.id}`} title="Añadir cargador" aria-label={`Añadir cargador a ${s.name}`}>
                            <BiPlusCircle aria-hidden="true" />
                          </GhostButtonLink>
                          <GhostButtonLink to={deleteHref(location.search, s.id)} color="red" title="Eliminar" aria-label={`Eliminar ${s.name}`} preventScrollReset={false}>
                            <BiTrash aria-hidden="true" />
                          </GhostButtonLink>
                        </>
                      ) : null}
                    </PlainFlex>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </DataTable>
          <Pagination page={list.page} pageSize={list.pageSize} total={list.total} />
        </>
      )}
    </>
  );
}

function deleteHref(search: string, id: string) {
  const params = new URLSearchParams(search);
  params.set("delete", id);
  return `/station?${params}`;
}

/** The confirmation step (works without JavaScript): a second POST really deletes. */
function ConfirmDelete({ station, returnTo }: { station: { id: string; name: string; chargerCount: number }; returnTo: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const cancel = new URLSearchParams(returnTo.split("?")[1] ?? "");
  cancel.delete("delete");
  const cancelHref = `/station${cancel.size ? `?${cancel}` : ""}`;
  return (
    <Card size="3" mb="5" className="station-confirm" asChild>
      <section role="alertdialog" aria-labelledby="confirm-delete-title" aria-describedby="confirm-delete-text" data-testid="confirm-delete">
        <Heading as="h2" size="4" id="confirm-delete-title" mb="2">
          ¿Eliminar «{station.name}»?
        </Heading>
        <Text as="p" id="confirm-delete-text" color="gray" mb="4">
          {station.chargerCount > 0
            ? `Tiene ${fmt.format(station.chargerCount)} ${station.chargerCount === 1 ? "cargador asignado" : "cargadores asignados"}: no se puede eliminar hasta que los muevas a otra estación o los elimines.`
            : "Se eliminan la estación, sus horarios y sus servicios. No se puede deshacer."}
        </Text>
        <Form method="post">
          <input type="hidden" name="intent" value="delete-confirmed" />
          <input type="hidden" name="id" value={station.id} />
          <input type="hidden" name="name" value={station.name} />
          <input type="hidden" name="returnTo" value={returnTo} />
          <Flex gap="3" wrap="wrap">
            <Button type="submit" color="red" size="3" disabled={busy}>
              <BiTrash aria-hidden="true" /> Sí, eliminar
            </Button>
            <Button asChild variant="soft" color="gray" size="3">
              <Link to={cancelHref} autoFocus>
                Cancelar
              </Link>
            </Button>
          </Flex>
        </Form>
      </section>
    </Card>
  );
}
