// GET /payment/invoice/:id/pdf — an authorised voucher's PDF from the API, opened in the browser
// (a resource route: works with or without JavaScript).
import { UUID_RE } from "#contract/schemas/constants";
import { endpoints } from "#contract/endpoints";
import { createApiClient } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { notFound, pdfResponse } from "~/lib/responses.server";
import { redirectWithError } from "~/lib/toast.server";
import type { Route } from "./+types/invoice-pdf";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (!UUID_RE.test(params.id)) notFound();
  const failed = () => redirectWithError("/payment/invoice", "No pudimos abrir el PDF del comprobante. Probá de nuevo en unos minutos.");
  let response: Response;
  try {
    response = await createApiClient(context, user.idToken).request(endpoints.invoicePdf, { params: { id: params.id } });
  } catch {
    return failed();
  }
  // Another company's voucher, or one without its CAE yet.
  if (response.status === 404) notFound();
  if (!response.ok) return failed();
  return pdfResponse(response, "comprobante.pdf");
}
