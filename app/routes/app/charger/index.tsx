import { Link } from "react-router";
import { Button, Flex, Text, TextField } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { PlainCode, PlainText } from "~/components/plain";
import { BiChip, BiPlus, BiSearch } from "~/icons";
import { EmptyState, PageHeader } from "~/components/Page";
import { FilterBar, listParams, Pagination, SortHeader } from "~/components/list";
import { DataTable } from "~/components/table";
import { ConnectionStatus } from "~/components/charger/ConnectionStatus";
import { CONNECTOR_CHIP_FIELDS, ConnectorChips } from "~/components/charger/StatusChips";
import { loadStationOptions, serviceUnavailable, tryApi } from "~/lib/charger.server";
import { requireUser } from "~/lib/auth.server";
import { createApiClient, readJson } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { pick } from "~/lib/pick";
import { UUID_RE, CHARGER_SORTS } from "#contract/schemas/constants";
import { STATUS_BUCKETS, type StatusBucket } from "#domain/ocpp-status";
import type { ChargerDto, Page } from "#contract/dto";
import { useLiveRevalidation } from "~/components/LiveRevalidation";
import { formatInt } from "~/components/charts/format";
import type { Route } from "./+types/index";

export const meta = pageMeta("Mis cargadores");

/** `?stationId=none`: chargers not assigned to any station yet. */
const UNASSIGNED = "none";

const STATUS_FILTER_LABELS: Record<StatusBucket, string> = {
  available: "Con conectores disponibles",
  charging: "Con conectores en uso",
  faulted: "Con conectores en falla",
  offline: "Sin conexión o no disponibles",
};

/** What a row shows: the loader sends only these fields into the page (issue 9: less to encode and hydrate). */
const ROW_FIELDS = ["id", "name", "serialNumber", "stationName", "brandName", "model", "ocppIdentity", "online", "enabled", "lastHeartbeatAt"] as const satisfies readonly (keyof ChargerDto)[];
const chargerRow = (c: ChargerDto) => ({ ...pick(c, ROW_FIELDS), connectors: c.connectors.map((k) => pick(k, CONNECTOR_CHIP_FIELDS)) });

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const api = createApiClient(context, user.idToken);
  const { page, pageSize } = listParams(url);
  // Only whitelisted values reach the API; anything else is dropped instead of failing.
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const rawStation = url.searchParams.get("stationId") ?? "";
  const stationId = rawStation === UNASSIGNED || UUID_RE.test(rawStation) ? rawStation : "";
  const rawStatus = url.searchParams.get("status") ?? "";
  const status = (STATUS_BUCKETS as readonly string[]).includes(rawStatus) ? (rawStatus as StatusBucket) : "";
  const rawSort = url.searchParams.get("sort") ?? "";
  const sort = (CHARGER_SORTS as readonly string[]).includes(rawSort.replace(/^-/, "")) ? rawSort : "name";

  const query = new URLSearchParams({ sort, page: String(page), pageSize: String(pageSize) });
  if (q) query.set("q", q);
  if (stationId === UNASSIGNED) query.set("unassigned", "true");
  else if (stationId) query.set("stationId", stationId);
  if (status) query.set("status", status);

  const [response, stations] = await Promise.all([tryApi(() => api.get(`/Business/Charger?${query}`)), loadStationOptions(api)]);
  const chargers = response?.ok ? await readJson<Page<ChargerDto>>(response) : undefined;
  if (!chargers) serviceUnavailable();

  return {
    chargers: { ...chargers, items: chargers.items.map(chargerRow) },
    stations,
    filters: { q, stationId, status, sort },
    hasFilters: Boolean(q || stationId || status),
    now: Date.now(),
  };
}

