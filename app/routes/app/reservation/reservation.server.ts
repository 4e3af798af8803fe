// Loader/action helpers of the reservation screens (issue 25, ADR 0018): every call goes to the
// Business API (/Business/Reservation) with the signed-in user's token.
import { createApiClient, readJson } from "~/lib/api.server";
import type { RequestContext } from "~/lib/context";
import type { SessionUser } from "~/lib/session.server";
import type { ChargerDto, Page } from "#contract/dto";
import { UNAVAILABLE } from "../rate/rate.server";

export { UNAVAILABLE };

export interface ConnectorOption {
  id: string;
  stationId: string | null;
  label: string;
}

/** The company's connectors as choices ("Estación · Cargador · conector 1"), by charger name; the first 100 chargers. */
export async function connectorOptions(context: RequestContext, user: SessionUser): Promise<ConnectorOption[]> {
  let response: Response;
  try {
    response = await createApiClient(context, user.idToken).get("/Business/Charger?pageSize=100&sort=name");
  } catch {
    throw new Response(UNAVAILABLE, { status: 503 });
  }
  const body = response.ok ? await readJson<Page<ChargerDto>>(response) : undefined;
  if (!body) throw new Response(UNAVAILABLE, { status: 502 });
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
