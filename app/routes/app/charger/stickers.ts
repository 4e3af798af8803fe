// GET /charger/stickers/{chargerId} — the printable A4 sheet of the charger's QR stickers.
import { createApiClient } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { UUID_RE } from "#contract/schemas/constants";
import { fetchCharger, publicOrigin } from "~/lib/qr.server";
import { stickerSheet } from "~/lib/stickers.server";
import { appContext } from "~/lib/context";
import type { Route } from "./+types/stickers";
import { notFound, unavailable } from "~/lib/responses.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (!UUID_RE.test(params.id)) notFound();
  const charger = await fetchCharger(createApiClient(context, user.idToken), params.id);
  if (charger === "not-found") notFound();
  if (!charger) unavailable("No pudimos preparar los stickers. Probá de nuevo en unos minutos.");
  return stickerSheet({
    appName: appContext(context).config.appName,
    origin: publicOrigin(request),
    title: charger.stationName ? `${charger.name} · ${charger.stationName}` : charger.name,
    back: { href: `/charger/edit/${charger.id}`, label: "Volver al cargador" },
    chargers: [charger],
  });
}
