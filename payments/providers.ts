// The payment providers, behind one adapter each: open a checkout, read back the verdict on one
// of our payments, and (when the provider has the call) refund. Every call uses the operator's
// own credentials, so the money goes to and from the operator's account.
import { and, eq } from "drizzle-orm";
import { businessUsers, paymentAccounts, type Payment } from "../db/schema";
import { CHECKOUT_VALIDITY_MS } from "../domain/driver-payment";
import type { LifecycleEventKind } from "../domain/payment-lifecycle";
import { openPaymentCredentials, type PaymentProviderCode } from "../infra/crypto";
import { mercadoPagoClient, mpVerdictKind, statementDescriptor, toCents, type MercadoPagoCredentials, type MpPayment } from "../infra/payments/mercadopago";
import { argentinaDate, pagos360Client, pagos360VerdictKind, type Pagos360Credentials } from "../infra/payments/pagos360";
import type { PaymentsContext } from "./deps";
import { PAYMENT_PROVIDERS } from "../contract/schemas/constants";

export const PROVIDERS = PAYMENT_PROVIDERS;

/**
 * Whether the provider gives money back through its API (Mercado Pago: POST /v1/payments/{id}/refunds).
 * Pagos360 documents no refund call for payment requests: the operator refunds by hand.
 */
export const refundsAutomatically = (provider: PaymentProviderCode) => provider === "MERCADOPAGO";

/**
 * What a provider says of one of our payments. `reference` is the payment id it carries (ours,
 * or it is not believed); `currency` must be ARS; `refundedCents` is what the provider says went
 * back (null when it does not say: Pagos360).
 */
export interface Verdict {
  kind: LifecycleEventKind;
  externalId: string;
  amountCents: number;
  refundedCents: number | null;
  currency: string | null;
  reference: string | null;
  /** When the provider approved it, when it says (Mercado Pago's date_approved); null otherwise. */
  approvedAt?: Date | null;
}

/** What a refund call or its read-back says: only APPROVED gives the money back. */
export interface RefundOutcome {
  refundId: string;
  status: "APPROVED" | "IN_PROCESS" | "REJECTED";
}

/** The checkout page a payment opens at the provider. */
export interface CheckoutPage {
  title: string;
  /** Where the provider sends the driver back (our status page, with the link's secret). */
  backUrl: string;
  /** Our public origin: the provider's notifications are delivered under it. */
  origin: string;
}

export interface ProviderAdapter {
  createCheckout(payment: Payment, page: CheckoutPage): Promise<{ checkoutId: string; checkoutUrl: string }>;
  /** The provider's verdicts on one of our payments (each provider payment made on its checkout), read back from it. */
  readVerdicts(payment: Payment): Promise<Verdict[]>;
  /** Gives money back: all of it without `amountCents`; absent when the provider has no refund call. */
  refund?(externalId: string, amountCents: number | undefined, idempotencyKey: string): Promise<RefundOutcome>;
  /** A refund made earlier, read back. */
  readRefund?(externalId: string, refundId: string): Promise<RefundOutcome>;
}

/** The company's connected account with a provider, decrypted; null when not connected or unreadable. */
export async function providerCredentials(ctx: PaymentsContext, businessId: string, provider: PaymentProviderCode): Promise<Record<string, string> | null> {
  const [row] = await ctx.db
    .select()
    .from(paymentAccounts)
    .where(and(eq(paymentAccounts.businessId, businessId), eq(paymentAccounts.provider, provider), eq(paymentAccounts.status, "CONNECTED")))
    .limit(1);
  if (!row) return null;
  try {
    return JSON.parse(openPaymentCredentials(ctx.keyRing, row.credentialsEncrypted, { businessId, provider })) as Record<string, string>;
  } catch {
    return null;
  }
}

/** The providers a driver may pay the company with: connected, with the credential that takes payments. */
export async function connectedProviders(ctx: PaymentsContext, businessId: string): Promise<PaymentProviderCode[]> {
  const out: PaymentProviderCode[] = [];
  for (const provider of PROVIDERS) {
    const creds = await providerCredentials(ctx, businessId, provider);
    if (provider === "MERCADOPAGO" ? creds?.accessToken : creds?.apiKey) out.push(provider);
  }
  return out;
}

export const mercadoPago = (ctx: PaymentsContext, creds: MercadoPagoCredentials) =>
  mercadoPagoClient({ baseUrl: ctx.mercadoPagoUrl, accessToken: creds.accessToken, fetch: ctx.fetch });

