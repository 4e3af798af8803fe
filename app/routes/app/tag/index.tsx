import { Link } from "react-router";
import { Badge, Button, Card, Flex, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiDownload, BiIdCard, BiPlus, BiSearch, BiUpload } from "~/icons";
import { EmptyState } from "~/components/Page";
import { SortHeader, listParams } from "~/components/list";
import { ActionsHeader, ListScreen, ListTable, RowActions, useListDelete } from "~/components/list/ListScreen";
import { SelectFilter, type Options } from "~/components/list/fields";
import { SearchField } from "~/components/list/SearchField";
import { DeleteConfirm } from "~/components/DeleteConfirm";
import { TAGS } from "./tag.server";
import { endpoints } from "#contract/endpoints";
import { apiFor, ensureLoaded, listDeleteAction, rowToDelete } from "~/lib/resource.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { TAG_SORTS } from "#contract/schemas/constants";
import type { TagDto } from "#contract/dto";
import type { Route } from "./+types/index";

export const meta = pageMeta("Tarjetas RFID");

const SORTS = new Set<string>(TAG_SORTS.flatMap((k) => [k, `-${k}`]));
const SORT_OPTIONS: Options = [
  ["holderName", "Titular (A–Z)"],
  ["-holderName", "Titular (Z–A)"],
  ["idTag", "Código (A–Z)"],
  ["expiresOn", "Vencimiento (más próximo primero)"],
  ["-createdAt", "Más nuevas primero"],
];

const dayFormat = new Intl.DateTimeFormat("es-AR", { timeZone: "UTC", day: "2-digit", month: "2-digit", year: "numeric" });
const formatDay = (iso: string) => dayFormat.format(new Date(`${iso}T00:00:00Z`));

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const { page, pageSize, sort: rawSort } = listParams(url);
  const sort = rawSort && SORTS.has(rawSort) ? rawSort : "holderName";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const query = new URLSearchParams({ sort, page: String(page), pageSize: String(pageSize) });
  if (q) query.set("q", q);
  const body = ensureLoaded(await api.call(endpoints.tagList, { query }));
  const toDelete = await rowToDelete(api, TAGS, body.items, url.searchParams.get("delete"));
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Argentina/Buenos_Aires" }).format(new Date());
  return { ...body, q, sort, today, toDelete };
}

export async function action({ request, context }: Route.ActionArgs) {
  return listDeleteAction(request, context, TAGS);
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

export default function TagIndex({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, page, pageSize, q, sort, today, toDelete } = loaderData;
  const canWrite = useAccess().can("tag.write");
  const del = useListDelete(canWrite);
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

  return (
    <ListScreen
      title="Tarjetas RFID"
      description="Las tarjetas de tus clientes y de tu equipo: quién es el titular, hasta cuándo valen y en qué grupo están."
      actions={actions}
      confirm={
        toDelete && canWrite ? (
          <DeleteConfirm id={toDelete.id} title={`¿Eliminar la tarjeta «${toDelete.idTag}»?`} action={del.action} cancelTo={del.cancelTo} error={deleteError}>
            No se puede deshacer. Las cargas ya registradas con esta tarjeta se conservan.
          </DeleteConfirm>
        ) : null
      }
      deleteError={deleteError}
      empty={
        total === 0 && !q ? (
          <EmptyState icon={<BiIdCard size={48} />} title="Todavía no tenés tarjetas" action={canWrite ? actions : undefined}>
            Cargá las tarjetas una por una o importalas desde una planilla. Después elegí en cada estación si acepta cualquier tarjeta o solo las registradas.
          </EmptyState>
        ) : null
      }
      filters={{
        label: "Buscar tarjetas",
        fields: (
          <>
            <SearchField id="tag-q" label="Código o titular" defaultValue={q} placeholder="Buscar por código o titular" />
            <SelectFilter id="tag-sort" label="Ordenar por" name="sort" defaultValue={sort} options={SORT_OPTIONS} />
          </>
        ),
      }}
      noMatch={
        items.length === 0 ? (
          <EmptyState icon={<BiSearch size={48} />} title="No encontramos tarjetas con ese código o titular" action={<Link to="/tag">Ver todas las tarjetas</Link>}>
            Probá con otra parte del código o del nombre.
          </EmptyState>
        ) : null
      }
      pagination={{ page, pageSize, total }}
    >
      <ListTable
        caption="Tarjetas RFID"
        className="tag-table"
        head={
          <>
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
            <ActionsHeader />
          </>
        }
      >
        {items.map((tag) => (
          <TagRow key={tag.id} tag={tag} today={today} deleteHref={del.deleteHref(tag.id)} />
        ))}
      </ListTable>
      <ul className="tag-cards" aria-label="Tarjetas RFID">
        {items.map((tag) => (
          <TagCard key={tag.id} tag={tag} today={today} deleteHref={del.deleteHref(tag.id)} />
        ))}
      </ul>
    </ListScreen>
  );
}

function TagRow({ tag, today, deleteHref }: { tag: TagDto; today: string; deleteHref: string | null }) {
  return (
    <Table.Row data-testid="tag-row">
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
        <RowActions name={tag.idTag} editTo={`/tag/edit/${tag.id}`} deleteTo={deleteHref} />
      </Table.Cell>
    </Table.Row>
  );
}

/** The same tag as a card, for small screens (the table is hidden there by CSS). */
function TagCard({ tag, today, deleteHref }: { tag: TagDto; today: string; deleteHref: string | null }) {
  return (
    <Card asChild size="2">
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
          <RowActions name={tag.idTag} editTo={`/tag/edit/${tag.id}`} deleteTo={deleteHref} />
        </Flex>
      </li>
    </Card>
  );
}
