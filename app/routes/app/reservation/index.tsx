// 'Reservas' (issue 25, ADR 0018): the company's reservations, newest first, by station and state,
// with a plain POST to cancel an active one (works without JavaScript).
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { Badge, Button, Card, Flex, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiCalendar, BiPlus, BiTrash } from "~/icons";
import { EmptyState, PageHeader } from "~/components/Page";
import { FilterBar, Pagination, listParams } from "~/components/list";
import { DataTable } from "~/components/table";
import { fetchPage, stationOptions } from "../tag/tag.server";
import { UNAVAILABLE } from "./reservation.server";
import { createApiClient, readJson, type ApiProblem } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { formatArs } from "#domain/money";
import { UUID_RE } from "#contract/schemas/constants";
import { RESERVATION_STATUSES, RESERVATION_STATUS_LABELS, RESERVATIONS_DESCRIPTION } from "#contract/schemas/reservation-constants";
import type { ReservationDto, ReservationResultDto, ReservationStatus } from "#contract/dto";
import type { Route } from "./+types/index";

export const meta = pageMeta("Reservas");

const WHEN = new Intl.DateTimeFormat("es-AR", { timeZone: "America/Argentina/Buenos_Aires", dateStyle: "short", timeStyle: "short" });
const COLORS: Record<ReservationStatus, "green" | "blue" | "amber" | "gray" | "red"> = { ACTIVE: "green", USED: "blue", EXPIRED: "amber", CANCELLED: "gray", REFUSED: "red" };

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const { page, pageSize } = listParams(url);
  const stationId = url.searchParams.get("stationId") ?? "";
  const status = url.searchParams.get("status") ?? "";
  const query = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (UUID_RE.test(stationId)) query.set("stationId", stationId);
  if ((RESERVATION_STATUSES as readonly string[]).includes(status)) query.set("status", status);
  const [body, stations] = await Promise.all([fetchPage<ReservationDto>(context, user, `/Business/Reservation?${query}`), stationOptions(context, user)]);
  return { ...body, stations: stations.map(({ id, name }) => ({ id, name })), filtered: query.has("stationId") || query.has("status") };
}

/** Cancel: `intent=cancel` with the reservation's id; back to the same list with the API's answer. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const formData = await request.formData();
  const id = String(formData.get("id") ?? "");
  const back = `/reservation${new URL(request.url).search}`;
  if (formData.get("intent") !== "cancel" || !UUID_RE.test(id)) return redirectWithError(back, "No entendimos qué querías hacer. Probá de nuevo.");
  let response: Response;
  try {
    response = await createApiClient(context, user.idToken).delete(`/Business/Reservation/${id}`);
  } catch {
    return redirectWithError(back, UNAVAILABLE);
  }
  if (response.ok) return redirectWithSuccess(back, (await readJson<ReservationResultDto>(response))?.message ?? "Cancelamos la reserva.");
  if (response.status === 404) return redirectWithError(back, "La reserva ya no existe.");
  return redirectWithError(back, (await readJson<ApiProblem>(response))?.title ?? "No pudimos cancelar la reserva. Probá de nuevo.");
}

function StateBadge({ r }: { r: ReservationDto }) {
  return (
    <Badge color={COLORS[r.status]} variant="soft" size="2">
      {RESERVATION_STATUS_LABELS[r.status]}
    </Badge>
  );
}

/** What became of it, in a line: the charger's refusal, the session that used it, the fee charged. */
function Outcome({ r }: { r: ReservationDto }) {
  // Técnico opens no Actividad and gets no amounts (the API leaves the fee's total out).
  const canSeeActivity = useAccess().can("activity.read");
  if (r.status === "REFUSED") return <Text size="2" color="gray">Respuesta del cargador: {r.chargerStatus ?? "—"}</Text>;
  if (r.status === "USED" && r.sessionId) return canSeeActivity ? <Link to={`/activity?session=${r.sessionId}`}>Ver la carga</Link> : <Text size="2" color="gray">Usada</Text>;
  if (r.status === "EXPIRED" && r.feeSessionId) {
    const fee = r.feeTotalCents != null ? `Cargo por no presentarse: ${formatArs(r.feeTotalCents)}` : "Con cargo por no presentarse";
    return canSeeActivity ? <Link to={`/activity?session=${r.feeSessionId}`}>{fee}</Link> : <Text size="2" color="gray">{fee}</Text>;
  }
  if (r.status === "EXPIRED") return <Text size="2" color="gray">Sin cargo</Text>;
  return null;
}

