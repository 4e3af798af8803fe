// Drivers pay at the charger, end to end on the server: the public API, the payment
// providers' emulator (real HTTP, signed webhooks), the central system and an ocpp-rpc charger.
// pay → webhook → remote start → meter values → stop (driver / prepaid cap) → priced → partial
// refund → receipt; a refused start → full refund; no start in 2 minutes → full refund; a
// webhook with a wrong signature → 401, nothing changes; a double "Pagar" → one payment.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { getRequestListener } from "@hono/node-server";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "#api/app";
import { createDriverPayments, type DriverPayments } from "../../payments";
import { chargers, chargingSessions, connectors, notifications, payments, stations } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { formatArs } from "#domain/money";
import { memoryInbox } from "#infra/mail";
import { EMULATOR_WEBHOOK_SECRET, startPaymentsEmulator, type PaymentsEmulator } from "../../scripts/payments-emulator";
import { callApi, expectStatus, fakeVerifyToken, TEST_KEYS } from "../api/helpers";
import { testBackends } from "../setup/db";
import { createFixture, eventually, openOcppHarness, qrPaymentCharger, type Fixture, type OcppHarness } from "./harness";

type EmulatorState = { refunds: { payment_id: number; amount: number }[]; payments: { id: number; external_reference: string; status: string }[] };

