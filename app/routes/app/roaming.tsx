// Roaming (issue 27, ADR 0020): the company's OCPI identity (country AR and its party id), its
// partners — an invitation (our versions URL and a token A, shown once) or a registration with a
// partner's versions URL and token — with their state, unregistering, and which stations are
// published to roaming. Plain forms: everything works without JavaScript. The token A is only in
// the action's answer, never in a URL or a toast.
import type { ReactNode } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { Badge, Button, Card, Code, Flex, Grid, Heading, Text, TextField } from "@radix-ui/themes";
import type { Page, RoamingPartnerCreatedDto, RoamingPartnerDto, RoamingSettingsDto, RoamingStationDto } from "#contract/dto";
import { UUID_RE } from "#contract/schemas/constants";
import { can } from "#domain/permissions";
import { BiKey, BiPlusCircle, BiTransfer, BiTrash } from "~/icons";
import { EmptyState, PageHeader, TitledCard } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { formatDateTime } from "~/components/charts/format";
import { createApiClient, fetchJson, readJson, type ApiProblem } from "~/lib/api.server";
import { requireMember } from "~/lib/auth.server";
import { dataWithError, redirectWithSuccess } from "~/lib/toast.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/roaming";

export const meta = pageMeta("Roaming");

const UNAVAILABLE = "No pudimos cargar el roaming. Probá de nuevo en unos minutos.";
const FAILED = "No pudimos guardar el cambio. Probá de nuevo en unos minutos.";
const UNKNOWN_INTENT = "No entendimos qué querías hacer. Probá de nuevo.";
const STATION_PAGE = 100;

export const STATUS_LABELS: Record<RoamingPartnerDto["status"], string> = {
  PENDING: "Esperando registro",
  REGISTERED: "Registrado",
  UNREGISTERED: "Dado de baja por el socio",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, business, headers } = await requireMember(request, context);
  const api = createApiClient(context, user.idToken);
  const page = Math.max(1, Math.min(1000, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1));
  const [settings, partners, stations] = await Promise.all([
    fetchJson<RoamingSettingsDto>(api, "/Business/Roaming"),
    fetchJson<Page<RoamingPartnerDto>>(api, "/Business/Roaming/Partner?pageSize=100"),
    fetchJson<Page<RoamingStationDto>>(api, `/Business/Roaming/Station?pageSize=${STATION_PAGE}&page=${page}`),
  ]);
  return data(
    {
      role: business.role ?? null,
      settings: settings.ok ? settings.data : null,
      partners: partners.ok ? partners.data.items : [],
      partnerTotal: partners.ok ? partners.data.total : 0,
      stations: stations.ok ? stations.data : null,
      error: settings.ok && partners.ok && stations.ok ? null : UNAVAILABLE,
    },
    { headers },
  );
}

type Intent = "party" | "invite" | "register" | "remove" | "station";
type ActionData = { intent: Intent; errors?: Record<string, string[]>; created?: RoamingPartnerCreatedDto; values?: Record<string, string> };

