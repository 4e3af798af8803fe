// Drivers pay at the charger (issue 23, ADR 0017): a driver scans a connector's QR, prepays an
// amount through the operator's own Mercado Pago or Pagos360 account, and the charge starts.
//
//   PAYING ──(provider approves: webhook, or a poll)──▶ STARTING ──(StartTransaction)──▶ CHARGING
//     │                                                   │ charger refuses / 2 min           │ stop (driver, cap, charger)
//     ▼ cancelled                                         ▼                                   ▼ priced (ocpp/store finalizeSession)
//   FAILED                                  START_FAILED ─(full refund)─▶ REFUNDED          SETTLING ─(partial refund, receipt)─▶ FINISHED
//                                                 │                  ▲                          │                                    ▲
//                                                 └──(Pagos360: no refund call; receipt)──▶ REFUND_PENDING ──(the operator records it)─┘
//
// Pagos360 documents no refund call for payment requests, so what a Pagos360 driver is owed
// cannot go back by API: the payment waits in REFUND_PENDING (receipt sent with "A devolver",
// the operator notified) until the operator refunds it by hand and records it in Pagos
// (recordRefund: POST /Business/Payments/{id}/Refund). The sweep never retries it.
//
// Every transition is a conditional UPDATE on the step it leaves, so a webhook delivered twice,
// a reloaded return page or two nodes sweeping at once move a payment once. Provider calls are
// made outside database transactions; refunds carry an idempotency key derived from our payment
// id, so a retry after a lost answer gives one refund.
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import {
  businessUsers,
  chargers,
  chargingSessions,
  connectorTypes,
  connectors,
  notifications,
  paymentAccounts,
  payments,
  rates,
  stations,
  type ChargingSession,
  type NotificationType,
  type Payment,
} from "../db/schema";
import { costSoFar, FINAL_STEPS, paymentIdTag, presetAmounts, refundOwed, START_TIMEOUT_MS, type DriverStep } from "../domain/driver-payment";
import { formatArs } from "../domain/money";
import { formatCuit } from "../domain/cuit";
import { chargedPrice, DEFAULT_VAT_RATE_BP, rateSnapshotFromRow } from "../domain/pricing";
import type { ChargePointStatus } from "../domain/ocpp-status";
import { openPaymentCredentials, safeEqual, type KeyRing, type PaymentProviderCode } from "../infra/crypto";
import type { Logger } from "../infra/logger";
import type { Mailer } from "../infra/mail";
import { escapeHtml } from "../infra/mail";
import { pushNotification, type SendPush } from "../infra/push";
import { mercadoPagoClient, mpStatus, ProviderError, toCents, verifyMercadoPagoSignature, type MercadoPagoCredentials } from "../infra/payments/mercadopago";
import { argentinaDate, pagos360Client, pagos360Status, type Pagos360Credentials } from "../infra/payments/pagos360";
import type { OcppGateway } from "./env";
import type { ChargePointInfo, ConnectorState, PaymentView, Receipt } from "#contract/dto";

export interface DriverPaymentsDeps {
  db: Db;
  keyRing: KeyRing;
  logger: Logger;
  mailer: Mailer;
  appName: string;
  ocpp?: OcppGateway;
  sendPush?: SendPush;
  /** Where Mercado Pago and Pagos360 are (MERCADOPAGO_API_URL, PAGOS360_API_URL); unset: the real APIs. */
  mercadoPagoUrl?: string;
  pagos360Url?: string;
  now?: () => Date;
  fetch?: typeof fetch;
}

export const CONNECTOR_STATE_LABELS: Record<ConnectorState, string> = {
  AVAILABLE: "Disponible",
  BUSY: "Ocupado",
  OUT_OF_SERVICE: "Fuera de servicio",
  OFFLINE: "Sin conexión",
};

/** What recording a refund made by hand answers (POST /Business/Payments/{id}/Refund). */
export type RecordRefundResult =
  | { ok: true; payment: Payment }
  | { ok: false; status: 404 | 409 | 422; message: string; field?: "amountCents" };

export type CheckoutResult =
  | { ok: true; paymentId: string; token: string; checkoutUrl: string; created: boolean }
  | { ok: false; status: 400 | 404 | 409 | 502; message: string; field?: "amount" | "email" | "provider" | "acceptTerms" };

export interface CheckoutInput {
  identity: string;
  connectorNumber: number;
  amountCents: number;
  email: string;
  provider: PaymentProviderCode;
  requestKey: string;
  /** Our public origin (PUBLIC_URL, else the request's): the return page and the webhooks. */
  origin: string;
}

const PROVIDER_NAMES: Record<PaymentProviderCode, string> = { MERCADOPAGO: "Mercado Pago", PAGOS360: "Pagos360" };

/**
 * Whether the provider gives money back through its API (Mercado Pago: POST /v1/payments/{id}/refunds).
 * Pagos360 documents no refund call for payment requests: the operator refunds by hand (ADR 0017).
 */
export const refundsAutomatically = (provider: PaymentProviderCode) => provider === "MERCADOPAGO";

/** The driver's line about a refund the station owes them (receipt, e-mail, status page). */
export const pendingRefundLine = (cents: number) => `A devolver: ${formatArs(cents)} — la estación te lo devuelve por Pagos360`;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const LINK_PURPOSE = "driver-link";
/**
 * The driver's link secret: an HMAC of the form's one-time key under the server's newest key, so
 * a resubmission gets the same link, yet nobody holding the database (the key is stored in
 * clear, the secret only as a hash) can compute it.
 */
export const linkToken = (ring: KeyRing, requestKey: string) => ring.macs(LINK_PURPOSE, requestKey)[0];
/** The link of an existing payment: whichever configured key made the secret whose hash is stored (keys rotate). */
export function existingLinkToken(ring: KeyRing, requestKey: string, storedHash: string | null): string | null {
  if (!storedHash) return null;
  return ring.macs(LINK_PURPOSE, requestKey).find((token) => safeEqual(sha256(token), storedHash)) ?? null;
}
/** Whether a presented link secret is the payment's: compared with its stored hash, in constant time. */
export const linkTokenMatches = (storedHash: string | null, token: string) => !!storedHash && !!token && safeEqual(sha256(token), storedHash);

export const REQUEST_KEY_RE = /^[A-Za-z0-9_-]{16,64}$/;

