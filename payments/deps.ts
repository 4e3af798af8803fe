// What the driver payments service is built from, and the context every one of its functions
// takes: the deps with their defaults filled in, plus the little this process remembers.
import type { Db } from "../db/client";
import type { KeyRing } from "../infra/crypto";
import type { Logger } from "../infra/logger";
import type { Mailer } from "../infra/mail";
import type { SendPush } from "../infra/push";
import type { ChargerCommand, CommandReply } from "../ocpp/commands";
import type { LiveEvents } from "../ocpp/live";
import type { Invoicing } from "../invoicing";

/** What payments need of the OCPP central system: commands to a charger, and live events for the operator's screens. */
export interface PaymentsOcpp {
  sendCommand(charger: { id: string; ocppIdentity: string }, command: ChargerCommand): Promise<CommandReply>;
  live: Pick<LiveEvents, "publish">;
}

export interface DriverPaymentsDeps {
  db: Db;
  keyRing: KeyRing;
  logger: Logger;
  mailer: Mailer;
  /** Product name in the driver's e-mails. */
  appName: string;
  /** Absent: a paid charge cannot be started or stopped (the payment is refunded as a failed start). */
  ocpp?: PaymentsOcpp;
  sendPush?: SendPush;
  /** Electronic invoices: a settled payment's voucher, a refund's credit note, the PDF on the receipt. Absent: no invoices. */
  invoicing?: Pick<Invoicing, "paymentSettled" | "paymentRefunded" | "receiptInvoice" | "pdf">;
  /** Where Mercado Pago and Pagos360 are (MERCADOPAGO_API_URL, PAGOS360_API_URL); unset: the real APIs. */
  mercadoPagoUrl?: string;
  pagos360Url?: string;
  now?: () => Date;
  fetch?: typeof fetch;
}

export interface PaymentsContext extends Omit<DriverPaymentsDeps, "now"> {
  now: () => Date;
  /** Payments this process is working on (refunds): not twice at once here; other nodes are held off by the conditional updates and idempotency keys. */
  busy: Set<string>;
  /** Chargers with a QR payment starting, charging or to be settled (refilled by each sweep, so payments taken on another node are seen too). */
  watched: Set<string>;
  /** When this process last asked a provider about a payment (ms): the return page and the sweep ask at most every few seconds. */
  lastPoll: Map<string, number>;
}

export function paymentsContext(deps: DriverPaymentsDeps): PaymentsContext {
  return { ...deps, now: deps.now ?? (() => new Date()), busy: new Set(), watched: new Set(), lastPoll: new Map() };
}

/** An id of ours (a UUID), checked before it reaches a query. */
export const UUID_RE = /^[0-9a-f-]{36}$/i;
/** A UUID no row has: a join on an absent id finds nothing instead of failing. */
export const NO_ID = "00000000-0000-0000-0000-000000000000";
