import { Form, Link, useNavigation } from "react-router";
import { getCollectionProps, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Badge, Button, Card, Flex, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { BiArrowBack, BiChip, BiPlus, BiSearch } from "~/icons";
import type { ChargerDto, Page } from "#contract/dto";
import { assignChargersSchema } from "#contract/schemas/charger";
import { EmptyState, PageHeader, TitledCard } from "~/components/Page";
import { VALIDATE_ON } from "~/components/form";
import { withAutoFocus } from "~/lib/autofocus";
import { FormError, InfoMessage } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";
import { listParams, Pagination } from "~/components/list";
import { DataTable } from "~/components/table";
import { StatusSummary } from "~/components/station/StatusSummary";
import { apiFor, loadStation } from "~/lib/station.server";
import { LOAD_FAILED_MESSAGE } from "~/components/station/messages";
import { endpoints } from "#contract/endpoints";
import { problemReply } from "~/lib/problem-reply";
import { pageMeta } from "~/lib/meta";
import { dataWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/add";

const powerKw = new Intl.NumberFormat("es-AR");

// The page title is spelled "Anadir", without the tilde, exactly as the product's route table
// requires it; everything else on the page follows the product's spelling: "Añadir".
const TITLE = "Anadir cargador";

export const meta = pageMeta(TITLE);

const ASSIGN_FAILED_MESSAGE = "No pudimos añadir los cargadores. Probá de nuevo en unos minutos.";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  const stationId = url.searchParams.get("stationId");

  if (!stationId) {
    // No station chosen yet: pick one (the first 100 by name; the station screen links here with it).
    const res = await api.call(endpoints.stationList, { query: { sort: "name", pageSize: 100 } });
    const stations = res.ok ? res.data : undefined;
    return {
      station: null,
      stations: stations ? stations.items.map((s) => ({ id: s.id, name: s.name, city: s.city })) : null,
      chargers: null,
      q: "",
    };
  }

  const station = await loadStation(api, stationId);
  const { page, pageSize } = listParams(url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const res = await api.call(endpoints.chargerList, { query: { unassigned: "true", sort: "name", page, pageSize, q } });
  const chargers = res.ok ? res.data : undefined;
  return {
    station: { id: station.id, name: station.name, address: station.address, city: station.city, chargerCount: station.chargerCount },
    stations: null,
    chargers: chargers ?? null,
    q,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: assignChargersSchema });
  if (submission.status !== "success") {
    return dataWithError(context, { result: submission.reply() }, submission.error?.chargerIds?.[0] ?? "Elegí al menos un cargador.", { status: 400 });
  }
  const { stationId, chargerIds } = submission.value;
  const res = await api.call(endpoints.chargerAssign, { body: { stationId, chargerIds } });
  if (res.ok) {
    const body = res.data;
    const n = body.items.length;
    const stationName = String(formData.get("stationName") ?? "").slice(0, 120);
    const message =
      n === 1 ? `Añadimos «${body.items[0]?.name ?? "el cargador"}» a ${stationName ? `«${stationName}»` : "la estación"}.` : `Añadimos ${n} cargadores a ${stationName ? `«${stationName}»` : "la estación"}.`;
    return redirectWithSuccess(`/station/edit/${stationId}`, message);
  }
  // The refusal's first message is the form's: the list of checkboxes has no field to show it on.
  const { reply, status, message } = problemReply(submission, res, { fallback: ASSIGN_FAILED_MESSAGE, field: () => undefined, firstOnly: true });
  return dataWithError(context, { result: reply }, message, { status });
}

export default function AddCharger({ loaderData, actionData }: Route.ComponentProps) {
  const data = loaderData;
  return (
    <>
      <PageHeader
        title={TITLE}
        description={data.station ? `A la estación «${data.station.name}».` : "Elegí a qué estación querés sumar cargadores."}
        actions={
          data.station ? (
            <Button asChild variant="soft" color="gray" size="3">
              <Link to={`/station/edit/${data.station.id}`}>
                <BiArrowBack aria-hidden="true" /> Volver a la estación
              </Link>
            </Button>
          ) : null
        }
      />
      {data.station ? <AssignChargers station={data.station} chargers={data.chargers} q={data.q} actionData={actionData} /> : <PickStation stations={data.stations} />}
    </>
  );
}

function PickStation({ stations }: { stations: { id: string; name: string; city: string }[] | null }) {
  if (!stations) return <InfoMessage color="red">{LOAD_FAILED_MESSAGE}</InfoMessage>;
  if (stations.length === 0) {
    return (
      <EmptyState
        icon={<BiChip size={48} />}
        title="Primero creá una estación"
        action={
          <Button asChild size="3">
            <Link to="/station/new">Nueva estación</Link>
          </Button>
        }
      >
        Los cargadores se agrupan en estaciones. Creá la primera y después sumale cargadores.
      </EmptyState>
    );
  }
  return (
    <Card size="3" style={{ maxWidth: 560 }}>
      <Form method="get">
        <Flex direction="column" gap="3">
          <Text as="label" htmlFor="add-station" size="2" weight="medium">
            Estación
          </Text>
          <select id="add-station" name="stationId" className="field-select" required defaultValue="">
            <option value="" disabled>
              Elegí una estación
            </option>
            {stations.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} — {s.city}
              </option>
            ))}
          </select>
          <Flex>
            <Button type="submit" size="3">
              Continuar
            </Button>
          </Flex>
        </Flex>
      </Form>
    </Card>
  );
}

