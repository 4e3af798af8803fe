// "Eventos del cargador" as the server renders it (no JavaScript needed): newest first, the date
// in es-AR and Buenos Aires time, the kind in Spanish, the summary; the empty and failed states.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EventsCard } from "~/components/charger/EventsCard";
import { fixtures } from "../../mocks/fixtures";

const cells = (markup: string) =>
  [...markup.matchAll(/<tr[^>]*data-testid="charger-event"[^>]*>(.*?)<\/tr>/g)].map((row) => [...row[1].matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1].replace(/<[^>]+>/g, "")));

describe("charger events card", () => {
  it("lists the events as the API gives them, dates in Buenos Aires time", () => {
    const markup = renderToStaticMarkup(<EventsCard events={fixtures.chargerEvents} />);
    expect(markup).toContain("Eventos del cargador");
    expect(cells(markup)).toEqual([
      ["15/06/2025, 14:42", "Informe", "Informe 41, parte 1: 2 variables"],
      ["15/06/2025, 14:30", "Firmware", "Firmware instalado (Installed)"],
      ["14/06/2025, 06:05", "Seguridad", "StartupOfTheDevice: cold boot"],
    ]);
    expect(markup).toContain('<time dateTime="2025-06-15T17:42:00.000Z">');
    expect(markup).toContain("Los más recientes primero.");
  });

  it("says how many there are when the list shows only the latest", () => {
    const markup = renderToStaticMarkup(<EventsCard events={{ ...fixtures.chargerEvents, total: 1234 }} />);
    expect(markup).toContain("Los 3 más recientes de 1234.".replace("1234", (1234).toLocaleString("es-AR")));
  });

  it("no events yet, and events that could not be read, each say so", () => {
    expect(renderToStaticMarkup(<EventsCard events={{ ...fixtures.chargerEvents, items: [], total: 0, lastReport: null }} />)).toContain("Todavía no informó eventos (avisos de seguridad, del equipo, del firmware e informes).");
    const failed = renderToStaticMarkup(<EventsCard events={null} />);
    expect(failed).toContain('role="alert"');
    expect(failed).toContain("No pudimos cargar los eventos del cargador.");
  });
});
