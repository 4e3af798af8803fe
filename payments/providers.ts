// The payment providers, behind one adapter each: open a checkout, read back the verdict on one
// of our payments, and (when the provider has the call) refund. Every call uses the operator's
// own credentials, so the money goes to and from the operator's account.
import { and, eq } from "drizzle-orm";
import { paymentAccounts, type Payment } from "../db/schema";
import { openPaymentCredentials, type PaymentProviderCode } from "../infra/crypto";
import { mercadoPagoClient, mpStatus, toCents, type MercadoPagoCredentials, type MpPayment } from "../infra/payments/mercadopago";
import { argentinaDate, pagos360Client, pagos360Status, type Pagos360Credentials } from "../infra/payments/pagos360";
import type { PaymentsContext } from "./deps";
import { PAYMENT_PROVIDERS } from "../contract/schemas/constants";

export const PROVIDERS = PAYMENT_PROVIDERS;

/**
 * Whether the provider gives money back through its API (Mercado Pago: POST /v1/payments/{id}/refunds).
 * Pagos360 documents no refund call for payment requests: the operator refunds by hand.
 */
export const refundsAutomatically = (provider: PaymentProviderCode) => provider === "MERCADOPAGO";

/** What a provider says of one of our payments. `reference` is the payment id it carries (ours, or it is not believed). */
export interface Verdict {
  status: Payment["status"];
  externalId: string;
  amountCents: number;
  reference: string | null;
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
  /** The provider's verdict on one of our payments, read back from it; null when it has none yet. */
  readVerdict(payment: Payment): Promise<Verdict | null>;
  /** Gives money back: all of it without `amountCents`; absent when the provider has no refund call. */
  refund?(externalId: string, amountCents: number | undefined, idempotencyKey: string): Promise<void>;
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
export const mercadoPagoVerdict = (p: MpPayment): Verdict => ({ status: mpStatus(p), externalId: String(p.id), amountCents: toCents(p.transaction_amount), reference: p.external_reference ?? null });

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
        },
        `enchufa-pref-${payment.id}`,
      );
      return { checkoutId: String(pref.id), checkoutUrl: pref.init_point };
    },
    async readVerdict(payment) {
      const found = await client.searchByExternalReference(payment.id);
      // An approved payment wins over earlier rejected attempts on the same checkout.
      const best = found.find((p) => mpStatus(p) === "APPROVED") ?? found[0];
      return best ? mercadoPagoVerdict(best) : null;
    },
    async refund(externalId, amountCents, idempotencyKey) {
      await client.refund(externalId, amountCents, idempotencyKey);
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
    async readVerdict(payment) {
      if (!payment.checkoutId) return null;
      const request = await client.getPaymentRequest(payment.checkoutId);
      return {
        status: pagos360Status(request.state),
        externalId: String(request.id),
        amountCents: request.first_total === undefined ? payment.amountCents : toCents(request.first_total),
        reference: request.external_reference ?? null,
      };
    },
  };
}

/** The adapter of a company's account with a provider; null when the account is not connected. */
export async function providerAdapter(ctx: PaymentsContext, businessId: string, provider: PaymentProviderCode): Promise<ProviderAdapter | null> {
  const creds = await providerCredentials(ctx, businessId, provider);
  if (!creds) return null;
  return provider === "MERCADOPAGO" ? mercadoPagoAdapter(ctx, creds as unknown as MercadoPagoCredentials) : pagos360Adapter(ctx, creds as unknown as Pagos360Credentials);
}
