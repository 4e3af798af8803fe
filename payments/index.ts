// Drivers pay at the charger: a driver scans a connector's QR, prepays an amount through the
// operator's own Mercado Pago or Pagos360 account, and the charge starts.
//
//   PAYING ──(provider approves: webhook, or a poll)──▶ STARTING ──(StartTransaction)──▶ CHARGING
//     │                                                   │ charger refuses / 2 min           │ stop (driver, cap, charger)
//     ▼ cancelled / expired / 24 h                        ▼                                   ▼ priced by the central system
//   FAILED ─(approved late)─▶ START_FAILED ─(full refund, approved by the provider)─▶ REFUNDED   SETTLING ─(partial refund, receipt)─▶ FINISHED
//                                   │     refund rejected, or Pagos360 (no refund call)   ▲           │                                 ▲
//                                   └─────────────────────────────────────────▶ REFUND_PENDING ──(the operator records it, or Pagos360 says refunded)─┘
//
// That is the step; the status says what the provider says of the money, after approval too:
// APPROVED → PARTIALLY_REFUNDED / REFUNDED (by Enchufá or in the provider's panel), IN_DISPUTE →
// CHARGED_BACK or back (dispute won). domain/payment-lifecycle.ts is the one state machine of
// both; approval.ts applies every verdict through it. A second approved payment on the same
// checkout gets a row of its own (parentPaymentId) that starts at START_FAILED: refunded in full.
//
// The service: the API's driver, webhook and payments routes call it, and the central system
// tells it when a charger's session changed. It is made once per process (server.ts) and passed
// to both. Each file holds one responsibility and its functions take the context explicitly:
// the QR page (charge-point), checkout, approval (provider verdicts and webhooks), start,
// settlement (caps, stops, a settled balance), refunds, receipt, the driver's status page, the
// sweep, the provider adapters and the reconciliation with the providers' records.
import { eq } from "drizzle-orm";
import { payments, type Payment } from "../db/schema";
import { FINAL_STEPS, type DriverStep } from "../domain/driver-payment";
import { mercadoPagoWebhook, pagos360Webhook, type MercadoPagoNotice } from "./approval";
import { blockDriver, unblockDriver, type BlockResult } from "./blocked-drivers";
import { chargePoint } from "./charge-point";
import { checkout } from "./checkout";
import { paymentsContext, type DriverPaymentsDeps } from "./deps";
import { dailyReconciliation, reconcile, reconcileAndNotify, type ReconciliationReport } from "./reconciliation";
import { recordRefund } from "./refunds";
import { onSessionChange, stop } from "./settlement";
import { invoicePdf, view } from "./status";
import { tick } from "./sweep";
import type { ChargePointInfo, CheckoutInput, CheckoutResult, PaymentView, RecordRefundResult, StopResult, WebhookResult } from "./types";

export type { DriverPaymentsDeps, PaymentsOcpp } from "./deps";
export type { ChargePointInfo, CheckoutInput, CheckoutResult, ConnectorState, PaymentView, Receipt, RecordRefundResult, StopResult } from "./types";
export type { MercadoPagoNotice } from "./approval";
export type { BlockResult } from "./blocked-drivers";
export { existingLinkToken, linkToken, linkTokenMatches } from "./link";
export { startDriverPaymentSweep } from "./sweep";
export { startDailyReconciliation, type ReconciliationReport } from "./reconciliation";

/** What the API and the central system do with drivers' payments. */
export interface DriverPayments {
  /** The QR page of a connector; null when it has none (unknown, unpublished, company not active). */
  chargePoint(identity: string, connectorNumber: number): Promise<ChargePointInfo | null>;
  /** "Pagar": the payment and the provider's checkout. */
  checkout(input: CheckoutInput): Promise<CheckoutResult>;
  /** The driver's status page, by the payment's id and their link's secret; null for anything else. */
  view(paymentId: string, token: string): Promise<PaymentView | null>;
  /** The PDF of the payment's authorised invoice, for the holder of the link's secret; null for anything else. */
  invoicePdf(paymentId: string, token: string): Promise<{ filename: string; bytes: Buffer } | null>;
  /** The driver asks the charger to stop. */
  stop(paymentId: string, token: string): Promise<StopResult>;
  mercadoPagoWebhook(businessId: string, notice: MercadoPagoNotice): Promise<WebhookResult<200 | 400 | 401>>;
  pagos360Webhook(businessId: string, body: { entity_name?: unknown; entity_id?: unknown }): Promise<WebhookResult<200 | 400>>;
  /** The operator records a refund they made by hand (a provider without a refund call). */
  recordRefund(businessId: string, paymentId: string, amountCents?: number): Promise<RecordRefundResult>;
  /** The operator blocks the driver of a disputed or charged-back payment from its QR pages (by e-mail). */
  blockDriver(businessId: string, paymentId: string): Promise<BlockResult>;
  /** …and lets them pay again. */
  unblockDriver(businessId: string, paymentId: string): Promise<BlockResult>;
  /** The company's payments created in [from, to) against the providers' records (ADR 0040). */
  reconcile(businessId: string, from: Date, to: Date): Promise<ReconciliationReport>;
  /** The same, and a notification of the differences not told before ("Conciliar ahora"). */
  reconcileAndNotify(businessId: string, from: Date, to: Date): Promise<ReconciliationReport & { reported: number }>;
  /** Every company with a connected provider, its last 7 days (startDailyReconciliation runs it daily). */
  dailyReconciliation(): Promise<void>;
  /** One pass of the sweep (startDriverPaymentSweep runs it on a timer). */
  tick(): Promise<void>;
  /** A charger's session changed (a reading, a start, a stop): its prepaid caps and refunds now. */
  onSessionChange(chargerId: string | undefined): Promise<void>;
  /** A payment row by id, any company's (tests follow a payment's steps through it). */
  get(paymentId: string): Promise<Payment | undefined>;
  isFinal(step: DriverStep): boolean;
}

export function createDriverPayments(deps: DriverPaymentsDeps): DriverPayments {
  const ctx = paymentsContext(deps);
  return {
    chargePoint: (identity, connectorNumber) => chargePoint(ctx, identity, connectorNumber),
    checkout: (input) => checkout(ctx, input),
    view: (paymentId, token) => view(ctx, paymentId, token),
    invoicePdf: (paymentId, token) => invoicePdf(ctx, paymentId, token),
    stop: (paymentId, token) => stop(ctx, paymentId, token),
    mercadoPagoWebhook: (businessId, notice) => mercadoPagoWebhook(ctx, businessId, notice),
    pagos360Webhook: (businessId, body) => pagos360Webhook(ctx, businessId, body),
    recordRefund: (businessId, paymentId, amountCents) => recordRefund(ctx, businessId, paymentId, amountCents),
    blockDriver: (businessId, paymentId) => blockDriver(ctx, businessId, paymentId),
    unblockDriver: (businessId, paymentId) => unblockDriver(ctx, businessId, paymentId),
    reconcile: (businessId, from, to) => reconcile(ctx, businessId, from, to),
    reconcileAndNotify: (businessId, from, to) => reconcileAndNotify(ctx, businessId, from, to),
    dailyReconciliation: () => dailyReconciliation(ctx),
    tick: () => tick(ctx),
    onSessionChange: (chargerId) => onSessionChange(ctx, chargerId),
    async get(paymentId) {
      const [p] = await ctx.db.select().from(payments).where(eq(payments.id, paymentId));
      return p;
    },
    isFinal: (step) => FINAL_STEPS.has(step),
  };
}
