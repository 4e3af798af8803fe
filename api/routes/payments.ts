// Payment-provider accounts (/MercadoPago/BusinessUser, /Pagos360/BusinessUser), the payments
// list (/Business/Payments) and the refunds a company makes by hand (POST
// /Business/Payments/{id}/Refund: Pagos360 has no refund call, ADR 0017). Credentials are sealed
// with the key ring and never leave the server: responses carry only their last 4 characters.
import { and, asc, count, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { Hono } from "hono";
import { alias } from "drizzle-orm/pg-core";
import { blockedDrivers, chargingSessions, paymentAccounts, payments, stations, type Payment, type PaymentAccount } from "#db/schema";
import { openPaymentCredentials, sealPaymentCredentials, type KeyRing, type PaymentProviderCode } from "#infra/crypto";
import { refundOwed } from "#domain/driver-payment";
import { tenant, type ApiServices, type AppEnv, type Ctx } from "../env";
import { iso, pageOffset, parseSort, readJson, readQuery } from "../http";
import { ApiError, notFound } from "../problem";
import type { DriverPayments } from "../../payments";
import { mercadoPagoConnectSchema, pagos360ConnectSchema, paymentRefundSchema } from "#contract/schemas/payment";
import { paymentListQuery } from "#contract/schemas/queries";
import { PAYMENT_HELD_STATUSES, UUID_RE } from "#contract/schemas/constants";
import type { PaymentAccountDto, PaymentDto, PaymentPage } from "#contract/dto";

const UNREADABLE_MESSAGE = "No se pudieron leer las credenciales guardadas. Volvé a conectar la cuenta.";

function toAccountDto(provider: PaymentProviderCode, row: PaymentAccount | undefined, keyRing: KeyRing): PaymentAccountDto {
  if (!row) {
    return { provider, connected: false, status: "DISCONNECTED", last4: null, accountLabel: null, environment: null, lastError: null, connectedAt: null, updatedAt: null };
  }
  // Opening the credentials tells the Mercado Pago environment and proves the key ring still
  // reads them (e.g. after a key was retired). Nothing of them but the last 4 characters leaves.
  let environment: PaymentAccountDto["environment"] = null;
  let readable = true;
  try {
    const creds = JSON.parse(openPaymentCredentials(keyRing, row.credentialsEncrypted, { businessId: row.businessId, provider })) as { accessToken?: string };
    if (provider === "MERCADOPAGO") environment = creds.accessToken?.startsWith("TEST-") ? "TEST" : "PRODUCTION";
  } catch {
    readable = false;
  }
  const status = readable ? row.status : "ERROR";
  return {
    provider,
    connected: status === "CONNECTED",
    status,
    last4: row.credentialsLast4 ?? null,
    accountLabel: row.accountLabel ?? null,
    environment,
    lastError: readable ? (row.lastError ?? null) : UNREADABLE_MESSAGE,
    connectedAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const DEFAULT_LABEL: Record<PaymentProviderCode, string> = { MERCADOPAGO: "Mercado Pago", PAGOS360: "Pagos360" };

/** What a payment account's state is read from (a company's removal deletes its accounts). */
const ACCOUNT_TABLES = ["payment_accounts", "business_users"] as const;

export function paymentAccountRoutes({ db, keyRing, stableReads }: ApiServices, provider: PaymentProviderCode) {
  const r = new Hono<AppEnv>();

  const current = async (businessId: string) => {
    const [row] = await db
      .select()
      .from(paymentAccounts)
      .where(and(eq(paymentAccounts.businessId, businessId), eq(paymentAccounts.provider, provider)))
      .limit(1);
    return row;
  };

  // The payments page shows both providers' state on every visit: kept until an account is written
  // (the embedded database), opened (decrypted) once rather than on each page.
  r.get("/", async (c) => {
    const businessId = tenant(c).id;
    return c.json(await stableReads.get(ACCOUNT_TABLES, `payment-account:${businessId}:${provider}`, async () => toAccountDto(provider, await current(businessId), keyRing)));
  });

  r.put("/", async (c) => {
    const b = tenant(c);
    let plain: string;
    let last4: string;
    let label: string;
    if (provider === "MERCADOPAGO") {
      const input = await readJson(c, mercadoPagoConnectSchema);
      plain = JSON.stringify({ publicKey: input.publicKey, accessToken: input.accessToken, ...(input.webhookSecret ? { webhookSecret: input.webhookSecret } : {}) });
      last4 = input.accessToken.slice(-4);
      label = input.accountLabel ?? DEFAULT_LABEL[provider];
    } else {
      const input = await readJson(c, pagos360ConnectSchema);
      plain = JSON.stringify({ apiKey: input.apiKey });
      last4 = input.apiKey.slice(-4);
      label = input.accountName;
    }
    const credentialsEncrypted = sealPaymentCredentials(keyRing, plain, { businessId: b.id, provider });
    const values = { credentialsEncrypted, credentialsLast4: last4, accountLabel: label, status: "CONNECTED" as const, lastError: null };
    const [row] = await db
      .insert(paymentAccounts)
      .values({ businessId: b.id, provider, ...values })
      .onConflictDoUpdate({ target: [paymentAccounts.businessId, paymentAccounts.provider], set: { ...values, updatedAt: new Date() } })
      .returning();
    return c.json(toAccountDto(provider, row, keyRing));
  });

  r.delete("/", async (c) => {
    const b = tenant(c);
    await db.delete(paymentAccounts).where(and(eq(paymentAccounts.businessId, b.id), eq(paymentAccounts.provider, provider)));
    return c.json(toAccountDto(provider, undefined, keyRing));
  });

  return r;
}

/** A payment as the list reads it: its session's transaction, its station, the payment it duplicates and whether its driver is blocked. */
export interface PaymentRow {
  payment: Payment;
  transactionId: number | null;
  stationName: string | null;
  parentExternalId?: string | null;
  driverBlocked?: boolean | null;
}

export function toPaymentDto(r: PaymentRow): PaymentDto {
  const p = r.payment;
  // A SESSION payment refunded is refunded whole; a QR one carries what went back (its unused balance).
  const refundedCents = p.status === "REFUNDED" ? Math.max(p.refundedCents, p.amountCents) : p.refundedCents;
  return {
    id: p.id,
    sessionId: p.sessionId ?? null,
    transactionId: r.transactionId ?? null,
    stationName: r.stationName ?? null,
    provider: p.provider,
    amountCents: p.amountCents,
    currency: p.currency,
    status: p.status,
    externalId: p.externalId ?? null,
    origin: p.origin,
    step: p.step ?? null,
    chargedCents: p.chargedCents ?? null,
    refundedCents,
    refundOwedCents: p.step === "REFUND_PENDING" ? refundOwed(p) : 0,
    feeCents: p.feeCents ?? null,
    // What the company keeps: a chargeback took it all back, a rejected, pending or cancelled
    // payment never held any, and the provider's fee, once known, is not the company's either.
    netCents: (PAYMENT_HELD_STATUSES as readonly string[]).includes(p.status) ? p.amountCents - refundedCents - (p.feeCents ?? 0) : 0,
    parentPaymentId: p.parentPaymentId ?? null,
    parentExternalId: p.parentPaymentId ? (r.parentExternalId ?? null) : null,
    // What a dispute or a chargeback puts at stake: what the company still held of it.
    atRiskCents: p.status === "IN_DISPUTE" || p.status === "CHARGED_BACK" ? Math.max(0, p.amountCents - refundedCents) : 0,
    driverBlocked: Boolean(r.driverBlocked),
    createdAt: p.createdAt.toISOString(),
    updatedAt: iso(p.updatedAt)!,
  };
}

/** The station a QR payment was made at (payments.station_id), beside the one of its session. */
const qrStations = alias(stations, "qr_station");
/** The payment a second one on the same checkout duplicates. */
const parents = alias(payments, "parent_payment");

/** A company's payments with what their row shows (PaymentRow), joined within the company. */
function selectPaymentRows(db: ApiServices["db"], businessId: string) {
  return db
    .select({
      payment: payments,
      transactionId: chargingSessions.transactionId,
      // A QR payment names its station itself (it has no session while paying, or if it never started).
      stationName: sql<string | null>`coalesce(${stations.name}, ${qrStations.name})`,
      parentExternalId: parents.externalId,
      driverBlocked: sql<boolean>`${blockedDrivers.id} is not null`,
    })
    .from(payments)
    .leftJoin(chargingSessions, and(eq(chargingSessions.id, payments.sessionId), eq(chargingSessions.businessId, businessId)))
    .leftJoin(stations, eq(stations.id, chargingSessions.stationId))
    .leftJoin(qrStations, and(eq(qrStations.id, payments.stationId), eq(qrStations.businessId, businessId)))
    .leftJoin(parents, and(eq(parents.id, payments.parentPaymentId), eq(parents.businessId, businessId)))
    .leftJoin(blockedDrivers, and(eq(blockedDrivers.businessId, businessId), eq(blockedDrivers.email, sql`lower(trim(${payments.driverEmail}))`)));
}

const SORT_COLUMNS = { createdAt: payments.createdAt, amountCents: payments.amountCents } as const;

/** GET /Business/Payments, POST /Business/Payments/{id}/Refund, POST|DELETE /Business/Payments/{id}/BlockDriver */
export function paymentRoutes({ db }: ApiServices, driverPayments: DriverPayments) {
  const r = new Hono<AppEnv>();

  /** One payment of the company as its row shows it, after a write. */
  const paymentDto = async (businessId: string, payment: Payment) => {
    const [row] = await selectPaymentRows(db, businessId).where(and(eq(payments.id, payment.id), eq(payments.businessId, businessId)));
    return toPaymentDto(row ?? { payment, transactionId: null, stationName: null });
  };

  r.get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, paymentListQuery);
    const where: SQL[] = [eq(payments.businessId, b.id)];
    if (query.provider) where.push(eq(payments.provider, query.provider));
    if (query.status) where.push(eq(payments.status, query.status));
    if (query.step) where.push(eq(payments.step, query.step));
    if (query.sessionId) where.push(eq(payments.sessionId, query.sessionId));
    if (query.from) where.push(gte(payments.createdAt, query.from));
    if (query.to) where.push(lt(payments.createdAt, query.to));
    const { key, desc: isDesc } = parseSort(query.sort);
    const col = SORT_COLUMNS[key];
    const [rows, [totals]] = await Promise.all([
      selectPaymentRows(db, b.id)
        .where(and(...where))
        .orderBy(isDesc ? desc(col) : asc(col), isDesc ? desc(payments.id) : asc(payments.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db
        .select({
          count: count(),
          amountCents: sql<number>`coalesce(sum(${payments.amountCents}), 0)`.mapWith(Number),
          approvedCents: sql<number>`coalesce(sum(${payments.amountCents}) filter (where ${payments.status} in ('APPROVED', 'PARTIALLY_REFUNDED', 'IN_DISPUTE')), 0)`.mapWith(Number),
          pendingCents: sql<number>`coalesce(sum(${payments.amountCents}) filter (where ${payments.status} = 'PENDING'), 0)`.mapWith(Number),
          // Whole refunds and the QR payments' partial ones (their unused balances).
          refundedCents: sql<number>`coalesce(sum(case when ${payments.status} = 'REFUNDED' then greatest(${payments.amountCents}, ${payments.refundedCents}) else ${payments.refundedCents} end), 0)`.mapWith(Number),
          // What the company owes drivers and must refund by hand (Pagos360).
          refundPendingCount: sql<number>`count(*) filter (where ${payments.step} = 'REFUND_PENDING')`.mapWith(Number),
          refundOwedCents: sql<number>`coalesce(sum(greatest(0, ${payments.amountCents} - coalesce(${payments.chargedCents}, 0) - ${payments.refundedCents})) filter (where ${payments.step} = 'REFUND_PENDING'), 0)`.mapWith(Number),
          // The rows' feeCents and netCents added up (toPaymentDto): to the cent.
          feeCents: sql<number>`coalesce(sum(coalesce(${payments.feeCents}, 0)) filter (where ${payments.status} in ('APPROVED', 'REFUNDED')), 0)`.mapWith(Number),
          netCents: sql<number>`coalesce(sum(${payments.amountCents} - case when ${payments.status} = 'REFUNDED' then greatest(${payments.amountCents}, ${payments.refundedCents}) else ${payments.refundedCents} end - coalesce(${payments.feeCents}, 0)) filter (where ${payments.status} in ('APPROVED', 'REFUNDED')), 0)`.mapWith(Number),
        })
        .from(payments)
        .where(and(...where)),
    ]);
    const body: PaymentPage = {
      items: rows.map(toPaymentDto),
      total: totals.count,
      page: query.page,
      pageSize: query.pageSize,
      totals,
    };
    return c.json(body);
  });

  // A refund the company made by hand (Pagos360: no refund call) and records here: what is owed
  // unless it says less; the payment ends, the driver gets an e-mail. Another company's payment
  // is a 404; one with nothing owed, or of a provider that refunds by itself, a 409.
  r.post("/:id/Refund", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, paymentRefundSchema);
    const result = await driverPayments.recordRefund(b.id, c.req.param("id"), input.amountCents);
    if (!result.ok) {
      if (result.status === 404) throw notFound("El pago");
      if (result.status === 422) throw new ApiError(422, "validation", result.message, { errors: { amountCents: [result.message] } });
      throw new ApiError(409, "conflict", result.message);
    }
    return c.json(await paymentDto(b.id, result.payment));
  });

  // The operator blocks the driver of a disputed or charged-back payment from its QR pages (by the
  // e-mail they paid with), and unblocks them. Another company's payment is a 404; a payment with
  // no dispute, or no e-mail, a 409. Repeating either changes nothing.
  const blockRoute = (block: boolean) => async (c: Ctx) => {
    const b = tenant(c);
    const id = c.req.param("id") ?? "";
    if (!UUID_RE.test(id)) throw notFound("El pago");
    const result = block ? await driverPayments.blockDriver(b.id, id) : await driverPayments.unblockDriver(b.id, id);
    if (!result.ok) {
      if (result.status === 404) throw notFound("El pago");
      throw new ApiError(409, "conflict", result.message);
    }
    return c.json(await paymentDto(b.id, result.payment));
  };
  r.post("/:id/BlockDriver", blockRoute(true));
  r.delete("/:id/BlockDriver", blockRoute(false));

  return r;
}
