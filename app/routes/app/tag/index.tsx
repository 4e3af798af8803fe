import { Link, useSearchParams } from "react-router";
import { Badge, Button, Card, Flex, Text, TextField } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiDownload, BiEditAlt, BiIdCard, BiPlus, BiSearch, BiTrash, BiUpload } from "~/icons";
import { EmptyState, PageHeader } from "~/components/Page";
import { FilterBar, Pagination, SortHeader, listParams, useHrefWith } from "~/components/list";
import { DataTable } from "~/components/table";
import { DeleteConfirm } from "~/components/DeleteConfirm";
import { fetchOne, fetchPage, listAction, TAGS } from "./tag.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { TAG_SORTS, UUID_RE } from "#contract/schemas/constants";
import type { TagDto } from "#contract/dto";
import type { Route } from "./+types/index";

export const meta = pageMeta("Tarjetas RFID");

const SORTS = new Set<string>(TAG_SORTS.flatMap((k) => [k, `-${k}`]));
const SORT_OPTIONS: [string, string][] = [
  ["holderName", "Titular (A–Z)"],
  ["-holderName", "Titular (Z–A)"],
  ["idTag", "Código (A–Z)"],
  ["expiresOn", "Vencimiento (más próximo primero)"],
  ["-createdAt", "Más nuevas primero"],
];

const dayFormat = new Intl.DateTimeFormat("es-AR", { timeZone: "UTC", day: "2-digit", month: "2-digit", year: "numeric" });
const formatDay = (iso: string) => dayFormat.format(new Date(`${iso}T00:00:00Z`));

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const { page, pageSize, sort: rawSort } = listParams(url);
  const sort = rawSort && SORTS.has(rawSort) ? rawSort : "holderName";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const query = new URLSearchParams({ sort, page: String(page), pageSize: String(pageSize) });
  if (q) query.set("q", q);
  const body = await fetchPage<TagDto>(context, user, `/Business/Tag?${query}`);
  const deleteId = url.searchParams.get("delete");
  let toDelete: TagDto | undefined;
  if (deleteId && UUID_RE.test(deleteId)) toDelete = body.items.find((t) => t.id === deleteId) ?? (await fetchOne<TagDto>(context, user, TAGS, deleteId).catch(() => undefined));
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Argentina/Buenos_Aires" }).format(new Date());
  return { ...body, q, sort, today, toDelete: toDelete ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  return listAction(request, context, user, TAGS);
}

function StateBadge({ tag, today }: { tag: TagDto; today: string }) {
  if (tag.blocked)
    return (
      <Badge color="red" variant="soft" size="2">
        Bloqueada
      </Badge>
    );
  if (tag.expiresOn && tag.expiresOn < today)
    return (
      <Badge color="amber" variant="soft" size="2">
        Vencida
      </Badge>
    );
  return (
    <Badge color="green" variant="soft" size="2">
      Habilitada
    </Badge>
  );
}

function Actions({ tag, deleteHref }: { tag: TagDto; deleteHref: string | null }) {
  return (
    <Flex gap="2" wrap="nowrap">
      <Button asChild size="2" variant="soft">
        <Link to={`/tag/edit/${tag.id}`} aria-label={`Editar ${tag.idTag}`}>
          <BiEditAlt aria-hidden="true" /> Editar
        </Link>
      </Button>
      {deleteHref ? (
        <Button asChild size="2" variant="soft" color="red">
          <Link to={deleteHref} aria-label={`Eliminar ${tag.idTag}`} preventScrollReset>
            <BiTrash aria-hidden="true" /> Eliminar
          </Link>
        </Button>
      ) : null}
    </Flex>
  );
}

