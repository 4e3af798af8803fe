// GET /charger/edit/:id/messages.csv — the charger's recent OCPP messages as CSV (UTF-8 with BOM,
// `;`), from the API's export. A resource route: it downloads with JavaScript on or off.
import { UUID_RE } from "#contract/schemas/constants";
import { requireUser } from "~/lib/auth.server";
import { proxyCsvExport } from "~/lib/csv-export.server";
import type { Route } from "./+types/messages-export";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (!UUID_RE.test(params.id)) throw new Response(null, { status: 404, statusText: "Not Found" });
  return proxyCsvExport(context, user.idToken, {
    apiPath: `/Business/Charger/${params.id}/Message/Export.csv`,
    back: `/charger/edit/${params.id}/messages`,
    filename: "mensajes-ocpp.csv",
    refused: "No pudimos exportar los mensajes. Probá de nuevo.",
    notFoundScreen: true,
  });
}
