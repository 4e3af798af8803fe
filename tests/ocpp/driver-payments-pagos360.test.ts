// Drivers pay at the charger with Pagos360 (ADR 0017), end to end on the server: the
// public API, the providers' emulator (real HTTP: Pagos360's notification is POSTed to the
// account's webhook URL), the central system and an ocpp-rpc charger. Pagos360 documents no refund
// call, so what a driver is owed becomes a refund the station owes by hand (REFUND_PENDING): the
// sweep never asks the provider again, the receipt says "A devolver", the operator is told, and
// records the refund in Pagos (POST /Business/Payments/{id}/Refund) → finished, driver e-mailed,
// audited. Also: a failed start → the whole amount owed; another company's payment → 404; a
// Mercado Pago payment → 409 (it refunds by itself); bad amounts → Spanish field errors.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { getRequestListener } from "@hono/node-server";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "#api/app";
import { createDriverPayments, type DriverPayments } from "../../payments";
import { auditLog, chargers, connectors, notifications, payments, stations } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { formatArs } from "#domain/money";
import { memoryInbox } from "#infra/mail";
import { startPaymentsEmulator, type PaymentsEmulator } from "../../scripts/payments-emulator";
import { callApi, createTenant, expectStatus, fakeVerifyToken, TEST_KEYS, type Tenant } from "../api/helpers";
import { testBackends } from "../setup/db";
import { createFixture, eventually, openOcppHarness, qrPaymentCharger, type Fixture, type OcppHarness } from "./harness";

type EmulatorState = {
  deliveries: { provider: string; url: string; status: number | "error"; entityId?: number; type?: string }[];
  pagos360: { id: number; external_reference: string; state: string }[];
  apiCalls: Record<string, number>;
};

