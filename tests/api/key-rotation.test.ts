// ENCRYPTION_KEY rotation: with a new key first and the old one still listed, the
// re-encryption pass re-seals every payment credential with the new key (bound to the same
// business and provider), leaves alone what is already current or cannot be opened, keeps
// updated_at, and a second pass has nothing to do — after which the old key can be removed.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyRing, needsReencryption, openPaymentCredentials, sealPaymentCredentials } from "#infra/crypto";
import { reencryptSecrets } from "#api/key-rotation";
import type { Database } from "#db/client";
import { arcaAccessTickets, businessUsers, fiscalSettings, ocpiPartners, paymentAccounts } from "#db/schema";
import { openFiscalSecret, sealFiscalSecret } from "#infra/arca/gateway";
import { openTicketSecret, sealTicketSecret } from "#infra/arca/ticket-store";
import { openPartnerToken, sealPartnerToken } from "../../ocpi/tokens";
import { testBackends } from "../setup/db";

const OLD = "11".repeat(32);
const NEW = "22".repeat(32);
const STRANGER = "33".repeat(32);

describe.each(testBackends())("re-encryption after a key rotation ($name)", (backend) => {
  let database: Database;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database?.close());

  it("re-seals old credentials with the new key, once, and nothing else", async () => {
    const { db } = database;
    const old = createKeyRing([OLD]);
    const businesses = await db
      .insert(businessUsers)
      .values([1, 2, 3].map((n) => ({ firebaseUid: `rot-${n}`, email: `rot${n}@example.com`, businessName: `Empresa ${n}` })))
      .returning({ id: businessUsers.id });
    const secret = (n: number) => JSON.stringify({ accessToken: `APP_USR-secreto-${n}` });
    const stamp = new Date("2026-01-02T03:04:05Z");
    const [a, b, c] = businesses;
    await db.insert(paymentAccounts).values([
      { businessId: a.id, provider: "MERCADOPAGO", credentialsEncrypted: sealPaymentCredentials(old, secret(1), { businessId: a.id, provider: "MERCADOPAGO" }), updatedAt: stamp },
      { businessId: a.id, provider: "PAGOS360", credentialsEncrypted: sealPaymentCredentials(old, secret(2), { businessId: a.id, provider: "PAGOS360" }), updatedAt: stamp },
      // Already under the new key (connected after the rotation).
      { businessId: b.id, provider: "MERCADOPAGO", credentialsEncrypted: sealPaymentCredentials(createKeyRing([NEW]), secret(3), { businessId: b.id, provider: "MERCADOPAGO" }), updatedAt: stamp },
      // Sealed with a key nobody configured: reported, left as it is.
      { businessId: c.id, provider: "MERCADOPAGO", credentialsEncrypted: sealPaymentCredentials(createKeyRing([STRANGER]), secret(4), { businessId: c.id, provider: "MERCADOPAGO" }), updatedAt: stamp },
    ]);
    const before = await db.select().from(paymentAccounts);
    const lost = before.find((r) => r.businessId === c.id)!;

    const rotated = createKeyRing([NEW, OLD]);
    expect(await reencryptSecrets(db, rotated)).toEqual({ checked: 4, reencrypted: 2, failed: [{ what: "credenciales de pago", id: lost.id }] });

    const after = await db.select().from(paymentAccounts);
    const onlyNew = createKeyRing([NEW]);
    for (const row of after.filter((r) => r.businessId !== c.id)) {
      expect(needsReencryption(onlyNew, row.credentialsEncrypted)).toBe(false);
      const n = row.businessId === b.id ? 3 : row.provider === "MERCADOPAGO" ? 1 : 2;
      // Opens with the new key alone, and only for its own business and provider.
      expect(openPaymentCredentials(onlyNew, row.credentialsEncrypted, { businessId: row.businessId, provider: row.provider })).toBe(secret(n));
      expect(() => openPaymentCredentials(onlyNew, row.credentialsEncrypted, { businessId: c.id, provider: row.provider })).toThrow();
      expect(row.updatedAt.toISOString()).toBe(stamp.toISOString());
    }
    const unchanged = after.find((r) => r.id === lost.id)!;
    expect(unchanged.credentialsEncrypted).toBe(lost.credentialsEncrypted);
    // The one already current was not rewritten.
    const current = before.find((r) => r.businessId === b.id)!;
    expect(after.find((r) => r.id === current.id)!.credentialsEncrypted).toBe(current.credentialsEncrypted);

    expect(await reencryptSecrets(db, rotated)).toEqual({ checked: 4, reencrypted: 0, failed: [{ what: "credenciales de pago", id: lost.id }] });
    await db.delete(paymentAccounts).where(eq(paymentAccounts.id, lost.id));
    expect(await reencryptSecrets(db, onlyNew)).toEqual({ checked: 3, reencrypted: 0, failed: [] });
  });

  it("re-seals the ARCA certificates and keys, the roaming tokens and ARCA's tickets too, so the old key can go", async () => {
    const { db } = database;
    const old = createKeyRing([OLD]);
    const [biz] = await db.insert(businessUsers).values({ firebaseUid: "rot-fiscal", email: "rotfiscal@example.com", businessName: "Empresa fiscal" }).returning({ id: businessUsers.id });
    const [fiscal] = await db
      .insert(fiscalSettings)
      .values({
        businessId: biz.id,
        taxCondition: "RESPONSABLE_INSCRIPTO",
        pointOfSale: 3,
        certificateEncrypted: sealFiscalSecret(old, "-----BEGIN CERTIFICATE-----", { businessId: biz.id, what: "certificate" }),
        keyEncrypted: sealFiscalSecret(old, "-----BEGIN PRIVATE KEY-----", { businessId: biz.id, what: "key" }),
      })
      .returning();
    const [partner] = await db.insert(ocpiPartners).values({ businessId: biz.id }).returning({ id: ocpiPartners.id });
    await db.update(ocpiPartners).set({ outgoingTokenEncrypted: sealPartnerToken(old, "token-c", { businessId: biz.id, partnerId: partner.id }) }).where(eq(ocpiPartners.id, partner.id));
    const ticketKey = `https://wsaa.example|20111111112|${biz.id}|wsfe`;
    await db.insert(arcaAccessTickets).values({ key: ticketKey, ticketSealed: sealTicketSecret(old, ticketKey, '{"token":"t","sign":"s"}'), expiresAt: new Date("2030-01-01T00:00:00Z") });

    const rotated = createKeyRing([NEW, OLD]);
    const report = await reencryptSecrets(db, rotated);
    expect(report.failed.filter((f) => f.what !== "credenciales de pago")).toEqual([]);
    expect(report.reencrypted).toBe(4);

    // Each opens with the new key alone, still bound to what it belongs to.
    const onlyNew = createKeyRing([NEW]);
    const [f] = await db.select().from(fiscalSettings).where(eq(fiscalSettings.id, fiscal.id));
    expect(openFiscalSecret(onlyNew, f.certificateEncrypted!, { businessId: biz.id, what: "certificate" })).toBe("-----BEGIN CERTIFICATE-----");
    expect(openFiscalSecret(onlyNew, f.keyEncrypted!, { businessId: biz.id, what: "key" })).toBe("-----BEGIN PRIVATE KEY-----");
    expect(() => openFiscalSecret(onlyNew, f.keyEncrypted!, { businessId: biz.id, what: "certificate" })).toThrow();
    const [p] = await db.select().from(ocpiPartners).where(eq(ocpiPartners.id, partner.id));
    expect(openPartnerToken(onlyNew, p.outgoingTokenEncrypted!, { businessId: biz.id, partnerId: partner.id })).toBe("token-c");
    const [t] = await db.select().from(arcaAccessTickets).where(eq(arcaAccessTickets.key, ticketKey));
    expect(openTicketSecret(onlyNew, ticketKey, t.ticketSealed!)).toBe('{"token":"t","sign":"s"}');
    expect((await reencryptSecrets(db, rotated)).reencrypted).toBe(0);
  });
});
