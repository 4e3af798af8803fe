// GET /station/stickers/{stationId} — the printable A4 sheet of QR stickers of every connector of
// the station (up to 100 chargers, by name).
import { createApiClient } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { appContext } from "~/lib/context";
import { loadStation } from "~/lib/station.server";
import { publicOrigin } from "~/lib/qr.server";
import { stickerSheet } from "~/lib/stickers.server";
import { endpoints } from "#contract/endpoints";
import { MAX_PAGE_SIZE } from "#contract/schemas/common";
import type { Route } from "./+types/stickers";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const api = createApiClient(context, user.idToken);
  const station = await loadStation(api, params.id);
  const result = await api.call(endpoints.chargerList, { query: { stationId: station.id, pageSize: MAX_PAGE_SIZE, sort: "name" } });
  if (!result.ok) throw new Response("No pudimos preparar los stickers. Probá de nuevo en unos minutos.", { status: 503 });
  const notice = !station.qrPaymentEnabled
    ? "El cobro con QR está desactivado en esta estación: activalo en «Cobro con QR» de la estación antes de pegar los stickers."
    : !station.published
      ? "La estación no está publicada: los conductores no van a poder pagar hasta que la publiques."
      : undefined;
  return stickerSheet({
    appName: appContext(context).config.appName,
    origin: publicOrigin(request),
    title: station.name,
    back: { href: `/station/edit/${station.id}`, label: "Volver a la estación" },
    chargers: result.data.items,
    notice,
  });
}
