// GET /charger/edit/:id/diagnostics/:diagnosticsId — a diagnostics file the charger uploaded,
// streamed from the API as a download (never rendered: it is whatever the charger sent).
import { UUID_RE } from "#contract/schemas/constants";
import { createApiClient } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { redirectWithError } from "~/lib/toast.server";
import type { Route } from "./+types/diagnostics-file";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (!UUID_RE.test(params.id) || !UUID_RE.test(params.diagnosticsId)) throw new Response(null, { status: 404, statusText: "Not Found" });
  const back = `/charger/edit/${params.id}/maintenance`;
  let response: Response;
  try {
    response = await createApiClient(context, user.idToken).get(`/Business/Charger/${params.id}/Diagnostics/${params.diagnosticsId}/File`);
  } catch {
    return redirectWithError(back, "No pudimos descargar el diagnóstico. Probá de nuevo en unos minutos.");
  }
  // Another company's charger, or a file no longer kept (the last 10 per charger): the 404 screen.
  if (response.status === 404) throw new Response(null, { status: 404, statusText: "Not Found" });
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
