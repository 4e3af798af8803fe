// GET /cargar/pago/{paymentId}/factura?t={secret}: the driver's voucher as a PDF, opened in the
// browser (a resource route: works with or without JavaScript). Authorised like the status page,
// by the secret of the driver's link: no sign-in, and without the secret there is nothing.
import { endpoints } from "#contract/endpoints";
import { createApiClient } from "~/lib/api.server";
import { notFound, pdfResponse, unavailable } from "~/lib/responses.server";
import type { Route } from "./+types/invoice-pdf";

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("t") ?? "";
  let response: Response;
  try {
    response = await createApiClient(context, null).request(endpoints.driverPaymentInvoicePdf, { params: { id: params.paymentId }, query: { t: token } });
  } catch {
    unavailable("No pudimos abrir la factura. Probá de nuevo en unos minutos.");
  }
  // Another secret, or a voucher ARCA has not authorised yet.
  if (response.status === 404) notFound("No encontramos esa factura.");
  if (!response.ok) unavailable("No pudimos abrir la factura. Probá de nuevo en unos minutos.");
  // The address carries the link's secret: it is not sent on to anyone.
  return pdfResponse(response, "factura.pdf", { noReferrer: true });
}
