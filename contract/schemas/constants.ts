// Lists, labels and patterns of the Business API's queries and schemas, without zod: pages
// that only need a sort list or a label import them from here, so their browser bundle does not
// pull in zod (JS budget, docs/benchmarks.md). The zod schemas re-export them.

import type { LifecycleStatus } from "#domain/payment-lifecycle";
import type { ReceiverTaxCondition } from "#domain/receiver-tax-condition";

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const MAX_RANGE_DAYS = 366;
export const RANGE_MESSAGES = {
  order: "La fecha 'hasta' debe ser posterior a 'desde'.",
  span: `El período no puede superar los ${MAX_RANGE_DAYS} días.`,
} as const;

export const STATION_SORTS = ["name", "city", "province", "createdAt", "updatedAt"] as const;

export const CHARGER_SORTS = ["name", "ocppIdentity", "station", "lastHeartbeatAt", "createdAt"] as const;

export const RATE_SORTS = ["name", "pricePerKwhCents", "createdAt"] as const;
export const TAG_SORTS = ["holderName", "idTag", "expiresOn", "createdAt"] as const;
export const ACCESS_GROUP_SORTS = ["name", "createdAt"] as const;

/** ACTIVE: charging or about to; IDLE: charging ended, vehicle still plugged in (idle fee runs). */
export const SESSION_STATUSES = ["ACTIVE", "IDLE", "COMPLETED", "INVALID"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** A session still open this long after it started is one the charger probably never stopped. */
export const STUCK_AFTER_HOURS = 12;
export const SESSION_STATUS_LABELS: Record<SessionStatus, string> = {
  ACTIVE: "En curso",
  IDLE: "Finalizada, vehículo conectado",
  COMPLETED: "Completada",
  INVALID: "Inválida",
};
/** CHARGED_BACK: paid, then the payer's bank took it back (its payment's chargeback); not revenue. */
export const SESSION_PAYMENT_STATUSES = ["PENDING", "PAID", "FAILED", "NOT_REQUIRED", "CHARGED_BACK"] as const;
export type SessionPaymentStatus = (typeof SESSION_PAYMENT_STATUSES)[number];
export const SESSION_PAYMENT_STATUS_LABELS: Record<SessionPaymentStatus, string> = {
  PENDING: "Pendiente",
  PAID: "Pagada",
  FAILED: "Pago rechazado",
  NOT_REQUIRED: "Sin cargo",
  CHARGED_BACK: "Contracargo",
};
export const ACTIVITY_SORTS = ["startedAt", "energyWh", "totalCents", "idleMinutes"] as const;

/** A company's condition before VAT, which decides its vouchers (A/B for a Responsable Inscripto, C for a Monotributista). */
export const TAX_CONDITIONS = ["RESPONSABLE_INSCRIPTO", "MONOTRIBUTO", "EXENTO"] as const;
export type TaxConditionCode = (typeof TAX_CONDITIONS)[number];
export const TAX_CONDITION_LABELS: Record<TaxConditionCode, string> = {
  RESPONSABLE_INSCRIPTO: "Responsable Inscripto",
  MONOTRIBUTO: "Monotributo",
  EXENTO: "Exento",
};
/** ARCA's two worlds: homologation (tests, vouchers without fiscal value) and production. */
export const ARCA_ENVIRONMENTS = ["HOMOLOGACION", "PRODUCCION"] as const;
export type ArcaEnvironmentCode = (typeof ARCA_ENVIRONMENTS)[number];
export const ARCA_ENVIRONMENT_LABELS: Record<ArcaEnvironmentCode, string> = { HOMOLOGACION: "Homologación (pruebas)", PRODUCCION: "Producción" };

export const PAYMENT_PROVIDERS = ["MERCADOPAGO", "PAGOS360"] as const;
export type PaymentProviderCode = (typeof PAYMENT_PROVIDERS)[number];
/** A company's stored credentials at a provider: usable, or refused by it at the last use. */
export const PAYMENT_ACCOUNT_STATUSES = ["CONNECTED", "ERROR"] as const;
export type PaymentAccountStatus = (typeof PAYMENT_ACCOUNT_STATUSES)[number];
/**
 * One payment attempt at the provider (MercadoPago/Pagos360 states, normalised). After approval:
 * PARTIALLY_REFUNDED (part went back, by Enchufá or in the provider's panel), REFUNDED (all of
 * it), IN_DISPUTE (the payer disputes it: Mercado Pago's in_mediation), CHARGED_BACK (the payer's
 * bank took it back). domain/payment-lifecycle.ts decides every move between them.
 */
export const PAYMENT_STATUSES = ["PENDING", "APPROVED", "REJECTED", "REFUNDED", "CANCELLED", "PARTIALLY_REFUNDED", "IN_DISPUTE", "CHARGED_BACK"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** The payment's life (domain/payment-lifecycle.ts) moves between exactly these: a status added to one list only does not compile. */
type SameStatuses = [PaymentStatus] extends [LifecycleStatus] ? ([LifecycleStatus] extends [PaymentStatus] ? true : false) : false;
export const PAYMENT_LIFECYCLE_COVERS_STATUSES: SameStatuses = true;
/** The statuses of a payment whose net (its amount less what went back) is the operator's: a chargeback took it all, the others never had any. */
export const PAYMENT_HELD_STATUSES = ["APPROVED", "PARTIALLY_REFUNDED", "IN_DISPUTE", "REFUNDED"] as const satisfies readonly PaymentStatus[];
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  PENDING: "Pendiente",
  APPROVED: "Aprobado",
  REJECTED: "Rechazado",
  REFUNDED: "Devuelto",
  CANCELLED: "Cancelado",
  PARTIALLY_REFUNDED: "Devuelto en parte",
  IN_DISPUTE: "En disputa",
  CHARGED_BACK: "Contracargo",
};
/** An electronic invoice's state at ARCA: waiting for its CAE (queued or ARCA down), authorised, or rejected with ARCA's reasons. */
export { RECEIVER_TAX_CONDITIONS } from "#domain/receiver-tax-condition";
export type { ReceiverTaxCondition };
/** How an access group's billing form and its invoice name the receiver's condition before VAT. */
export const RECEIVER_TAX_CONDITION_LABELS: Record<ReceiverTaxCondition, string> = {
  RESPONSABLE_INSCRIPTO: "IVA Responsable Inscripto",
  MONOTRIBUTO: "Responsable Monotributo",
  EXENTO: "IVA Sujeto Exento",
  CONSUMIDOR_FINAL: "Consumidor Final",
};
export const INVOICE_STATUSES = ["PENDING", "AUTHORIZED", "REJECTED"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  PENDING: "Pendiente",
  AUTHORIZED: "Autorizado",
  REJECTED: "Rechazado",
};
/** SESSION: an amount a priced session owes; QR: a driver's prepayment at a connector's QR. */
export const PAYMENT_ORIGINS = ["SESSION", "QR"] as const;
export type PaymentOrigin = (typeof PAYMENT_ORIGINS)[number];
/**
 * What a company is notified of. Stored as text (not a database enum) so a new kind needs no
 * migration. PAYMENT_REFUND_PENDING: a driver is owed money the provider cannot give back by API
 * (or the provider rejected the refund). PAYMENT_UNUSED_REFUNDED: a payment Enchufá did not use
 * (late, paid twice) went back. PAYMENT_DISPUTED / PAYMENT_CHARGED_BACK / PAYMENT_DISPUTE_WON: a
 * payer's dispute opened, lost, won. PAYMENT_REFUNDED_OUTSIDE: refunded in the provider's panel.
 * PAYMENT_RECONCILIATION: payments that do not match the provider's record (told once each).
 * FISCAL_CERTIFICATE_EXPIRING / FISCAL_CERTIFICATE_EXPIRED: the ARCA certificate expires within
 * 30 days, or has expired (vouchers wait until a new one is uploaded).
 */
export const NOTIFICATION_TYPES = [
  "BUSINESS_APPROVED",
  "BUSINESS_REJECTED",
  "CHARGER_FAULTED",
  "CHARGER_RECOVERED",
  "CHARGER_OFFLINE",
  "CHARGER_ONLINE",
  "SESSION_COMPLETED",
  "IDLE_FEE_APPLIED",
  "RESERVATION_NO_SHOW",
  "PAYMENT_RECEIVED",
  "PAYMENT_FAILED",
  "PAYMENT_REFUNDED",
  "PAYMENT_REFUND_PENDING",
  "PAYMENT_UNUSED_REFUNDED",
  "PAYMENT_DISPUTED",
  "PAYMENT_CHARGED_BACK",
  "PAYMENT_DISPUTE_WON",
  "PAYMENT_REFUNDED_OUTSIDE",
  "PAYMENT_ACCOUNT_ERROR",
  "PAYMENT_RECONCILIATION",
  "FISCAL_CERTIFICATE_EXPIRING",
  "FISCAL_CERTIFICATE_EXPIRED",
  "SYSTEM",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const PAYMENT_SORTS = ["createdAt", "amountCents"] as const;

// The chargers', the stations' and the companies' own, in modules of their own so the pages that
// import this one (lists, activity, payments) do not carry them, and the charger, station and
// profile screens carry only theirs.
export * from "./business-constants";
export * from "./charger-constants";
export * from "./station-constants";
