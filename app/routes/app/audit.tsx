// Auditoría: every change of the company — who, with which role, what, the fields
// before → after, when, from which address — newest first, with filters (section, person,
// dates) and the CSV of the filtered entries. Dueño and Administrador only (audit.read).
import { data } from "react-router";
import { Button, Card, Text } from "@radix-ui/themes";
import type { AuditEntryDto } from "#contract/dto";
import { endpoints } from "#contract/endpoints";
import { AUDIT_RESOURCES, AUDIT_RESOURCE_LABELS, auditActionLabel, auditSubject, describeChanges, type AuditResource } from "#domain/audit";
import { ROLE_LABELS } from "#domain/permissions";
import { BiDownload, BiHistory } from "~/icons";
import { EmptyState } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { listParams } from "~/components/list";
import { ListScreen, ListTable } from "~/components/list/ListScreen";
import { FilterDate, FilterSelect, queryErrors } from "~/components/activity/filters";
import { Cell, ColumnHeaderCell, Row } from "~/components/table";
import { formatDateTime, formatInt } from "~/components/charts/format";
import { createApiClient, pickParams } from "~/lib/api.server";
import { requireMember } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/audit";

export const meta = pageMeta("Auditoría");

export const FILTER_KEYS = ["resource", "actor", "from", "to"] as const;
export const AUDIT_EXPORT_PATH = "/audit/export.csv";
const UNAVAILABLE = "No pudimos cargar la auditoría. Probá de nuevo en unos minutos.";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user, headers } = await requireMember(request, context);
  const { auditQuery } = await import("#contract/schemas/team");
  const raw = pickParams(url.searchParams, [...FILTER_KEYS, "page", "pageSize"]);
  const errors = queryErrors(auditQuery.safeParse(Object.fromEntries(raw)).error?.issues);
  const query = new URLSearchParams();
  for (const [k, v] of raw) if (!errors[k]) query.set(k, v);
  if (errors.to) query.delete("from");
  const { page, pageSize } = listParams(url);
  const res = await createApiClient(context, user.idToken).call(endpoints.auditList, { query });
  const exportQuery = pickParams(query, FILTER_KEYS);
  return data(
    {
      filters: Object.fromEntries(FILTER_KEYS.map((k) => [k, raw.get(k) ?? ""])) as Record<(typeof FILTER_KEYS)[number], string>,
      errors,
      items: res.ok ? res.data.items : ([] as AuditEntryDto[]),
      total: res.ok ? res.data.total : 0,
      page: res.ok ? res.data.page : page,
      pageSize: res.ok ? res.data.pageSize : pageSize,
      actors: res.ok ? res.data.actors : [],
      error: res.ok ? null : UNAVAILABLE,
      filtered: FILTER_KEYS.some((k) => raw.has(k)),
      exportHref: `${AUDIT_EXPORT_PATH}${exportQuery.size ? `?${exportQuery}` : ""}`,
    },
    { headers },
  );
}

/** Small screens: each entry is a card instead of a table row. */
function EntryCard({ entry }: { entry: AuditEntryDto }) {
  const lines = describeChanges(entry.changes, entry.resourceType as AuditResource);
  const subject = auditSubject(entry);
  const section = AUDIT_RESOURCE_LABELS[entry.resourceType as AuditResource] ?? entry.resourceType;
  return (
    <Card size="2" asChild>
      <li data-testid="audit-card">
        <Text as="p" weight="medium">
          {auditActionLabel(entry.action)}
          {subject ? <> «{subject}»</> : null}
        </Text>
        <Text as="p" size="1" color="gray" mb="2">
          {section} · {formatDateTime(entry.at)}
        </Text>
        {lines.length ? (
          <ul className="audit-changes">
            {lines.map((line, i) => (
              <li key={i}>
                <Text size="2">{line}</Text>
              </li>
            ))}
          </ul>
        ) : null}
        <Text as="p" size="2" mt="2" className="audit-who">
          {entry.actorEmail}
          {entry.actorRole ? ` (${ROLE_LABELS[entry.actorRole]})` : ""}
          {entry.ip ? ` · ${entry.ip}` : ""}
        </Text>
      </li>
    </Card>
  );
}

