// Local mode's ARCA demo: the demo operator (Responsable Inscripto, point of sale 3) starts with
// the vouchers of its seeded history — one authorised Factura B per settled payment for exactly
// what it charged, a Nota de Crédito B for what went back — numbered 1, 2, 3… per type with dates
// that never go back; the ARCA emulator, told of them at start, answers the same last numbers the
// database holds; and a restart seeds nothing twice.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, inArray, isNull, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#db/client";
import * as s from "#db/schema";
import { seedDemoOperator } from "#db/seed/demo";
import { memoryTicketStore } from "#infra/arca/client";
import { createInvoicingGateway } from "#infra/arca/gateway";
import { createKeyRing } from "#infra/crypto";
import { createInvoicing } from "../../../invoicing";
import { createArcaEmulator } from "../../../scripts/arca-emulator";
import { DEMO_POINT_OF_SALE, prepareArcaDemo, type ArcaDemo } from "../../../scripts/local-arca-demo";
import { testBackends } from "../../setup/db";

const KEY = "b".repeat(64);

describe.each(testBackends())("the ARCA demo's seeded vouchers ($name)", (backend) => {
  let database: Database;
  let businessId: string;
  let demo: ArcaDemo;
  const dataDir = mkdtempSync(path.join(tmpdir(), "arca-demo-"));
  const refunded = { partly: "", chargedBack: "" };

  beforeAll(async () => {
    database = await backend.open();
    const db = database.db;
    ({ businessId } = await seedDemoOperator(db, { firebaseUid: `demo-arca-${backend.name}`, email: "demo@enchufa.local", now: new Date("2026-11-20T15:00:00Z") }));
    // Money that went back after settling: part of one payment refunded, another charged back.
    const approved = await db.select().from(s.payments).where(and(eq(s.payments.businessId, businessId), eq(s.payments.status, "APPROVED"))).orderBy(s.payments.createdAt);
    expect(approved.length).toBeGreaterThan(10);
    refunded.partly = approved[3].id;
    refunded.chargedBack = approved[7].id;
    await db.update(s.payments).set({ status: "PARTIALLY_REFUNDED", refundedCents: Math.floor(approved[3].amountCents / 3), updatedAt: new Date("2026-11-19T12:00:00Z") }).where(eq(s.payments.id, refunded.partly));
    await db.update(s.payments).set({ status: "CHARGED_BACK", updatedAt: new Date("2026-11-18T12:00:00Z") }).where(eq(s.payments.id, refunded.chargedBack));
    demo = (await prepareArcaDemo(db, { businessId, encryptionKey: KEY, dataDir }))!;
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("every settled payment has one authorised Factura B for what it charged, adding up to the payments to the centavo", async () => {
    const db = database.db;
    const settled = await db
      .select()
      .from(s.payments)
      .where(and(eq(s.payments.businessId, businessId), inArray(s.payments.status, ["APPROVED", "PARTIALLY_REFUNDED", "REFUNDED", "CHARGED_BACK"])));
    const facturas = await db
      .select()
      .from(s.invoices)
      .where(and(eq(s.invoices.businessId, businessId), isNull(s.invoices.creditNoteOf)))
      .orderBy(s.invoices.number);
    expect(facturas).toHaveLength(settled.length);
    const byPayment = new Map(facturas.map((f) => [f.paymentId, f]));
    for (const p of settled) expect(byPayment.get(p.id)?.totalCents, `the invoice of payment ${p.id}`).toBe(p.amountCents);
    expect(facturas.reduce((sum, f) => sum + f.totalCents, 0)).toBe(settled.reduce((sum, p) => sum + p.amountCents, 0));
    for (const f of facturas) {
      expect(f).toMatchObject({ status: "AUTHORIZED", type: 6, pointOfSale: DEMO_POINT_OF_SALE, receiverDocType: 99, receiverVatCondition: 5 });
      expect(f.netCents + f.vatCents + f.exemptCents).toBe(f.totalCents);
      // The VAT the price contains at the session's rate (21 %), to the centavo.
      const vatRateBp = f.vatRateBp ?? Number.NaN;
      expect(Math.abs(f.vatCents - (f.totalCents * vatRateBp) / (10_000 + vatRateBp))).toBeLessThanOrEqual(0.5);
      expect(f.cae).toMatch(/^\d{14}$/);
      expect(f.caeDueDate! > f.issueDate).toBe(true);
    }
    // Numbered 1…n as ARCA would, a later number never dated earlier, CAEs all different.
    expect(facturas.map((f) => f.number)).toEqual(facturas.map((_, i) => i + 1));
    for (let i = 1; i < facturas.length; i++) expect(facturas[i].issueDate >= facturas[i - 1].issueDate).toBe(true);
    expect(new Set(facturas.map((f) => f.cae)).size).toBe(facturas.length);
  });

  it("what went back has its Nota de Crédito B: the part refunded, the whole of a chargeback", async () => {
    const db = database.db;
    const notes = await db.select().from(s.invoices).where(and(eq(s.invoices.businessId, businessId), isNotNull(s.invoices.creditNoteOf))).orderBy(s.invoices.number);
    expect(notes.map((n) => n.paymentId).sort()).toEqual([refunded.partly, refunded.chargedBack].sort());
    // In the order the money went back: the chargeback (18 Nov) first.
    expect(notes.map((n) => [n.paymentId, n.number, n.type])).toEqual([
      [refunded.chargedBack, 1, 8],
      [refunded.partly, 2, 8],
    ]);
    for (const n of notes) {
      const [p] = await db.select().from(s.payments).where(eq(s.payments.id, n.paymentId!));
      const [inv] = await db.select().from(s.invoices).where(eq(s.invoices.id, n.creditNoteOf!));
      expect(inv.paymentId).toBe(p.id);
      expect(n.totalCents).toBe(p.status === "CHARGED_BACK" ? inv.totalCents : p.refundedCents);
      expect(n.netCents + n.vatCents).toBe(n.totalCents);
      expect(n).toMatchObject({ status: "AUTHORIZED", pointOfSale: DEMO_POINT_OF_SALE, vatRateBp: inv.vatRateBp });
    }
  });

  it("the emulator, told of them at start, answers the database's last numbers; a restart seeds nothing twice", async () => {
    const db = database.db;
    const facturas = await db.select().from(s.invoices).where(and(eq(s.invoices.businessId, businessId), eq(s.invoices.type, 6)));
    const arca = createArcaEmulator();
    arca.registerTaxpayer(demo.cuit, demo.certPem, [DEMO_POINT_OF_SALE]);
    arca.knowVouchers(demo.vouchers);
    expect(arca.state().lastNumbers).toEqual({ [`${demo.cuit}|3|6`]: facturas.length, [`${demo.cuit}|3|8`]: 2 });
    const sum = (type: number) => demo.vouchers.filter((v) => v.type === type).reduce((t, v) => t + Math.round(Number(v.total) * 100), 0);
    expect(sum(6)).toBe(facturas.reduce((t, f) => t + f.totalCents, 0));

    const again = (await prepareArcaDemo(db, { businessId, encryptionKey: KEY, dataDir }))!;
    const all = await db.select({ id: s.invoices.id }).from(s.invoices).where(eq(s.invoices.businessId, businessId));
    expect(all).toHaveLength(facturas.length + 2);
    expect(again.vouchers).toEqual(demo.vouchers);
  });

  it("the demo's next live voucher, asked of the emulator through the real client, takes the number after the seeded ones", async () => {
    const db = database.db;
    const seeded = await db.select({ id: s.invoices.id }).from(s.invoices).where(and(eq(s.invoices.businessId, businessId), eq(s.invoices.type, 6)));
    const arca = createArcaEmulator();
    arca.registerTaxpayer(demo.cuit, demo.certPem, [DEMO_POINT_OF_SALE]);
    arca.knowVouchers(demo.vouchers);
    // The emulator answered in-process, as local mode's ARCA_WSAA_URL / ARCA_WSFE_URL would over HTTP.
    const emulatorFetch = (async (url: string | URL | Request, init?: RequestInit) => {
      const answer = await arca.respond(String(url).endsWith("/wsaa") ? "wsaa" : "wsfe", String(init?.body ?? ""));
      return new Response(answer.body, { status: answer.status, headers: { "Content-Type": answer.contentType } });
    }) as typeof fetch;
    const gateway = createInvoicingGateway({ db, keyRing: createKeyRing([KEY]), config: { wsaaUrl: "http://127.0.0.1:4000/arca/wsaa", wsfeUrl: "http://127.0.0.1:4000/arca/wsfe", fetch: emulatorFetch, tickets: memoryTicketStore() } });
    const invoicing = createInvoicing({ db, gateway, logger: { info: () => {}, warn: () => {}, error: () => {} } });
    const [paid] = await db
      .insert(s.payments)
      .values({ businessId, provider: "MERCADOPAGO", origin: "QR", step: "FINISHED", status: "PARTIALLY_REFUNDED", amountCents: 500_000, chargedCents: 123_456, refundedCents: 376_544, finishedAt: new Date() })
      .returning();
    const live = await invoicing.paymentSettled(paid.id);
    expect(live).toMatchObject({ status: "AUTHORIZED", type: 6, pointOfSale: DEMO_POINT_OF_SALE, number: seeded.length + 1, totalCents: 123_456 });
    expect(arca.state().lastNumbers[`${demo.cuit}|3|6`]).toBe(seeded.length + 1);
  });
});
