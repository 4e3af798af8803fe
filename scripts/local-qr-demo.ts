// Local mode only (`npm start`): makes the QR payment flow work offline end to end.
// After the demo seed, it turns QR payment on for one published demo station, gives the demo
// company Mercado Pago and Pagos360 accounts that the payments emulator accepts (Mercado Pago
// with the emulator's webhook secret), and gives one of that station's chargers a known OCPP
// password so scripts/sim-charger.ts can connect as it. Dev-only code: production never runs it.
import { and, asc, eq, inArray, isNotNull, notInArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { chargers, chargingSessions, connectors, paymentAccounts, payments, stations } from "../db/schema";
import { createKeyRing, hashOcppPassword, sealPaymentCredentials } from "../infra/crypto";
import { EMULATOR_WEBHOOK_SECRET } from "./payments-emulator";
import type { KnownPayment } from "./payments-emulator-model";

/** The demo company's Pagos360 API key (the demo seed's, accepted by the payments emulator). */
export const DEMO_PAGOS360_API_KEY = "demo-pagos360-api-key-7390";

/** The demo company's Mercado Pago access token (the emulator's accounts are their tokens). */
export const DEMO_MERCADOPAGO_ACCESS_TOKEN = "TEST-0000000000000000-000000-demo0000000000000000000000-4821";

/** The simulated charger's OCPP Basic-auth password (local mode only). */
export const SIM_CHARGER_PASSWORD = "cargador-simulado-local-0001";

export interface QrDemo {
  stationName: string;
  chargerId: string;
  ocppIdentity: string;
  connectorId: number;
}

export async function prepareQrDemo(db: Db, opts: { businessId: string; encryptionKey: string }): Promise<QrDemo | null> {
  // A published station's charger with a priced connector and no charge in progress.
  const busy = db.select({ id: chargingSessions.connectorId }).from(chargingSessions).where(inArray(chargingSessions.status, ["ACTIVE", "IDLE"]));
  const [pick] = await db
    .select({ stationId: stations.id, stationName: stations.name, chargerId: chargers.id, ocppIdentity: chargers.ocppIdentity, connectorId: connectors.connectorId })
    .from(connectors)
    .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
    .innerJoin(stations, eq(stations.id, chargers.stationId))
    .where(and(eq(chargers.businessId, opts.businessId), eq(stations.published, true), isNotNull(connectors.rateId), notInArray(connectors.id, busy)))
    .orderBy(asc(stations.name), asc(chargers.name), asc(connectors.connectorId))
    .limit(1);
  if (!pick) return null;

  await db.update(stations).set({ qrPaymentEnabled: true }).where(eq(stations.id, pick.stationId));
  await db.update(chargers).set({ ocppPasswordHash: await hashOcppPassword(SIM_CHARGER_PASSWORD), enabled: true }).where(eq(chargers.id, pick.chargerId));

  // The emulator takes any TEST-/APP_USR- token; webhooks are signed with its secret.
  const ring = createKeyRing(opts.encryptionKey.split(","));
  const existing = await db.select({ provider: paymentAccounts.provider }).from(paymentAccounts).where(eq(paymentAccounts.businessId, opts.businessId));
  const have = new Set(existing.map((a) => a.provider));
  const accounts = [
    {
      provider: "MERCADOPAGO" as const,
      plain: { accessToken: DEMO_MERCADOPAGO_ACCESS_TOKEN, publicKey: "TEST-demo-public-key", webhookSecret: EMULATOR_WEBHOOK_SECRET },
      last4: "4821",
      label: "Enchufá Demo (Mercado Pago, emulador)",
    },
    { provider: "PAGOS360" as const, plain: { apiKey: DEMO_PAGOS360_API_KEY }, last4: "7390", label: "Enchufá Demo (Pagos360, emulador)" },
  ];
  for (const a of accounts) {
    if (have.has(a.provider)) continue;
    await db.insert(paymentAccounts).values({
      businessId: opts.businessId,
      provider: a.provider,
      credentialsEncrypted: sealPaymentCredentials(ring, JSON.stringify(a.plain), { businessId: opts.businessId, provider: a.provider }),
      credentialsLast4: a.last4,
      accountLabel: a.label,
      status: "CONNECTED",
    });
  }
  return { stationName: pick.stationName, chargerId: pick.chargerId, ocppIdentity: pick.ocppIdentity, connectorId: pick.connectorId };
}

/**
 * The demo seed's session payments as the providers' records of them: the emulator starts empty
 * each time, so local mode tells it of these (POST /_emulator/known-payments does the same for a
 * script) and Conciliación finds every one of them, under the demo accounts' credentials.
 */
export async function demoKnownPayments(db: Db, businessId: string): Promise<KnownPayment[]> {
  const rows = await db
    .select({ id: payments.id, provider: payments.provider, externalId: payments.externalId, amountCents: payments.amountCents, status: payments.status, createdAt: payments.createdAt })
    .from(payments)
    .where(and(eq(payments.businessId, businessId), eq(payments.origin, "SESSION"), isNotNull(payments.externalId), inArray(payments.status, ["APPROVED", "REJECTED"])));
  return rows
    .filter((r) => /^\d{1,15}$/.test(r.externalId ?? "") && r.amountCents > 0)
    .map((r) => ({
      provider: r.provider,
      owner: r.provider === "MERCADOPAGO" ? DEMO_MERCADOPAGO_ACCESS_TOKEN : DEMO_PAGOS360_API_KEY,
      id: Number(r.externalId),
      reference: r.id,
      amountCents: r.amountCents,
      approved: r.status === "APPROVED",
      at: r.createdAt.toISOString(),
    }));
}
