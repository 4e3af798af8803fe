// Reconciliation: every payment of a period as Enchufá shows it, against the provider's own
// record of it, read back with the company's credentials (ADR 0040). Mercado Pago: the account's
// payments created in the period (and a day after: a checkout may be paid the next day), kept when
// they carry one of our payment ids as external reference; a payment of ours the window did not
// bring is searched by its reference before it is called missing. Pagos360: each payment request
// read by its id. The comparison is domain/reconciliation's; the provider's fee read on the way is
// stored on the payment (the Pagos list's gross, fee and net).
import { and, eq, gte, lt } from "drizzle-orm";
import { paymentAccounts, paymentReconciliationReports, payments, type Payment } from "../db/schema";
import { differenceKey, reconcilePayments, reconTotals, type Difference, type OurPayment, type ProviderPayment, type ReconTotals } from "../domain/reconciliation";
import type { PaymentProviderCode } from "../infra/crypto";
import { mpFeeCents, ProviderError, toCents, type MercadoPagoCredentials, type MpPayment } from "../infra/payments/mercadopago";
import { pagos360Client, pagos360FeeCents, type Pagos360Credentials, type PaymentRequest } from "../infra/payments/pagos360";
import type { PaymentsContext } from "./deps";
import { PROVIDER_NAMES } from "./labels";
import { notifyCompany } from "./notify";
import { mercadoPago, providerCredentials, PROVIDERS } from "./providers";

const DAY_MS = 86_400_000;

/** What a reconciliation of a period found. */
export interface ReconciliationReport {
  differences: Difference[];
  /** Our payments compared with a provider's record. */
  checked: number;
  /** The provider's side of the period: what moved money, its fees and refunds, and the net. */
  totals: ReconTotals;
  /** Providers whose payments could not be checked (not connected, or not answering), with why, in Spanish. */
  unchecked: { provider: PaymentProviderCode; reason: string }[];
}

/** Our payment as the Pagos screen shows it: a whole refund counts the whole amount. */
function ourSide(p: Payment): OurPayment {
  const refundedCents = p.status === "REFUNDED" ? Math.max(p.refundedCents, p.amountCents) : p.refundedCents;
  return { id: p.id, provider: p.provider, externalId: p.externalId, amountCents: p.amountCents, currency: p.currency, status: p.status, refundedCents };
}

function fromMercadoPago(p: MpPayment): ProviderPayment {
  return {
    provider: "MERCADOPAGO",
    externalId: String(p.id),
    reference: p.external_reference ?? null,
    amountCents: toCents(p.transaction_amount),
    currency: p.currency_id ?? "ARS",
    state: p.status,
    detail: p.status_detail ?? null,
    refundedCents: toCents(p.transaction_amount_refunded ?? 0),
    feeCents: mpFeeCents(p),
  };
}

function fromPagos360(r: PaymentRequest, ours: Payment): ProviderPayment {
  return {
    provider: "PAGOS360",
    externalId: String(r.id),
    reference: r.external_reference ?? null,
    amountCents: r.first_total === undefined ? ours.amountCents : toCents(r.first_total),
    // A payment request is in pesos: Pagos360 has no other currency.
    currency: "ARS",
    state: r.state,
    // Pagos360 reports no refund amounts (its refunds are made by hand, ADR 0017).
    refundedCents: null,
    feeCents: pagos360FeeCents(r),
  };
}