export default function TagIndex({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, page, pageSize, q, sort, today, toDelete } = loaderData;
  const hrefWith = useHrefWith();
  const [params] = useSearchParams();
  const canWrite = useAccess().can("tag.write");
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : undefined;
  const actions = (
    <Flex gap="3" wrap="wrap">
      {total > 0 ? (
        <Button asChild size="3" variant="soft">
          <a href="/tag/export.csv" download>
            <BiDownload aria-hidden="true" /> Exportar CSV
          </a>
        </Button>
      ) : null}
      {canWrite ? (
        <>
          <Button asChild size="3" variant="soft">
            <Link to="/tag/import">
              <BiUpload aria-hidden="true" /> Importar CSV
            </Link>
          </Button>
          <Button asChild size="3">
            <Link to="/tag/new">
              <BiPlus aria-hidden="true" /> Nueva tarjeta
            </Link>
          </Button>
        </>
      ) : null}
    </Flex>
  );
  const deleteHref = (t: TagDto) => (canWrite ? hrefWith({ delete: t.id }) : null);

  return (
    <>
      <PageHeader title="Tarjetas RFID" description="Las tarjetas de tus clientes y de tu equipo: quién es el titular, hasta cuándo valen y en qué grupo están." actions={actions} />
      {toDelete && canWrite ? (
        <DeleteConfirm id={toDelete.id} title={`¿Eliminar la tarjeta «${toDelete.idTag}»?`} action={hrefWith({})} cancelTo={hrefWith({ delete: undefined })} error={deleteError}>
          No se puede deshacer. Las cargas ya registradas con esta tarjeta se conservan.
        </DeleteConfirm>
      ) : deleteError ? (
        <Text as="p" color="red" role="alert" mb="4">
          {deleteError}
        </Text>
      ) : null}
      {total === 0 && !q ? (
        <EmptyState icon={<BiIdCard size={48} />} title="Todavía no tenés tarjetas" action={canWrite ? actions : undefined}>
          Cargá las tarjetas una por una o importalas desde una planilla. Después elegí en cada estación si acepta cualquier tarjeta o solo las registradas.
        </EmptyState>
      ) : (
        <>
          <FilterBar label="Buscar tarjetas">
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor="tag-q" size="2" weight="medium">
                Código o titular
              </Text>
              <TextField.Root id="tag-q" name="q" type="search" size="3" defaultValue={params.get("q") ?? ""} placeholder="Buscar por código o titular">
                <TextField.Slot>
                  <BiSearch aria-hidden="true" />
                </TextField.Slot>
              </TextField.Root>
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor="tag-sort" size="2" weight="medium">
                Ordenar por
              </Text>
              <select id="tag-sort" name="sort" defaultValue={sort} className="field-select">
                {SORT_OPTIONS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </Flex>
          </FilterBar>
          {items.length === 0 ? (
            <EmptyState icon={<BiSearch size={48} />} title="No encontramos tarjetas con ese código o titular" action={<Link to="/tag">Ver todas las tarjetas</Link>}>
              Probá con otra parte del código o del nombre.
            </EmptyState>
          ) : (
            <>
              <div className="tag-table">
                <DataTable caption="Tarjetas RFID">
                  <Table.Header>
                    <Table.Row>
                      <SortHeader field="idTag" sort={sort}>
                        Código
                      </SortHeader>
                      <SortHeader field="holderName" sort={sort}>
                        Titular
                      </SortHeader>
                      <Table.ColumnHeaderCell>Grupo</Table.ColumnHeaderCell>
                      <SortHeader field="expiresOn" sort={sort}>
                        Vence
                      </SortHeader>
                      <Table.ColumnHeaderCell>Estado</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>
                        <span className="visually-hidden">Acciones</span>
                      </Table.ColumnHeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {items.map((tag) => (
                      <Table.Row key={tag.id} data-testid="tag-row">
                        <Table.RowHeaderCell>
                          <Link to={`/tag/edit/${tag.id}`} className="tag-mono">
                            {tag.idTag}
                          </Link>
                        </Table.RowHeaderCell>
                        <Table.Cell>
                          <Flex direction="column">
                            <Text size="2">{tag.holderName}</Text>
                            {tag.email ? (
                              <Text size="1" color="gray">
                                {tag.email}
                              </Text>
                            ) : null}
                          </Flex>
                        </Table.Cell>
                        <Table.Cell>
                          <Text size="2" color={tag.groupName ? undefined : "gray"}>
                            {tag.groupName ?? "Sin grupo"}
                          </Text>
                        </Table.Cell>
                        <Table.Cell>
                          <Text size="2" color={tag.expiresOn ? undefined : "gray"} className="rate-nowrap">
                            {tag.expiresOn ? formatDay(tag.expiresOn) : "No vence"}
                          </Text>
                        </Table.Cell>
                        <Table.Cell>
                          <StateBadge tag={tag} today={today} />
                        </Table.Cell>
                        <Table.Cell>
                          <Actions tag={tag} deleteHref={deleteHref(tag)} />
                        </Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </DataTable>
              </div>
              <ul className="tag-cards" aria-label="Tarjetas RFID">
                {items.map((tag) => (
                  <Card asChild size="2" key={tag.id}>
                    <li>
                      <Flex justify="between" align="start" gap="3" mb="2">
                        <Link to={`/tag/edit/${tag.id}`} className="tag-mono">
                          {tag.idTag}
                        </Link>
                        <StateBadge tag={tag} today={today} />
                      </Flex>
                      <Text as="p" size="2">
                        {tag.holderName}
                      </Text>
                      <Text as="p" size="2" color="gray" mt="1">
                        {tag.groupName ?? "Sin grupo"} · {tag.expiresOn ? `vence el ${formatDay(tag.expiresOn)}` : "no vence"}
                      </Text>
                      <Flex justify="end" mt="3">
                        <Actions tag={tag} deleteHref={deleteHref(tag)} />
                      </Flex>
                    </li>
                  </Card>
                ))}
              </ul>
              <Pagination page={page} pageSize={pageSize} total={total} />
            </>
          )}
        </>
      )}
    </>
  );
}
