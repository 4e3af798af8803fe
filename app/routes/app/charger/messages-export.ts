// GET /charger/edit/:id/messages.csv — the charger's recent OCPP messages as CSV (UTF-8 with BOM,
// `;`), from the API's export. A resource route: it downloads with JavaScript on or off.
import { UUID_RE } from "#contract/schemas/constants";
import { requireUser } from "~/lib/auth.server";
import { proxyCsvExport } from "~/lib/csv-export.server";
import { endpoints } from "#contract/endpoints";
import type { Route } from "./+types/messages-export";
import { notFound } from "~/lib/responses.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (!UUID_RE.test(params.id)) notFound();
  return proxyCsvExport(context, user.idToken, {
    send: (api) => api.request(endpoints.chargerMessagesExportCsv, { params: { id: params.id } }),
    back: `/charger/edit/${params.id}/messages`,
    filename: "mensajes-ocpp.csv",
    refused: "No pudimos exportar los mensajes. Probá de nuevo.",
    notFoundScreen: true,
  });
}