async function readMercadoPago(ctx: PaymentsContext, creds: MercadoPagoCredentials, ours: Payment[], from: Date, to: Date): Promise<ProviderPayment[]> {
  const client = mercadoPago(ctx, creds);
  const refs = new Set(ours.map((p) => p.id));
  const { results } = await client.searchPayments({ begin: from, end: new Date(to.getTime() + DAY_MS) });
  const found = new Map<string, MpPayment>();
  for (const r of results) if (r.external_reference && refs.has(r.external_reference)) found.set(String(r.id), r);
  const seenRefs = new Set([...found.values()].map((r) => r.external_reference));
  for (const p of ours) {
    const moved = p.externalId !== null || p.status === "APPROVED" || p.status === "REFUNDED";
    if (!moved || seenRefs.has(p.id) || (p.externalId && found.has(p.externalId))) continue;
    const byRef = await client.searchPayments({ externalReference: p.id });
    for (const r of byRef.results) if (r.external_reference === p.id) found.set(String(r.id), r);
  }
  return [...found.values()].map(fromMercadoPago);
}

async function readPagos360(ctx: PaymentsContext, creds: Pagos360Credentials, ours: Payment[]): Promise<ProviderPayment[]> {
  const client = pagos360Client({ baseUrl: ctx.pagos360Url, apiKey: creds.apiKey, fetch: ctx.fetch });
  const out: ProviderPayment[] = [];
  for (const p of ours) {
    const requestId = p.externalId ?? p.checkoutId;
    if (!requestId) continue;
    try {
      out.push(fromPagos360(await client.getPaymentRequest(requestId), p));
    } catch (err) {
      // Not found: the provider has no such request (a difference); anything else stops the check.
      if (!(err instanceof ProviderError && err.status === 404)) throw err;
    }
  }
  return out;
}

/** The provider's fee read now, stored on our payment (its id is the record's) when it changed. */
async function storeFees(ctx: PaymentsContext, ours: Payment[], theirs: ProviderPayment[]): Promise<void> {
  const byId = new Map(theirs.map((r) => [`${r.provider}:${r.externalId}`, r]));
  for (const p of ours) {
    const fee = p.externalId ? byId.get(`${p.provider}:${p.externalId}`)?.feeCents : undefined;
    if (fee === undefined || fee === null || fee === p.feeCents || fee < 0) continue;
    await ctx.db.update(payments).set({ feeCents: fee }).where(and(eq(payments.id, p.id), eq(payments.businessId, p.businessId)));
  }
}

/** Our payments created in [from, to) against their providers' records. */
export async function reconcile(ctx: PaymentsContext, businessId: string, from: Date, to: Date): Promise<ReconciliationReport> {
  const rows = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.businessId, businessId), gte(payments.createdAt, from), lt(payments.createdAt, to)));
  const ours: Payment[] = [];
  const theirs: ProviderPayment[] = [];
  const unchecked: ReconciliationReport["unchecked"] = [];
  for (const provider of PROVIDERS) {
    const mine = rows.filter((p) => p.provider === provider);
    const creds = await providerCredentials(ctx, businessId, provider);
    const usable = provider === "MERCADOPAGO" ? creds?.accessToken : creds?.apiKey;
    if (!creds || !usable) {
      if (mine.length) unchecked.push({ provider, reason: `${PROVIDER_NAMES[provider]} no está conectado: sus pagos no se pudieron comparar.` });
      continue;
    }
    try {
      const records =
        provider === "MERCADOPAGO"
          ? await readMercadoPago(ctx, creds as unknown as MercadoPagoCredentials, mine, from, to)
          : await readPagos360(ctx, creds as unknown as Pagos360Credentials, mine);
      ours.push(...mine);
      theirs.push(...records);
    } catch (err) {
      ctx.logger.warn({ businessId, provider, err: err instanceof Error ? err.message : String(err) }, "conciliación: no se pudo leer al proveedor");
      unchecked.push({ provider, reason: `No pudimos consultar a ${PROVIDER_NAMES[provider]}: sus pagos no se compararon. Probá de nuevo más tarde.` });
    }
  }
  await storeFees(ctx, ours, theirs);
  return { differences: reconcilePayments(ours.map(ourSide), theirs), checked: ours.length, totals: reconTotals(theirs), unchecked };
}

