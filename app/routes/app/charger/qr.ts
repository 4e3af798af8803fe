// GET /charger/qr/{chargerId}?connector=N — the connector's QR (SVG) that opens its driver page
// (issue 23). A resource route: the charger screen shows it as an <img>, so the screen's
// JavaScript carries no QR code at all.
import { createApiClient } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { UUID_RE } from "#contract/schemas/constants";
import { chargeUrl, fetchCharger, publicOrigin, qrSvg } from "~/lib/qr.server";
import type { Route } from "./+types/qr";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const connector = Number(new URL(request.url).searchParams.get("connector") ?? "1");
  if (!UUID_RE.test(params.id) || !Number.isInteger(connector)) return new Response("No encontramos ese conector.", { status: 404 });
  const charger = await fetchCharger(createApiClient(context, user.idToken), params.id);
  if (!charger) return new Response("No pudimos generar el código QR. Probá de nuevo.", { status: 503 });
  if (charger === "not-found" || !charger.connectors.some((k) => k.connectorId === connector)) return new Response("No encontramos ese conector.", { status: 404 });
  const svg = await qrSvg(chargeUrl(publicOrigin(request), charger.ocppIdentity, connector));
  return new Response(svg, { headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "private, max-age=300" } });
}
