import { Link } from "react-router";
import { Button, Card, Flex, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiPlus, BiShieldQuarter } from "~/icons";
import { EmptyState } from "~/components/Page";
import { listParams } from "~/components/list";
import { ActionsHeader, ListScreen, ListTable, RowActions, useListDelete } from "~/components/list/ListScreen";
import { DeleteConfirm } from "~/components/DeleteConfirm";
import { GROUPS } from "./group.server";
import { endpoints } from "#contract/endpoints";
import { apiFor, ensureLoaded, listDeleteAction, rowToDelete } from "~/lib/resource.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import type { AccessGroupDto } from "#contract/dto";
import type { Route } from "./+types/index";

export const meta = pageMeta("Grupos de acceso");

const tagCountLabel = (n: number) => (n === 0 ? "Sin tarjetas" : n === 1 ? "1 tarjeta" : `${n} tarjetas`);
const stationsLabel = (g: AccessGroupDto) => (g.allStations ? "Todas las estaciones" : g.stations.map((s) => s.name).join(", "));

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const { page, pageSize } = listParams(url);
  const query = new URLSearchParams({ sort: "name", page: String(page), pageSize: String(pageSize) });
  const body = ensureLoaded(await api.call(endpoints.accessGroupList, { query }));
  const toDelete = await rowToDelete(api, GROUPS, body.items, url.searchParams.get("delete"));
  return { ...body, toDelete };
}

export async function action({ request, context }: Route.ActionArgs) {
  return listDeleteAction(request, context, GROUPS);
}

export default function GroupIndex({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, page, pageSize, toDelete } = loaderData;
  const canWrite = useAccess().can("tag.write");
  const del = useListDelete(canWrite);
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : undefined;
  const newButton = canWrite ? (
    <Button asChild size="3">
      <Link to="/group/new">
        <BiPlus aria-hidden="true" /> Nuevo grupo
      </Link>
    </Button>
  ) : null;
  return (
    <ListScreen
      title="Grupos de acceso"
      description="En qué estaciones pueden cargar las tarjetas de cada grupo y, si querés, con qué tarifa."
      actions={newButton}
      confirm={
        toDelete && canWrite ? (
          <DeleteConfirm id={toDelete.id} title={`¿Eliminar el grupo «${toDelete.name}»?`} action={del.action} cancelTo={del.cancelTo} error={deleteError}>
            No se puede deshacer.{toDelete.tagCount > 0 ? ` Tiene ${tagCountLabel(toDelete.tagCount).toLowerCase()}: pasalas a otro grupo antes de eliminarlo.` : null}
          </DeleteConfirm>
        ) : null
      }
      deleteError={deleteError}
      empty={
        total === 0 ? (
          <EmptyState icon={<BiShieldQuarter size={48} />} title="Todavía no tenés grupos" action={newButton}>
            Creá un grupo para limitar en qué estaciones cargan algunas tarjetas (por ejemplo, la flota de una empresa) o para cobrarles otra tarifa.
          </EmptyState>
        ) : null
      }
      pagination={{ page, pageSize, total }}
    >
      <ListTable
        caption="Grupos de acceso"
        className="tag-table"
        head={
          <>
            <Table.ColumnHeaderCell>Nombre</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Estaciones</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Tarifa</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Tarjetas</Table.ColumnHeaderCell>
            <ActionsHeader />
          </>
        }
      >
        {items.map((g) => (
          <Table.Row key={g.id} data-testid="group-row">
            <Table.RowHeaderCell>
              <Link to={`/group/edit/${g.id}`} className="rate-name">
                {g.name}
              </Link>
            </Table.RowHeaderCell>
            <Table.Cell>
              <Text size="2">{stationsLabel(g)}</Text>
            </Table.Cell>
            <Table.Cell>
              <Text size="2" color={g.rateName ? undefined : "gray"}>
                {g.rateName ?? "La del conector"}
              </Text>
            </Table.Cell>
            <Table.Cell>
              <Text size="2" className="rate-nowrap">
                {tagCountLabel(g.tagCount)}
              </Text>
            </Table.Cell>
            <Table.Cell>
              <RowActions name={g.name} editTo={`/group/edit/${g.id}`} deleteTo={del.deleteHref(g.id)} />
            </Table.Cell>
          </Table.Row>
        ))}
      </ListTable>
      <ul className="tag-cards" aria-label="Grupos de acceso">
        {items.map((g) => (
          <Card asChild size="2" key={g.id}>
            <li>
              <Link to={`/group/edit/${g.id}`} className="rate-name">
                {g.name}
              </Link>
              <Text as="p" size="2" mt="1">
                {stationsLabel(g)}
              </Text>
              <Text as="p" size="2" color="gray" mt="1">
                Tarifa: {g.rateName ?? "la del conector"} · {tagCountLabel(g.tagCount).toLowerCase()}
              </Text>
              <Flex justify="end" mt="3">
                <RowActions name={g.name} editTo={`/group/edit/${g.id}`} deleteTo={del.deleteHref(g.id)} />
              </Flex>
            </li>
          </Card>
        ))}
      </ul>
    </ListScreen>
  );
}