describe.each(testBackends())("drivers pay at the charger ($name)", (backend) => {
  let h: OcppHarness;
  let f: Fixture;
  let emulator: PaymentsEmulator;
  let dp: DriverPayments;
  let api: ReturnType<typeof createApi>;
  let server: http.Server;
  let clockOffsetMs = 0;
  const inbox = memoryInbox();

  beforeAll(async () => {
    emulator = await startPaymentsEmulator();
    h = await openOcppHarness(backend, { commandTimeoutMs: 2_000 });
    f = await createFixture(h, `qr-${backend.name}`);
    dp = createDriverPayments({
      db: h.db,
      keyRing: createKeyRing(TEST_KEYS),
      logger: { info: () => {}, warn: (obj, msg) => h.logs.push({ level: "warn", obj, msg }), error: (obj, msg) => h.logs.push({ level: "error", obj, msg }) },
      mailer: inbox,
      appName: "Enchufá",
      ocpp: h.central,
      mercadoPagoUrl: emulator.mercadoPagoUrl,
      pagos360Url: emulator.pagos360Url,
      now: () => new Date(Date.now() + clockOffsetMs),
    });
    // The API over real HTTP: the emulator delivers its webhooks there.
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    api = createApi({ db: h.db, verifyToken: fakeVerifyToken, encryptionKeys: TEST_KEYS, publicOrigin: origin, ocpp: h.central, driverPayments: dp });
    server.on("request", getRequestListener((req) => api.fetch(req)));

    await h.db.update(stations).set({ published: true, qrPaymentEnabled: true, qrMinCents: 100_000, qrMaxCents: 2_000_000 }).where(eq(stations.businessId, f.tenant.businessId));
    await expectStatus(
      await h.call("PUT", "/MercadoPago/BusinessUser", {
        token: f.tenant.token,
        body: { publicKey: "TEST-public-key-0000", accessToken: `TEST-access-${backend.name}-0000`, webhookSecret: EMULATOR_WEBHOOK_SECRET },
      }),
      200,
    );
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await h.close();
    await emulator.stop();
  });

  const call = (method: string, path: string, body?: unknown) => callApi(api, method, path, { body });
  const payment = (id: string) => dp.get(id);
  const emulatorState = async () => (await (await fetch(`${emulator.url}/_emulator/state`)).json()) as EmulatorState;

  /** A charger that starts what it is asked to start, and stops what it is asked to stop. */
  const connectCharger = (opts: { startAnswer?: "Accepted" | "Rejected"; startsSession?: boolean } = {}) => qrPaymentCharger(h, f, opts);

  async function pay(amountCents: number, decision: "approve" | "reject" = "approve") {
    const requestKey = randomUUID().replace(/-/g, "");
    const body = { amountCents, email: "conductora@example.com", provider: "MERCADOPAGO", acceptTerms: true, requestKey };
    const created = await expectStatus<{ paymentId: string; token: string; checkoutUrl: string }>(await call("POST", `/Driver/Charge/${f.identity}/1`, body), 201);
    // A double click on "Pagar": the same payment and checkout.
    const again = await expectStatus<{ paymentId: string; checkoutUrl: string }>(await call("POST", `/Driver/Charge/${f.identity}/1`, body), 200);
    expect(again).toMatchObject({ paymentId: created.paymentId, checkoutUrl: created.checkoutUrl });
    expect(created.checkoutUrl.startsWith(emulator.mercadoPagoUrl)).toBe(true);
    // The driver at the provider's checkout; the emulator signs and delivers the webhook before returning.
    const back = await fetch(created.checkoutUrl, { method: "POST", body: new URLSearchParams({ decision }), redirect: "manual" });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toContain(`/cargar/pago/${created.paymentId}?t=${created.token}`);
    return created;
  }

  it("shows the connector, takes the payment, starts, stops when the driver asks, prices, refunds the rest and sends the receipt", async () => {
    const charger = await connectCharger();
    try {
      const info = await expectStatus(await call("GET", `/Driver/Charge/${f.identity}/1`), 200);
      expect(info).toMatchObject({ state: "AVAILABLE", stateLabel: "Disponible", providers: ["MERCADOPAGO"], unavailable: null, minCents: 100_000, maxCents: 2_000_000 });
      expect(JSON.stringify(info)).not.toContain("TEST-access"); // nothing of the operator's secrets

      // Amounts are checked on the server.
      const tooMuch = await call("POST", `/Driver/Charge/${f.identity}/1`, { amountCents: 9_000_000, email: "a@example.com", provider: "MERCADOPAGO", acceptTerms: true, requestKey: randomUUID().replace(/-/g, "") });
      expect(tooMuch.status).toBe(422);

      const { paymentId, token } = await pay(500_000);
      const charging = await eventually(() => payment(paymentId), (p) => p?.step === "CHARGING");
      expect(charging).toMatchObject({ status: "APPROVED", provider: "MERCADOPAGO" });
      expect(charger.seen.starts).toBe(1);

      // The same webhook again (Mercado Pago retries): nothing more happens.
      const state = await emulatorState();
      const mpPayment = state.payments.find((p) => p.external_reference === paymentId)!;
      await expect(dp.mercadoPagoWebhook(f.tenant.businessId, { dataId: String(mpPayment.id), type: "payment", signature: "ts=1,v1=" + "0".repeat(64), requestId: "x" })).resolves.toEqual({ status: 401 });
      expect(charger.seen.starts).toBe(1);

      await charger.charge(2_000);
      const view = await expectStatus(await call("GET", `/Driver/Payment/${paymentId}?t=${token}`), 200);
      expect(view).toMatchObject({ step: "CHARGING", canStop: true, session: { energyWh: 2_000, costCents: 120_000 } });
      // Without the link's secret: nothing.
      expect((await call("GET", `/Driver/Payment/${paymentId}?t=wrong-token-123456789`)).status).toBe(404);
      expect((await call("POST", `/Driver/Payment/${paymentId}/Stop`, { token: "wrong-token-123456789" })).status).toBe(409);

      await expectStatus(await call("POST", `/Driver/Payment/${paymentId}/Stop`, { token }), 200);
      await eventually(() => payment(paymentId), (p) => p?.step === "SETTLING");
      await dp.tick();
      const done = await payment(paymentId);
      // 2 kWh × $ 350 + $ 500 per session = $ 1.200 of $ 5.000 prepaid.
      // Part of it went back: "Devuelto en parte".
      expect(done).toMatchObject({ step: "FINISHED", chargedCents: 120_000, refundedCents: 380_000, status: "PARTIALLY_REFUNDED" });
      const [session] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.id, done!.sessionId!));
      expect(session).toMatchObject({ status: "COMPLETED", totalCents: 120_000, paymentStatus: "PAID" });
      expect((await emulatorState()).refunds.filter((r) => r.payment_id === mpPayment.id)).toEqual([expect.objectContaining({ amount: 3800 })]);
      // No second amount to collect for a session that was paid at the QR.
      expect(await h.db.select().from(payments).where(and(eq(payments.sessionId, session.id), eq(payments.origin, "SESSION")))).toEqual([]);

      const receipt = inbox.messages.find((m) => m.kind === "receipt" && m.subject.includes("$"));
      expect(receipt?.to).toBe("conductora@example.com");
      expect(receipt?.text).toContain(`Devuelto: ${formatArs(380_000)}`);
      const final = await expectStatus(await call("GET", `/Driver/Payment/${paymentId}?t=${token}`), 200);
      expect(final).toMatchObject({ step: "FINISHED", receipt: { chargedCents: 120_000, refundedCents: 380_000, energyWh: 2_000 } });

      // Sweeping again refunds nothing more and sends no second receipt.
      await dp.tick();
      expect((await emulatorState()).refunds.filter((r) => r.payment_id === mpPayment.id)).toHaveLength(1);
      expect(inbox.messages.filter((m) => m.kind === "receipt" && m.text.includes(String(mpPayment.id)))).toHaveLength(1);
      const kinds = (await h.db.select({ type: notifications.type }).from(notifications).where(eq(notifications.businessId, f.tenant.businessId))).map((n) => n.type);
      expect(kinds).toEqual(expect.arrayContaining(["PAYMENT_RECEIVED", "PAYMENT_REFUNDED"]));
    } finally {
      await charger.cli.close();
    }
  });

  it("stops the charge itself when its cost reaches the prepaid amount, and charges no more than that", async () => {
    const charger = await connectCharger();
    try {
      const { paymentId, token } = await pay(100_000);
      await eventually(() => payment(paymentId), (p) => p?.step === "CHARGING");
      await charger.charge(1_000); // $ 350 + $ 500: not yet
      await dp.onSessionChange(f.chargerId);
      expect(charger.seen.stops).toBe(0);
      await charger.charge(1_000); // $ 1.200 ≥ $ 1.000
      await dp.onSessionChange(f.chargerId);
      expect(charger.seen.stops).toBe(1);
      await eventually(() => payment(paymentId), (p) => p?.step === "SETTLING");
      await dp.tick();
      expect(await payment(paymentId)).toMatchObject({ step: "FINISHED", chargedCents: 100_000, refundedCents: 0 });

      // The receipt's lines add up to what was charged ($ 700 + $ 500 scaled to $ 1.000; the
      // centavo left goes to the line cut the most), with the VAT of $ 1.000.
      const view = await expectStatus<{ receipt: { chargedCents: number; breakdown: Record<string, number> } }>(await call("GET", `/Driver/Payment/${paymentId}?t=${token}`), 200);
      const b = view.receipt.breakdown;
      expect(b).toEqual({ energyCents: 58_333, timeCents: 0, sessionFeeCents: 41_667, idleCents: 0, vatCents: 17_355, totalCents: 100_000 });
      expect(b.energyCents + b.timeCents + b.sessionFeeCents + b.idleCents).toBe(view.receipt.chargedCents);
      // The session's stored lines too (the back office shows them).
      const [priced] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.id, (await payment(paymentId))!.sessionId!));
      expect(priced).toMatchObject({ energyCents: 58_333, sessionFeeCents: 41_667, vatCents: 17_355, subtotalCents: 100_000, totalCents: 100_000 });
      const mail = inbox.messages.find((m) => m.kind === "receipt" && m.subject.includes(formatArs(100_000)) && m.text.includes(formatArs(58_333)));
      expect(mail?.text).toContain(`IVA incluido: ${formatArs(17_355)}`);
    } finally {
      await charger.cli.close();
    }
  });

  it("refunds the whole payment when the charger refuses to start", async () => {
    const charger = await connectCharger({ startAnswer: "Rejected" });
    try {
      const { paymentId, token } = await pay(300_000);
      const p = await eventually(() => payment(paymentId), (x) => x?.step === "REFUNDED");
      expect(p).toMatchObject({ status: "REFUNDED", refundedCents: 300_000, chargedCents: 0 });
      const view = await expectStatus(await call("GET", `/Driver/Payment/${paymentId}?t=${token}`), 200);
      expect(view.failureReason).toContain("no aceptó iniciar la carga");
    } finally {
      await charger.cli.close();
    }
  });

  it("refunds the whole payment when no StartTransaction comes within 2 minutes", async () => {
    const charger = await connectCharger({ startsSession: false });
    try {
      const { paymentId } = await pay(300_000);
      await eventually(() => payment(paymentId), (x) => x?.step === "STARTING" && charger.seen.starts === 1);
      await dp.tick();
      expect((await payment(paymentId))?.step).toBe("STARTING");
      clockOffsetMs = 3 * 60_000;
      try {
        await dp.tick();
      } finally {
        clockOffsetMs = 0;
      }
      expect(await payment(paymentId)).toMatchObject({ step: "REFUNDED", refundedCents: 300_000 });
    } finally {
      await charger.cli.close();
    }
  });

  it("refuses a webhook with a wrong signature (401, logged) and changes nothing", async () => {
    // The previous test's charger socket closes asynchronously: let its offline mark land first.
    await eventually(async () => (await h.db.select({ online: chargers.online }).from(chargers).where(eq(chargers.id, f.chargerId)))[0], (r) => !r.online);
    await h.db.update(chargers).set({ online: true }).where(eq(chargers.id, f.chargerId));
    await h.db.update(connectors).set({ status: "Available" }).where(eq(connectors.chargerId, f.chargerId));
    const requestKey = randomUUID().replace(/-/g, "");
    const { paymentId } = await expectStatus(
      await call("POST", `/Driver/Charge/${f.identity}/1`, { amountCents: 200_000, email: "b@example.com", provider: "MERCADOPAGO", acceptTerms: true, requestKey }),
      201,
    );
    // Unsigned (Mercado Pago sends some so): not refused, only read back — and 123 is no payment of ours.
    const res = await call("POST", `/Webhook/MercadoPago/${f.tenant.businessId}?data.id=123&type=payment`, { type: "payment", data: { id: "123" } });
    expect(res.status).toBe(200);
    const forged = await callApi(api, "POST", `/Webhook/MercadoPago/${f.tenant.businessId}?data.id=123&type=payment`, {
      body: { type: "payment", data: { id: "123" } },
      headers: { "x-signature": `ts=${Math.floor(Date.now() / 1000)},v1=${"ab".repeat(32)}`, "x-request-id": "r-1" },
    });
    expect(forged.status).toBe(401);
    expect(h.logs.some((l) => l.msg?.includes("firma inválida"))).toBe(true);
    expect(await payment(paymentId)).toMatchObject({ step: "PAYING", status: "PENDING" });
  });

  it("says why charging cannot start instead of taking money (offline charger, QR payment off)", async () => {
    await h.db.update(chargers).set({ online: false }).where(eq(chargers.id, f.chargerId));
    const offline = await expectStatus(await call("GET", `/Driver/Charge/${f.identity}/1`), 200);
    expect(offline).toMatchObject({ state: "OFFLINE", stateLabel: "Sin conexión" });
    expect(offline.unavailable).toContain("sin conexión");
    const refused = await call("POST", `/Driver/Charge/${f.identity}/1`, { amountCents: 200_000, email: "c@example.com", provider: "MERCADOPAGO", acceptTerms: true, requestKey: randomUUID().replace(/-/g, "") });
    expect(refused.status).toBe(409);
    await h.db.update(stations).set({ qrPaymentEnabled: false }).where(eq(stations.businessId, f.tenant.businessId));
    expect((await expectStatus(await call("GET", `/Driver/Charge/${f.identity}/1`), 200)).unavailable).toContain("no acepta pagos con QR");
    await h.db.update(stations).set({ published: false }).where(eq(stations.businessId, f.tenant.businessId));
    expect((await call("GET", `/Driver/Charge/${f.identity}/1`)).status).toBe(404);
  });
});
