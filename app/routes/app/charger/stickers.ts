// GET /charger/stickers/{chargerId} — the printable A4 sheet of the charger's QR stickers (issue 23).
import { createApiClient } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { UUID_RE } from "#contract/schemas/constants";
import { fetchCharger, publicOrigin } from "~/lib/qr.server";
import { stickerSheet } from "~/lib/stickers.server";
import { appContext } from "~/lib/context";
import type { Route } from "./+types/stickers";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (!UUID_RE.test(params.id)) throw new Response(null, { status: 404, statusText: "Not Found" });
  const charger = await fetchCharger(createApiClient(context, user.idToken), params.id);
  if (charger === "not-found") throw new Response(null, { status: 404, statusText: "Not Found" });
  if (!charger) throw new Response("No pudimos preparar los stickers. Probá de nuevo en unos minutos.", { status: 503 });
  return stickerSheet({
    appName: appContext(context).config.appName,
    origin: publicOrigin(request),
    title: charger.stationName ? `${charger.name} · ${charger.stationName}` : charger.name,
    back: { href: `/charger/edit/${charger.id}`, label: "Volver al cargador" },
    chargers: [charger],
  });
}
