// Spanish labels and badge colors for charging sessions and payments.
import {
  PAYMENT_STATUS_LABELS,
  SESSION_PAYMENT_STATUS_LABELS,
  SESSION_STATUS_LABELS,
} from "#contract/schemas/constants";
import type { PaymentDto, SessionPaymentStatus, SessionStatus } from "#contract/dto";

export { PAYMENT_STATUS_LABELS, SESSION_PAYMENT_STATUS_LABELS, SESSION_STATUS_LABELS };

type BadgeColor = "green" | "sky" | "amber" | "red" | "gray" | "purple";

export const SESSION_STATUS_COLORS: Record<SessionStatus, BadgeColor> = {
  ACTIVE: "sky",
  IDLE: "amber",
  COMPLETED: "green",
  INVALID: "gray",
};

export const SESSION_PAYMENT_COLORS: Record<SessionPaymentStatus, BadgeColor> = {
  PAID: "green",
  PENDING: "amber",
  FAILED: "red",
  NOT_REQUIRED: "gray",
  CHARGED_BACK: "red",
};

export const PAYMENT_STATUS_COLORS: Record<PaymentDto["status"], BadgeColor> = {
  APPROVED: "green",
  PENDING: "amber",
  REJECTED: "red",
  REFUNDED: "purple",
  CANCELLED: "gray",
  PARTIALLY_REFUNDED: "purple",
  IN_DISPUTE: "amber",
  CHARGED_BACK: "red",
};

/**
 * The payment of a session a dispute or chargeback took (the session's own payment status stays
 * "Pagada": a chargeback is the payment's): the session detail shows it beside the session's.
 */
export function disputedPayment<P extends Pick<PaymentDto, "status">>(payments: readonly P[]): P | null {
  return payments.find((p) => p.status === "CHARGED_BACK") ?? payments.find((p) => p.status === "IN_DISPUTE") ?? null;
}

export const PROVIDER_LABELS: Record<PaymentDto["provider"], string> = {
  MERCADOPAGO: "Mercado Pago",
  PAGOS360: "Pagos360",
};

/** Where a driver's QR charge is (PaymentDto.step). */
export const QR_STEP_LABELS: Record<NonNullable<PaymentDto["step"]>, string> = {
  PAYING: "Esperando el pago",
  STARTING: "Iniciando la carga",
  CHARGING: "Cargando",
  SETTLING: "Devolviendo el saldo",
  FINISHED: "Terminada",
  START_FAILED: "No inició: devolviendo el total",
  REFUNDED: "No inició: devuelto",
  FAILED: "Pago no completado",
  REFUND_PENDING: "Devolución pendiente",
};

export const UNAVAILABLE = "No pudimos cargar los datos en este momento. Probá de nuevo en unos minutos.";
