// "Eventos del cargador": what the charger reported about itself (security events, device
// notices, firmware, logs, diagnostics, report parts), newest first, server-rendered as a plain
// table (plain markup, not the list pages' table module: this route is near its JS budget).
import { Callout, Text } from "@radix-ui/themes";
import { BiErrorCircle } from "~/icons";
import { TitledCard } from "~/components/Page";
import type { ChargerEventPage } from "#contract/dto";
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
          Todavía no informó eventos (avisos de seguridad, del equipo, del firmware e informes).
        </Text>
      ) : (
        <>
          <Text as="p" size="2" color="gray" mb="3">
            {events.total > events.items.length ? `Los ${events.items.length} más recientes de ${events.total.toLocaleString("es-AR")}.` : "Los más recientes primero."}
          </Text>
          <div className="table-scroll">
            <table className="event-table">
              <caption className="visually-hidden">Eventos del cargador, los más recientes primero</caption>
              <thead>
                <tr>
                  <th scope="col">Fecha</th>
                  <th scope="col">Tipo</th>
                  <th scope="col">Detalle</th>
                </tr>
              </thead>
              <tbody>
                {events.items.map((e) => (
                  <tr key={e.id} data-testid="charger-event">
                    <td className="nowrap">
                      <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                    </td>
                    <td className="nowrap">{e.kindLabel}</td>
                    <td className="wrap-anywhere">{e.summary}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </TitledCard>
  );
}
