// The dashboard's CSV downloads (/activity/export.csv, /audit/export.csv, /tag/export.csv):
// resource routes that stream the API's export to the browser, with JavaScript on or off. A
// failure goes back to the list with a toast instead of a broken download.
import { createApiClient, type ApiClient, type ApiProblem } from "~/lib/api.server";
import { redirectWithError } from "~/lib/toast.server";
import type { RequestContext } from "~/lib/context";
import { notFound } from "~/lib/responses.server";

const UNAVAILABLE = "No pudimos generar el archivo en este momento. Probá de nuevo en unos minutos.";

export async function proxyCsvExport(
  context: RequestContext,
  idToken: string,
  opts: {
    /** The call to the API's export: `(api) => api.request(endpoints.tagExportCsv)`. */
    send: (api: ApiClient) => Promise<Response>;
    /** Where a failure goes back to. */
    back: string;
    /** The file name when the API does not give one. */
    filename: string;
    /** One message for any refusal (an export without filters); otherwise the filters' first error is shown. */
    refused?: string;
    /** The export belongs to one item (a charger's messages): its 404 is the 404 screen. */
    notFoundScreen?: boolean;
  },
): Promise<Response> {
  const api = createApiClient(context, idToken);
  let response: Response;
  try {
    // A refusal by the API's rate limit is caught here too: the list, with a toast.
    response = await opts.send(api);
  } catch {
    return redirectWithError(opts.back, UNAVAILABLE);
  }
  if (!response.ok) {
    // Another company's (or a deleted) charger: the 404 screen, as its page would show.
    if (response.status === 404 && opts.notFoundScreen) notFound();
    if (opts.refused) return redirectWithError(opts.back, opts.refused);
    // The refusal is the API's problem (JSON), whatever the export's own type.
    const problem = (await response.json().catch(() => undefined)) as Partial<ApiProblem> | undefined;
    const first = Object.values(problem?.errors ?? {})[0]?.[0];
    return redirectWithError(opts.back, first ? `No pudimos exportar: ${first}` : "No pudimos generar el archivo. Revisá los filtros y probá de nuevo.");
  }
  const headers = new Headers({
    "Content-Type": response.headers.get("Content-Type") ?? "text/csv; charset=utf-8",
    "Content-Disposition": response.headers.get("Content-Disposition") ?? `attachment; filename="${opts.filename}"`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
  for (const name of ["X-Export-Rows", "X-Export-Truncated"]) {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(response.body, { status: 200, headers });
}
