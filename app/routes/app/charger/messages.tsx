// Mensajes OCPP (issue 25): a charger's recent messages, both directions (the last 1,000 Enchufá
// keeps per charger), newest first, for troubleshooting — with the CSV of all of them. Secrets
// never reach this list (ocpp/message-log.ts redacts them before storing).
import { data, Link } from "react-router";
import { Button, Card, Code, Flex, Text } from "@radix-ui/themes";
import type { ChargerDto, OcppMessageDto, Page } from "#contract/dto";
import { UUID_RE } from "#contract/schemas/constants";
import { BiArrowBack, BiDownload, BiHistory } from "~/icons";
import { EmptyState, PageHeader } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { FilterBar, Pagination, listParams } from "~/components/list";
import { FilterSelect } from "~/components/activity/filters";
import { Body, Cell, ColumnHeaderCell, DataTable, Header, Row } from "~/components/table";
import { formatDateTime, formatInt } from "~/components/charts/format";
import { createApiClient, fetchJson } from "~/lib/api.server";
import { requireMember } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/messages";

export const meta = pageMeta("Mensajes OCPP");

const PAGE_SIZE = 50;
const DIRECTIONS: [string, string][] = [
  ["IN", "Recibidos del cargador"],
  ["OUT", "Enviados al cargador"],
];
const UNAVAILABLE = "No pudimos cargar los mensajes. Probá de nuevo en unos minutos.";

function notFound(): never {
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const { user, headers } = await requireMember(request, context);
  if (!UUID_RE.test(params.id)) notFound();
  const api = createApiClient(context, user.idToken);
  const direction = url.searchParams.get("direction") ?? "";
  const validDirection = DIRECTIONS.some(([v]) => v === direction) ? direction : "";
  const { page } = listParams(url, { pageSize: PAGE_SIZE });
  const query = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE), ...(validDirection ? { direction: validDirection } : {}) });
  const [charger, messages] = await Promise.all([
    fetchJson<ChargerDto>(api, `/Business/Charger/${params.id}`),
    fetchJson<Page<OcppMessageDto>>(api, `/Business/Charger/${params.id}/Message?${query}`),
  ]);
  if (!charger.ok && charger.status === 404) notFound();
  return data(
    {
      charger: charger.ok ? { id: charger.data.id, name: charger.data.name, ocppIdentity: charger.data.ocppIdentity } : { id: params.id, name: "", ocppIdentity: "" },
      direction: validDirection,
      directionError: direction && !validDirection ? "Elegí una opción de la lista." : undefined,
      items: messages.ok ? messages.data.items : [],
      total: messages.ok ? messages.data.total : 0,
      page: messages.ok ? messages.data.page : page,
      error: messages.ok && charger.ok ? null : UNAVAILABLE,
    },
    { headers },
  );
}

/** The payload: one line when short, otherwise folded (no JavaScript needed). */
function Payload({ text }: { text: string }) {
  if (text.length <= 80) return <Code className="ocpp-payload">{text}</Code>;
  return (
    <details className="ocpp-payload-details">
      <summary>
        <Code className="ocpp-payload">{text.slice(0, 60)}…</Code>
      </summary>
      <pre className="ocpp-payload-full">{text}</pre>
    </details>
  );
}

function kindColor(m: OcppMessageDto) {
  return m.messageType === 4 ? "red" : m.messageType === 3 ? "gray" : undefined;
}

export default function ChargerMessages({ loaderData: d }: Route.ComponentProps) {
  const filtered = d.direction !== "";
  return (
    <>
      <PageHeader
        title="Mensajes OCPP"
        description={`${d.charger.name} · ${d.charger.ocppIdentity}. Los últimos ${formatInt(1000)} mensajes, en los dos sentidos, del más nuevo al más viejo. Nunca guardamos contraseñas ni claves.`}
        actions={
          <Flex gap="2" wrap="wrap">
            <Button asChild size="3" variant="soft" color="gray">
              <Link to={`/charger/edit/${d.charger.id}`}>
                <BiArrowBack aria-hidden="true" /> Volver al cargador
              </Link>
            </Button>
            <Button asChild size="3" variant="soft">
              <a href={`/charger/edit/${d.charger.id}/messages.csv`} download data-testid="messages-export">
                <BiDownload aria-hidden="true" /> Exportar CSV
              </a>
            </Button>
          </Flex>
        }
      />
      <FilterBar label="Filtrar los mensajes">
        <FilterSelect name="direction" label="Sentido" value={d.direction} error={d.directionError} options={DIRECTIONS} all="Los dos" />
      </FilterBar>
      {d.error ? (
        <InfoMessage color="red" testId="messages-error">
          {d.error}
        </InfoMessage>
      ) : d.items.length === 0 ? (
        <EmptyState icon={<BiHistory size={48} />} title={filtered ? "No hay mensajes en ese sentido" : "Todavía no hay mensajes"}>
          {filtered ? "Probá con los dos sentidos." : "Cuando el cargador se conecte, sus mensajes y nuestras respuestas aparecen acá."}
        </EmptyState>
      ) : (
        <>
          <div className="audit-table">
            <DataTable caption="Mensajes OCPP del cargador, del más nuevo al más viejo">
              <Header>
                <Row>
                  <ColumnHeaderCell>Fecha y hora</ColumnHeaderCell>
                  <ColumnHeaderCell>Sentido</ColumnHeaderCell>
                  <ColumnHeaderCell>Mensaje</ColumnHeaderCell>
                  <ColumnHeaderCell>Contenido</ColumnHeaderCell>
                </Row>
              </Header>
              <Body>
                {d.items.map((m) => (
                  <Row key={m.seq} data-testid="message-row" data-direction={m.direction}>
                    <Cell className="rate-nowrap">{formatDateTime(m.at)}</Cell>
                    <Cell>{m.directionLabel}</Cell>
                    <Cell>
                      <Text as="div" weight="medium" color={kindColor(m)}>
                        {m.action ?? "—"}
                      </Text>
                      <Text as="div" size="1" color="gray">
                        {m.messageTypeLabel} · {m.messageId}
                      </Text>
                    </Cell>
                    <Cell className="ocpp-payload-cell">
                      <Payload text={m.payload} />
                    </Cell>
                  </Row>
                ))}
              </Body>
            </DataTable>
          </div>
          <ul className="audit-cards" aria-label="Mensajes OCPP del cargador, del más nuevo al más viejo">
            {d.items.map((m) => (
              <Card size="2" asChild key={m.seq}>
                <li data-testid="message-card">
                  <Text as="p" weight="medium" color={kindColor(m)}>
                    {m.action ?? "—"} · {m.messageTypeLabel}
                  </Text>
                  <Text as="p" size="1" color="gray" mb="2">
                    {m.directionLabel} · {formatDateTime(m.at)}
                  </Text>
                  <Payload text={m.payload} />
                </li>
              </Card>
            ))}
          </ul>
          <Pagination page={d.page} pageSize={PAGE_SIZE} total={d.total} />
        </>
      )}
    </>
  );
}
