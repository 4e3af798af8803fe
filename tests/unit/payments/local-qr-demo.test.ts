// Local mode's QR demo: after the demo seed, one published station takes QR payments,
// the company has emulator-backed provider accounts (Mercado Pago with the emulator's webhook
// secret) and one of its chargers takes the simulated charger's password; running it twice adds nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Database } from "#db/client";
import * as s from "#db/schema";
import { seedDemoOperator } from "#db/seed/demo";
import { createKeyRing, openPaymentCredentials, verifyOcppPassword } from "#infra/crypto";
import { memoryInbox } from "#infra/mail";
import { createDriverPayments } from "../../../payments";
import { demoKnownPayments, prepareQrDemo, SIM_CHARGER_PASSWORD } from "../../../scripts/local-qr-demo";
import { EMULATOR_WEBHOOK_SECRET, startPaymentsEmulator } from "../../../scripts/payments-emulator";
import { testBackends } from "../../setup/db";

const KEY = "a".repeat(64);

describe("local QR demo", () => {
  let database: Database;
  beforeAll(async () => {
    database = await testBackends()[0].open();
  }, 60_000);
  afterAll(() => database?.close());

  it("turns QR on for a published station, connects emulator accounts and sets the simulated charger's password", async () => {
    const db = database.db;
    const { businessId } = await seedDemoOperator(db, { firebaseUid: "demo-qr", email: "demo@enchufa.local", now: new Date("2025-06-15T15:00:00Z") });
    const demo = await prepareQrDemo(db, { businessId, encryptionKey: KEY });
    expect(demo).not.toBeNull();
    const [charger] = await db.select().from(s.chargers).where(eq(s.chargers.id, demo!.chargerId));
    expect(charger.ocppIdentity).toBe(demo!.ocppIdentity);
    expect(await verifyOcppPassword(SIM_CHARGER_PASSWORD, charger.ocppPasswordHash)).toBe(true);
    const [station] = await db.select().from(s.stations).where(eq(s.stations.id, charger.stationId!));
    expect(station).toMatchObject({ published: true, qrPaymentEnabled: true, name: demo!.stationName });
    const [connector] = await db.select().from(s.connectors).where(eq(s.connectors.chargerId, charger.id));
    expect(connector.rateId).not.toBeNull();

    const accounts = await db.select().from(s.paymentAccounts).where(eq(s.paymentAccounts.businessId, businessId));
    expect(accounts.map((a) => a.provider).sort()).toEqual(["MERCADOPAGO", "PAGOS360"]);
    const mp = accounts.find((a) => a.provider === "MERCADOPAGO")!;
    const plain = JSON.parse(openPaymentCredentials(createKeyRing([KEY]), mp.credentialsEncrypted, { businessId, provider: "MERCADOPAGO" }));
    expect(plain.webhookSecret).toBe(EMULATOR_WEBHOOK_SECRET);

    await prepareQrDemo(db, { businessId, encryptionKey: KEY });
    expect(await db.select().from(s.paymentAccounts).where(eq(s.paymentAccounts.businessId, businessId))).toHaveLength(2);
  });

  it("the demo reconciles to zero: the emulator learns the seed's payments, and Conciliación finds no difference", async () => {
    // A database of its own: the demo seed seeds one demo.
    const fresh = await testBackends()[0].open();
    const db = fresh.db;
    const now = new Date();
    const { businessId } = await seedDemoOperator(db, { firebaseUid: "demo-recon", email: "demo@enchufa.local", now });
    await prepareQrDemo(db, { businessId, encryptionKey: KEY });
    const emulator = await startPaymentsEmulator();
    try {
      const dp = createDriverPayments({
        db,
        keyRing: createKeyRing([KEY]),
        logger: { info: () => {}, warn: () => {}, error: () => {} },
        mailer: memoryInbox(),
        appName: "Enchufá",
        mercadoPagoUrl: emulator.mercadoPagoUrl,
        pagos360Url: emulator.pagos360Url,
      });
      const from = new Date(now.getTime() - 7 * 86_400_000);
      const before = await dp.reconcile(businessId, from, now);
      // Without them the emulator has none of the seed's payments: each one is a difference.
      expect(before.checked).toBeGreaterThan(0);
      expect(before.differences.filter((d) => d.kind === "MISSING_AT_PROVIDER").length).toBeGreaterThan(0);

      const known = await demoKnownPayments(db, businessId);
      expect(new Set(known.map((k) => k.provider))).toEqual(new Set(["MERCADOPAGO", "PAGOS360"]));
      emulator.registerKnownPayments(known);
      const after = await dp.reconcile(businessId, from, now);
      expect(after.unchecked).toEqual([]);
      expect(after.checked).toBe(before.checked);
      expect(after.differences).toEqual([]);
    } finally {
      await emulator.stop();
      await fresh.close();
    }
  }, 120_000);
});