/** A Mercado Pago payment in our terms. */
export const mercadoPagoVerdict = (p: MpPayment): Verdict => ({
  kind: mpVerdictKind(p),
  externalId: String(p.id),
  amountCents: toCents(p.transaction_amount),
  refundedCents: p.transaction_amount_refunded === undefined ? (p.status === "refunded" ? toCents(p.transaction_amount) : null) : toCents(p.transaction_amount_refunded),
  currency: p.currency_id ?? null,
  reference: p.external_reference ?? null,
  approvedAt: p.date_approved && Number.isFinite(Date.parse(p.date_approved)) ? new Date(p.date_approved) : null,
});

const refundOutcome = (r: { id: number | string; status?: string }): RefundOutcome => ({
  refundId: String(r.id),
  status: r.status === "approved" ? "APPROVED" : r.status === "rejected" || r.status === "cancelled" ? "REJECTED" : "IN_PROCESS",
});

/** The company's name as the payer's card statement shows it. */
async function companyDescriptor(ctx: PaymentsContext, businessId: string): Promise<string | undefined> {
  const [company] = await ctx.db.select({ name: businessUsers.businessName }).from(businessUsers).where(eq(businessUsers.id, businessId));
  return company ? statementDescriptor(company.name) : undefined;
}

function mercadoPagoAdapter(ctx: PaymentsContext, creds: MercadoPagoCredentials): ProviderAdapter {
  const client = mercadoPago(ctx, creds);
  return {
    async createCheckout(payment, page) {
      const pref = await client.createPreference(
        {
          externalReference: payment.id,
          title: page.title,
          amountCents: payment.amountCents,
          payerEmail: payment.driverEmail ?? undefined,
          backUrl: page.backUrl,
          notificationUrl: `${page.origin}/api/Webhook/MercadoPago/${payment.businessId}`,
          statementDescriptor: await companyDescriptor(ctx, payment.businessId),
          // Payable as long as the sweep waits for it: later, nobody would be at the charger.
          validity: { from: payment.createdAt, to: new Date(payment.createdAt.getTime() + CHECKOUT_VALIDITY_MS) },
        },
        `enchufa-pref-${payment.id}`,
      );
      return { checkoutId: String(pref.id), checkoutUrl: pref.init_point };
    },
    async readVerdicts(payment) {
      // Every attempt on the checkout: rejected ones, the approved one, and a second approval (paid twice).
      return (await client.searchByExternalReference(payment.id)).map(mercadoPagoVerdict);
    },
    async refund(externalId, amountCents, idempotencyKey) {
      const made = refundOutcome(await client.refund(externalId, amountCents, idempotencyKey));
      // The call's answer may still be in process: read it back once, the sweep reads it again later.
      return made.status === "IN_PROCESS" ? refundOutcome(await client.getRefund(externalId, made.refundId)) : made;
    },
    async readRefund(externalId, refundId) {
      return refundOutcome(await client.getRefund(externalId, refundId));
    },
  };
}

function pagos360Adapter(ctx: PaymentsContext, creds: Pagos360Credentials): ProviderAdapter {
  const client = pagos360Client({ baseUrl: ctx.pagos360Url, apiKey: creds.apiKey, fetch: ctx.fetch });
  return {
    async createCheckout(payment, page) {
      const request = await client.createPaymentRequest({
        externalReference: payment.id,
        description: page.title,
        amountCents: payment.amountCents,
        payerName: "Conductor",
        payerEmail: payment.driverEmail ?? undefined,
        backUrl: page.backUrl,
        // A payment request expires at the end of the day it is due.
        dueDate: argentinaDate(ctx.now()),
      });
      return { checkoutId: String(request.id), checkoutUrl: request.checkout_url };
    },
    async readVerdicts(payment) {
      if (!payment.checkoutId) return [];
      const request = await client.getPaymentRequest(payment.checkoutId);
      return [
        {
          kind: pagos360VerdictKind(request.state),
          externalId: String(request.id),
          amountCents: request.first_total === undefined ? payment.amountCents : toCents(request.first_total),
          refundedCents: null,
          // Pagos360 takes pesos only.
          currency: "ARS",
          reference: request.external_reference ?? null,
        },
      ];
    },
  };
}

/** The adapter of a company's account with a provider; null when the account is not connected. */
export async function providerAdapter(ctx: PaymentsContext, businessId: string, provider: PaymentProviderCode): Promise<ProviderAdapter | null> {
  const creds = await providerCredentials(ctx, businessId, provider);
  if (!creds) return null;
  return provider === "MERCADOPAGO" ? mercadoPagoAdapter(ctx, creds as unknown as MercadoPagoCredentials) : pagos360Adapter(ctx, creds as unknown as Pagos360Credentials);
}