const field = (form: FormData, name: string, max = 300) => String(form.get(name) ?? "").slice(0, max);

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireMember(request, context);
  const form = await request.formData();
  const intent = field(form, "intent", 20) as Intent;
  const api = createApiClient(context, user.idToken);
  const fail = async (res: Response | null, payload: ActionData) => {
    const problem = res ? await readJson<ApiProblem>(res) : undefined;
    const errors = problem?.errors;
    const message = errors ? (Object.values(errors)[0]?.[0] ?? problem?.title ?? FAILED) : (problem?.title ?? FAILED);
    return dataWithError(context, { ...payload, errors }, message, { status: res ? (res.status >= 500 ? 503 : res.status) : 503 });
  };
  const send = async (call: () => Promise<Response>): Promise<Response | null> => {
    try {
      return await call();
    } catch {
      return null;
    }
  };

  switch (intent) {
    case "party": {
      const partyId = field(form, "partyId", 10);
      const res = await send(() => api.put("/Business/Roaming", { partyId }));
      if (!res?.ok) return fail(res, { intent, values: { partyId } });
      return redirectWithSuccess("/roaming", "Guardamos tu party id.");
    }
    case "invite":
    case "register": {
      const values = intent === "register" ? { versionsUrl: field(form, "versionsUrl"), token: field(form, "token", 100) } : {};
      if (intent === "register" && (!values.versionsUrl || !values.token)) {
        const errors: Record<string, string[]> = {};
        if (!values.versionsUrl) errors.versionsUrl = ["Ingresá la URL de versiones del socio (https://…)."];
        if (!values.token) errors.token = ["Ingresá el token que te dio el socio."];
        return dataWithError(context, { intent, errors, values: { versionsUrl: values.versionsUrl ?? "" } } satisfies ActionData, Object.values(errors)[0][0], { status: 400 });
      }
      const res = await send(() => api.post("/Business/Roaming/Partner", values));
      if (!res?.ok) return fail(res, { intent, values: { versionsUrl: values.versionsUrl ?? "" } });
      const created = await readJson<RoamingPartnerCreatedDto>(res);
      if (intent === "register") return redirectWithSuccess("/roaming", `Nos registramos con ${created?.partner.name ?? "el socio"}.`);
      // The token A is shown once, in this answer: no redirect (it would be lost), no toast (it would linger).
      return data({ intent, created } satisfies ActionData);
    }
    case "remove":
    case "station": {
      const id = field(form, "id", 40);
      if (!UUID_RE.test(id)) return dataWithError(context, { intent } satisfies ActionData, UNKNOWN_INTENT, { status: 400 });
      const name = field(form, "name", 120);
      if (intent === "remove") {
        const res = await send(() => api.delete(`/Business/Roaming/Partner/${id}`));
        if (!res?.ok) return fail(res, { intent });
        return redirectWithSuccess("/roaming", name ? `Dimos de baja al socio «${name}».` : "Dimos de baja al socio.");
      }
      const publish = field(form, "roamingPublished", 5) === "true";
      const res = await send(() => api.put(`/Business/Roaming/Station/${id}`, { roamingPublished: publish }));
      if (!res?.ok) return fail(res, { intent });
      const label = name ? `«${name}»` : "la estación";
      return redirectWithSuccess("/roaming", publish ? `Publicamos ${label} en roaming.` : `Dejamos de publicar ${label} en roaming.`);
    }
    default:
      return dataWithError(context, { intent } satisfies ActionData, UNKNOWN_INTENT, { status: 400 });
  }
}

function TextInput({ name, label, hint, error, defaultValue, autoComplete = "off" }: { name: string; label: string; hint?: ReactNode; error?: string; defaultValue?: string; autoComplete?: string }) {
  const id = `roaming-${name}`;
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root id={id} name={name} defaultValue={defaultValue} autoComplete={autoComplete} aria-invalid={error ? true : undefined} aria-describedby={describedBy} size="3" />
      {error ? (
        <Text id={`${id}-error`} size="2" color="red" data-testid={`${name}-error`}>
          {error}
        </Text>
      ) : hint ? (
        <Text id={`${id}-hint`} size="2" color="gray">
          {hint}
        </Text>
      ) : null}
    </Flex>
  );
}

function StatusBadge({ status }: { status: RoamingPartnerDto["status"] }) {
  const color = status === "REGISTERED" ? "green" : status === "PENDING" ? "amber" : "gray";
  return (
    <Badge color={color} variant="soft" size="2" data-testid="partner-status">
      {STATUS_LABELS[status]}
    </Badge>
  );
}

function PartnerCard({ partner, writable }: { partner: RoamingPartnerDto; writable: boolean }) {
  const name = partner.name ?? (partner.partyId ? `${partner.countryCode}*${partner.partyId}` : "Invitación sin usar");
  return (
    <Card size="2" asChild>
      <li data-testid="partner-card" data-status={partner.status}>
        <Flex direction="column" gap="2" align="start">
          <Flex gap="2" align="center" wrap="wrap">
            <Text weight="medium">{name}</Text>
            {partner.partyId ? (
              <Text size="2" color="gray">
                {partner.countryCode}*{partner.partyId}
              </Text>
            ) : null}
            <StatusBadge status={partner.status} />
          </Flex>
          <Text size="2" color="gray">
            Agregado: {formatDateTime(partner.createdAt)} · Última sincronización: {partner.lastSyncAt ? formatDateTime(partner.lastSyncAt) : "nunca"} · Fallas: {partner.failures}
          </Text>
          {partner.lastError ? (
            <Text size="2" color="red">
              Último error: {partner.lastError}
            </Text>
          ) : null}
          {partner.modules.length ? (
            <Text size="2" color="gray">
              Módulos del socio: {partner.modules.join(", ")}
            </Text>
          ) : null}
          {writable ? (
            <details className="charger-confirm" data-testid="partner-remove">
              <summary className="charger-confirm-summary" data-color="red">
                <BiTrash aria-hidden="true" /> Dar de baja
              </summary>
              <div className="charger-confirm-body">
                <Text as="p" size="2" mb="3">
                  ¿Dar de baja a <strong>{name}</strong>? Le avisamos y sus tokens dejan de valer en el acto.
                </Text>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="id" value={partner.id} />
                  <input type="hidden" name="name" value={name} />
                  <Button type="submit" color="red" size="2">
                    Sí, dar de baja
                  </Button>
                </Form>
              </div>
            </details>
          ) : null}
        </Flex>
      </li>
    </Card>
  );
}

