// Loader/action helpers of the reservation screens: the connectors a reservation can hold and the
// form's default time, read through the typed client.
import { endpoints } from "#contract/endpoints";
import type { ApiClient } from "~/lib/api.server";
import { ensureLoaded } from "~/lib/resource.server";

export interface ConnectorOption {
  id: string;
  stationId: string | null;
  label: string;
}

/** The company's connectors as choices ("Estación · Cargador · conector 1"), by charger name; the first 100 chargers. */
export async function connectorOptions(api: ApiClient): Promise<ConnectorOption[]> {
  const body = ensureLoaded(await api.call(endpoints.chargerList, { query: new URLSearchParams({ pageSize: "100", sort: "name" }) }));
  return body.items.flatMap((c) =>
    c.connectors.map((k) => ({
      id: k.id,
      stationId: c.stationId,
      label: [c.stationName, c.name, `conector ${k.connectorId}`].filter(Boolean).join(" · "),
    })),
  );
}

const LOCAL = new Intl.DateTimeFormat("sv-SE", { timeZone: "America/Argentina/Buenos_Aires", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** A datetime-local value (Buenos Aires) `minutes` from now, e.g. "2025-03-01T18:30". */
export function localInput(now: Date, minutes: number): string {
  return LOCAL.format(new Date(now.getTime() + minutes * 60_000)).replace(" ", "T");
}
