import { Link } from "react-router";
import { Badge, Button, Card, Flex, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiPlus, BiPurchaseTag, BiSearch } from "~/icons";
import { EmptyState } from "~/components/Page";
import { SortHeader, listParams } from "~/components/list";
import { ActionsHeader, ListScreen, ListTable, RowActions, useListDelete } from "~/components/list/ListScreen";
import { SelectFilter, type Options } from "~/components/list/fields";
import { SearchField } from "~/components/list/SearchField";
import { DeleteRateConfirm } from "~/components/rate/DeleteRate";
import { connectorCountLabel, idlePenaltyLabel, noShowLabel, priceParts, vatLabel } from "~/components/rate/format";
import { RATES } from "./rate.server";
import { endpoints } from "#contract/endpoints";
import { apiFor, ensureLoaded, listDeleteAction, rowToDelete } from "~/lib/resource.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { RATE_SORTS } from "#contract/schemas/constants";
import type { RateDto } from "#contract/dto";
import type { Route } from "./+types/index";

export const meta = pageMeta("Tarifas");

const SORTS = new Set<string>(RATE_SORTS.flatMap((k) => [k, `-${k}`]));
const SORT_OPTIONS: Options = [
  ["name", "Nombre (A–Z)"],
  ["-name", "Nombre (Z–A)"],
  ["pricePerKwhCents", "Precio por kWh (menor primero)"],
  ["-pricePerKwhCents", "Precio por kWh (mayor primero)"],
  ["-createdAt", "Más nuevas primero"],
  ["createdAt", "Más antiguas primero"],
];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const { page, pageSize, sort: rawSort } = listParams(url);
  const sort = rawSort && SORTS.has(rawSort) ? rawSort : "name";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);

  const query = new URLSearchParams({ sort, page: String(page), pageSize: String(pageSize) });
  if (q) query.set("q", q);
  const body = ensureLoaded(await api.call(endpoints.rateList, { query }));
  // The rate being deleted (?delete=<id>): from this page, or asked for when it is on another one.
  const toDelete = await rowToDelete(api, RATES, body.items, url.searchParams.get("delete"));
  return { ...body, q, sort, toDelete };
}

export async function action({ request, context }: Route.ActionArgs) {
  return listDeleteAction(request, context, RATES);
}

function RateRow({ rate, deleteHref }: { rate: RateDto; deleteHref: string | null }) {
  const idle = idlePenaltyLabel(rate);
  const noShow = noShowLabel(rate);
  return (
    <Table.Row data-testid="rate-row">
      <Table.RowHeaderCell>
        <Link to={`/rate/edit/${rate.id}`} className="rate-name">
          {rate.name}
        </Link>
      </Table.RowHeaderCell>
      <Table.Cell>
        <Flex direction="column" gap="1">
          {priceParts(rate).map((p) => (
            <Text key={p} size="2" className="rate-nowrap">
              {p}
            </Text>
          ))}
        </Flex>
      </Table.Cell>
      <Table.Cell>
        <Badge color={rate.vatIncluded ? "green" : "amber"} variant="soft" size="2">
          {vatLabel(rate)}
        </Badge>
      </Table.Cell>
      <Table.Cell>
        <Flex direction="column" gap="1">
          {idle || noShow ? null : (
            <Text size="2" color="gray">
              Sin penalidades
            </Text>
          )}
          {idle ? <Text size="2">{idle}</Text> : null}
          {noShow ? <Text size="2">{noShow}</Text> : null}
        </Flex>
      </Table.Cell>
      <Table.Cell>
        <Text size="2" color={rate.connectorCount > 0 ? undefined : "gray"} className="rate-nowrap" data-testid="rate-connectors">
          {connectorCountLabel(rate.connectorCount)}
        </Text>
      </Table.Cell>
      <Table.Cell>
        <RowActions name={rate.name} editTo={`/rate/edit/${rate.id}`} deleteTo={deleteHref} />
      </Table.Cell>
    </Table.Row>
  );
}