function StationItem({ station, writable }: { station: RoamingStationDto; writable: boolean }) {
  return (
    <li className="roaming-station" data-testid="roaming-station" data-published={station.roamingPublished}>
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <div>
          <Text weight="medium">{station.name}</Text>{" "}
          <Text size="2" color="gray">
            {station.city}
          </Text>{" "}
          <Badge color={station.roamingPublished ? "green" : "gray"} variant="soft">
            {station.roamingPublished ? "Publicada en roaming" : "No publicada"}
          </Badge>
        </div>
        {writable ? (
          <Form method="post">
            <input type="hidden" name="intent" value="station" />
            <input type="hidden" name="id" value={station.id} />
            <input type="hidden" name="name" value={station.name} />
            <input type="hidden" name="roamingPublished" value={station.roamingPublished ? "false" : "true"} />
            <Button type="submit" variant="soft" size="2" color={station.roamingPublished ? "gray" : undefined} aria-label={`${station.roamingPublished ? "Dejar de publicar" : "Publicar"} ${station.name} en roaming`}>
              {station.roamingPublished ? "Dejar de publicar" : "Publicar en roaming"}
            </Button>
          </Form>
        ) : null}
      </Flex>
    </li>
  );
}

export default function Roaming({ loaderData, actionData }: Route.ComponentProps) {
  const { role, settings, partners, partnerTotal, stations, error } = loaderData;
  const navigation = useNavigation();
  const writable = can(role, "roaming.write");
  const result = (actionData ?? null) as ActionData | null;
  const errors = result?.errors ?? {};
  const busy = navigation.state !== "idle";
  const page = stations ? stations.page : 1;
  const pages = stations ? Math.max(1, Math.ceil(stations.total / STATION_PAGE)) : 1;
  return (
    <>
      <PageHeader
        title="Roaming"
        description="Publicá tus estaciones y tarifas a las apps de movilidad (eMSP) con OCPI 2.2.1: sus conductores cargan en tus cargadores y las cargas se les facturan."
      />
      {error ? (
        <InfoMessage color="red" testId="roaming-error">
          {error}
        </InfoMessage>
      ) : null}
      {result?.created?.token ? (
        <Card size="3" mb="4" data-testid="roaming-invitation" role="status">
          <Heading as="h2" size="4" mb="2">
            <BiKey aria-hidden="true" /> Entregale estos datos al socio
          </Heading>
          <Text as="p" size="2" mb="3">
            Copialos ahora: el token no se vuelve a mostrar. Con ellos el socio se registra y la invitación pasa a «Registrado».
          </Text>
          <dl className="roaming-credentials">
            <dt>URL de versiones</dt>
            <dd>
              <Code size="3" data-testid="invitation-url">
                {result.created.versionsUrl}
              </Code>
            </dd>
            <dt>Token</dt>
            <dd>
              <Code size="3" data-testid="invitation-token" className="roaming-token">
                {result.created.token}
              </Code>
            </dd>
          </dl>
        </Card>
      ) : null}
      <Flex direction="column" gap="5">
        <Grid columns={{ initial: "1", md: "2" }} gap="4">
          <TitledCard title="Tu identificación OCPI">
            <Flex direction="column" gap="3">
              <Text as="p" size="2">
                País: <strong>AR</strong> · Party id: <strong data-testid="party-id">{settings?.partyId ?? "sin configurar"}</strong>
              </Text>
              {settings ? (
                <Text as="p" size="2">
                  URL de versiones: <Code>{settings.versionsUrl}</Code>
                </Text>
              ) : null}
              {writable ? (
                <Form method="post" data-testid="party-form">
                  <input type="hidden" name="intent" value="party" />
                  <Flex direction="column" gap="3">
                    <TextInput
                      name="partyId"
                      label="Party id"
                      defaultValue={result?.intent === "party" ? result.values?.partyId : (settings?.partyId ?? "")}
                      error={result?.intent === "party" ? errors.partyId?.[0] : undefined}
                      hint="3 letras o números que te identifican ante los socios (por ejemplo ENC)."
                    />
                    <div>
                      <Button type="submit" size="3" disabled={busy}>
                        Guardar party id
                      </Button>
                    </div>
                  </Flex>
                </Form>
              ) : null}
            </Flex>
          </TitledCard>
          {writable ? (
            <TitledCard title="Agregar un socio">
              <Flex direction="column" gap="4">
                <Form method="post" data-testid="invite-form">
                  <input type="hidden" name="intent" value="invite" />
                  <Text as="p" size="2" mb="2">
                    El socio se registra con tu URL de versiones y un token que generamos ahora.
                  </Text>
                  {result?.intent === "invite" && errors.partyId ? (
                    <Text as="p" size="2" color="red" mb="2" data-testid="invite-error">
                      {errors.partyId[0]}
                    </Text>
                  ) : null}
                  <Button type="submit" size="3" variant="soft" disabled={busy}>
                    <BiPlusCircle aria-hidden="true" /> Generar invitación
                  </Button>
                </Form>
                <Form method="post" data-testid="register-form">
                  <input type="hidden" name="intent" value="register" />
                  <Flex direction="column" gap="3">
                    <Text as="p" size="2">
                      O registrate vos con los datos que te dio el socio:
                    </Text>
                    {result?.intent === "register" && errors.partyId ? (
                      <Text as="p" size="2" color="red">
                        {errors.partyId[0]}
                      </Text>
                    ) : null}
                    <TextInput name="versionsUrl" label="URL de versiones del socio" defaultValue={result?.intent === "register" ? result.values?.versionsUrl : ""} error={result?.intent === "register" ? errors.versionsUrl?.[0] : undefined} />
                    <TextInput name="token" label="Token del socio" error={result?.intent === "register" ? errors.token?.[0] : undefined} />
                    <div>
                      <Button type="submit" size="3" disabled={busy}>
                        <BiTransfer aria-hidden="true" /> Registrarme con el socio
                      </Button>
                    </div>
                  </Flex>
                </Form>
              </Flex>
            </TitledCard>
          ) : null}
        </Grid>

        <section aria-labelledby="partners-title">
          <Heading as="h2" size="4" mb="3" id="partners-title">
            Socios {partnerTotal > partners.length ? `(${partners.length} de ${partnerTotal})` : null}
          </Heading>
          {partners.length ? (
            <ul className="roaming-list" aria-label="Socios de roaming">
              {partners.map((p) => (
                <PartnerCard key={p.id} partner={p} writable={writable} />
              ))}
            </ul>
          ) : (
            <EmptyState icon={<BiTransfer size={48} />} title="Todavía no tenés socios de roaming">
              Generá una invitación o registrate con los datos de un socio.
            </EmptyState>
          )}
        </section>

        <section aria-labelledby="stations-title">
          <Heading as="h2" size="4" mb="3" id="stations-title">
            Estaciones publicadas en roaming
          </Heading>
          <Text as="p" size="2" color="gray" mb="3">
            Los socios ven las estaciones publicadas, sus cargadores con su estado y las tarifas de sus conectores (la penalidad por inactividad como tiempo de estacionamiento).
          </Text>
          {stations && stations.items.length ? (
            <>
              <ul className="roaming-list" aria-label="Estaciones">
                {stations.items.map((s) => (
                  <StationItem key={s.id} station={s} writable={writable} />
                ))}
              </ul>
              {pages > 1 ? (
                <Flex gap="3" mt="3" align="center">
                  {page > 1 ? <Link to={`/roaming?page=${page - 1}`}>Anterior</Link> : null}
                  <Text size="2">
                    Página {page} de {pages}
                  </Text>
                  {page < pages ? <Link to={`/roaming?page=${page + 1}`}>Siguiente</Link> : null}
                </Flex>
              ) : null}
            </>
          ) : (
            <Text as="p" color="gray" data-testid="no-stations">
              Todavía no tenés estaciones.
            </Text>
          )}
        </section>
      </Flex>
    </>
  );
}
