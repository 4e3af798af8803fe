// A payment's fiscal vouchers, asked of the invoicing service at the moments money settles or
// goes back. Never in the way of the payment: a failure is logged and the invoicing sweep, which
// looks for settled payments without their voucher, issues it later.
import { afterCommit } from "../db/ambient";
import type { PaymentsContext } from "./deps";

/** The payment's charge is final: its invoice, for what was charged. */
export async function invoiceSettled(ctx: PaymentsContext, paymentId: string): Promise<void> {
  const invoicing = ctx.invoicing;
  if (!invoicing) return;
  await afterCommit(() =>
    invoicing.paymentSettled(paymentId).catch((err) => ctx.logger.warn({ paymentId, err: err instanceof Error ? err.message : String(err) }, "pago con QR: la factura queda para el barrido")),
  );
}

/** Money of the payment went back after it was invoiced (a refund, a chargeback): the credit note. */
export async function creditRefunded(ctx: PaymentsContext, paymentId: string): Promise<void> {
  const invoicing = ctx.invoicing;
  if (!invoicing) return;
  await afterCommit(() =>
    invoicing.paymentRefunded(paymentId).catch((err) => ctx.logger.warn({ paymentId, err: err instanceof Error ? err.message : String(err) }, "pago con QR: la nota de crédito queda para el barrido")),
  );
}
