// Mercado Pago, only what drivers paying at a charger need, against a configurable
// base URL (MERCADOPAGO_API_URL: the real API, or the local emulator in scripts/payments-emulator.ts).
// Every call uses the operator's own access token, so the money goes to the operator's account.
//
// References (Mercado Pago Developers, Argentina):
// - Checkout Pro preferences: POST /checkout/preferences
//   https://www.mercadopago.com.ar/developers/es/reference/preferences/_checkout_preferences/post
// - Payments: GET /v1/payments/{id}, GET /v1/payments/search?external_reference=…
//   https://www.mercadopago.com.ar/developers/es/reference/payments/_payments_id/get
//   https://www.mercadopago.com.ar/developers/es/reference/payments/_payments_search/get
// - Refunds (total, or partial with `amount`): POST /v1/payments/{id}/refunds
//   https://www.mercadopago.com.ar/developers/es/reference/chargebacks/_payments_id_refunds/post
// - Refunds read back: GET /v1/payments/{id}/refunds/{refund_id} (its `status`: approved,
//   in_process, rejected, cancelled)
// - Merchant orders (IPN topic merchant_order): GET /merchant_orders/{id} → its `payments`
// - Webhooks and their x-signature: https://www.mercadopago.com.ar/developers/es/docs/your-integrations/notifications/webhooks
//   (IPN notifications, ?topic=…&id=…, carry no signature)
import { createHmac, timingSafeEqual } from "node:crypto";
import type { LifecycleEventKind } from "../../domain/payment-lifecycle";
import { providerState } from "../../domain/provider-states";

export const MERCADOPAGO_DEFAULT_URL = "https://api.mercadopago.com";

export interface MercadoPagoCredentials {
  accessToken: string;
  publicKey?: string;
  /** The webhook "secret signature" from the operator's Mercado Pago application. */
  webhookSecret?: string;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | "timeout" | "network",
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ProviderError";
  }
}

export interface PreferenceInput {
  externalReference: string;
  title: string;
  amountCents: number;
  payerEmail?: string;
  backUrl: string;
  notificationUrl: string;
  /** What the payer's card statement shows (ASCII, at most STATEMENT_DESCRIPTOR_MAX characters). */
  statementDescriptor?: string;
  /** The checkout accepts payments only within it (the payment page's validity). */
  validity?: { from: Date; to: Date };
}

/** A date as Mercado Pago's preferences take it: ISO 8601 with Argentina's offset (-03:00, no summer time). */
export const mpDate = (d: Date) => new Date(d.getTime() - 3 * 3_600_000).toISOString().replace(/Z$/, "-03:00");

/** Mercado Pago's limit for `statement_descriptor` (card networks cut longer ones). */
export const STATEMENT_DESCRIPTOR_MAX = 22;

/**
 * A business name as a card statement can carry it: no accents, ASCII letters, digits and a few
 * signs, cut to the limit at a word's end when one is near.
 */
export function statementDescriptor(name: string): string | undefined {
  const ascii = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9 .&-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (ascii.length <= STATEMENT_DESCRIPTOR_MAX) return ascii || undefined;
  const cut = ascii.slice(0, STATEMENT_DESCRIPTOR_MAX + 1);
  const space = cut.lastIndexOf(" ");
  return (space >= 8 ? cut.slice(0, space) : cut.slice(0, STATEMENT_DESCRIPTOR_MAX)).trim();
}

/** The fields of a preference we read. */
export interface Preference {
  id: string;
  init_point: string;
  sandbox_init_point?: string;
}

/** Mercado Pago payment statuses (approved, pending, in_process, rejected, cancelled, refunded…). */
export interface MpPayment {
  id: number | string;
  status: string;
  status_detail?: string;
  external_reference?: string | null;
  transaction_amount: number;
  transaction_amount_refunded?: number;
  currency_id?: string;
  date_created?: string;
  /** When Mercado Pago approved it (null or absent before). */
  date_approved?: string | null;
  /** What Mercado Pago charged: its fee and taxes, each with who paid it (the collector: the operator). */
  fee_details?: { type?: string; amount: number; fee_payer?: string }[];
  transaction_details?: { net_received_amount?: number; total_paid_amount?: number };
}

/** GET /v1/payments/search's page. */
export interface MpSearchPage {
  paging?: { total?: number; limit?: number; offset?: number };
  results?: MpPayment[];
}

/** A search of the account's payments (reconciliation): by reference, by creation date, or both. */
export interface PaymentSearch {
  externalReference?: string;
  /** Created at or after / before (range=date_created). */
  begin?: Date;
  end?: Date;
}

