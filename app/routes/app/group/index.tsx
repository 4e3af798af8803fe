import { Link } from "react-router";
import { Button, Card, Flex, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiEditAlt, BiPlus, BiShieldQuarter, BiTrash } from "~/icons";
import { EmptyState, PageHeader } from "~/components/Page";
import { Pagination, listParams, useHrefWith } from "~/components/list";
import { DataTable } from "~/components/table";
import { DeleteConfirm } from "~/components/DeleteConfirm";
import { fetchOne, fetchPage, GROUPS, listAction } from "../tag/tag.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { UUID_RE } from "#contract/schemas/constants";
import type { AccessGroupDto } from "#contract/dto";
import type { Route } from "./+types/index";

export const meta = pageMeta("Grupos de acceso");

const tagCountLabel = (n: number) => (n === 0 ? "Sin tarjetas" : n === 1 ? "1 tarjeta" : `${n} tarjetas`);
const stationsLabel = (g: AccessGroupDto) => (g.allStations ? "Todas las estaciones" : g.stations.map((s) => s.name).join(", "));

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const { page, pageSize } = listParams(url);
  const body = await fetchPage<AccessGroupDto>(context, user, `/Business/AccessGroup?sort=name&page=${page}&pageSize=${pageSize}`);
  const deleteId = url.searchParams.get("delete");
  let toDelete: AccessGroupDto | undefined;
  if (deleteId && UUID_RE.test(deleteId)) toDelete = body.items.find((g) => g.id === deleteId) ?? (await fetchOne<AccessGroupDto>(context, user, GROUPS, deleteId).catch(() => undefined));
  return { ...body, toDelete: toDelete ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  return listAction(request, context, user, GROUPS);
}

function Actions({ group, deleteHref }: { group: AccessGroupDto; deleteHref: string | null }) {
  return (
    <Flex gap="2" wrap="nowrap">
      <Button asChild size="2" variant="soft">
        <Link to={`/group/edit/${group.id}`} aria-label={`Editar ${group.name}`}>
          <BiEditAlt aria-hidden="true" /> Editar
        </Link>
      </Button>
      {deleteHref ? (
        <Button asChild size="2" variant="soft" color="red">
          <Link to={deleteHref} aria-label={`Eliminar ${group.name}`} preventScrollReset>
            <BiTrash aria-hidden="true" /> Eliminar
          </Link>
        </Button>
      ) : null}
    </Flex>
  );
}

export default function GroupIndex({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, page, pageSize, toDelete } = loaderData;
  const hrefWith = useHrefWith();
  const canWrite = useAccess().can("tag.write");
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : undefined;
  const newButton = canWrite ? (
    <Button asChild size="3">
      <Link to="/group/new">
        <BiPlus aria-hidden="true" /> Nuevo grupo
      </Link>
    </Button>
  ) : null;
  const deleteHref = (g: AccessGroupDto) => (canWrite ? hrefWith({ delete: g.id }) : null);
  return (
    <>
      <PageHeader title="Grupos de acceso" description="En qué estaciones pueden cargar las tarjetas de cada grupo y, si querés, con qué tarifa." actions={newButton} />
      {toDelete && canWrite ? (
        <DeleteConfirm id={toDelete.id} title={`¿Eliminar el grupo «${toDelete.name}»?`} action={hrefWith({})} cancelTo={hrefWith({ delete: undefined })} error={deleteError}>
          No se puede deshacer.{toDelete.tagCount > 0 ? ` Tiene ${tagCountLabel(toDelete.tagCount).toLowerCase()}: pasalas a otro grupo antes de eliminarlo.` : null}
        </DeleteConfirm>
      ) : deleteError ? (
        <Text as="p" color="red" role="alert" mb="4">
          {deleteError}
        </Text>
      ) : null}
      {total === 0 ? (
        <EmptyState icon={<BiShieldQuarter size={48} />} title="Todavía no tenés grupos" action={newButton}>
          Creá un grupo para limitar en qué estaciones cargan algunas tarjetas (por ejemplo, la flota de una empresa) o para cobrarles otra tarifa.
        </EmptyState>
      ) : (
        <>
          <div className="tag-table">
            <DataTable caption="Grupos de acceso">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>Nombre</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Estaciones</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Tarifa</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Tarjetas</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>
                    <span className="visually-hidden">Acciones</span>
                  </Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
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
                      <Actions group={g} deleteHref={deleteHref(g)} />
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </DataTable>
          </div>
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
                    <Actions group={g} deleteHref={deleteHref(g)} />
                  </Flex>
                </li>
              </Card>
            ))}
          </ul>
          <Pagination page={page} pageSize={pageSize} total={total} />
        </>
      )}
    </>
  );
}
