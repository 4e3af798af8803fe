import { Link } from "react-router";
import { Button, Flex, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { PlainBadge } from "~/components/plain";
import { BiArrowBack, BiPlus, BiTrash } from "~/icons";
import { PageHeader, TitledCard } from "~/components/Page";
import { DataTable } from "~/components/table";
import { StationForm } from "~/components/station/StationForm";
import { StatusSummary } from "~/components/station/StatusSummary";
import { stationFormDefaults } from "~/components/station/form-values";
import { allocationLines, apiFor, loadServices, loadStation, notFound, saveStation, readStationForm } from "~/lib/station.server";
import { UUID_RE } from "#contract/schemas/constants";
import { endpoints } from "#contract/endpoints";
import { formatInt } from "~/lib/numbers";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import type { Route } from "./+types/edit";

export const meta = pageMeta("Editar estación");

const CHARGERS_SHOWN = 50;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const station = await loadStation(api, params.id);
  const [services, chargers, allocation] = await Promise.all([
    loadServices(api),
    api.call(endpoints.chargerList, { query: { stationId: station.id, pageSize: CHARGERS_SHOWN, sort: "name" } }).then((r) => (r.ok ? r.data : undefined)),
    api.call(endpoints.stationAllocation, { params: { id: station.id } }).then((r) => (r.ok ? r.data : undefined)),
  ]);
  // The form's starting values are computed here: their code stays off the page's JavaScript.
  return { station, services, chargers: chargers ?? null, allocation: allocationLines(allocation), defaultValue: stationFormDefaults(station) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  // Unknown ids and other companies' stations: the API answers 404 and so do we.
  if (!params.id || !UUID_RE.test(params.id)) notFound();
  return saveStation(request, context, await readStationForm(request), params.id);
}

export default function EditStation({ loaderData, actionData, matches }: Route.ComponentProps) {
  const { station, services, chargers, allocation, defaultValue } = loaderData;
  const addHref = `/charger/add?stationId=${station.id}`;
  // Issue 26: a role without station.write sees the station, read-only.
  const canWrite = useAccess().can("station.write");
  return (
    <>
      <PageHeader
        title="Editar estación"
        description={station.name}
        actions={
          <Button asChild variant="soft" color="gray" size="3">
            <Link to="/station">
              <BiArrowBack aria-hidden="true" /> Mis estaciones
            </Link>
          </Button>
        }
      />
      <Flex direction="column" gap="5">
        <TitledCard
          id="station-chargers"
          title="Cargadores"
          actions={
            canWrite ? (
              <Button asChild size="2">
                <Link to={addHref}>
                  <BiPlus aria-hidden="true" /> Añadir cargador
                </Link>
              </Button>
            ) : undefined
          }
        >
          {!chargers ? (
            <Text color="gray">No pudimos cargar los cargadores de esta estación.</Text>
          ) : chargers.items.length === 0 ? (
            <Text as="p" color="gray">
              Esta estación todavía no tiene cargadores.{canWrite ? <> <Link to={addHref}>Añadí uno</Link> que ya tengas o creá uno nuevo.</> : null}
            </Text>
          ) : (
            <>
              <DataTable caption={`Cargadores de ${station.name}`}>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeaderCell>Nombre</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Identificador OCPP</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Conexión</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Conectores</Table.ColumnHeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {chargers.items.map((c) => (
                    <Table.Row key={c.id}>
                      <Table.RowHeaderCell>
                        <Link to={`/charger/edit/${c.id}`}>{c.name}</Link>
                      </Table.RowHeaderCell>
                      <Table.Cell>
                        <code>{c.ocppIdentity}</code>
                      </Table.Cell>
                      <Table.Cell>
                        <PlainBadge color={c.online ? "green" : "gray"} variant="soft">
                          {c.online ? "En línea" : "Sin conexión"}
                        </PlainBadge>
                      </Table.Cell>
                      <Table.Cell>
                        <StatusSummary summary={c.statusSummary} />
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </DataTable>
              <Text as="p" size="2" mt="3">
                <a href={`/station/stickers/${station.id}`}>Imprimir los stickers QR de sus conectores (A4)</a>
              </Text>
              {chargers.total > chargers.items.length ? (
                <Text as="p" size="2" mt="3">
                  <Link to={`/charger?stationId=${station.id}`}>Ver los {formatInt(chargers.total)} cargadores</Link>
                </Text>
              ) : null}
            </>
          )}
          {allocation?.map((line) => <p key={line}>{line}</p>)}
        </TitledCard>

        <StationForm
          id="station-edit"
          defaultValue={defaultValue}
          lastResult={actionData?.result}
          services={services}
          mapsKey={matches[0].loaderData.googleMapsApiKey}
          submitLabel="Guardar cambios"
          readOnly={!canWrite}
        />

        {canWrite ? (
          <TitledCard id="station-danger" title="Eliminar estación">
            <Flex justify="between" align="center" gap="3" wrap="wrap">
              <Text as="p" color="gray" size="2" style={{ maxWidth: 560 }}>
                {station.chargerCount > 0
                  ? "Para eliminarla, primero mové sus cargadores a otra estación o eliminalos."
                  : "Se elimina la estación con sus horarios y servicios. No se puede deshacer."}
              </Text>
              <Button asChild color="red" variant="soft" size="3">
                <Link to={`/station?delete=${station.id}`}>
                  <BiTrash aria-hidden="true" /> Eliminar estación
                </Link>
              </Button>
            </Flex>
          </TitledCard>
        ) : null}
      </Flex>
    </>
  );
}