describe.each(testBackends())("drivers pay at the charger with Pagos360 ($name)", (backend) => {
  let h: OcppHarness;
  let f: Fixture;
  let other: Tenant;
  let emulator: PaymentsEmulator;
  let dp: DriverPayments;
  let api: ReturnType<typeof createApi>;
  let server: http.Server;
  let clockOffsetMs = 0;
  const inbox = memoryInbox();
  /** Every call Enchufá makes to a payment provider (the service's fetch). */
  const providerCalls: string[] = [];
  const apiKey = `p360-${backend.name}-key-0123456789`;

  beforeAll(async () => {
    emulator = await startPaymentsEmulator();
    h = await openOcppHarness(backend, { commandTimeoutMs: 2_000 });
    f = await createFixture(h, `p360-${backend.name}`);
    other = await createTenant(h, `p360-other-${backend.name}`);
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
      fetch: (input, init) => {
        providerCalls.push(`${init?.method ?? "GET"} ${String(input instanceof Request ? input.url : input)}`);
        return fetch(input, init);
      },
    });
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    api = createApi({ db: h.db, verifyToken: fakeVerifyToken, encryptionKeys: TEST_KEYS, publicOrigin: origin, ocpp: h.central, driverPayments: dp });
    server.on("request", getRequestListener((req) => api.fetch(req)));

    await h.db.update(stations).set({ published: true, qrPaymentEnabled: true, qrMinCents: 100_000, qrMaxCents: 2_000_000 }).where(eq(stations.businessId, f.tenant.businessId));
    await expectStatus(await h.call("PUT", "/Pagos360/BusinessUser", { token: f.tenant.token, body: { apiKey, accountName: "Cobros QR" } }), 200);
    // Pagos360 notifies the URL set in the account's panel (not one per payment request).
    expect(emulator.setPagos360Webhook(apiKey, `${origin}/api/Webhook/Pagos360/${f.tenant.businessId}`)).toBe(true);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await h.close();
    await emulator.stop();
  });

  const call = (method: string, path: string, body?: unknown, token?: string, headers?: Record<string, string>) => callApi(api, method, path, { body, token, headers });
  const payment = (id: string) => dp.get(id);
  const emulatorState = async () => (await (await fetch(`${emulator.url}/_emulator/state`)).json()) as EmulatorState;
  const refund = (id: string, body: unknown = {}, token = f.tenant.token, headers?: Record<string, string>) => call("POST", `/Business/Payments/${id}/Refund`, body, token, headers);
  const noticesOf = async (type: string) => (await h.db.select().from(notifications).where(and(eq(notifications.businessId, f.tenant.businessId), eq(notifications.type, type as "SYSTEM")))) ?? [];

  /** A charger that starts what it is asked to start (or refuses), and stops what it is asked to stop. */
  async function connectCharger(opts: { startAnswer?: "Accepted" | "Rejected" } = {}) {
    // The previous test's socket closes asynchronously: let its offline mark land first.
    await eventually(async () => (await h.db.select({ online: chargers.online }).from(chargers).where(eq(chargers.id, f.chargerId)))[0], (r) => !r.online);
    return qrPaymentCharger(h, f, opts);
  }

  /** The driver pays with Pagos360 and approves at its checkout; the emulator notifies before sending them back. */
  async function payWithPagos360(amountCents: number) {
    const requestKey = randomUUID().replace(/-/g, "");
    const body = { amountCents, email: "conductor@example.com", provider: "PAGOS360", acceptTerms: true, requestKey };
    const created = await expectStatus<{ paymentId: string; token: string; checkoutUrl: string }>(await call("POST", `/Driver/Charge/${f.identity}/1`, body), 201);
    expect(created.checkoutUrl.startsWith(emulator.pagos360Url)).toBe(true);
    const back = await fetch(created.checkoutUrl, { method: "POST", body: new URLSearchParams({ decision: "approve" }), redirect: "manual" });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toContain(`/cargar/pago/${created.paymentId}?t=${created.token}`);
    return created;
  }

  it("tells the driver before paying that Pagos360 balances are refunded by the station, not automatically", async () => {
    await h.db.update(chargers).set({ online: true }).where(eq(chargers.id, f.chargerId));
    await h.db.update(connectors).set({ status: "Available" }).where(eq(connectors.chargerId, f.chargerId));
    const info = await expectStatus(await call("GET", `/Driver/Charge/${f.identity}/1`), 200);
    expect(info).toMatchObject({ providers: ["PAGOS360"], unavailable: null });
    await h.db.update(chargers).set({ online: false }).where(eq(chargers.id, f.chargerId));
  });

  it("approved by Pagos360's notification, charged, stopped: the unused balance is owed by the station (no retries), the receipt says so, the operator records the refund", async () => {
    const charger = await connectCharger();
    try {
      const { paymentId, token } = await payWithPagos360(500_000);
      // The notification did it: the driver's page has not been asked and nothing swept.
      const state = await emulatorState();
      const request = state.pagos360.find((r) => r.external_reference === paymentId)!;
      expect(state.deliveries.filter((d) => d.provider === "PAGOS360" && d.entityId === request.id)).toEqual([
        expect.objectContaining({ status: 200, type: "paid", url: expect.stringContaining(`/api/Webhook/Pagos360/${f.tenant.businessId}`) }),
      ]);
      expect(["STARTING", "CHARGING"]).toContain((await payment(paymentId))?.step);
      await eventually(() => payment(paymentId), (p) => p?.step === "CHARGING");
      expect(charger.seen.starts).toBe(1);

      await charger.charge(2_000);
      await expectStatus(await call("POST", `/Driver/Payment/${paymentId}/Stop`, { token }), 200);
      await eventually(() => payment(paymentId), (p) => p?.step === "SETTLING");
      await dp.tick();
      // 2 kWh × $ 350 + $ 500 per session = $ 1.200 of $ 5.000: $ 3.800 owed, by hand.
      const pending = await payment(paymentId);
      expect(pending).toMatchObject({ step: "REFUND_PENDING", status: "APPROVED", chargedCents: 120_000, refundedCents: 0 });

      // The sweep (and the readings' hook) never ask the provider again, even much later.
      const callsBefore = providerCalls.length;
      const emulatorCallsBefore = (await emulatorState()).apiCalls;
      await dp.tick();
      await dp.onSessionChange(f.chargerId);
      clockOffsetMs = 3 * 3_600_000;
      try {
        await dp.tick();
        await dp.tick();
      } finally {
        clockOffsetMs = 0;
      }
      expect(providerCalls.slice(callsBefore)).toEqual([]);
      expect((await emulatorState()).apiCalls).toEqual(emulatorCallsBefore);
      expect((await payment(paymentId))?.step).toBe("REFUND_PENDING");

      // The operator is told once, with the amount and the payment.
      const owedNotices = await noticesOf("PAYMENT_REFUND_PENDING");
      expect(owedNotices).toHaveLength(1);
      expect(owedNotices[0]).toMatchObject({ title: "Devolución pendiente", link: `/payment?step=REFUND_PENDING&refund=${paymentId}` });
      expect(owedNotices[0].body).toContain(formatArs(380_000));
      expect(owedNotices[0].body).toContain(`operación ${request.id}`);

      // One receipt, at settlement, with the charged amount and what the station owes.
      const receipts = inbox.messages.filter((m) => m.kind === "receipt" && m.text.includes(`operación ${request.id}`));
      expect(receipts).toHaveLength(1);
      expect(receipts[0].to).toBe("conductor@example.com");
      expect(receipts[0].text).toContain(`Cobrado: ${formatArs(120_000)}`);
      expect(receipts[0].text).toContain(`A devolver: ${formatArs(380_000)} — la estación te lo devuelve por Pagos360`);

      // The driver's page says it plainly.
      const view = await expectStatus(await call("GET", `/Driver/Payment/${paymentId}?t=${token}`), 200);
      expect(view).toMatchObject({ step: "REFUND_PENDING", receipt: { chargedCents: 120_000, refundedCents: 0, pendingRefundCents: 380_000 } });

      // Pagos lists it as owed.
      const list = await expectStatus(await call("GET", "/Business/Payments?step=REFUND_PENDING", undefined, f.tenant.token), 200);
      expect(list.items).toEqual([expect.objectContaining({ id: paymentId, step: "REFUND_PENDING", refundOwedCents: 380_000, provider: "PAGOS360" })]);
      expect(list.totals).toMatchObject({ refundPendingCount: 1, refundOwedCents: 380_000 });

      // Bad amounts: Spanish field errors, nothing recorded.
      for (const [body, message] of [
        [{ amountCents: 0 }, "Ingresá el monto que devolviste: tiene que ser mayor que cero."],
        [{ amountCents: -100 }, "Ingresá el monto que devolviste: tiene que ser mayor que cero."],
        [{ amountCents: 12.5 }, "Ingresá el monto que devolviste: tiene que ser mayor que cero."],
        [{ amountCents: "3800" }, "Ingresá el monto que devolviste: tiene que ser mayor que cero."],
        [{ amountCents: 380_001 }, `No podés registrar más de lo que se debe: ${formatArs(380_000)}.`],
      ] as const) {
        const res = await refund(paymentId, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect((await res.json()).errors, JSON.stringify(body)).toEqual({ amountCents: [message] });
      }
      // Another company: as if it did not exist; nothing changes.
      expect((await refund(paymentId, {}, other.token)).status).toBe(404);
      expect(await payment(paymentId)).toMatchObject({ step: "REFUND_PENDING", refundedCents: 0 });

      // The operator refunded it in Pagos360 and records it (what is owed, by default), once.
      const key = randomUUID();
      const done = await expectStatus(await refund(paymentId, {}, f.tenant.token, { "Idempotency-Key": key }), 200);
      expect(done).toMatchObject({ id: paymentId, step: "FINISHED", status: "PARTIALLY_REFUNDED", chargedCents: 120_000, refundedCents: 380_000, refundOwedCents: 0, netCents: 120_000 });
      const replay = await refund(paymentId, {}, f.tenant.token, { "Idempotency-Key": key });
      expect(replay.status).toBe(200);
      expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
      const again = await refund(paymentId, {});
      expect(again.status).toBe(409);
      expect((await again.json()).title).toBe("Este pago no tiene una devolución pendiente.");
      expect(await payment(paymentId)).toMatchObject({ step: "FINISHED", refundedCents: 380_000 });

      // The driver hears it, once; the page shows the refund; the company's notification and audit log have it.
      const mails = inbox.messages.filter((m) => m.kind === "refund" && m.text.includes(`operación ${request.id}`));
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ to: "conductor@example.com", subject: expect.stringMatching(/^Te devolvimos \$\s3\.800,00/) });
      expect(mails[0].text).toContain(`Te devolvimos ${formatArs(380_000)} por Pagos360`);
      const final = await expectStatus(await call("GET", `/Driver/Payment/${paymentId}?t=${token}`), 200);
      expect(final).toMatchObject({ step: "FINISHED", receipt: { refundedCents: 380_000, pendingRefundCents: 0 } });
      const refunded = await noticesOf("PAYMENT_REFUNDED");
      expect(refunded.filter((n) => n.body.includes(`operación ${request.id}`))).toEqual([expect.objectContaining({ title: "Devolución registrada" })]);
      const [entry] = await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, f.tenant.businessId), eq(auditLog.action, "payment.refund")));
      expect(entry).toMatchObject({ resourceType: "payment", resourceId: paymentId, actorUid: f.tenant.uid });
      expect(entry.changes).toMatchObject({ step: { before: "REFUND_PENDING", after: "FINISHED" }, refundedCents: { before: 0, after: 380_000 }, refundOwedCents: { before: 380_000, after: 0 } });
      expect(await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, f.tenant.businessId), eq(auditLog.action, "payment.refund")))).toHaveLength(1);

      // Still nothing asked of the provider.
      await dp.tick();
      expect(providerCalls.slice(callsBefore)).toEqual([]);
    } finally {
      await charger.cli.close();
    }
  });

  it("a start the charger refuses: the whole amount is owed by the station; a smaller refund recorded closes it", async () => {
    const charger = await connectCharger({ startAnswer: "Rejected" });
    try {
      const { paymentId, token } = await payWithPagos360(300_000);
      const p = await eventually(() => payment(paymentId), (x) => x?.step === "REFUND_PENDING");
      expect(p).toMatchObject({ status: "APPROVED", chargedCents: 0, refundedCents: 0 });
      expect(p?.failureReason).toBe("El cargador no aceptó iniciar la carga. La estación te devuelve el total por Pagos360.");
      const view = await expectStatus(await call("GET", `/Driver/Payment/${paymentId}?t=${token}`), 200);
      expect(view).toMatchObject({ step: "REFUND_PENDING", receipt: { chargedCents: 0, pendingRefundCents: 300_000 } });
      const request = (await emulatorState()).pagos360.find((r) => r.external_reference === paymentId)!;
      const receipt = inbox.messages.find((m) => m.kind === "receipt" && m.text.includes(`operación ${request.id}`));
      expect(receipt?.subject).toMatch(/no inició: la estación te devuelve \$\s3\.000,00$/);
      expect(receipt?.text).toContain(`A devolver: ${formatArs(300_000)} — la estación te lo devuelve por Pagos360`);
      const notice = (await noticesOf("PAYMENT_REFUND_PENDING")).find((n) => n.link?.endsWith(paymentId));
      expect(notice?.body).toContain(`Tenés que devolver ${formatArs(300_000)}`);
      expect(notice?.body).toContain("que no pudo iniciar");

      const done = await expectStatus(await refund(paymentId, { amountCents: 250_000 }), 200);
      // Recorded what was given back: nothing was charged, so the payment ends as a (partial) refund.
      expect(done).toMatchObject({ step: "REFUNDED", status: "PARTIALLY_REFUNDED", refundedCents: 250_000, refundOwedCents: 0 });
      expect((await refund(paymentId, { amountCents: 50_000 })).status).toBe(409);
    } finally {
      await charger.cli.close();
    }
  });

  it("the whole amount recorded ends the payment as refunded", async () => {
    const charger = await connectCharger({ startAnswer: "Rejected" });
    try {
      const { paymentId } = await payWithPagos360(200_000);
      await eventually(() => payment(paymentId), (x) => x?.step === "REFUND_PENDING");
      expect(await expectStatus(await refund(paymentId, { amountCents: 200_000 }), 200)).toMatchObject({ step: "REFUNDED", status: "REFUNDED", refundedCents: 200_000, netCents: 0 });
    } finally {
      await charger.cli.close();
    }
  });

  it("payments the first cut left retrying (SETTLING / START_FAILED with Pagos360) become refunds owed at the next sweep, without calling Pagos360", async () => {
    const [station] = await h.db.select({ id: stations.id }).from(stations).where(eq(stations.businessId, f.tenant.businessId));
    const base = { businessId: f.tenant.businessId, provider: "PAGOS360" as const, status: "APPROVED" as const, origin: "QR" as const, stationId: station.id, chargerId: f.chargerId, connectorNumber: 1, driverEmail: "antes@example.com" };
    const [settling] = await h.db
      .insert(payments)
      .values({ ...base, amountCents: 400_000, step: "SETTLING", chargedCents: 150_000, externalId: `old-${backend.name}-1`, failureReason: "Pagos360 no permite reintegros automáticos: la estación te lo devuelve a mano." })
      .returning();
    const [failed] = await h.db
      .insert(payments)
      .values({ ...base, amountCents: 200_000, step: "START_FAILED", chargedCents: 0, externalId: `old-${backend.name}-2`, failureReason: "El cargador no inició la carga en 2 minutos. Te devolvemos el total." })
      .returning();
    const callsBefore = providerCalls.length;
    await dp.tick();
    await dp.tick();
    expect(providerCalls.slice(callsBefore)).toEqual([]);
    expect(await payment(settling.id)).toMatchObject({ step: "REFUND_PENDING", failureReason: null, refundedCents: 0 });
    expect(await payment(failed.id)).toMatchObject({ step: "REFUND_PENDING", failureReason: "El cargador no inició la carga en 2 minutos. La estación te devuelve el total por Pagos360." });
    const notices = (await noticesOf("PAYMENT_REFUND_PENDING")).filter((n) => n.link?.endsWith(settling.id) || n.link?.endsWith(failed.id));
    expect(notices).toHaveLength(2);
    expect(inbox.messages.filter((m) => m.to === "antes@example.com" && m.kind === "receipt")).toHaveLength(2);
  });

  it("nothing to record: a Mercado Pago payment (it refunds by itself), a session's payment, an unknown id", async () => {
    const [mp] = await h.db
      .insert(payments)
      .values({ businessId: f.tenant.businessId, provider: "MERCADOPAGO", amountCents: 500_000, status: "APPROVED", origin: "QR", step: "FINISHED", chargedCents: 100_000, refundedCents: 400_000, externalId: `mp-${backend.name}-1` })
      .returning();
    const mpRes = await refund(mp.id, {});
    expect(mpRes.status).toBe(409);
    expect((await mpRes.json()).title).toBe("Mercado Pago devuelve los saldos automáticamente: no hay nada que registrar.");
    const [session] = await h.db
      .insert(payments)
      .values({ businessId: f.tenant.businessId, provider: "PAGOS360", amountCents: 70_000, status: "APPROVED", externalId: `p360-${backend.name}-session` })
      .returning();
    expect((await refund(session.id, {})).status).toBe(409);
    expect((await refund(randomUUID(), {})).status).toBe(404);
    expect((await refund("not-a-payment", {})).status).toBe(404);
    // Another company's Mercado Pago payment: 404 before anything else.
    expect((await refund(mp.id, {}, other.token)).status).toBe(404);
  });
});
