// Web push for new notifications: the business's tokens only, unregistered tokens deleted,
// failures swallowed and never a token in the logs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import {
  businessMembers,
  businessUsers,
  notifications,
  pushRegistrations,
} from "#db/schema";
import {
  pushNotification,
  type PushMessage,
  type SendPush,
} from "#infra/push";
import {
  createTenant,
  expectStatus,
  mintToken,
  openHarness,
  testBackends,
  validCuit,
  type Harness,
  type Tenant,
} from "./helpers";

interface Call {
  tokens: string[];
  message: PushMessage;
}

describe.each(testBackends())(
  "push on new notifications ($name)",
  (backend) => {
    let h: Harness;
    let a: Tenant;
    let b: Tenant;
    const calls: Call[] = [];
    let failNext = false;
    const sendPush: SendPush = async (tokens, message) => {
      calls.push({ tokens: [...tokens].sort(), message });
      if (failNext) {
        failNext = false;
        throw new Error("FCM no disponible");
      }
      const unregistered = tokens.filter((t) => t.startsWith("dead-"));
      return {
        successCount: tokens.length - unregistered.length,
        failureCount: unregistered.length,
        unregistered,
      };
    };
    const services = () => ({
      db: h.db,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      sendPush,
    });

    beforeAll(async () => {
      h = await openHarness(backend, { sendPush, autoApproveBusinesses: true });
      a = await createTenant(h, "push-a");
      b = await createTenant(h, "push-b");
      const register = (t: Tenant, token: string) =>
        h.call("POST", "/Business/Notification/PushRegistration", {
          token: t.token,
          body: {
            token,
            createTime: "2025-03-01T10:00:00.000Z",
            auth: "x",
            p256dh: "y",
            endpoint: "https://fcm.googleapis.com/fcm/send/z",
            swScope: "/firebase-cloud-messaging-push-scope",
            vapidKey: "v",
          },
        });
      await expectStatus(await register(a, "live-a-1"), 200);
      await expectStatus(await register(a, "dead-a-2"), 200);
      await expectStatus(await register(b, "live-b-1"), 200);
      calls.length = 0; // createTenant's approval notices went to businesses without browsers
    });
    afterAll(() => h?.close());

    const insertNotice = async (businessId: string) => {
      const [row] = await h.db
        .insert(notifications)
        .values({
          businessId,
          type: "CHARGER_FAULTED",
          title: "Cargador en falla",
          body: "El cargador CP-1 reportó una falla.",
          link: "/charger",
        })
        .returning();
      return row;
    };

    it("sends the new notification to the business's tokens only and deletes the unregistered ones", async () => {
      const row = await insertNotice(a.businessId);
      const logs: object[] = [];
      await pushNotification(
        {
          ...services(),
          logger: {
            info: (o) => logs.push(o),
            warn: (o) => logs.push(o),
            error: (o) => logs.push(o),
          },
        },
        row
      );
      expect(calls).toEqual([
        {
          tokens: ["dead-a-2", "live-a-1"],
          message: {
            notificationId: row.id,
            type: "CHARGER_FAULTED",
            title: "Cargador en falla",
            body: "El cargador CP-1 reportó una falla.",
            link: "/charger",
          },
        },
      ]);
      const left = await h.db
        .select({
          token: pushRegistrations.token,
          businessId: pushRegistrations.businessId,
        })
        .from(pushRegistrations);
      expect(left.map((r) => r.token).sort()).toEqual(["live-a-1", "live-b-1"]);
      expect(JSON.stringify(logs)).not.toMatch(/live-a-1|dead-a-2/);
      expect(logs).toEqual([
        expect.objectContaining({
          notificationId: row.id,
          sent: 1,
          failed: 1,
          removed: 1,
        }),
      ]);
    });

    it("does not call the sender for a business without browsers", async () => {
      calls.length = 0;
      const c = await createTenant(h, "push-c");
      calls.length = 0;
      await pushNotification(services(), await insertNotice(c.businessId));
      expect(calls).toEqual([]);
    });

    it("swallows a sender failure (logged without tokens) and keeps the registrations", async () => {
      calls.length = 0;
      failNext = true;
      const logs: object[] = [];
      await expect(
        pushNotification(
          {
            ...services(),
            logger: {
              info: (o) => logs.push(o),
              warn: (o) => logs.push(o),
              error: (o) => logs.push(o),
            },
          },
          await insertNotice(b.businessId)
        )
      ).resolves.toBeUndefined();
      expect(calls.map((x) => x.tokens)).toEqual([["live-b-1"]]);
      expect(JSON.stringify(logs)).toContain("FCM no disponible");
      expect(JSON.stringify(logs)).not.toContain("live-b-1");
      expect(
        await h.db
          .select()
          .from(pushRegistrations)
          .where(eq(pushRegistrations.businessId, b.businessId))
      ).toHaveLength(1);
    });

    it("the auto-approval notice of a new company goes through the push path without failing the registration", async () => {
      calls.length = 0;
      failNext = true; // even a broken sender must not fail the request
      const res = await h.call("POST", "/Account/Business", {
        token: mintToken("push-d"),
        body: {
          businessName: "Push D S.A.",
          cuit: validCuit(77_000_123),
          businessAddress: "Av. Siempreviva 742, CABA",
          phoneNumber: "+54 11 5555-0000",
        },
      });
      await expectStatus(res, 201);
      const [d] = await h.db
        .select()
        .from(businessUsers)
        .where(eq(businessUsers.firebaseUid, "push-d"));
      const rows = await h.db
        .select()
        .from(notifications)
        .where(eq(notifications.businessId, d.id));
      expect(rows.map((r) => r.type)).toEqual(["BUSINESS_APPROVED"]);
      expect(calls).toEqual([]); // a brand-new company has no registered browsers yet
      failNext = false;
    });

    it("a Técnico's browser gets no money: payment news are not sent to it, the others without amounts", async () => {
      const c = await createTenant(h, "push-money");
      await h.db.insert(businessMembers).values({ businessId: c.businessId, firebaseUid: "push-tech", email: "push-tech@example.com", role: "TECHNICIAN" });
      const register = (token: string, as: string) =>
        h.call("POST", "/Business/Notification/PushRegistration", { token: as, body: { token, createTime: "2025-03-01T10:00:00.000Z" } });
      await expectStatus(await register("owner-browser", c.token), 200);
      await expectStatus(await register("tech-browser", mintToken("push-tech")), 200);
      const notice = async (type: "SESSION_COMPLETED" | "PAYMENT_RECEIVED", body: string, link: string) =>
        (await h.db.insert(notifications).values({ businessId: c.businessId, type, title: "Aviso", body, link }).returning())[0];
      calls.length = 0;
      const done = await notice("SESSION_COMPLETED", "Estación · conector 1: 1,0 kWh, total $ 12.345,67.", "/activity?session=x");
      await pushNotification(services(), done);
      expect(calls).toEqual([
        { tokens: ["owner-browser"], message: expect.objectContaining({ body: "Estación · conector 1: 1,0 kWh, total $ 12.345,67.", link: "/activity?session=x" }) },
        { tokens: ["tech-browser"], message: expect.objectContaining({ body: "Estación · conector 1: 1,0 kWh.", link: null }) },
      ]);
      calls.length = 0;
      await pushNotification(services(), await notice("PAYMENT_RECEIVED", "Mercado Pago: $ 12.345,67 por una carga con QR.", "/payment"));
      expect(calls.map((x) => x.tokens)).toEqual([["owner-browser"]]);
    });

    it("without a sender configured nothing is sent", async () => {
      calls.length = 0;
      await pushNotification(
        { db: h.db, logger: services().logger },
        await insertNotice(a.businessId)
      );
      expect(calls).toEqual([]);
    });
  }
);
