// GET /tag/export.csv — the company's RFID tags as CSV (UTF-8 with BOM, `;`), from the API's
// export. A resource route: the browser downloads it with JavaScript on or off.
import { requireUser } from "~/lib/auth.server";
import { proxyCsvExport } from "~/lib/csv-export.server";
import { endpoints } from "#contract/endpoints";
import type { Route } from "./+types/export";

const FAILED = "No pudimos generar el archivo en este momento. Probá de nuevo en unos minutos.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return proxyCsvExport(context, user.idToken, { send: (api) => api.request(endpoints.tagExportCsv), back: "/tag", filename: "tarjetas.csv", refused: FAILED });
}
