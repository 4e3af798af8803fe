// GET /payment/invoice/export.csv?from&to&type — the Libro IVA Ventas of a period (the authorised
// vouchers) as CSV, from the API's export. A resource route: downloads with or without JavaScript.
import { pickParams } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { proxyCsvExport } from "~/lib/csv-export.server";
import { endpoints } from "#contract/endpoints";
import type { Route } from "./+types/invoice-export";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const query = pickParams(url.searchParams, ["from", "to", "type"] as const);
  const back = `/payment/invoice${query.size ? `?${query}` : ""}`;
  return proxyCsvExport(context, user.idToken, { send: (api) => api.request(endpoints.invoiceExportCsv, { query }), back, filename: "libro-iva-ventas.csv" });
}
