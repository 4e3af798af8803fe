// 'Reservas': the company's reservations, newest first, by station and state,
// with a plain POST to cancel an active one (works without JavaScript).
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { Badge, Button, Card, Flex, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiCalendar, BiPlus, BiTrash } from "~/icons";
import { EmptyState } from "~/components/Page";
import { listParams } from "~/components/list";
import { ActionsHeader, ListScreen, ListTable } from "~/components/list/ListScreen";
import { SelectFilter, type Options } from "~/components/list/fields";
import { endpoints } from "#contract/endpoints";
import { UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { apiFor, ensureLoaded, stationOptions, UNAVAILABLE } from "~/lib/resource.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { formatArs } from "#domain/money";
import { UUID_RE } from "#contract/schemas/constants";
import { RESERVATION_STATUSES, RESERVATION_STATUS_LABELS, RESERVATIONS_DESCRIPTION } from "#contract/schemas/reservation-constants";
import type { ReservationDto, ReservationStatus } from "#contract/dto";
import type { Route } from "./+types/index";

export const meta = pageMeta("Reservas");

const WHEN = new Intl.DateTimeFormat("es-AR", { timeZone: "America/Argentina/Buenos_Aires", dateStyle: "short", timeStyle: "short" });
const STATUS_OPTIONS: Options = [["", "Todos"], ...RESERVATION_STATUSES.map((s) => [s, RESERVATION_STATUS_LABELS[s]] as const)];
const COLORS: Record<ReservationStatus, "green" | "blue" | "amber" | "gray" | "red"> = { ACTIVE: "green", USED: "blue", EXPIRED: "amber", CANCELLED: "gray", REFUSED: "red" };

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const { page, pageSize } = listParams(url);
  const stationId = url.searchParams.get("stationId") ?? "";
  const status = url.searchParams.get("status") ?? "";
  const query = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (UUID_RE.test(stationId)) query.set("stationId", stationId);
  if ((RESERVATION_STATUSES as readonly string[]).includes(status)) query.set("status", status);
  const [list, stations] = await Promise.all([api.call(endpoints.reservationList, { query }), stationOptions(api)]);
  const body = ensureLoaded(list);
  return { ...body, stations: stations.map(({ id, name }) => ({ id, name })), filtered: query.has("stationId") || query.has("status") };
}

/** Cancel: `intent=cancel` with the reservation's id; back to the same list with the API's answer. */
export async function action({ request, context }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  const formData = await request.formData();
  const id = String(formData.get("id") ?? "");
  const back = `/reservation${new URL(request.url).search}`;
  if (formData.get("intent") !== "cancel" || !UUID_RE.test(id)) return redirectWithError(back, "No entendimos qué querías hacer. Probá de nuevo.");
  const result = await api.call(endpoints.reservationDelete, { params: { id } });
  if (result.ok) return redirectWithSuccess(back, result.data.message ?? "Cancelamos la reserva.");
  if (result.problem.type === UNREACHABLE_PROBLEM && result.status === 503) return redirectWithError(back, UNAVAILABLE);
  if (result.status === 404) return redirectWithError(back, "La reserva ya no existe.");
  return redirectWithError(back, (result.problem.type !== UNREACHABLE_PROBLEM && result.problem.title) || "No pudimos cancelar la reserva. Probá de nuevo.");
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
    <ListScreen
      title="Reservas"
      description={RESERVATIONS_DESCRIPTION}
      actions={actions}
      empty={
        total === 0 && !filtered ? (
          <EmptyState icon={<BiCalendar size={48} />} title="Todavía no hiciste reservas" action={actions ?? undefined}>
            Reservá un conector para un cliente o un vehículo de tu flota: el cargador lo guarda para esa tarjeta.
          </EmptyState>
        ) : null
      }
      filters={{
        label: "Filtrar reservas",
        fields: (
          <>
            <SelectFilter id="reservation-station" label="Estación" name="stationId" defaultValue={params.get("stationId") ?? ""} options={[["", "Todas"], ...stations.map((s) => [s.id, s.name] as const)]} />
            <SelectFilter id="reservation-status" label="Estado" name="status" defaultValue={params.get("status") ?? ""} options={STATUS_OPTIONS} />
          </>
        ),
      }}
      noMatch={
        items.length === 0 ? (
          <EmptyState icon={<BiCalendar size={48} />} title="No hay reservas con esos filtros" action={<Link to="/reservation">Ver todas las reservas</Link>}>
            Probá con otra estación u otro estado.
          </EmptyState>
        ) : null
      }
      pagination={{ page, pageSize, total }}
    >
      <ListTable
        caption="Reservas"
        className="tag-table"
        head={
          <>
            <Table.ColumnHeaderCell>Tarjeta</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Conector</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Vale hasta</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Estado</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Resultado</Table.ColumnHeaderCell>
            <ActionsHeader />
          </>
        }
      >
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
      </ListTable>
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
    </ListScreen>
  );
}
