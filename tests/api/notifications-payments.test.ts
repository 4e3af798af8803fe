// /Business/Notification, push registrations, payment-provider accounts and /Business/Payments.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createKeyRing, openPaymentCredentials } from "#infra/crypto";
import { notifications, paymentAccounts, payments, pushRegistrations } from "#db/schema";
import { callApi, createTestApi, createTenant, expectProblem, expectStatus, fakeVerifyToken, openHarness, stationInput, TEST_KEYS, testBackends, type Harness, type Tenant } from "./helpers";

const MP = { publicKey: "APP_USR-1234abcd-5678-efgh-9012-ijklmnop", accessToken: "APP_USR-1111222233334444-010203-abcdefabcdefabcdef-98765" };

describe.each(testBackends())("notifications and payments ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, "np-owner");
  });
  afterAll(() => h?.close());

  describe("/Business/Notification", () => {
    const ids: string[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 5; i++) {
        const [row] = await h.db
          .insert(notifications)
          .values({ businessId: t.businessId, type: "CHARGER_FAULTED", title: `Aviso ${i}`, body: "Cargador en falla", link: "/charger", createdAt: new Date(Date.UTC(2025, 0, 1 + i)) })
          .returning({ id: notifications.id });
        ids.push(row.id);
      }
    });

    it("lists newest first, paginated, with the unread count", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/Notification?pageSize=2", { token: t.token }), 200);
      expect(body).toMatchObject({ total: 5, page: 1, pageSize: 2, unread: 5 });
      expect(body.items.map((n: { title: string }) => n.title)).toEqual(["Aviso 4", "Aviso 3"]);
      expect(body.items[0]).toEqual({ id: ids[4], type: "CHARGER_FAULTED", title: "Aviso 4", body: "Cargador en falla", link: "/charger", readAt: null, createdAt: "2025-01-05T00:00:00.000Z" });
      expect(await expectStatus(await h.call("GET", "/Business/Notification/UnreadCount", { token: t.token }), 200)).toEqual({ unread: 5 });
    });

    it("marks one as read (idempotent) and filters unread", async () => {
      const body = await expectStatus(await h.call("POST", `/Business/Notification/${ids[0]}/Read`, { token: t.token }), 200);
      expect(body).toMatchObject({ id: ids[0], unread: 4 });
      expect(body.readAt).toEqual(expect.any(String));
      const again = await expectStatus(await h.call("POST", `/Business/Notification/${ids[0]}/Read`, { token: t.token }), 200);
      expect(again.readAt).toBe(body.readAt);
      const unread = await expectStatus(await h.call("GET", "/Business/Notification?unread=true", { token: t.token }), 200);
      expect(unread.total).toBe(4);
      await expectProblem(await h.call("POST", "/Business/Notification/00000000-0000-4000-8000-000000000000/Read", { token: t.token }), 404);
    });

    it("marks all as read", async () => {
      expect(await expectStatus(await h.call("POST", "/Business/Notification/ReadAll", { token: t.token }), 200)).toEqual({ updated: 4, unread: 0 });
      expect(await expectStatus(await h.call("GET", "/Business/Notification/UnreadCount", { token: t.token }), 200)).toEqual({ unread: 0 });
    });

    it("upserts push registrations by token", async () => {
      const record = {
        token: "fcm-token-abc",
        createTime: "2025-03-01T10:00:00.000Z",
        auth: "auth-secret",
        p256dh: "BPublicKey",
        endpoint: "https://fcm.googleapis.com/fcm/send/abc",
        swScope: "/firebase-cloud-messaging-push-scope",
        vapidKey: "BVapid",
      };
      const first = await expectStatus(await h.call("POST", "/Business/Notification/PushRegistration", { token: t.token, body: record }), 200);
      expect(first).toEqual({ id: expect.any(String), token: "fcm-token-abc", createTime: "2025-03-01T10:00:00.000Z" });
      const second = await expectStatus(
        await h.call("POST", "/Business/Notification/PushRegistration", { token: t.token, body: { ...record, createTime: 1_741_000_000_000, p256dh: "BOther" } }),
        200,
      );
      expect(second.id).toBe(first.id);
      const rows = await h.db.select().from(pushRegistrations).where(eq(pushRegistrations.token, "fcm-token-abc"));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ businessId: t.businessId, p256dh: "BOther", swScope: "/firebase-cloud-messaging-push-scope" });

      // The same browser signing in with another company moves the token there.
      const other = await createTenant(h, "np-other");
      await expectStatus(await h.call("POST", "/Business/Notification/PushRegistration", { token: other.token, body: record }), 200);
      const [moved] = await h.db.select().from(pushRegistrations).where(eq(pushRegistrations.token, "fcm-token-abc"));
      expect(moved.businessId).toBe(other.businessId);

      const p = await expectProblem(await h.call("POST", "/Business/Notification/PushRegistration", { token: t.token, body: { endpoint: "http://insecure" } }), 422);
      expect(p.errors).toEqual({ token: ["Este campo es obligatorio."], endpoint: ["El endpoint debe ser una dirección https."] });
    });
  });

  describe("/MercadoPago/BusinessUser and /Pagos360/BusinessUser", () => {
    it("reports a disconnected account", async () => {
      expect(await expectStatus(await h.call("GET", "/MercadoPago/BusinessUser", { token: t.token }), 200)).toEqual({
        provider: "MERCADOPAGO",
        connected: false,
        status: "DISCONNECTED",
        last4: null,
        accountLabel: null,
        environment: null,
        lastError: null,
        connectedAt: null,
        updatedAt: null,
      });
    });

    it("connects Mercado Pago: credentials encrypted at rest, never returned (only the last 4)", async () => {
      const body = await expectStatus(await h.call("PUT", "/MercadoPago/BusinessUser", { token: t.token, body: { ...MP, accountLabel: "Cuenta principal" } }), 200);
      expect(body).toMatchObject({ provider: "MERCADOPAGO", connected: true, status: "CONNECTED", last4: "8765", accountLabel: "Cuenta principal", environment: "PRODUCTION" });
      const text = JSON.stringify(body) + JSON.stringify(await expectStatus(await h.call("GET", "/MercadoPago/BusinessUser", { token: t.token }), 200));
      expect(text).not.toContain(MP.accessToken);
      expect(text).not.toContain(MP.publicKey);

      const [row] = await h.db.select().from(paymentAccounts).where(eq(paymentAccounts.businessId, t.businessId));
      expect(row.credentialsEncrypted).not.toContain("APP_USR");
      expect(row.credentialsEncrypted).toMatch(/^v1\.[0-9a-f]{8}\./);
      const plain = JSON.parse(openPaymentCredentials(createKeyRing(TEST_KEYS), row.credentialsEncrypted, { businessId: t.businessId, provider: "MERCADOPAGO" }));
      expect(plain).toEqual(MP);
    });

    it("keeps reading credentials after a key rotation, and flags unreadable ones", async () => {
      const rotated = createTestApi({ db: h.db, verifyToken: fakeVerifyToken, encryptionKeys: ["c".repeat(64), ...TEST_KEYS] });
      const body = await expectStatus(await callApi(rotated, "GET", "/MercadoPago/BusinessUser", { token: t.token }), 200);
      expect(body).toMatchObject({ connected: true, status: "CONNECTED", environment: "PRODUCTION" });
      const lost = createTestApi({ db: h.db, verifyToken: fakeVerifyToken, encryptionKeys: ["d".repeat(64)] });
      const broken = await expectStatus(await callApi(lost, "GET", "/MercadoPago/BusinessUser", { token: t.token }), 200);
      expect(broken).toMatchObject({ connected: false, status: "ERROR", lastError: expect.stringMatching(/Volvé a conectar/) });
    });

    it("validates Mercado Pago credentials (prefix and same environment)", async () => {
      const p = await expectProblem(await h.call("PUT", "/MercadoPago/BusinessUser", { token: t.token, body: { publicKey: "pk_live_123", accessToken: "" } }), 422);
      expect(p.errors).toEqual({
        publicKey: ["Debe empezar con APP_USR- o TEST- (copiala de tu panel de Mercado Pago)."],
        accessToken: ["Este campo es obligatorio."],
      });
      const mixed = await expectProblem(await h.call("PUT", "/MercadoPago/BusinessUser", { token: t.token, body: { ...MP, accessToken: "TEST-1111222233334444-010203-abcdef" } }), 422);
      expect(mixed.errors?.accessToken?.[0]).toMatch(/mismo entorno/);
    });

    it("connects, reports and disconnects Pagos360", async () => {
      const p = await expectProblem(await h.call("PUT", "/Pagos360/BusinessUser", { token: t.token, body: { apiKey: "short" } }), 422);
      expect(p.errors).toEqual({ apiKey: ["La API key de Pagos360 tiene al menos 16 caracteres."], accountName: ["Este campo es obligatorio."] });
      const body = await expectStatus(await h.call("PUT", "/Pagos360/BusinessUser", { token: t.token, body: { apiKey: "p360_live_abcdefghijklmnop4242", accountName: "Cobros Enchufá" } }), 200);
      expect(body).toMatchObject({ provider: "PAGOS360", connected: true, last4: "4242", accountLabel: "Cobros Enchufá", environment: null });
      // Reconnecting replaces the credentials (one account per provider).
      await expectStatus(await h.call("PUT", "/Pagos360/BusinessUser", { token: t.token, body: { apiKey: "p360_live_zzzzzzzzzzzzzzzz9999", accountName: "Cobros 2" } }), 200);
      expect(await expectStatus(await h.call("GET", "/Pagos360/BusinessUser", { token: t.token }), 200)).toMatchObject({ last4: "9999", accountLabel: "Cobros 2" });

      const gone = await expectStatus(await h.call("DELETE", "/Pagos360/BusinessUser", { token: t.token }), 200);
      expect(gone).toMatchObject({ connected: false, status: "DISCONNECTED" });
      const rows = await h.db.select().from(paymentAccounts).where(eq(paymentAccounts.businessId, t.businessId));
      expect(rows.map((r) => r.provider)).toEqual(["MERCADOPAGO"]);
    });
  });

  describe("/Business/Payments", () => {
    beforeAll(async () => {
      const mk = (provider: "MERCADOPAGO" | "PAGOS360", amountCents: number, status: "APPROVED" | "PENDING" | "REFUNDED", day: number) => ({
        businessId: t.businessId,
        provider,
        amountCents,
        status,
        externalId: `ext-${provider}-${day}`,
        createdAt: new Date(Date.UTC(2025, 1, day, 15)),
      });
      await h.db.insert(payments).values([mk("MERCADOPAGO", 100_000, "APPROVED", 1), mk("MERCADOPAGO", 50_000, "PENDING", 2), mk("PAGOS360", 30_000, "REFUNDED", 3), mk("PAGOS360", 20_000, "APPROVED", 4)]);
    });

    it("lists newest first with totals over the whole filter", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/Payments?pageSize=2", { token: t.token }), 200);
      expect(body).toMatchObject({ total: 4, page: 1, pageSize: 2, totals: { count: 4, amountCents: 200_000, approvedCents: 120_000, pendingCents: 50_000, refundedCents: 30_000 } });
      expect(body.items.map((p: { amountCents: number }) => p.amountCents)).toEqual([20_000, 30_000]);
      expect(body.items[0]).toMatchObject({ provider: "PAGOS360", status: "APPROVED", currency: "ARS", sessionId: null, transactionId: null, externalId: "ext-PAGOS360-4" });
    });

    it("filters by provider, status and dates; sorts by amount", async () => {
      const mp = await expectStatus(await h.call("GET", "/Business/Payments?provider=MERCADOPAGO&status=APPROVED", { token: t.token }), 200);
      expect(mp.totals).toMatchObject({ count: 1, amountCents: 100_000 });
      const dated = await expectStatus(await h.call("GET", "/Business/Payments?from=2025-02-02&to=2025-02-03", { token: t.token }), 200);
      expect(dated.total).toBe(2);
      const sorted = await expectStatus(await h.call("GET", "/Business/Payments?sort=-amountCents", { token: t.token }), 200);
      expect(sorted.items.map((p: { amountCents: number }) => p.amountCents)).toEqual([100_000, 50_000, 30_000, 20_000]);
      const p = await expectProblem(await h.call("GET", "/Business/Payments?provider=PAYPAL&sort=externalId", { token: t.token }), 422);
      expect(Object.keys(p.errors!).sort()).toEqual(["provider", "sort"]);
    });
  });

  describe("/Business/Payments: drivers' QR payments", () => {
    let q: Tenant;
    let stationId: string;
    beforeAll(async () => {
      q = await createTenant(h, "np-qr");
      stationId = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: q.token, body: stationInput({ name: "Estación QR" }) }), 201)).id;
      const qr = (step: "FINISHED" | "REFUNDED" | "CHARGING", status: "APPROVED" | "REFUNDED", amountCents: number, chargedCents: number | null, refundedCents: number, day: number) => ({
        businessId: q.businessId,
        provider: "MERCADOPAGO" as const,
        origin: "QR" as const,
        step,
        stationId,
        connectorNumber: 1,
        amountCents,
        status,
        chargedCents,
        refundedCents,
        externalId: `mp-qr-${day}`,
        createdAt: new Date(Date.UTC(2025, 2, day, 15)),
      });
      await h.db.insert(payments).values([qr("FINISHED", "APPROVED", 500_000, 320_000, 180_000, 1), qr("REFUNDED", "REFUNDED", 200_000, null, 200_000, 2), qr("CHARGING", "APPROVED", 1_000_000, null, 0, 3)]);
    });

    it("each row: origin, step, charged, refunded and net, and its station without a session; totals count partial refunds", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/Payments?sort=createdAt", { token: q.token }), 200);
      expect(body.items).toMatchObject([
        { origin: "QR", step: "FINISHED", amountCents: 500_000, chargedCents: 320_000, refundedCents: 180_000, netCents: 320_000, stationName: "Estación QR", sessionId: null },
        { origin: "QR", step: "REFUNDED", status: "REFUNDED", amountCents: 200_000, refundedCents: 200_000, netCents: 0, stationName: "Estación QR" },
        { origin: "QR", step: "CHARGING", amountCents: 1_000_000, chargedCents: null, refundedCents: 0, netCents: 1_000_000 },
      ]);
      expect(body.totals).toMatchObject({ count: 3, refundedCents: 380_000 });
      // Another company never sees them.
      const other = await expectStatus(await h.call("GET", "/Business/Payments", { token: t.token }), 200);
      expect(other.items.some((p: { origin: string }) => p.origin === "QR")).toBe(false);
    });
  });
});
