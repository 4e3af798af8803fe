// GET /tag/export.csv — the company's RFID tags as CSV (UTF-8 with BOM, `;`), from the API's
// export. A resource route: the browser downloads it with JavaScript on or off.
import { createApiClient } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { redirectWithError } from "~/lib/toast.server";
import type { Route } from "./+types/export";

const FAILED = "No pudimos generar el archivo en este momento. Probá de nuevo en unos minutos.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  let response: Response;
  try {
    response = await createApiClient(context, user.idToken).get("/Business/Tag/Export.csv");
  } catch {
    return redirectWithError("/tag", FAILED);
  }
  if (!response.ok) return redirectWithError("/tag", FAILED);
  return new Response(response.body, {
    status: 200,
    headers: {
      "Content-Type": response.headers.get("Content-Type") ?? "text/csv; charset=utf-8",
      "Content-Disposition": response.headers.get("Content-Disposition") ?? 'attachment; filename="tarjetas.csv"',
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
