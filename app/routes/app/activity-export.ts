// GET /activity/export.csv?<filters> — the filtered sessions as CSV (UTF-8 with BOM, `;`,
// decimal comma), streamed from the API's export. A resource route: no markup, so the
// browser downloads the file with JavaScript on or off.
import { pickParams } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { proxyCsvExport } from "~/lib/csv-export.server";
import { endpoints } from "#contract/endpoints";
import type { Route } from "./+types/activity-export";

const EXPORT_KEYS = ["stationId", "chargerId", "status", "paymentStatus", "from", "to", "sort"] as const;

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const query = pickParams(url.searchParams, EXPORT_KEYS);
  const back = `/activity${query.size ? `?${query}` : ""}`;
  return proxyCsvExport(context, user.idToken, { send: (api) => api.request(endpoints.activityExportCsv, { query }), back, filename: "actividad.csv" });
}