/** The differences not reported before, recorded as reported now (each once, whichever node sees it first). */
export async function recordNewDifferences(ctx: PaymentsContext, businessId: string, differences: Difference[]): Promise<Difference[]> {
  if (!differences.length) return [];
  const keys = new Map(differences.map((d) => [differenceKey(d), d]));
  const inserted = await ctx.db
    .insert(paymentReconciliationReports)
    .values([...keys.keys()].map((differenceKey) => ({ businessId, differenceKey })))
    .onConflictDoNothing()
    .returning({ key: paymentReconciliationReports.differenceKey });
  return inserted.map((r) => keys.get(r.key)!);
}

/** yyyy-mm-dd in Argentina: the view's period filter. */
const argentinaDay = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Argentina/Buenos_Aires", year: "numeric", month: "2-digit", day: "2-digit" }).format(d);

/** The conciliation view of a period (the notification's link). */
export const reconciliationLink = (from: Date, to: Date) => `/payment/reconciliation?from=${argentinaDay(from)}&to=${argentinaDay(new Date(to.getTime() - 1))}`;

/** Reconciles and tells the company of the differences it was not told of yet; answers the report and how many were new. */
export async function reconcileAndNotify(ctx: PaymentsContext, businessId: string, from: Date, to: Date): Promise<ReconciliationReport & { reported: number }> {
  const report = await reconcile(ctx, businessId, from, to);
  const fresh = await recordNewDifferences(ctx, businessId, report.differences);
  if (fresh.length) {
    const body = fresh.length === 1 ? `${fresh[0].description}` : `${fresh.length} pagos no coinciden con lo que registra el proveedor. Revisalos en Conciliación.`;
    await notifyCompany(ctx, businessId, "PAYMENT_RECONCILIATION", fresh.length === 1 ? "Un pago no coincide con el proveedor" : "Pagos que no coinciden con el proveedor", body, reconciliationLink(from, to));
  }
  return { ...report, reported: fresh.length };
}

/** The companies with a connected provider account: the daily run reconciles them. */
export async function companiesToReconcile(ctx: PaymentsContext): Promise<string[]> {
  const rows = await ctx.db.selectDistinct({ businessId: paymentAccounts.businessId }).from(paymentAccounts).where(eq(paymentAccounts.status, "CONNECTED"));
  return rows.map((r) => r.businessId);
}

/** The window of the daily run: the last 7 days up to now. */
export const DAILY_WINDOW_DAYS = 7;

/** One daily pass: every company with a connected provider, its last 7 days (a company's failure does not stop the others). */
export async function dailyReconciliation(ctx: PaymentsContext): Promise<void> {
  const to = ctx.now();
  const from = new Date(to.getTime() - DAILY_WINDOW_DAYS * DAY_MS);
  for (const businessId of await companiesToReconcile(ctx)) {
    try {
      const { reported, checked } = await reconcileAndNotify(ctx, businessId, from, to);
      if (reported) ctx.logger.info({ businessId, checked, reported }, "conciliación: diferencias nuevas notificadas");
    } catch (err) {
      ctx.logger.error({ businessId, err: err instanceof Error ? err.message : String(err) }, "conciliación: falló la de una empresa");
    }
  }
}

/** Runs the daily reconciliation every `intervalMs`, the first one `firstDelayMs` after start. */
export function startDailyReconciliation(service: { dailyReconciliation(): Promise<void> }, logger: { error(obj: object, msg?: string): void }, intervalMs = DAY_MS, firstDelayMs = 10 * 60_000): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    service
      .dailyReconciliation()
      .catch((err) => logger.error({ err: err instanceof Error ? err.message : String(err) }, "conciliación: falló la pasada diaria"))
      .finally(() => (running = false));
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    run();
    timer = setInterval(run, intervalMs);
    timer.unref();
  }, firstDelayMs);
  first.unref();
  return () => {
    clearTimeout(first);
    if (timer) clearInterval(timer);
  };
}