function EntryRow({ entry }: { entry: AuditEntryDto }) {
  const lines = describeChanges(entry.changes, entry.resourceType as AuditResource);
  const subject = auditSubject(entry);
  const section = AUDIT_RESOURCE_LABELS[entry.resourceType as AuditResource] ?? entry.resourceType;
  return (
    <Row data-testid="audit-row" data-action={entry.action}>
      <Cell className="rate-nowrap">{formatDateTime(entry.at)}</Cell>
      <Cell>
        <Text as="div" weight="medium">
          {entry.actorEmail}
        </Text>
        {entry.actorRole ? (
          <Text as="div" size="1" color="gray">
            {ROLE_LABELS[entry.actorRole]}
          </Text>
        ) : null}
      </Cell>
      <Cell>
        <Text as="div">
          {auditActionLabel(entry.action)}
          {subject ? <> «{subject}»</> : null}
        </Text>
        <Text as="div" size="1" color="gray">
          {section}
        </Text>
      </Cell>
      <Cell>
        {lines.length ? (
          <ul className="audit-changes" data-testid="audit-changes">
            {lines.map((line, i) => (
              <li key={i}>
                <Text size="2">{line}</Text>
              </li>
            ))}
          </ul>
        ) : (
          <Text size="2" color="gray">
            —
          </Text>
        )}
      </Cell>
      <Cell>
        <Text size="2">{entry.ip ?? "—"}</Text>
      </Cell>
    </Row>
  );
}

export default function Audit({ loaderData: d }: Route.ComponentProps) {
  return (
    <ListScreen
      title="Auditoría"
      description="Quién cambió qué, cuándo y desde dónde. Nunca guarda contraseñas ni credenciales."
      actions={
        <Button asChild size="3" variant="soft">
          <a href={d.exportHref} download data-testid="audit-export">
            <BiDownload aria-hidden="true" /> Exportar CSV
          </a>
        </Button>
      }
      filters={{
        label: "Filtrar la auditoría",
        fields: (
          <>
            <FilterSelect
              name="resource"
              label="Sección"
              value={d.filters.resource}
              error={d.errors.resource}
              options={AUDIT_RESOURCES.map((r) => [r, AUDIT_RESOURCE_LABELS[r]])}
              all="Todas"
            />
            <FilterSelect name="actor" label="Persona" value={d.filters.actor} error={d.errors.actor} options={d.actors.map((a) => [a, a])} all="Todas" />
            <FilterDate name="from" label="Desde" value={d.filters.from} error={d.errors.from} />
            <FilterDate name="to" label="Hasta" value={d.filters.to} error={d.errors.to} />
          </>
        ),
      }}
      noMatch={
        d.error ? (
          <InfoMessage color="red" testId="audit-error">
            {d.error}
          </InfoMessage>
        ) : d.items.length === 0 ? (
          <EmptyState icon={<BiHistory size={48} />} title={d.filtered ? "No hay cambios con estos filtros" : "Todavía no hay cambios registrados"}>
            {d.filtered
              ? "Probá con otro período u otros filtros."
              : "Cuando alguien del equipo cambie estaciones, cargadores, tarifas, pagos, el equipo o el perfil, lo vas a ver acá."}
          </EmptyState>
        ) : null
      }
      pagination={d}
    >
      <Text as="p" size="3" mb="3" data-testid="audit-total">
        <strong>{formatInt(d.total)}</strong> {d.total === 1 ? "cambio" : "cambios"}
      </Text>
      <ListTable
        caption="Cambios registrados, del más nuevo al más viejo"
        className="audit-table"
        head={
          <>
            <ColumnHeaderCell>Fecha</ColumnHeaderCell>
            <ColumnHeaderCell>Persona</ColumnHeaderCell>
            <ColumnHeaderCell>Acción</ColumnHeaderCell>
            <ColumnHeaderCell>Cambios</ColumnHeaderCell>
            <ColumnHeaderCell>Dirección IP</ColumnHeaderCell>
          </>
        }
      >
        {d.items.map((entry) => (
          <EntryRow key={entry.id} entry={entry} />
        ))}
      </ListTable>
      <ul className="audit-cards" aria-label="Cambios registrados, del más nuevo al más viejo">
        {d.items.map((entry) => (
          <EntryCard key={entry.id} entry={entry} />
        ))}
      </ul>
    </ListScreen>
  );
}
