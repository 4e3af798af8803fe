// GET /charger/edit/:id/diagnostics/:diagnosticsId — a diagnostics file the charger uploaded,
// streamed from the API as a download (never rendered: it is whatever the charger sent).
import { UUID_RE } from "#contract/schemas/constants";
import { createApiClient } from "~/lib/api.server";
import { endpoints } from "#contract/endpoints";
import { requireUser } from "~/lib/auth.server";
import { redirectWithError } from "~/lib/toast.server";
import type { Route } from "./+types/diagnostics-file";
import { notFound } from "~/lib/responses.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (!UUID_RE.test(params.id) || !UUID_RE.test(params.diagnosticsId)) notFound();
  const back = `/charger/edit/${params.id}/maintenance`;
  let response: Response;
  try {
    response = await createApiClient(context, user.idToken).request(endpoints.chargerDiagnosticsFile, { params: { id: params.id, diagnosticsId: params.diagnosticsId } });
  } catch {
    return redirectWithError(back, "No pudimos descargar el diagnóstico. Probá de nuevo en unos minutos.");
  }
  // Another company's charger, or a file no longer kept (the last 10 per charger): the 404 screen.
  if (response.status === 404) notFound();
  if (!response.ok) return redirectWithError(back, "No pudimos descargar el diagnóstico. Probá de nuevo en unos minutos.");
  return new Response(response.body, {
    status: 200,
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": response.headers.get("Content-Disposition") ?? 'attachment; filename="diagnostico.bin"',
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