/** Pages read at most per search: 50 × 100 payments a window, beyond which the search says it was cut. */
const SEARCH_PAGE_SIZE = 100;
const SEARCH_MAX_PAGES = 50;

export interface MpRefund {
  id: number | string;
  amount: number;
  /** approved, in_process, rejected, cancelled (absent in old answers: then it is read back). */
  status?: string;
}

export interface MpMerchantOrder {
  id: number | string;
  external_reference?: string | null;
  payments?: { id: number | string }[];
}

const toPesos = (cents: number) => Math.round(cents) / 100;
export const toCents = (pesos: number) => Math.round(pesos * 100);

export function mercadoPagoClient(opts: { baseUrl?: string; accessToken: string; timeoutMs?: number; fetch?: typeof fetch }) {
  const base = (opts.baseUrl ?? MERCADOPAGO_DEFAULT_URL).replace(/\/$/, "");
  const doFetch = opts.fetch ?? fetch;

  async function call<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${opts.accessToken}`,
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          // Mercado Pago answers a repeated key with the first result (one refund for two calls).
          ...(idempotencyKey ? { "X-Idempotency-Key": idempotencyKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
    } catch (err) {
      const timeout = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      throw new ProviderError(timeout ? "Mercado Pago no respondió a tiempo." : "No pudimos comunicarnos con Mercado Pago.", timeout ? "timeout" : "network", { cause: err });
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new ProviderError(`Mercado Pago respondió ${res.status}.`, res.status);
    }
    return (await res.json()) as T;
  }

  return {
    /** Checkout Pro: the page where the driver pays; `external_reference` is our payment id. */
    createPreference(input: PreferenceInput, idempotencyKey: string): Promise<Preference> {
      return call<Preference>(
        "POST",
        "/checkout/preferences",
        {
          items: [{ id: input.externalReference, title: input.title, quantity: 1, currency_id: "ARS", unit_price: toPesos(input.amountCents) }],
          ...(input.payerEmail ? { payer: { email: input.payerEmail } } : {}),
          external_reference: input.externalReference,
          back_urls: { success: input.backUrl, pending: input.backUrl, failure: input.backUrl },
          auto_return: "approved",
          notification_url: input.notificationUrl,
          binary_mode: true,
          ...(input.statementDescriptor ? { statement_descriptor: input.statementDescriptor } : {}),
          ...(input.validity ? { expires: true, expiration_date_from: mpDate(input.validity.from), expiration_date_to: mpDate(input.validity.to) } : {}),
        },
        idempotencyKey,
      );
    },
    getPayment(id: string): Promise<MpPayment> {
      return call<MpPayment>("GET", `/v1/payments/${encodeURIComponent(id)}`);
    },
    /** The payments made for our payment id (the poll when no webhook came). */
    async searchByExternalReference(externalReference: string): Promise<MpPayment[]> {
      const page = await call<{ results?: MpPayment[] }>("GET", `/v1/payments/search?external_reference=${encodeURIComponent(externalReference)}&sort=date_created&criteria=desc`);
      return page.results ?? [];
    },
    /** A refund read back: its status decides whether the money went back. */
    getRefund(paymentId: string, refundId: string): Promise<MpRefund> {
      return call<MpRefund>("GET", `/v1/payments/${encodeURIComponent(paymentId)}/refunds/${encodeURIComponent(refundId)}`);
    },
    /** A merchant order (IPN's topic merchant_order): the payments made on it. */
    getMerchantOrder(id: string): Promise<MpMerchantOrder> {
      return call<MpMerchantOrder>("GET", `/merchant_orders/${encodeURIComponent(id)}`);
    },
    /**
     * Every payment of a search, page by page (offset/limit). `truncated`: there were more than
     * SEARCH_MAX_PAGES pages (the caller says the check was partial).
     */
    async searchPayments(search: PaymentSearch): Promise<{ results: MpPayment[]; truncated: boolean }> {
      const results: MpPayment[] = [];
      for (let pageNo = 0; pageNo < SEARCH_MAX_PAGES; pageNo++) {
        const q = new URLSearchParams({ sort: "date_created", criteria: "asc", limit: String(SEARCH_PAGE_SIZE), offset: String(pageNo * SEARCH_PAGE_SIZE) });
        if (search.externalReference) q.set("external_reference", search.externalReference);
        if (search.begin || search.end) q.set("range", "date_created");
        if (search.begin) q.set("begin_date", search.begin.toISOString());
        if (search.end) q.set("end_date", search.end.toISOString());
        const page = await call<MpSearchPage>("GET", `/v1/payments/search?${q}`);
        const got = page.results ?? [];
        results.push(...got);
        const total = page.paging?.total ?? results.length;
        if (got.length < SEARCH_PAGE_SIZE || results.length >= total) return { results, truncated: false };
      }
      return { results, truncated: true };
    },
    /** A refund: the whole payment without `amountCents`, part of it with. */
    refund(paymentId: string, amountCents: number | undefined, idempotencyKey: string): Promise<MpRefund> {
      return call<MpRefund>("POST", `/v1/payments/${encodeURIComponent(paymentId)}/refunds`, amountCents === undefined ? {} : { amount: toPesos(amountCents) }, idempotencyKey);
    },
  };
}

export type MercadoPagoClient = ReturnType<typeof mercadoPagoClient>;

/**
 * How old a signed notification's `ts` may be and still count as fresh. An older one is not
 * refused: Mercado Pago retries a notification with its first `ts`, and every accepted
 * notification is only a "look" (the payment is read back from the API), so a stale but
 * correctly signed one is read back like an unsigned one.
 */
export const SIGNATURE_MAX_AGE_MS = 10 * 60_000;

/** A notification's signature: VALID, STALE (right HMAC, old ts), MISSING (no x-signature) or INVALID (wrong or malformed). */
export type SignatureCheck = "VALID" | "STALE" | "MISSING" | "INVALID";

/**
 * Checks a webhook's `x-signature` ("ts=…,v1=…"): HMAC-SHA256, keyed with the operator's
 * secret, of the manifest `id:{data.id};request-id:{x-request-id};ts:{ts};` where data.id comes
 * from the notification URL's query string (lower-cased when alphanumeric, as documented).
 */
export function checkMercadoPagoSignature(input: { signature: string | undefined; requestId: string | undefined; dataId: string | undefined; secret: string }, now: Date = new Date()): SignatureCheck {
  if (!input.signature) return "MISSING";
  if (!input.dataId || !input.secret) return "INVALID";
  const parts = Object.fromEntries(
    input.signature.split(",").map((p) => {
      const [k, ...v] = p.split("=");
      return [k.trim(), v.join("=").trim()];
    }),
  );
  const ts = parts.ts;
  const v1 = parts.v1;
  if (!ts || !v1 || !/^[0-9a-f]{64}$/i.test(v1) || !/^\d{1,16}$/.test(ts)) return "INVALID";
  const expected = signMercadoPagoManifest(input.secret, input.dataId, input.requestId, ts);
  if (!timingSafeEqual(Buffer.from(expected, "hex"), Buffer.from(v1.toLowerCase(), "hex"))) return "INVALID";
  // ts is in seconds (milliseconds also seen in the wild): either way, not too old nor in the future.
  const tsMs = ts.length > 11 ? Number(ts) : Number(ts) * 1000;
  return Math.abs(now.getTime() - tsMs) > SIGNATURE_MAX_AGE_MS ? "STALE" : "VALID";
}

/** Whether a signature is right and fresh (checkMercadoPagoSignature says VALID). */
export function verifyMercadoPagoSignature(input: Parameters<typeof checkMercadoPagoSignature>[0], now: Date = new Date()): boolean {
  return checkMercadoPagoSignature(input, now) === "VALID";
}

/** The manifest's HMAC (hex); the emulator signs with it too. */
export function signMercadoPagoManifest(secret: string, dataId: string, requestId: string | undefined, ts: string): string {
  const id = /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
  let manifest = `id:${id};`;
  if (requestId) manifest += `request-id:${requestId};`;
  manifest += `ts:${ts};`;
  return createHmac("sha256", secret).update(manifest).digest("hex");
}

/** What Mercado Pago kept of a payment (centavos): the fees the collector paid; else gross less what it says was received; null when it says neither. */
export function mpFeeCents(p: Pick<MpPayment, "fee_details" | "transaction_details" | "transaction_amount">): number | null {
  // An empty list is "no fee" (a rejected payment); nothing received says nothing of a fee.
  if (p.fee_details) return p.fee_details.filter((f) => f.fee_payer !== "payer").reduce((sum, f) => sum + toCents(f.amount), 0);
  const net = p.transaction_details?.net_received_amount;
  return typeof net === "number" && net > 0 ? toCents(p.transaction_amount) - toCents(net) : null;
}

/** What a Mercado Pago payment says, as an event of the payment's life (domain/provider-states.ts). */
export function mpVerdictKind(p: Pick<MpPayment, "status" | "status_detail">): LifecycleEventKind {
  return providerState("MERCADOPAGO", p.status, p.status_detail).event;
}
