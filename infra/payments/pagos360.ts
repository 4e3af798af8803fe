// Pagos360, only what drivers paying at a charger need, against a configurable base
// URL (PAGOS360_API_URL: the real API, or the local emulator in scripts/payments-emulator.ts).
// Calls carry the operator's own API key, so the money goes to the operator's account.
//
// References (Pagos360 API documentation, https://developers.pagos360.com):
// - Payment requests: POST /payment-request { payment_request: { description, first_due_date
//   (dd-mm-yyyy), first_total, payer_name, payer_email, external_reference, back_url_success,
//   back_url_pending, back_url_rejected } } → { id, state, checkout_url, external_reference }
// - GET /payment-request/{id}: its `state`: pending, paid, available (paid, money credited),
//   expired, canceled, rejected, reverted (the payer's bank reversed it), refunded
//   and, once paid, `request_result[]` (type collected_payment_request_result, amount, gross_fee:
//   the processing fee with its VAT, net_amount = amount − gross_fee)
// - Webhooks: a POST { entity_name: "PaymentRequest", type, entity_id, created_at } to the URL
//   configured in the account; it carries no signature, so the request is read back from the API
//   with the operator's key before anything is believed.
import type { LifecycleEventKind } from "../../domain/payment-lifecycle";
import { providerState } from "../../domain/provider-states";
import { ProviderError } from "./mercadopago";

export const PAGOS360_DEFAULT_URL = "https://api.pagos360.com";

export interface Pagos360Credentials {
  apiKey: string;
}

export interface PaymentRequest {
  id: number | string;
  state: string;
  checkout_url: string;
  external_reference?: string | null;
  first_total?: number;
  request_result?: { type?: string; amount?: number; gross_fee?: number; net_amount?: number }[];
}

export interface PaymentRequestInput {
  externalReference: string;
  description: string;
  amountCents: number;
  payerName: string;
  payerEmail?: string;
  backUrl: string;
  /** Today in Argentina, dd-mm-yyyy: the request expires at the end of the day. */
  dueDate: string;
}

export function pagos360Client(opts: { baseUrl?: string; apiKey: string; timeoutMs?: number; fetch?: typeof fetch }) {
  const base = (opts.baseUrl ?? PAGOS360_DEFAULT_URL).replace(/\/$/, "");
  const doFetch = opts.fetch ?? fetch;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${opts.apiKey}`, Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
    } catch (err) {
      const timeout = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      throw new ProviderError(timeout ? "Pagos360 no respondió a tiempo." : "No pudimos comunicarnos con Pagos360.", timeout ? "timeout" : "network", { cause: err });
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new ProviderError(`Pagos360 respondió ${res.status}.`, res.status);
    }
    return (await res.json()) as T;
  }

  return {
    createPaymentRequest(input: PaymentRequestInput): Promise<PaymentRequest> {
      return call<PaymentRequest>("POST", "/payment-request", {
        payment_request: {
          description: input.description,
          first_due_date: input.dueDate,
          first_total: Math.round(input.amountCents) / 100,
          payer_name: input.payerName,
          ...(input.payerEmail ? { payer_email: input.payerEmail } : {}),
          external_reference: input.externalReference,
          back_url_success: input.backUrl,
          back_url_pending: input.backUrl,
          back_url_rejected: input.backUrl,
        },
      });
    },
    getPaymentRequest(id: string): Promise<PaymentRequest> {
      return call<PaymentRequest>("GET", `/payment-request/${encodeURIComponent(id)}`);
    },
  };
}

export type Pagos360Client = ReturnType<typeof pagos360Client>;

/** A payment request's state as an event of the payment's life (domain/provider-states.ts). */
export function pagos360VerdictKind(state: string): LifecycleEventKind {
  return providerState("PAGOS360", state).event;
}

/** The processing fee Pagos360 kept of a paid request (centavos); null when it reports none. */
export function pagos360FeeCents(request: Pick<PaymentRequest, "request_result">): number | null {
  const fees = (request.request_result ?? []).filter((r) => typeof r.gross_fee === "number" && r.type !== "rejected_payment_request_result");
  return fees.length ? fees.reduce((sum, r) => sum + Math.round((r.gross_fee ?? 0) * 100), 0) : null;
}

/** dd-mm-yyyy of `now` in Argentina (Pagos360's due dates). */
export function argentinaDate(now: Date): string {
  const parts = new Intl.DateTimeFormat("es-AR", { timeZone: "America/Argentina/Buenos_Aires", day: "2-digit", month: "2-digit", year: "numeric" }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("day")}-${get("month")}-${get("year")}`;
}
