// "Eventos del cargador": what the charger reported about itself (security events, device
// notices, firmware, logs, diagnostics, report parts), newest first, server-rendered as a plain
// table — no client code of its own.
import { Callout, Text } from "@radix-ui/themes";
import { BiErrorCircle } from "~/icons";
import { TitledCard } from "~/components/Page";
import { Body, Cell, ColumnHeaderCell, DataTable, Header, Row } from "~/components/table";
import type { ChargerEventPage } from "#api/types";
import { formatDateTime } from "./format";

export const EVENTS_SHOWN = 20;

export function EventsCard({ events }: { events: ChargerEventPage | null }) {
  return (
    <TitledCard title="Eventos del cargador" id="charger-events">
      {events === null ? (
        <Callout.Root color="red" role="alert">
          <Callout.Icon>
            <BiErrorCircle aria-hidden="true" />
          </Callout.Icon>
          <Callout.Text>No pudimos cargar los eventos del cargador. Recargá la página para intentar de nuevo.</Callout.Text>
        </Callout.Root>
      ) : events.items.length === 0 ? (
        <Text as="p" size="2" color="gray" data-testid="charger-events-empty">
          Todavía no informó eventos. Acá aparecen los avisos de seguridad, del equipo, del firmware, de los registros y de los informes que envíe.
        </Text>
      ) : (
        <>
          <Text as="p" size="2" color="gray" mb="3">
            {events.total > events.items.length ? `Los ${events.items.length} más recientes de ${events.total.toLocaleString("es-AR")}.` : "Los más recientes primero."}
          </Text>
          <DataTable caption="Eventos del cargador, los más recientes primero">
            <Header>
              <Row>
                <ColumnHeaderCell>Fecha</ColumnHeaderCell>
                <ColumnHeaderCell>Tipo</ColumnHeaderCell>
                <ColumnHeaderCell>Detalle</ColumnHeaderCell>
              </Row>
            </Header>
            <Body>
              {events.items.map((e) => (
                <Row key={e.id} data-testid="charger-event">
                  <Cell className="nowrap">
                    <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                  </Cell>
                  <Cell className="nowrap">{e.kindLabel}</Cell>
                  <Cell className="wrap-anywhere">{e.summary}</Cell>
                </Row>
              ))}
            </Body>
          </DataTable>
        </>
      )}
    </TitledCard>
  );
}