export function createDriverPayments(deps: DriverPaymentsDeps) {
  const { db, keyRing, logger } = deps;
  const now = deps.now ?? (() => new Date());
  /** Payments this process is working on (refunds, starts): not twice at once here; other nodes are held off by the conditional updates and idempotency keys. */
  const busy = new Set<string>();
  /** Chargers with a QR payment starting, charging or to be settled (refreshed by each tick). */
  let watched = new Set<string>();

  // -------------------------------------------------------------------------------------------
  // Credentials and clients

  async function account(businessId: string, provider: PaymentProviderCode) {
    const [row] = await db
      .select()
      .from(paymentAccounts)
      .where(and(eq(paymentAccounts.businessId, businessId), eq(paymentAccounts.provider, provider), eq(paymentAccounts.status, "CONNECTED")))
      .limit(1);
    if (!row) return null;
    try {
      return JSON.parse(openPaymentCredentials(keyRing, row.credentialsEncrypted, { businessId, provider })) as Record<string, string>;
    } catch {
      return null;
    }
  }

  const mp = (creds: MercadoPagoCredentials) => mercadoPagoClient({ baseUrl: deps.mercadoPagoUrl, accessToken: creds.accessToken, fetch: deps.fetch });
  const p360 = (creds: Pagos360Credentials) => pagos360Client({ baseUrl: deps.pagos360Url, apiKey: creds.apiKey, fetch: deps.fetch });

  // -------------------------------------------------------------------------------------------
  // The QR page

  async function locateConnector(identity: string, connectorNumber: number) {
    const [row] = await db
      .select({
        businessId: chargers.businessId,
        businessStatus: businessUsers.status,
        chargerId: chargers.id,
        chargerName: chargers.name,
        ocppIdentity: chargers.ocppIdentity,
        enabled: chargers.enabled,
        online: chargers.online,
        station: stations,
        connectorId: connectors.id,
        connectorStatus: connectors.status,
        maxPowerKw: connectors.maxPowerKw,
        connectorType: connectorTypes.label,
        rate: rates,
        openSession: sql<boolean>`exists (select 1 from charging_sessions s where s.connector_id = ${connectors.id} and s.status in ('ACTIVE', 'IDLE'))`.mapWith(Boolean),
        inFlight: sql<boolean>`exists (select 1 from payments p where p.charger_id = ${chargers.id} and p.connector_number = ${connectorNumber} and p.step in ('STARTING', 'CHARGING'))`.mapWith(Boolean),
      })
      .from(chargers)
      .innerJoin(businessUsers, eq(businessUsers.id, chargers.businessId))
      .innerJoin(stations, and(eq(stations.id, chargers.stationId), eq(stations.businessId, chargers.businessId)))
      .innerJoin(connectors, and(eq(connectors.chargerId, chargers.id), eq(connectors.connectorId, connectorNumber)))
      .innerJoin(connectorTypes, eq(connectorTypes.id, connectors.connectorTypeId))
      .leftJoin(rates, and(eq(rates.id, connectors.rateId), eq(rates.businessId, chargers.businessId)))
      .where(eq(chargers.ocppIdentity, identity))
      .limit(1);
    return row;
  }

  async function connectedProviders(businessId: string): Promise<PaymentProviderCode[]> {
    const out: PaymentProviderCode[] = [];
    for (const provider of ["MERCADOPAGO", "PAGOS360"] as const) {
      const creds = await account(businessId, provider);
      if (provider === "MERCADOPAGO" ? creds?.accessToken : creds?.apiKey) out.push(provider);
    }
    return out;
  }

  async function chargePoint(identity: string, connectorNumber: number): Promise<ChargePointInfo | null> {
    const row = await locateConnector(identity, connectorNumber);
    // A company that is not active, or a station it has not published, has no public page.
    if (!row || row.businessStatus !== "ACTIVE" || !row.station.published) return null;
    const providers = await connectedProviders(row.businessId);
    const status = row.connectorStatus as ChargePointStatus;
    const state: ConnectorState = !row.online
      ? "OFFLINE"
      : !row.enabled || status === "Faulted" || status === "Unavailable"
        ? "OUT_OF_SERVICE"
        : status === "Available" || (status === "Preparing" && !row.openSession)
          ? row.openSession || row.inFlight
            ? "BUSY"
            : "AVAILABLE"
          : "BUSY";
    const snapshot = row.rate ? rateSnapshotFromRow(row.rate) : null;
    const unavailable = !row.station.qrPaymentEnabled
      ? "Este cargador no acepta pagos con QR. Consultá en la estación cómo cargar."
      : !snapshot
        ? "Este conector todavía no tiene una tarifa: no podemos cobrarte la carga."
        : providers.length === 0
          ? "La estación todavía no tiene un medio de pago conectado."
          : state === "OFFLINE"
            ? "El cargador está sin conexión: no podría iniciar la carga. Probá en unos minutos."
            : state === "OUT_OF_SERVICE"
              ? "El conector está fuera de servicio."
              : state === "BUSY"
                ? "El conector está ocupado. Esperá a que se libere."
                : null;
    return {
      stationName: row.station.name,
      address: row.station.address,
      city: row.station.city,
      chargerName: row.chargerName,
      connectorNumber,
      connectorType: row.connectorType,
      maxPowerKw: row.maxPowerKw,
      state,
      stateLabel: CONNECTOR_STATE_LABELS[state],
      rate: snapshot
        ? {
            pricePerKwhCents: snapshot.pricePerKwhCents,
            pricePerMinuteCents: snapshot.pricePerMinuteCents,
            sessionFeeCents: snapshot.sessionFeeCents,
            idleGraceMinutes: snapshot.idleGraceMinutes,
            idlePricePerMinuteCents: snapshot.idlePricePerMinuteCents,
            idleMaxCents: snapshot.idleMaxCents,
            vatIncluded: snapshot.vatIncluded,
            vatRateBp: snapshot.vatRateBp,
          }
        : null,
      providers,
      minCents: row.station.qrMinCents,
      maxCents: row.station.qrMaxCents,
      presets: presetAmounts(row.station.qrMinCents, row.station.qrMaxCents),
      unavailable,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Pagar: one payment per form key, then the provider's checkout

  async function checkout(input: CheckoutInput): Promise<CheckoutResult> {
    const [existing] = await db.select().from(payments).where(eq(payments.requestKey, input.requestKey)).limit(1);
    if (existing) {
      const token = existingLinkToken(keyRing, input.requestKey, existing.accessTokenHash);
      // Made under a key no longer configured: the link went out then; nothing to give again.
      if (!token) return { ok: false, status: 409, message: "Ese pago ya se inició. Abrí el enlace de la página de pago o del correo." };
      // A double click or a resubmitted form: the same payment and the same checkout.
      if (existing.checkoutUrl) return { ok: true, paymentId: existing.id, token, checkoutUrl: existing.checkoutUrl, created: false };
      return openCheckout(existing, input.origin, token);
    }
    const token = linkToken(keyRing, input.requestKey);
    const info = await chargePoint(input.identity, input.connectorNumber);
    if (!info) return { ok: false, status: 404, message: "No encontramos ese cargador." };
    if (info.unavailable) return { ok: false, status: 409, message: info.unavailable };
    if (!info.providers.includes(input.provider)) return { ok: false, status: 400, field: "provider", message: "Elegí un medio de pago de la estación." };
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents < info.minCents || input.amountCents > info.maxCents) {
      return { ok: false, status: 400, field: "amount", message: `Elegí un monto entre ${formatArs(info.minCents)} y ${formatArs(info.maxCents)}.` };
    }
    const row = await locateConnector(input.identity, input.connectorNumber);
    if (!row) return { ok: false, status: 404, message: "No encontramos ese cargador." };
    const [created] = await db
      .insert(payments)
      .values({
        businessId: row.businessId,
        provider: input.provider,
        amountCents: input.amountCents,
        currency: "ARS",
        status: "PENDING",
        origin: "QR",
        step: "PAYING",
        stationId: row.station.id,
        chargerId: row.chargerId,
        connectorNumber: input.connectorNumber,
        idTag: paymentIdTag(randomBytes(16).toString("hex")),
        requestKey: input.requestKey,
        accessTokenHash: sha256(token),
        driverEmail: input.email,
      })
      .onConflictDoNothing({ target: payments.requestKey })
      .returning();
    if (!created) return checkout(input); // the same form, posted twice at once: the other insert won
    return openCheckout(created, input.origin, token);
  }

  async function openCheckout(payment: Payment, origin: string, token: string): Promise<CheckoutResult> {
    const creds = await account(payment.businessId, payment.provider);
    if (!creds) return { ok: false, status: 409, message: "La estación ya no tiene ese medio de pago conectado." };
    const [place] = await db
      .select({ stationName: stations.name, chargerName: chargers.name })
      .from(chargers)
      .leftJoin(stations, eq(stations.id, chargers.stationId))
      .where(eq(chargers.id, payment.chargerId!));
    const title = `Carga en ${place?.stationName ?? "la estación"} · ${place?.chargerName ?? "cargador"} · conector ${payment.connectorNumber}`;
    const backUrl = `${origin}/cargar/pago/${payment.id}?t=${token}`;
    try {
      let checkoutId: string;
      let checkoutUrl: string;
      if (payment.provider === "MERCADOPAGO") {
        const pref = await mp(creds as unknown as MercadoPagoCredentials).createPreference(
          {
            externalReference: payment.id,
            title,
            amountCents: payment.amountCents,
            payerEmail: payment.driverEmail ?? undefined,
            backUrl,
            notificationUrl: `${origin}/api/Webhook/MercadoPago/${payment.businessId}`,
          },
          `enchufa-pref-${payment.id}`,
        );
        checkoutId = String(pref.id);
        checkoutUrl = pref.init_point;
      } else {
        const request = await p360(creds as unknown as Pagos360Credentials).createPaymentRequest({
          externalReference: payment.id,
          description: title,
          amountCents: payment.amountCents,
          payerName: "Conductor",
          payerEmail: payment.driverEmail ?? undefined,
          backUrl,
          dueDate: argentinaDate(now()),
        });
        checkoutId = String(request.id);
        checkoutUrl = request.checkout_url;
      }
      if (!/^https?:\/\//.test(checkoutUrl)) throw new ProviderError("El proveedor no devolvió una dirección de pago.", 502);
      await db.update(payments).set({ checkoutId, checkoutUrl }).where(and(eq(payments.id, payment.id), sql`${payments.checkoutUrl} is null`));
      return { ok: true, paymentId: payment.id, token, checkoutUrl, created: true };
    } catch (err) {
      logger.warn({ paymentId: payment.id, provider: payment.provider, err: err instanceof Error ? err.message : String(err) }, "pago con QR: no se pudo abrir el checkout");
      return { ok: false, status: 502, message: `${PROVIDER_NAMES[payment.provider]} no responde en este momento. Probá de nuevo en unos minutos.` };
    }
  }

  // -------------------------------------------------------------------------------------------
  // Approval: from the provider (webhook or poll), never from the return URL

  /** Reads the provider's verdict for one of our payments and applies it. */
  async function pollProvider(payment: Payment): Promise<void> {
    const creds = await account(payment.businessId, payment.provider);
    if (!creds) return;
    try {
      if (payment.provider === "MERCADOPAGO") {
        const found = await mp(creds as unknown as MercadoPagoCredentials).searchByExternalReference(payment.id);
        // An approved payment wins over earlier rejected attempts on the same checkout.
        const best = found.find((p) => mpStatus(p) === "APPROVED") ?? found[0];
        if (best) await applyVerdict(payment.id, { status: mpStatus(best), externalId: String(best.id), amountCents: toCents(best.transaction_amount), reference: best.external_reference ?? null });
      } else if (payment.checkoutId) {
        const request = await p360(creds as unknown as Pagos360Credentials).getPaymentRequest(payment.checkoutId);
        await applyVerdict(payment.id, { status: pagos360Status(request.state), externalId: String(request.id), amountCents: request.first_total === undefined ? payment.amountCents : toCents(request.first_total), reference: request.external_reference ?? null });
      }
    } catch (err) {
      logger.warn({ paymentId: payment.id, err: err instanceof Error ? err.message : String(err) }, "pago con QR: no se pudo consultar al proveedor");
    }
  }

  async function applyVerdict(paymentId: string, v: { status: Payment["status"]; externalId: string; amountCents: number; reference: string | null }): Promise<void> {
    const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
    if (!payment || payment.origin !== "QR") return;
    if (v.reference !== payment.id) {
      logger.warn({ paymentId }, "pago con QR: el pago del proveedor es de otra referencia, ignorado");
      return;
    }
    if (payment.step !== "PAYING") return; // already moved on: a repeated notification
    if (v.status === "APPROVED") {
      if (v.amountCents !== payment.amountCents) {
        logger.warn({ paymentId, expected: payment.amountCents, got: v.amountCents }, "pago con QR: el monto aprobado no coincide, ignorado");
        return;
      }
      const [moved] = await db
        .update(payments)
        .set({ status: "APPROVED", externalId: v.externalId, step: "STARTING", startRequestedAt: now() })
        .where(and(eq(payments.id, paymentId), eq(payments.step, "PAYING")))
        .returning();
      if (!moved) return;
      if (moved.chargerId) watched.add(moved.chargerId);
      await notifyCompany(moved.businessId, "PAYMENT_RECEIVED", "Pago recibido", `${PROVIDER_NAMES[moved.provider]}: ${formatArs(moved.amountCents)} por una carga con QR.`, `/payment`);
      await remoteStart(moved);
    } else if (v.status === "REJECTED") {
      // Checkout Pro lets the driver try again with another card: the payment stays open.
      const [moved] = await db
        .update(payments)
        .set({ status: "REJECTED", failureReason: `${PROVIDER_NAMES[payment.provider]} rechazó el pago. Podés intentarlo de nuevo con otro medio.` })
        .where(and(eq(payments.id, paymentId), eq(payments.step, "PAYING"), sql`${payments.status} <> 'REJECTED'`))
        .returning();
      if (moved) await notifyCompany(moved.businessId, "PAYMENT_FAILED", "Pago rechazado", `${PROVIDER_NAMES[moved.provider]} rechazó un pago de ${formatArs(moved.amountCents)} por una carga con QR.`, `/payment`);
    } else if (v.status === "CANCELLED") {
      const [moved] = await db
        .update(payments)
        .set({ status: "CANCELLED", step: "FAILED", failureReason: "El pago se canceló o venció. No te cobramos nada.", finishedAt: now() })
        .where(and(eq(payments.id, paymentId), eq(payments.step, "PAYING")))
        .returning();
      if (moved) await notifyCompany(moved.businessId, "PAYMENT_FAILED", "Pago cancelado", `Un pago de ${formatArs(moved.amountCents)} por una carga con QR se canceló.`, `/payment`);
    }
  }

  // -------------------------------------------------------------------------------------------
  // The charge: remote start, the driver's stop, the prepaid cap

  async function remoteStart(payment: Payment): Promise<void> {
    const [charger] = await db.select({ id: chargers.id, ocppIdentity: chargers.ocppIdentity }).from(chargers).where(eq(chargers.id, payment.chargerId!));
    if (!charger || !deps.ocpp) return startFailed(payment.id, "No pudimos comunicarnos con el cargador.");
    const result = await deps.ocpp.sendCommand(charger, { command: "RemoteStartTransaction", connectorId: payment.connectorNumber!, idTag: payment.idTag! });
    logger.info({ paymentId: payment.id, outcome: result.outcome }, "pago con QR: inicio remoto");
    // A charger that did not answer in time may still start: the 2-minute wait decides.
    if (result.outcome === "accepted" || result.outcome === "timeout") return;
    await startFailed(payment.id, result.outcome === "offline" ? "El cargador se desconectó antes de iniciar la carga." : "El cargador no aceptó iniciar la carga.");
  }

  async function startFailed(paymentId: string, reason: string): Promise<void> {
    const [current] = await db.select({ provider: payments.provider }).from(payments).where(eq(payments.id, paymentId));
    if (!current) return;
    const then = refundsAutomatically(current.provider) ? "Te devolvemos el total." : `La estación te devuelve el total por ${PROVIDER_NAMES[current.provider]}.`;
    const [moved] = await db
      .update(payments)
      .set({ step: "START_FAILED", failureReason: `${reason} ${then}`, chargedCents: 0 })
      .where(and(eq(payments.id, paymentId), eq(payments.step, "STARTING")))
      .returning();
    if (moved) await refund(moved);
  }

  async function stop(paymentId: string, token: string): Promise<{ ok: boolean; message: string }> {
    const payment = await byToken(paymentId, token);
    if (!payment) return { ok: false, message: "El enlace no es válido." };
    if (payment.step !== "CHARGING" || !payment.sessionId) return { ok: false, message: "La carga ya no está en curso." };
    return requestStop(payment, "driver");
  }

  async function requestStop(payment: Payment, why: "driver" | "cap"): Promise<{ ok: boolean; message: string }> {
    const [charger] = await db.select({ id: chargers.id, ocppIdentity: chargers.ocppIdentity }).from(chargers).where(eq(chargers.id, payment.chargerId!));
    if (!charger || !deps.ocpp) return { ok: false, message: "No pudimos comunicarnos con el cargador." };
    await db.update(payments).set({ stopRequestedAt: now() }).where(eq(payments.id, payment.id));
    const result = await deps.ocpp.sendCommand(charger, { command: "RemoteStopTransaction", connectorId: payment.connectorNumber! });
    logger.info({ paymentId: payment.id, why, outcome: result.outcome }, "pago con QR: detención remota");
    return result.outcome === "accepted"
      ? { ok: true, message: "Pedimos al cargador que detenga la carga." }
      : { ok: false, message: "El cargador no respondió. Probá de nuevo o desenchufá el vehículo." };
  }

  /** Stops the charges whose cost reached what was prepaid (after each reading, and on the sweep). */
  async function enforceCaps(chargerId?: string): Promise<void> {
    const rows = await db
      .select({ payment: payments, session: chargingSessions, timeZone: stations.timeZone })
      .from(payments)
      .innerJoin(chargingSessions, eq(chargingSessions.id, payments.sessionId))
      .leftJoin(stations, eq(stations.id, chargingSessions.stationId))
      .where(and(eq(payments.step, "CHARGING"), eq(chargingSessions.status, "ACTIVE"), sql`${payments.stopRequestedAt} is null`, ...(chargerId ? [eq(payments.chargerId, chargerId)] : [])))
      .limit(200);
    for (const { payment, session, timeZone } of rows) {
      const cost = costSoFar(session.rateSnapshot, session, now(), timeZone ?? undefined);
      if (cost && cost.totalCents >= payment.amountCents) await requestStop(payment, "cap");
    }
  }

  // -------------------------------------------------------------------------------------------
  // Refunds and the receipt

  async function refund(payment: Payment): Promise<void> {
    if (busy.has(payment.id)) return;
    busy.add(payment.id);
    try {
      const charged = payment.chargedCents ?? 0;
      const owed = payment.amountCents - charged - payment.refundedCents;
      const full = charged === 0;
      if (owed > 0 && !refundsAutomatically(payment.provider)) {
        // No refund call to make (Pagos360): owed by the operator, once — never retried by the sweep.
        await refundOwedByHand(payment, owed, full);
        return;
      }
      if (owed > 0) {
        if (!payment.externalId) throw new ProviderError("El pago no tiene id del proveedor.", 502);
        const creds = await account(payment.businessId, payment.provider);
        if (!creds) throw new ProviderError("La cuenta del proveedor ya no está conectada.", 409);
        await mp(creds as unknown as MercadoPagoCredentials).refund(payment.externalId, full ? undefined : owed, `enchufa-refund-${payment.id}`);
      }
      const next: DriverStep = payment.step === "START_FAILED" ? "REFUNDED" : "FINISHED";
      const refunded = payment.refundedCents + Math.max(0, owed);
      const [done] = await db
        .update(payments)
        .set({ step: next, refundedCents: refunded, status: refunded >= payment.amountCents ? "REFUNDED" : "APPROVED", finishedAt: now(), ...(payment.step === "SETTLING" ? { failureReason: null } : {}) })
        .where(and(eq(payments.id, payment.id), eq(payments.step, payment.step!)))
        .returning();
      if (!done) return;
      if (owed > 0) {
        await notifyCompany(done.businessId, "PAYMENT_REFUNDED", full ? "Pago devuelto" : "Saldo devuelto", `Devolvimos ${formatArs(owed)} de un pago de ${formatArs(done.amountCents)} por una carga con QR${full ? " que no pudo iniciar" : ""}.`, `/payment`);
      }
      await sendReceipt(done);
    } catch (err) {
      const message = "No pudimos hacer el reintegro todavía: lo volvemos a intentar en unos minutos.";
      logger.warn({ paymentId: payment.id, err: err instanceof Error ? err.message : String(err) }, "pago con QR: reintegro pendiente");
      await db.update(payments).set({ failureReason: message }).where(eq(payments.id, payment.id));
    } finally {
      busy.delete(payment.id);
    }
  }

  /**
   * SETTLING / START_FAILED → REFUND_PENDING for a provider without a refund call (Pagos360): the
   * receipt goes out with what is owed, and the operator is told to refund it by hand and record
   * it. A conditional update on the step it leaves: one notification and one receipt, whatever
   * the nodes and sweeps; REFUND_PENDING is not swept, so the provider is never asked again.
   */
  async function refundOwedByHand(payment: Payment, owed: number, full: boolean): Promise<void> {
    const [pending] = await db
      .update(payments)
      // A start that failed keeps its reason; its refund is the station's now (rows from before this step said "Te devolvemos").
      .set({ step: "REFUND_PENDING", failureReason: payment.step === "SETTLING" ? null : (payment.failureReason?.replace(/ Te devolvemos el total\.$/, ` La estación te devuelve el total por ${PROVIDER_NAMES[payment.provider]}.`) ?? null) })
      .where(and(eq(payments.id, payment.id), eq(payments.step, payment.step!)))
      .returning();
    if (!pending) return;
    logger.info({ paymentId: pending.id, owedCents: owed }, "pago con QR: devolución pendiente, a cargo de la empresa");
    const [place] = await db.select({ stationName: stations.name }).from(stations).where(eq(stations.id, pending.stationId ?? "00000000-0000-0000-0000-000000000000"));
    const provider = PROVIDER_NAMES[pending.provider];
    await notifyCompany(
      pending.businessId,
      "PAYMENT_REFUND_PENDING",
      "Devolución pendiente",
      `Tenés que devolver ${formatArs(owed)} de un pago de ${formatArs(pending.amountCents)} con ${provider}${pending.externalId ? ` (operación ${pending.externalId})` : ""} por una carga con QR${place?.stationName ? ` en ${place.stationName}` : ""}${full ? " que no pudo iniciar" : ""}. ${provider} no hace devoluciones automáticas: devolvéselo desde ${provider} y registralo en Pagos.`,
      `/payment?step=REFUND_PENDING&refund=${pending.id}`,
    );
    await sendReceipt(pending);
  }

  /**
   * The operator refunded a driver by hand (Pagos360) and records it: REFUND_PENDING → FINISHED
   * (REFUNDED when nothing was charged), the refunded amount (what is owed unless said otherwise:
   * more than 0 and at most what is owed), an e-mail to the driver, a notification. Scoped to the
   * company; a second call finds nothing owed (409), so a retry cannot record it twice.
   */
  async function recordRefund(businessId: string, paymentId: string, amountCents?: number): Promise<RecordRefundResult> {
    const notFound = { ok: false, status: 404, message: "El pago no existe." } as const;
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(paymentId)) return notFound;
    const [payment] = await db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.businessId, businessId)));
    if (!payment) return notFound;
    if (payment.origin === "QR" && refundsAutomatically(payment.provider)) {
      return { ok: false, status: 409, message: `${PROVIDER_NAMES[payment.provider]} devuelve los saldos automáticamente: no hay nada que registrar.` };
    }
    const owed = refundOwed(payment);
    if (payment.origin !== "QR" || payment.step !== "REFUND_PENDING" || owed <= 0) {
      return { ok: false, status: 409, message: "Este pago no tiene una devolución pendiente." };
    }
    const amount = amountCents ?? owed;
    if (!Number.isSafeInteger(amount) || amount <= 0) return { ok: false, status: 422, field: "amountCents", message: "Ingresá el monto que devolviste: tiene que ser mayor que cero." };
    if (amount > owed) return { ok: false, status: 422, field: "amountCents", message: `No podés registrar más de lo que se debe: ${formatArs(owed)}.` };
    const refunded = payment.refundedCents + amount;
    const [done] = await db
      .update(payments)
      .set({
        step: (payment.chargedCents ?? 0) === 0 && !payment.sessionId ? "REFUNDED" : "FINISHED",
        refundedCents: refunded,
        status: refunded >= payment.amountCents ? "REFUNDED" : "APPROVED",
        finishedAt: now(),
      })
      .where(and(eq(payments.id, payment.id), eq(payments.businessId, businessId), eq(payments.step, "REFUND_PENDING"), eq(payments.refundedCents, payment.refundedCents)))
      .returning();
    if (!done) return { ok: false, status: 409, message: "Este pago no tiene una devolución pendiente." };
    logger.info({ paymentId: done.id, refundedCents: amount }, "pago con QR: devolución registrada por la empresa");
    await notifyCompany(
      done.businessId,
      "PAYMENT_REFUNDED",
      "Devolución registrada",
      `Registraste la devolución de ${formatArs(amount)} de un pago de ${formatArs(done.amountCents)} con ${PROVIDER_NAMES[done.provider]}${done.externalId ? ` (operación ${done.externalId})` : ""} por una carga con QR.`,
      `/payment`,
    );
    await sendRefundMail(done, amount);
    return { ok: true, payment: done };
  }

  /** "Te devolvimos $X": the driver hears that the station refunded them by hand. Not retried (the refund itself is recorded). */
  async function sendRefundMail(payment: Payment, amount: number): Promise<void> {
    if (!payment.driverEmail) return;
    const [row] = await db
      .select({ companyName: businessUsers.businessName, cuit: businessUsers.cuit, stationName: stations.name })
      .from(businessUsers)
      .leftJoin(stations, eq(stations.id, payment.stationId ?? "00000000-0000-0000-0000-000000000000"))
      .where(eq(businessUsers.id, payment.businessId));
    const provider = PROVIDER_NAMES[payment.provider];
    const lines = [
      `${row?.companyName ?? ""}${row?.cuit ? ` · CUIT ${formatCuit(row.cuit)}` : ""}`,
      `Carga con QR${row?.stationName ? ` en ${row.stationName}` : ""}`,
      "",
      `Te devolvimos ${formatArs(amount)} por ${provider}${payment.externalId ? ` (operación ${payment.externalId})` : ""}.`,
      `Pagaste por adelantado: ${formatArs(payment.amountCents)}`,
      `Cobrado: ${formatArs(payment.chargedCents ?? 0)}`,
      `Devuelto: ${formatArs(payment.refundedCents)}`,
      "",
      `Según tu medio de pago, puede tardar unos días hábiles en verse en tu cuenta.`,
    ];
    try {
      await deps.mailer.send({
        to: payment.driverEmail,
        subject: `Te devolvimos ${formatArs(amount)}${row?.stationName ? `: tu carga en ${row.stationName}` : ""}`,
        text: `${deps.appName}\n\n${lines.join("\n")}\n`,
        html: `<h1>Te devolvimos ${escapeHtml(formatArs(amount))}</h1>${lines.map((l) => (l ? `<p>${escapeHtml(l)}</p>` : "")).join("")}`,
        kind: "refund",
      });
    } catch (err) {
      logger.warn({ paymentId: payment.id, err: err instanceof Error ? err.message : String(err) }, "pago con QR: no se pudo avisar la devolución al conductor");
    }
  }

  async function receiptOf(payment: Payment): Promise<Receipt | null> {
    if (payment.step !== "FINISHED" && payment.step !== "REFUNDED" && payment.step !== "REFUND_PENDING") return null;
    const [row] = await db
      .select({ business: businessUsers, station: stations, chargerName: chargers.name, session: chargingSessions })
      .from(payments)
      .innerJoin(businessUsers, eq(businessUsers.id, payments.businessId))
      .leftJoin(stations, eq(stations.id, payments.stationId))
      .leftJoin(chargers, eq(chargers.id, payments.chargerId))
      .leftJoin(chargingSessions, eq(chargingSessions.id, payments.sessionId))
      .where(eq(payments.id, payment.id));
    if (!row) return null;
    const s = row.session;
    const ended = s?.chargingEndedAt ?? s?.stoppedAt ?? null;
    return {
      ...receiptLines(s, payment.chargedCents ?? 0),
      companyName: row.business.businessName,
      cuit: row.business.cuit ? formatCuit(row.business.cuit) : null,
      stationName: row.station?.name ?? "",
      address: row.station ? `${row.station.address}, ${row.station.city}` : "",
      chargerName: row.chargerName ?? "",
      connectorNumber: payment.connectorNumber ?? 0,
      startedAt: (s?.startedAt ?? payment.createdAt).toISOString(),
      endedAt: (s?.unpluggedAt ?? s?.stoppedAt)?.toISOString() ?? null,
      energyWh: s?.energyWh ?? 0,
      chargingMinutes: s && ended ? Math.floor((ended.getTime() - s.startedAt.getTime()) / 60_000) : 0,
      idleMinutes: s?.idleMinutes ?? 0,
      prepaidCents: payment.amountCents,
      chargedCents: payment.chargedCents ?? 0,
      refundedCents: payment.refundedCents,
      pendingRefundCents: payment.step === "REFUND_PENDING" ? refundOwed(payment) : 0,
      provider: payment.provider,
      providerPaymentId: payment.externalId,
    };
  }

  /**
   * The receipt's lines: the session's price as charged, so they add up to what the driver paid
   * to the centavo (domain/pricing chargedPrice), sessions priced before their lines were capped
   * included.
   */
  function receiptLines(s: ChargingSession | null, chargedCents: number): Pick<Receipt, "breakdown"> {
    if (!s) return { breakdown: { energyCents: 0, timeCents: 0, sessionFeeCents: 0, idleCents: 0, vatCents: 0, totalCents: 0 } };
    const vatIncluded = s.rateSnapshot?.vatIncluded ?? true;
    const lines = s.energyCents + s.timeCents + s.sessionFeeCents + s.idleCents;
    const priced = { energyCents: s.energyCents, timeCents: s.timeCents, sessionFeeCents: s.sessionFeeCents, idleCents: s.idleCents, subtotalCents: lines, vatCents: s.vatCents, totalCents: lines + (vatIncluded ? 0 : s.vatCents) };
    const p = chargedPrice(priced, chargedCents, { vatIncluded, vatRateBp: s.rateSnapshot?.vatRateBp ?? DEFAULT_VAT_RATE_BP });
    return { breakdown: { energyCents: p.energyCents, timeCents: p.timeCents, sessionFeeCents: p.sessionFeeCents, idleCents: p.idleCents, vatCents: p.vatCents, totalCents: p.totalCents } };
  }

  async function sendReceipt(payment: Payment): Promise<void> {
    if (!payment.driverEmail) return;
    const [claimed] = await db
      .update(payments)
      .set({ receiptSentAt: now() })
      .where(and(eq(payments.id, payment.id), sql`${payments.receiptSentAt} is null`))
      .returning();
    if (!claimed) return;
    const r = await receiptOf(claimed);
    if (!r) return;
    const kwh = (r.energyWh / 1000).toLocaleString("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const lines = [
      `${r.companyName}${r.cuit ? ` · CUIT ${r.cuit}` : ""}`,
      `${r.stationName} · ${r.address}`,
      `${r.chargerName} · conector ${r.connectorNumber}`,
      "",
      `Energía: ${kwh} kWh`,
      `Tiempo de carga: ${r.chargingMinutes} min${r.idleMinutes ? ` · tiempo inactivo: ${r.idleMinutes} min` : ""}`,
      `Energía ${formatArs(r.breakdown.energyCents)} · Tiempo ${formatArs(r.breakdown.timeCents)} · Cargo fijo ${formatArs(r.breakdown.sessionFeeCents)} · Penalidad ${formatArs(r.breakdown.idleCents)}`,
      `IVA incluido: ${formatArs(r.breakdown.vatCents)}`,
      "",
      `Pagaste por adelantado: ${formatArs(r.prepaidCents)} (${PROVIDER_NAMES[r.provider]}${r.providerPaymentId ? `, operación ${r.providerPaymentId}` : ""})`,
      `Cobrado: ${formatArs(r.chargedCents)}`,
      `Devuelto: ${formatArs(r.refundedCents)}`,
      ...(r.pendingRefundCents > 0 ? [pendingRefundLine(r.pendingRefundCents), "Pagos360 no hace devoluciones automáticas: la estación te lo devuelve en unos días hábiles y te avisamos por correo."] : []),
    ];
    const subject =
      r.chargedCents > 0
        ? `Tu carga en ${r.stationName}: ${formatArs(r.chargedCents)}`
        : r.pendingRefundCents > 0
          ? `La carga en ${r.stationName} no inició: la estación te devuelve ${formatArs(r.pendingRefundCents)}`
          : `Te devolvimos ${formatArs(r.refundedCents)}: la carga en ${r.stationName} no inició`;
    try {
      await deps.mailer.send({
        to: payment.driverEmail,
        subject,
        text: `Comprobante de ${deps.appName}\n\n${lines.join("\n")}\n`,
        html: `<h1>Comprobante de carga</h1>${lines.map((l) => (l ? `<p>${escapeHtml(l)}</p>` : "")).join("")}`,
        kind: "receipt",
      });
    } catch (err) {
      logger.warn({ paymentId: payment.id, err: err instanceof Error ? err.message : String(err) }, "pago con QR: no se pudo enviar el comprobante");
      await db.update(payments).set({ receiptSentAt: null }).where(eq(payments.id, payment.id));
    }
  }

  async function notifyCompany(businessId: string, type: NotificationType, title: string, body: string, link: string) {
    const [row] = await db.insert(notifications).values({ businessId, type, title, body, link }).returning();
    void pushNotification({ db, logger, sendPush: deps.sendPush }, row);
    deps.ocpp?.live.publish(businessId, { kind: "notification" });
  }

  // -------------------------------------------------------------------------------------------
  // The driver's status page

  async function byToken(paymentId: string, token: string): Promise<Payment | null> {
    if (!/^[0-9a-f-]{36}$/i.test(paymentId) || !token) return null;
    const [payment] = await db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.origin, "QR")));
    if (!payment || !linkTokenMatches(payment.accessTokenHash, token)) return null;
    return payment;
  }

  const lastPoll = new Map<string, number>();

  async function view(paymentId: string, token: string): Promise<PaymentView | null> {
    let payment = await byToken(paymentId, token);
    if (!payment) return null;
    // The return page asks the provider itself when no notification has come yet (at most every 5 s).
    if (payment.step === "PAYING" && payment.checkoutUrl && Date.now() - (lastPoll.get(payment.id) ?? 0) > 5_000) {
      lastPoll.set(payment.id, Date.now());
      await pollProvider(payment);
      payment = (await byToken(paymentId, token)) ?? payment;
    }
    const [place] = await db
      .select({ stationName: stations.name, chargerName: chargers.name })
      .from(chargers)
      .leftJoin(stations, eq(stations.id, chargers.stationId))
      .where(eq(chargers.id, payment.chargerId ?? "00000000-0000-0000-0000-000000000000"));
    let session: PaymentView["session"] = null;
    if (payment.sessionId) {
      const [s] = await db
        .select({ s: chargingSessions, timeZone: stations.timeZone })
        .from(chargingSessions)
        .leftJoin(stations, eq(stations.id, chargingSessions.stationId))
        .where(eq(chargingSessions.id, payment.sessionId));
      if (s) {
        const closed = s.s.status === "COMPLETED" || s.s.status === "INVALID";
        const price = closed ? null : costSoFar(s.s.rateSnapshot, s.s, now(), s.timeZone ?? undefined);
        const end = s.s.stoppedAt ?? now();
        session = {
          startedAt: s.s.startedAt.toISOString(),
          stoppedAt: s.s.stoppedAt?.toISOString() ?? null,
          energyWh: s.s.energyWh,
          minutes: Math.floor((end.getTime() - s.s.startedAt.getTime()) / 60_000),
          costCents: closed ? s.s.totalCents : price ? Math.min(price.totalCents, payment.amountCents) : null,
          status: s.s.status,
          price,
        };
      }
    }
    return {
      id: payment.id,
      provider: payment.provider,
      step: payment.step ?? "PAYING",
      status: payment.status,
      amountCents: payment.amountCents,
      chargedCents: payment.chargedCents,
      refundedCents: payment.refundedCents,
      checkoutUrl: payment.step === "PAYING" ? payment.checkoutUrl : null,
      failureReason: payment.failureReason,
      stationName: place?.stationName ?? "",
      chargerName: place?.chargerName ?? "",
      connectorNumber: payment.connectorNumber ?? 0,
      createdAt: payment.createdAt.toISOString(),
      session,
      canStop: payment.step === "CHARGING" && session?.status === "ACTIVE",
      stopRequested: payment.stopRequestedAt !== null,
      receipt: await receiptOf(payment),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Webhooks

  async function mercadoPagoWebhook(businessId: string, n: { dataId?: string; type?: string; signature?: string; requestId?: string }): Promise<{ status: 200 | 400 | 401 }> {
    if (!/^[0-9a-f-]{36}$/i.test(businessId)) return { status: 401 };
    const creds = (await account(businessId, "MERCADOPAGO")) as MercadoPagoCredentials | null;
    if (!creds?.webhookSecret || !verifyMercadoPagoSignature({ signature: n.signature, requestId: n.requestId, dataId: n.dataId, secret: creds.webhookSecret }, now())) {
      logger.warn({ businessId, type: n.type, requestId: n.requestId }, "webhook de Mercado Pago con firma inválida, rechazado");
      return { status: 401 };
    }
    if (n.type !== "payment" || !n.dataId) return { status: 200 }; // other topics: nothing to do
    try {
      const p = await mp(creds).getPayment(n.dataId);
      const reference = p.external_reference ?? null;
      if (!reference || !/^[0-9a-f-]{36}$/i.test(reference)) return { status: 200 };
      const [ours] = await db.select({ id: payments.id }).from(payments).where(and(eq(payments.id, reference), eq(payments.businessId, businessId)));
      if (!ours) return { status: 200 };
      await applyVerdict(ours.id, { status: mpStatus(p), externalId: String(p.id), amountCents: toCents(p.transaction_amount), reference });
    } catch (err) {
      logger.warn({ businessId, err: err instanceof Error ? err.message : String(err) }, "webhook de Mercado Pago: no se pudo leer el pago");
      // Mercado Pago retries what is not answered 200/201; the poll covers it too.
      return { status: 400 };
    }
    return { status: 200 };
  }

  async function pagos360Webhook(businessId: string, body: { entity_name?: unknown; entity_id?: unknown }): Promise<{ status: 200 | 400 }> {
    if (!/^[0-9a-f-]{36}$/i.test(businessId)) return { status: 400 };
    const entityId = typeof body.entity_id === "number" || typeof body.entity_id === "string" ? String(body.entity_id) : null;
    if (body.entity_name !== "PaymentRequest" || !entityId || !/^[\w-]{1,64}$/.test(entityId)) return { status: 200 };
    const [ours] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.businessId, businessId), eq(payments.provider, "PAGOS360"), eq(payments.checkoutId, entityId)));
    // Not ours, or not this company's: nothing is believed without reading it back (pollProvider).
    if (ours) await pollProvider(ours);
    return { status: 200 };
  }

  // -------------------------------------------------------------------------------------------
  // The sweep: what no event moved (every few seconds on each node; each step moves once)

  async function tick(): Promise<void> {
    const t = now();
    const active = await db
      .selectDistinct({ chargerId: payments.chargerId })
      .from(payments)
      .where(inArray(payments.step, ["STARTING", "CHARGING", "SETTLING", "START_FAILED"]));
    watched = new Set(active.flatMap((r) => (r.chargerId ? [r.chargerId] : [])));
    const open = await db
      .select()
      .from(payments)
      .where(inArray(payments.step, ["PAYING", "STARTING", "SETTLING", "START_FAILED"]))
      .orderBy(desc(payments.updatedAt))
      .limit(200);
    for (const p of open) {
      if (p.step === "PAYING") {
        // The poll fallback, for an hour; after a day the checkout is given up.
        const age = t.getTime() - p.createdAt.getTime();
        if (age > 24 * 3_600_000) {
          await db.update(payments).set({ step: "FAILED", status: "CANCELLED", failureReason: "El pago no se completó.", finishedAt: t }).where(and(eq(payments.id, p.id), eq(payments.step, "PAYING")));
        } else if (p.checkoutUrl && age < 3_600_000 && Date.now() - (lastPoll.get(p.id) ?? 0) > 15_000) {
          lastPoll.set(p.id, Date.now());
          await pollProvider(p);
        }
      } else if (p.step === "STARTING" && p.startRequestedAt && t.getTime() - p.startRequestedAt.getTime() > START_TIMEOUT_MS) {
        await startFailed(p.id, "El cargador no inició la carga en 2 minutos.");
      } else if (p.step === "SETTLING" || p.step === "START_FAILED") {
        await refund(p);
      }
    }
    await enforceCaps();
  }

  /** After a charger's session changed (a reading, a start, a stop): caps and refunds at once. */
  async function onSessionChange(chargerId: string | undefined): Promise<void> {
    // Every reading of every charger comes here: only a charger with a QR payment under way costs
    // a query (the set is refreshed by each tick, so payments taken on another node are seen too).
    if (!chargerId || !watched.has(chargerId)) return;
    await enforceCaps(chargerId);
    const due = await db
      .select()
      .from(payments)
      .where(and(eq(payments.chargerId, chargerId), inArray(payments.step, ["SETTLING", "START_FAILED"])))
      .limit(20);
    for (const p of due) await refund(p);
  }

  return {
    chargePoint,
    checkout,
    view,
    stop,
    mercadoPagoWebhook,
    pagos360Webhook,
    recordRefund,
    tick,
    onSessionChange,
    /** Tests: the payment row. */
    async get(paymentId: string) {
      const [p] = await db.select().from(payments).where(eq(payments.id, paymentId));
      return p;
    },
    isFinal: (step: DriverStep) => FINAL_STEPS.has(step),
  };
}

export type DriverPayments = ReturnType<typeof createDriverPayments>;

/** Sweeps every `intervalMs` (errors are logged; the next sweep tries again). */
export function startDriverPaymentSweep(service: DriverPayments, logger: Logger, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    service
      .tick()
      .catch((err) => logger.error({ err: err instanceof Error ? err.message : String(err) }, "pagos con QR: falló el barrido"))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