function AssignChargers({
  station,
  chargers,
  q,
  actionData,
}: {
  station: { id: string; name: string };
  chargers: Page<ChargerDto> | null;
  q: string;
  actionData: Route.ComponentProps["actionData"];
}) {
  const navigation = useNavigation();
  const onValidate = useLazySchema(() => import("#contract/schemas/charger").then((m) => m.assignChargersSchema));
  const [form, fields] = useForm({
    id: "assign-chargers",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    defaultValue: { stationId: station.id, chargerIds: [] as string[] },
    onValidate,
    ...VALIDATE_ON,
  });
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const newHref = `/charger/new?stationId=${station.id}`;
  const items = chargers?.items ?? [];
  const options = getCollectionProps(fields.chargerIds, { type: "checkbox", options: items.map((c) => c.id) });
  const error = fields.chargerIds.errors?.[0];

  return (
    <Flex direction="column" gap="5">
      <TitledCard
        id="unassigned"
        title="Cargadores sin estación"
        actions={
          <Button asChild variant="soft" size="2">
            <Link to={newHref}>
              <BiPlus aria-hidden="true" /> Crear un cargador nuevo
            </Link>
          </Button>
        }
      >
        <Form method="get" role="search" aria-label="Buscar cargadores sin estación" className="filter-bar">
          <input type="hidden" name="stationId" value={station.id} />
          <Flex gap="3" align="end" wrap="wrap">
            <Flex direction="column" gap="1">
              <Text as="label" htmlFor="add-q" size="2" weight="medium">
                Buscar
              </Text>
              <input id="add-q" name="q" type="search" defaultValue={q} placeholder="Nombre, identificador OCPP, serie o modelo" className="station-input station-search" maxLength={100} />
            </Flex>
            <Button type="submit" size="3" variant="soft">
              <BiSearch aria-hidden="true" /> Buscar
            </Button>
            {q ? (
              <Button asChild size="3" variant="ghost" color="gray">
                <Link to={`/charger/add?stationId=${station.id}`}>Limpiar</Link>
              </Button>
            ) : null}
          </Flex>
        </Form>

        {!chargers ? (
          <InfoMessage color="red">{LOAD_FAILED_MESSAGE}</InfoMessage>
        ) : chargers.total === 0 ? (
          <EmptyState
            icon={<BiChip size={48} />}
            title={q ? "Ningún cargador sin estación coincide con la búsqueda" : "No tenés cargadores sin estación"}
            action={
              <Button asChild size="3">
                <Link to={newHref}>Crear un cargador nuevo</Link>
              </Button>
            }
          >
            Creá uno nuevo para esta estación. Para traer un cargador de otra estación, editalo y cambiale la estación.
          </EmptyState>
        ) : (
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name={fields.stationId.name} value={station.id} />
            <input type="hidden" name="stationName" value={station.name} />
            <Flex direction="column" gap="3">
              <FormError errors={form.errors} id={form.errorId} />
              <fieldset className="station-fieldset" aria-describedby={error ? fields.chargerIds.errorId : undefined}>
                <legend className="visually-hidden">Elegí los cargadores que querés añadir</legend>
                <DataTable caption="Cargadores sin estación">
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeaderCell>
                        <span className="visually-hidden">Elegir</span>
                      </Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Nombre</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Identificador OCPP</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Marca y modelo</Table.ColumnHeaderCell>
                      <Table.ColumnHeaderCell>Conectores</Table.ColumnHeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {items.map((c, i) => {
                      const { key: _key, ...checkbox } = options[i];
                      return (
                        <Table.Row key={c.id}>
                          <Table.Cell>
                            <input {...withAutoFocus(fields.chargerIds, checkbox)} aria-label={`Añadir ${c.name}`} className="station-checkbox" onChange={() => form.validate({ name: fields.chargerIds.name })} />
                          </Table.Cell>
                          <Table.RowHeaderCell>
                            <label htmlFor={checkbox.id}>{c.name}</label>
                          </Table.RowHeaderCell>
                          <Table.Cell>
                            <code>{c.ocppIdentity}</code>
                          </Table.Cell>
                          <Table.Cell>
                            <Text size="2">{[c.brandName, c.model].filter(Boolean).join(" ") || "—"}</Text>
                          </Table.Cell>
                          <Table.Cell>
                            {c.connectors.length === 0 ? (
                              <Badge color="gray">Sin conectores</Badge>
                            ) : (
                              <>
                                <Text as="div" size="1" color="gray">
                                  {c.connectors.map((k) => `${k.standardLabel} ${powerKw.format(k.maxPowerKw)} kW`).join(" · ")}
                                </Text>
                                <StatusSummary summary={c.statusSummary} />
                              </>
                            )}
                          </Table.Cell>
                        </Table.Row>
                      );
                    })}
                  </Table.Body>
                </DataTable>
              </fieldset>
              {error ? (
                <Text size="2" color="red" id={fields.chargerIds.errorId} data-testid="chargerIds-error">
                  {error}
                </Text>
              ) : null}
              <Pagination page={chargers.page} pageSize={chargers.pageSize} total={chargers.total} />
              <Flex justify="end" gap="3">
                <Button type="submit" size="3" disabled={busy}>
                  {busy ? "Añadiendo…" : "Añadir a la estación"}
                </Button>
              </Flex>
            </Flex>
          </Form>
        )}
      </TitledCard>
    </Flex>
  );
}