function CancelButton({ r }: { r: ReservationDto }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("id") === r.id;
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="cancel" />
      <input type="hidden" name="id" value={r.id} />
      <Button type="submit" size="2" variant="soft" color="red" disabled={busy} aria-label={`Cancelar la reserva de ${r.idTag}`}>
        <BiTrash aria-hidden="true" /> Cancelar
      </Button>
    </Form>
  );
}

const where = (r: ReservationDto) => [r.stationName, r.chargerName, `conector ${r.connectorNumber}`].filter(Boolean).join(" · ");

export default function ReservationIndex({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pageSize, stations, filtered } = loaderData;
  const [params] = useSearchParams();
  const canCommand = useAccess().can("charger.command");
  const actions = canCommand ? (
    <Button asChild size="3">
      <Link to="/reservation/new">
        <BiPlus aria-hidden="true" /> Nueva reserva
      </Link>
    </Button>
  ) : null;
  return (
    <>
      <PageHeader title="Reservas" description={RESERVATIONS_DESCRIPTION} actions={actions} />
      {total === 0 && !filtered ? (
        <EmptyState icon={<BiCalendar size={48} />} title="Todavía no hiciste reservas" action={actions ?? undefined}>
          Reservá un conector para un cliente o un vehículo de tu flota: el cargador lo guarda para esa tarjeta.
        </EmptyState>
      ) : (
        <>
          <FilterBar label="Filtrar reservas">
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor="reservation-station" size="2" weight="medium">
                Estación
              </Text>
              <select id="reservation-station" name="stationId" defaultValue={params.get("stationId") ?? ""} className="field-select">
                <option value="">Todas</option>
                {stations.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor="reservation-status" size="2" weight="medium">
                Estado
              </Text>
              <select id="reservation-status" name="status" defaultValue={params.get("status") ?? ""} className="field-select">
                <option value="">Todos</option>
                {RESERVATION_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {RESERVATION_STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            </Flex>
          </FilterBar>
          {items.length === 0 ? (
            <EmptyState icon={<BiCalendar size={48} />} title="No hay reservas con esos filtros" action={<Link to="/reservation">Ver todas las reservas</Link>}>
              Probá con otra estación u otro estado.
            </EmptyState>
          ) : (
            <>
              <div className="tag-table">
                <DataTable caption="Reservas">
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeaderCell>Tarjeta</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Conector</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Vale hasta</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Estado</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Resultado</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>
                        <span className="visually-hidden">Acciones</span>
                      </Table.ColumnHeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {items.map((r) => (
                      <Table.Row key={r.id} data-testid="reservation-row">
                        <Table.RowHeaderCell>
                          <span className="tag-mono">{r.idTag}</span>
                        </Table.RowHeaderCell>
                        <Table.Cell>
                          <Text size="2">{where(r)}</Text>
                        </Table.Cell>
                        <Table.Cell>
                          <Text size="2" className="rate-nowrap">
                            {WHEN.format(new Date(r.expiresAt))}
                          </Text>
                        </Table.Cell>
                        <Table.Cell>
                          <StateBadge r={r} />
                        </Table.Cell>
                        <Table.Cell>
                          <Outcome r={r} />
                        </Table.Cell>
                        <Table.Cell>{r.status === "ACTIVE" && canCommand ? <CancelButton r={r} /> : null}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </DataTable>
              </div>
              <ul className="tag-cards" aria-label="Reservas">
                {items.map((r) => (
                  <Card asChild size="2" key={r.id}>
                    <li>
                      <Flex justify="between" align="start" gap="3" mb="2">
                        <span className="tag-mono">{r.idTag}</span>
                        <StateBadge r={r} />
                      </Flex>
                      <Text as="p" size="2">
                        {where(r)}
                      </Text>
                      <Text as="p" size="2" color="gray" mt="1">
                        Vale hasta {WHEN.format(new Date(r.expiresAt))}
                      </Text>
                      <Flex justify="between" align="center" mt="3" gap="3" wrap="wrap">
                        <Outcome r={r} />
                        {r.status === "ACTIVE" && canCommand ? <CancelButton r={r} /> : null}
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