export default function ChargerIndex({ loaderData }: Route.ComponentProps) {
  const { chargers, stations, filters, hasFilters, now } = loaderData;
  // Live: statuses follow the chargers while the page is open (server-sent events).
  useLiveRevalidation();
  const filteredStation = filters.stationId && filters.stationId !== UNASSIGNED ? filters.stationId : "";
  const newHref = filteredStation ? `/charger/new?stationId=${filteredStation}` : "/charger/new";
  const nothingYet = chargers.total === 0 && !hasFilters;
  // Issue 26: only the roles that may create chargers (and stations) see how to.
  const access = useAccess();

  return (
    <>
      <PageHeader
        title="Mis cargadores"
        description={nothingYet ? undefined : `${formatInt(chargers.total)} ${chargers.total === 1 ? "cargador" : "cargadores"}${hasFilters ? " con estos filtros" : ""}`}
        actions={
          access.can("charger.write") ? (
            <Button asChild size="3">
              <Link to={newHref}>
                <BiPlus aria-hidden="true" /> Nuevo cargador
              </Link>
            </Button>
          ) : undefined
        }
      />

      {nothingYet ? (
        <EmptyState
          icon={<BiChip size={48} />}
          title="Todavía no registraste cargadores"
          action={
            access.can("charger.write") ? (
              <Flex gap="3" justify="center" wrap="wrap">
                {stations.length === 0 ? (
                  <Button asChild size="3" variant="soft">
                    <Link to="/station/new">Crear una estación</Link>
                  </Button>
                ) : null}
                <Button asChild size="3">
                  <Link to="/charger/new">Crear mi primer cargador</Link>
                </Button>
              </Flex>
            ) : undefined
          }
        >
          {stations.length === 0
            ? "Empezá por crear una estación (dónde están tus cargadores). Después registrá cada cargador con su identidad OCPP y sus conectores, y configurá en el equipo la URL y la contraseña que te mostramos."
            : "Registrá tu primer cargador con su identidad OCPP y sus conectores. Después configurá en el equipo la URL y la contraseña que te mostramos para que se conecte."}
        </EmptyState>
      ) : (
        <>
          <FilterBar label="Buscar y filtrar cargadores">
            {filters.sort !== "name" ? <input type="hidden" name="sort" value={filters.sort} /> : null}
            <Flex direction="column" gap="1" className="charger-filter-q">
              <Text as="label" htmlFor="charger-q" size="2" weight="medium">
                Buscar
              </Text>
              <TextField.Root id="charger-q" name="q" type="search" size="3" defaultValue={filters.q} placeholder="Nombre, identidad OCPP, serie o modelo" maxLength={100}>
                <TextField.Slot>
                  <BiSearch aria-hidden="true" />
                </TextField.Slot>
              </TextField.Root>
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor="charger-station" size="2" weight="medium">
                Estación
              </Text>
              <select id="charger-station" name="stationId" defaultValue={filters.stationId} className="field-select">
                <option value="">Todas</option>
                <option value={UNASSIGNED}>Sin estación</option>
                {stations.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor="charger-status" size="2" weight="medium">
                Estado
              </Text>
              <select id="charger-status" name="status" defaultValue={filters.status} className="field-select">
                <option value="">Todos</option>
                {STATUS_BUCKETS.map((b) => (
                  <option key={b} value={b}>
                    {STATUS_FILTER_LABELS[b]}
                  </option>
                ))}
              </select>
            </Flex>
          </FilterBar>

          {chargers.items.length === 0 ? (
            <EmptyState
              icon={<BiSearch size={48} />}
              title={chargers.total === 0 ? "No hay cargadores que coincidan" : "Esta página está vacía"}
              action={
                <Button asChild size="3" variant="soft">
                  <Link to="/charger">Ver todos los cargadores</Link>
                </Button>
              }
            >
              {chargers.total === 0 ? "Probá con otra búsqueda o quitá algún filtro." : "Volvé a la primera página del listado."}
            </EmptyState>
          ) : (
            <>
              <div className="charger-list">
              <DataTable caption="Cargadores">
                <Table.Header>
                  <Table.Row>
                    <SortHeader field="name" sort={filters.sort}>
                      Nombre
                    </SortHeader>
                    <SortHeader field="station" sort={filters.sort}>
                      Estación
                    </SortHeader>
                    <Table.ColumnHeaderCell>Marca y modelo</Table.ColumnHeaderCell>
                    <SortHeader field="ocppIdentity" sort={filters.sort}>
                      Identidad OCPP
                    </SortHeader>
                    <SortHeader field="lastHeartbeatAt" sort={filters.sort}>
                      Conexión
                    </SortHeader>
                    <Table.ColumnHeaderCell>Conectores</Table.ColumnHeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {chargers.items.map((c) => (
                    // Plain stand-ins for Radix components in rows (app/components/plain.tsx).
                    <Table.Row key={c.id} data-testid="charger-row">
                      <Table.RowHeaderCell>
                        <Link to={`/charger/edit/${c.id}`} className="charger-name-link">
                          {c.name}
                        </Link>
                        {c.serialNumber ? (
                          <PlainText as="div" size="1" color="gray">
                            N.º de serie {c.serialNumber}
                          </PlainText>
                        ) : null}
                      </Table.RowHeaderCell>
                      <Table.Cell data-label="Estación">{c.stationName ?? <PlainText color="gray">Sin estación</PlainText>}</Table.Cell>
                      <Table.Cell data-label="Marca y modelo">
                        {c.brandName || c.model ? (
                          <>
                            {c.brandName ?? ""}
                            {c.model ? (
                              <PlainText as="div" size="1" color="gray">
                                {c.model}
                              </PlainText>
                            ) : null}
                          </>
                        ) : (
                          <PlainText color="gray">—</PlainText>
                        )}
                      </Table.Cell>
                      <Table.Cell data-label="Identidad OCPP">
                        <PlainCode className="charger-identity">
                          {c.ocppIdentity}
                        </PlainCode>
                      </Table.Cell>
                      <Table.Cell data-label="Conexión">
                        <ConnectionStatus charger={c} now={now} />
                      </Table.Cell>
                      <Table.Cell data-label="Conectores" className="charger-cell-wide">
                        <ConnectorChips connectors={c.connectors} />
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </DataTable>
              </div>
              <Pagination page={chargers.page} pageSize={chargers.pageSize} total={chargers.total} />
            </>
          )}
        </>
      )}
    </>
  );
}
