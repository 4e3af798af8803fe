// GET /audit/export.csv?<filters> — the filtered audit log as CSV (UTF-8 with BOM, `;`), from the
// API's export. A resource route: the browser downloads it with JavaScript on or off.
import { readJson, createApiClient, type ApiProblem, pickParams } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { redirectWithError } from "~/lib/toast.server";
import type { Route } from "./+types/audit-export";

const EXPORT_KEYS = ["resource", "actor", "from", "to"] as const;

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const query = pickParams(url.searchParams, EXPORT_KEYS);
  const back = `/audit${query.size ? `?${query}` : ""}`;
  let response: Response;
  try {
    response = await createApiClient(context, user.idToken).get(`/Business/Audit/Export.csv${query.size ? `?${query}` : ""}`);
  } catch {
    return redirectWithError(back, "No pudimos generar el archivo en este momento. Probá de nuevo en unos minutos.");
  }
  if (!response.ok) {
    const problem = await readJson<ApiProblem>(response);
    const first = Object.values(problem?.errors ?? {})[0]?.[0];
    return redirectWithError(back, first ? `No pudimos exportar: ${first}` : "No pudimos generar el archivo. Revisá los filtros y probá de nuevo.");
  }
  const headers = new Headers({
    "Content-Type": response.headers.get("Content-Type") ?? "text/csv; charset=utf-8",
    "Content-Disposition": response.headers.get("Content-Disposition") ?? 'attachment; filename="auditoria.csv"',
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
  for (const name of ["X-Export-Rows", "X-Export-Truncated"]) {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(response.body, { status: 200, headers });
}
