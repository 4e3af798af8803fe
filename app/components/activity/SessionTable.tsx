// The sessions list of the Actividad screen: one row per charge, sortable columns in the URL.
import { Link } from "react-router";
// Plain stand-ins for Radix in the rows (app/components/plain.tsx): same markup, less render time.
import { PlainBadge, PlainText } from "~/components/plain";
import * as Table from "~/components/table";
import type { SessionDto } from "#contract/dto";
import { pick } from "~/lib/pick";
import { SortHeader, useHrefWith } from "~/components/list";
import { DataTable } from "~/components/table";
import { formatArs, formatDateTime, formatKwh, formatMinutes } from "~/components/charts/format";
import { SESSION_PAYMENT_COLORS, SESSION_PAYMENT_STATUS_LABELS, SESSION_STATUS_COLORS, SESSION_STATUS_LABELS } from "./labels";

/** What a row shows: the loader sends only these fields into the page (less to encode and hydrate). */
export const SESSION_ROW_FIELDS = [
  "id",
  "stationName",
  "chargerName",
  "connectorNumber",
  "connectorLabel",
  "startedAt",
  "status",
  "energyKwh",
  "durationMinutes",
  "idleMinutes",
  "totalCents",
  "paymentStatus",
] as const satisfies readonly (keyof SessionDto)[];
export type SessionRow = Pick<SessionDto, (typeof SESSION_ROW_FIELDS)[number]>;

export function sessionRow(s: SessionDto): SessionRow {
  return pick(s, SESSION_ROW_FIELDS);
}

export function SessionTable({ items, sort }: { items: SessionRow[]; sort: string }) {
  const hrefWith = useHrefWith();
  return (
    <DataTable caption="Cargas">
      <Table.Header>
        <Table.Row>
          <SortHeader field="startedAt" sort={sort}>
            Inicio
          </SortHeader>
          <Table.ColumnHeaderCell>Duración</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Estación / cargador</Table.ColumnHeaderCell>
          <SortHeader field="energyWh" sort={sort}>
            Energía
          </SortHeader>
          <SortHeader field="idleMinutes" sort={sort}>
            Inactividad
          </SortHeader>
          <SortHeader field="totalCents" sort={sort}>
            Total
          </SortHeader>
          <Table.ColumnHeaderCell>Estado</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Pago</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {items.map((s) => (
          <Table.Row key={s.id} data-testid="session-row">
            <Table.RowHeaderCell>
              <Link to={hrefWith({ session: s.id })} aria-label={`Ver la carga del ${formatDateTime(s.startedAt)}`} className="nowrap">
                {formatDateTime(s.startedAt)}
              </Link>
            </Table.RowHeaderCell>
            <Table.Cell className="nowrap">{formatMinutes(s.durationMinutes)}</Table.Cell>
            <Table.Cell className="session-place">
              <PlainText as="div" size="2" weight="medium">
                {s.stationName ?? "Sin estación"}
              </PlainText>
              <PlainText as="div" size="1" color="gray">
                {s.chargerName ?? "Cargador eliminado"} · Conector {s.connectorNumber}
                {s.connectorLabel ? ` (${s.connectorLabel})` : ""}
              </PlainText>
            </Table.Cell>
            <Table.Cell className="num nowrap" data-testid="session-energy">
              {formatKwh(s.energyKwh)}
            </Table.Cell>
            <Table.Cell className="num nowrap">{formatMinutes(s.idleMinutes)}</Table.Cell>
            <Table.Cell className="num nowrap">{formatArs(s.totalCents)}</Table.Cell>
            <Table.Cell>
              <PlainBadge color={SESSION_STATUS_COLORS[s.status]} className="session-badge">{SESSION_STATUS_LABELS[s.status]}</PlainBadge>
            </Table.Cell>
            <Table.Cell>
              <PlainBadge color={SESSION_PAYMENT_COLORS[s.paymentStatus]} variant="soft" className="session-badge">
                {SESSION_PAYMENT_STATUS_LABELS[s.paymentStatus]}
              </PlainBadge>
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </DataTable>
  );
}
