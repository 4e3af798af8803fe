import { data, Link, useSearchParams } from "react-router";
import { Badge, Button, Card, Flex, Text, TextField } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiEditAlt, BiPlus, BiPurchaseTag, BiSearch, BiTrash } from "~/icons";
import { EmptyState, PageHeader } from "~/components/Page";
import { FilterBar, Pagination, SortHeader, listParams, useHrefWith } from "~/components/list";
import { DataTable } from "~/components/table";
import { DeleteRateConfirm } from "~/components/rate/DeleteRate";
import { connectorCountLabel, idlePenaltyLabel, noShowLabel, priceParts, vatLabel } from "~/components/rate/format";
import { deleteRate, UNAVAILABLE } from "./rate.server";
import { createApiClient, readJson } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { RATE_SORTS, UUID_RE } from "#contract/schemas/constants";
import type { Page, RateDto } from "#contract/dto";
import type { Route } from "./+types/index";

export const meta = pageMeta("Tarifas");

const SORTS = new Set<string>(RATE_SORTS.flatMap((k) => [k, `-${k}`]));
const SORT_OPTIONS: [string, string][] = [
  ["name", "Nombre (A–Z)"],
  ["-name", "Nombre (Z–A)"],
  ["pricePerKwhCents", "Precio por kWh (menor primero)"],
  ["-pricePerKwhCents", "Precio por kWh (mayor primero)"],
  ["-createdAt", "Más nuevas primero"],
  ["createdAt", "Más antiguas primero"],
];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const { page, pageSize, sort: rawSort } = listParams(url);
  const sort = rawSort && SORTS.has(rawSort) ? rawSort : "name";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const deleteId = url.searchParams.get("delete");

  const query = new URLSearchParams({ sort, page: String(page), pageSize: String(pageSize) });
  if (q) query.set("q", q);
  const api = createApiClient(context, user.idToken);
  let response: Response;
  try {
    response = await api.get(`/Business/Fees?${query}`);
  } catch {
    throw new Response(UNAVAILABLE, { status: 503 });
  }
  const body = response.ok ? await readJson<Page<RateDto>>(response) : undefined;
  if (!body) throw new Response(UNAVAILABLE, { status: 502 });

  // The rate being deleted (?delete=<id>): from this page, or asked for when it is on another one.
  let toDelete: RateDto | undefined;
  if (deleteId && UUID_RE.test(deleteId)) {
    toDelete = body.items.find((r) => r.id === deleteId);
    if (!toDelete) {
      const one = await api.get(`/Business/Fees/${deleteId}`).catch(() => undefined);
      toDelete = one?.ok ? await readJson<RateDto>(one) : undefined;
    }
  }
  return { ...body, q, sort, toDelete: toDelete ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const formData = await request.formData();
  const id = String(formData.get("id") ?? "");
  if (formData.get("intent") !== "delete" || !UUID_RE.test(id)) {
    return data({ deleteError: "No entendimos qué querías hacer. Probá de nuevo." }, { status: 400 });
  }
  return deleteRate(context, user, id);
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
        <Flex gap="2" wrap="nowrap">
          <Button asChild size="2" variant="soft">
            <Link to={`/rate/edit/${rate.id}`} aria-label={`Editar ${rate.name}`}>
              <BiEditAlt aria-hidden="true" /> Editar
            </Link>
          </Button>
          {deleteHref ? (
            <Button asChild size="2" variant="soft" color="red">
              <Link to={deleteHref} aria-label={`Eliminar ${rate.name}`} preventScrollReset>
                <BiTrash aria-hidden="true" /> Eliminar
              </Link>
            </Button>
          ) : null}
        </Flex>
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
          <Flex gap="2">
            <Button asChild size="2" variant="soft">
              <Link to={`/rate/edit/${rate.id}`} aria-label={`Editar ${rate.name}`}>
                <BiEditAlt aria-hidden="true" /> Editar
              </Link>
            </Button>
            {deleteHref ? (
              <Button asChild size="2" variant="soft" color="red">
                <Link to={deleteHref} aria-label={`Eliminar ${rate.name}`} preventScrollReset>
                  <BiTrash aria-hidden="true" /> Eliminar
                </Link>
              </Button>
            ) : null}
          </Flex>
        </Flex>
      </li>
    </Card>
  );
}

export default function RateIndex({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, page, pageSize, q, sort, toDelete } = loaderData;
  const hrefWith = useHrefWith();
  const [params] = useSearchParams();
  const filtered = q !== "";
  // Issue 26: Facturación and Lectura see the rates, without the ways to change them.
  const canWrite = useAccess().can("rate.write");
  const newButton = canWrite && (
    <Button asChild size="3">
      <Link to="/rate/new">
        <BiPlus aria-hidden="true" /> Nueva tarifa
      </Link>
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Tarifas"
        description="Cuánto cobrás por energía, tiempo y sesión, y las penalidades por inactividad y por reservas."
        actions={newButton}
      />
      {toDelete && canWrite ? (
        <DeleteRateConfirm rate={toDelete} action={hrefWith({})} cancelTo={hrefWith({ delete: undefined })} error={actionData?.deleteError} />
      ) : actionData?.deleteError ? (
        <Text as="p" color="red" role="alert" mb="4" data-testid="delete-rate-error">
          {actionData.deleteError}
        </Text>
      ) : null}
      {total === 0 && !filtered ? (
        <EmptyState icon={<BiPurchaseTag size={48} />} title="Todavía no tenés tarifas" action={newButton}>
          Creá tu primera tarifa con el precio por kWh, por minuto o por sesión, y sus penalidades. Después asignala a los conectores de tus cargadores.
        </EmptyState>
      ) : (
        <>
          <FilterBar label="Buscar tarifas">
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor="rate-q" size="2" weight="medium">
                Nombre
              </Text>
              <TextField.Root id="rate-q" name="q" type="search" size="3" defaultValue={params.get("q") ?? ""} placeholder="Buscar por nombre">
                <TextField.Slot>
                  <BiSearch aria-hidden="true" />
                </TextField.Slot>
              </TextField.Root>
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor="rate-sort" size="2" weight="medium">
                Ordenar por
              </Text>
              <select id="rate-sort" name="sort" defaultValue={sort} className="field-select rate-sort">
                {SORT_OPTIONS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </Flex>
          </FilterBar>
          {items.length === 0 ? (
            <EmptyState icon={<BiSearch size={48} />} title="No encontramos tarifas con ese nombre" action={<Link to="/rate">Ver todas las tarifas</Link>}>
              Probá con otra parte del nombre.
            </EmptyState>
          ) : (
            <>
              <div className="rate-table">
                <DataTable caption="Tarifas">
                  <Table.Header>
                    <Table.Row>
                      <SortHeader field="name" sort={sort}>
                        Nombre
                      </SortHeader>
                      <SortHeader field="pricePerKwhCents" sort={sort}>
                        Precios
                      </SortHeader>
                      <Table.ColumnHeaderCell>IVA</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Penalidades</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Conectores</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>
                        <span className="visually-hidden">Acciones</span>
                      </Table.ColumnHeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {items.map((rate) => (
                      <RateRow key={rate.id} rate={rate} deleteHref={canWrite ? hrefWith({ delete: rate.id }) : null} />
                    ))}
                  </Table.Body>
                </DataTable>
              </div>
              <ul className="rate-cards" aria-label="Tarifas">
                {items.map((rate) => (
                  <RateCard key={rate.id} rate={rate} deleteHref={canWrite ? hrefWith({ delete: rate.id }) : null} />
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
