// The Spanish texts the payments service itself answers or sends: the connector's state on the
// QR page (returned by the API), the providers' names and the driver's line about a refund owed
// (in e-mails, notifications and the API's messages). The screens' own words live in app/.
import type { PaymentProviderCode } from "../infra/crypto";
import { formatArs } from "../domain/money";
import type { ConnectorState } from "./types";

export const CONNECTOR_STATE_LABELS: Record<ConnectorState, string> = {
  AVAILABLE: "Disponible",
  BUSY: "Ocupado",
  OUT_OF_SERVICE: "Fuera de servicio",
  OFFLINE: "Sin conexión",
};

export const PROVIDER_NAMES: Record<PaymentProviderCode, string> = { MERCADOPAGO: "Mercado Pago", PAGOS360: "Pagos360" };

/** The driver's line about a refund the station owes them (receipt, e-mail, status page). */
export const pendingRefundLine = (cents: number) => `A devolver: ${formatArs(cents)} — la estación te lo devuelve por Pagos360`;