/** The same rate as a card, for small screens (the table is hidden there by CSS). */
function RateCard({ rate, deleteHref }: { rate: RateDto; deleteHref: string | null }) {
  const idle = idlePenaltyLabel(rate);
  const noShow = noShowLabel(rate);
  return (
    <Card asChild size="2">
      <li>
        <Flex justify="between" align="start" gap="3" mb="2">
          <Link to={`/rate/edit/${rate.id}`} className="rate-name">
            {rate.name}
          </Link>
          <Badge color={rate.vatIncluded ? "green" : "amber"} variant="soft">
            {vatLabel(rate)}
          </Badge>
        </Flex>
        <Text as="p" size="2">
          {priceParts(rate).join(" · ")}
        </Text>
        {idle ? (
          <Text as="p" size="2" color="gray" mt="1">
            {idle}
          </Text>
        ) : null}
        {noShow ? (
          <Text as="p" size="2" color="gray" mt="1">
            {noShow}
          </Text>
        ) : null}
        <Flex justify="between" align="center" gap="3" mt="3" wrap="wrap">
          <Text size="2">{connectorCountLabel(rate.connectorCount)}</Text>
          <RowActions name={rate.name} editTo={`/rate/edit/${rate.id}`} deleteTo={deleteHref} />
        </Flex>
      </li>
    </Card>
  );
}

export default function RateIndex({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, page, pageSize, q, sort, toDelete } = loaderData;
  // Facturación and Lectura see the rates, without the ways to change them.
  const canWrite = useAccess().can("rate.write");
  const del = useListDelete(canWrite);
  const newButton = canWrite && (
    <Button asChild size="3">
      <Link to="/rate/new">
        <BiPlus aria-hidden="true" /> Nueva tarifa
      </Link>
    </Button>
  );

  return (
    <ListScreen
      title="Tarifas"
      description="Cuánto cobrás por energía, tiempo y sesión, y las penalidades por inactividad y por reservas."
      actions={
        <Flex gap="2" wrap="wrap">
          <Button asChild size="3" variant="soft">
            <Link to="/rate/holidays">Feriados locales</Link>
          </Button>
          {canWrite && total > 0 ? (
            <Button asChild size="3" variant="soft">
              <Link to="/rate/reprice">Actualizar precios</Link>
            </Button>
          ) : null}
          {newButton}
        </Flex>
      }
      confirm={toDelete && canWrite ? <DeleteRateConfirm rate={toDelete} action={del.action} cancelTo={del.cancelTo} error={actionData?.deleteError} /> : null}
      deleteError={actionData?.deleteError}
      deleteErrorTestId="delete-rate-error"
      empty={
        total === 0 && q === "" ? (
          <EmptyState icon={<BiPurchaseTag size={48} />} title="Todavía no tenés tarifas" action={newButton}>
            Creá tu primera tarifa con el precio por kWh, por minuto o por sesión, y sus penalidades. Después asignala a los conectores de tus cargadores.
          </EmptyState>
        ) : null
      }
      filters={{
        label: "Buscar tarifas",
        fields: (
          <>
            <SearchField id="rate-q" label="Nombre" defaultValue={q} placeholder="Buscar por nombre" />
            <SelectFilter id="rate-sort" label="Ordenar por" name="sort" defaultValue={sort} options={SORT_OPTIONS} selectClassName="field-select rate-sort" />
          </>
        ),
      }}
      noMatch={
        items.length === 0 ? (
          <EmptyState icon={<BiSearch size={48} />} title="No encontramos tarifas con ese nombre" action={<Link to="/rate">Ver todas las tarifas</Link>}>
            Probá con otra parte del nombre.
          </EmptyState>
        ) : null
      }
      pagination={{ page, pageSize, total }}
    >
      <ListTable
        caption="Tarifas"
        className="rate-table"
        head={
          <>
            <SortHeader field="name" sort={sort}>
              Nombre
            </SortHeader>
            <SortHeader field="pricePerKwhCents" sort={sort}>
              Precios
            </SortHeader>
            <Table.ColumnHeaderCell>IVA</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Penalidades</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Conectores</Table.ColumnHeaderCell>
            <ActionsHeader />
          </>
        }
      >
        {items.map((rate) => (
          <RateRow key={rate.id} rate={rate} deleteHref={del.deleteHref(rate.id)} />
        ))}
      </ListTable>
      <ul className="rate-cards" aria-label="Tarifas">
        {items.map((rate) => (
          <RateCard key={rate.id} rate={rate} deleteHref={del.deleteHref(rate.id)} />
        ))}
      </ul>
    </ListScreen>
  );
}
