// GET /payment/reconciliation/export.csv?from&to — the period's differences with the providers as
// CSV (UTF-8 with BOM, `;`), from the API's export. A resource route: downloads with or without JavaScript.
import { pickParams } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { proxyCsvExport } from "~/lib/csv-export.server";
import { endpoints } from "#contract/endpoints";
import type { Route } from "./+types/reconciliation-export";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const query = pickParams(url.searchParams, ["from", "to"] as const);
  const back = `/payment/reconciliation${query.size ? `?${query}` : ""}`;
  return proxyCsvExport(context, user.idToken, { send: (api) => api.request(endpoints.paymentReconciliationExportCsv, { query }), back, filename: "conciliacion.csv" });
}
