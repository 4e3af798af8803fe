// GET /audit/export.csv?<filters> — the filtered audit log as CSV (UTF-8 with BOM, `;`), from the
// API's export. A resource route: the browser downloads it with JavaScript on or off.
import { pickParams } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { proxyCsvExport } from "~/lib/csv-export.server";
import { endpoints } from "#contract/endpoints";
import type { Route } from "./+types/audit-export";

const EXPORT_KEYS = ["resource", "actor", "from", "to"] as const;

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const query = pickParams(url.searchParams, EXPORT_KEYS);
  const back = `/audit${query.size ? `?${query}` : ""}`;
  return proxyCsvExport(context, user.idToken, { send: (api) => api.request(endpoints.auditExportCsv, { query }), back, filename: "auditoria.csv" });
}
