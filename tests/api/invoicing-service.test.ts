// The invoicing service against an in-memory ARCA, on PGlite and PostgreSQL: a settled QR payment
// gets its voucher for what was charged (B, A to a CUIT, C for a monotributista), numbers never
// skip nor repeat (concurrent issuers, an answer lost between the request and the answer, a
// holder that died), ARCA down queues the voucher with backoff, a rejection says why in Spanish
// and can be retried, a refund after invoicing issues the matching credit note.
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "#db/client";
import { businessUsers, invoices, invoiceSeries, payments } from "#db/schema";
import { memoryInbox } from "#infra/mail";
import { createInvoicing, type Invoicing } from "../../invoicing";
import { createDriverPayments } from "../../payments";
import { createKeyRing } from "#infra/crypto";
import type { FiscalSettings } from "../../domain/arca-port";
import { fakeGateway } from "../mocks/arca-fake";
import { testBackends, validCuit } from "./helpers";

const logger = { info: () => {}, warn: () => {}, error: () => {} };
let seed = 40_000_000 + Math.floor(Math.random() * 100_000) * 10;
/** A CUIT not handed out before in this file (validCuit skips seeds without a check digit to the next one). */
function nextCuit(): string {
  const cuit = validCuit(seed);
  seed = Number(cuit.slice(2, 10)) + 1;
  return cuit;
}

describe.each(testBackends())("invoicing service ($name)", (backend) => {
  let database: Database;
  let clock: Date;
  let gateway: ReturnType<typeof fakeGateway>;
  let invoicing: Invoicing;
  let businessId: string;
  const inbox = memoryInbox();

  async function company(taxCondition: FiscalSettings["taxCondition"] = "RESPONSABLE_INSCRIPTO"): Promise<string> {
    const cuit = nextCuit();
    const [b] = await database.db
      .insert(businessUsers)
      .values({ firebaseUid: `inv-${cuit}`, email: `${cuit}@example.com`, businessName: `Cargas ${cuit}`, cuit, businessAddress: "Av. Corrientes 1234, CABA", status: "ACTIVE" })
      .returning();
    gateway.settings.set(b.id, { companyId: b.id, cuit, taxCondition, pointOfSale: 3, environment: "HOMOLOGACION" });
    return b.id;
  }

  async function settledPayment(over: Partial<typeof payments.$inferInsert> = {}): Promise<string> {
    const [p] = await database.db
      .insert(payments)
      .values({ businessId, provider: "MERCADOPAGO", origin: "QR", step: "FINISHED", status: "PARTIALLY_REFUNDED", amountCents: 500_000, chargedCents: 312_345, refundedCents: 187_655, finishedAt: clock, driverEmail: "conductor@example.com", receiptSentAt: clock, ...over })
      .returning({ id: payments.id });
    return p.id;
  }

  const numbersOf = async (id: string, type = 6) =>
    (await database.db.select({ n: invoices.number }).from(invoices).where(and(eq(invoices.businessId, id), eq(invoices.type, type)))).map((r) => r.n).filter((n): n is number => n !== null).sort((a, b) => a - b);
  const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    clock = new Date("2026-11-27T15:00:00Z");
    gateway = fakeGateway();
    invoicing = createInvoicing({ db: database.db, gateway, logger, mailer: inbox, now: () => clock });
    businessId = await company();
  });

  it("a settled payment gets one Factura B for what was charged, net + VAT to the centavo, with a 14-digit CAE", async () => {
    const paymentId = await settledPayment();
    const inv = await invoicing.paymentSettled(paymentId);
    expect(inv).toMatchObject({ status: "AUTHORIZED", type: 6, pointOfSale: 3, number: 1, totalCents: 312_345, receiverDocType: 99, receiverDocNumber: "0", paymentId });
    expect(inv!.cae).toMatch(/^\d{14}$/);
    expect(inv!.netCents + inv!.vatCents).toBe(312_345);
    expect(inv!.vatCents).toBe(54_209); // 312 345 × 21 / 121 = 54 208.64
    // What ARCA was asked: concept 2 (services), consumidor final, the same amounts.
    const [req] = gateway.arca(businessId).requests;
    expect(req).toMatchObject({ concept: 2, type: 6, number: 1, receiverDocType: 99, receiverVatConditionId: 5, totalCents: 312_345, netCents: inv!.netCents, vatCents: inv!.vatCents, vat: [{ id: 5, baseCents: inv!.netCents, amountCents: inv!.vatCents }] });
    // Once: a second settlement (another node, a retry) finds the same invoice and asks nothing.
    const again = await invoicing.paymentSettled(paymentId);
    expect(again!.id).toBe(inv!.id);
    expect(gateway.arca(businessId).requests).toHaveLength(1);
  });

  it("a driver who gave a CUIT gets a Factura A; a monotributista issues Factura C, all net", async () => {
    const buyer = nextCuit();
    const a = await invoicing.paymentSettled(await settledPayment({ buyerCuit: buyer, buyerName: "Flota Sur SA" }));
    expect(a).toMatchObject({ status: "AUTHORIZED", type: 1, receiverDocType: 80, receiverDocNumber: buyer, receiverName: "Flota Sur SA", receiverVatCondition: 1 });
    businessId = await company("MONOTRIBUTO");
    const c = await invoicing.paymentSettled(await settledPayment());
    expect(c).toMatchObject({ status: "AUTHORIZED", type: 11, number: 1, netCents: 312_345, vatCents: 0 });
    expect(gateway.arca(businessId).requests[0].vat).toEqual([]);
  });

  it("a payment that charged nothing, or a company without fiscal settings, gets no invoice", async () => {
    expect(await invoicing.paymentSettled(await settledPayment({ chargedCents: 0, refundedCents: 500_000, step: "REFUNDED" }))).toBeUndefined();
    gateway.settings.delete(businessId);
    expect(await invoicing.paymentSettled(await settledPayment())).toBeUndefined();
  });

  it("concurrent settlements number 1..n with no gap and no repeat", async () => {
    const ids = await Promise.all(range(8).map(() => settledPayment()));
    await Promise.all(ids.map((id) => invoicing.paymentSettled(id)));
    // Those that found the series busy wait a few seconds: the sweep issues them.
    for (let i = 0; i < 10 && (await invoicing.pendingCount(businessId)) > 0; i++) {
      clock = new Date(clock.getTime() + 10_000);
      await invoicing.tick();
    }
    expect(await invoicing.pendingCount(businessId)).toBe(0);
    expect(await numbersOf(businessId)).toEqual(range(8));
    expect(gateway.arca(businessId).authorized.map((v) => v.number)).toEqual(range(8));
  });

  it("an answer lost between the request and the answer: the next attempt recognises the number ARCA gave, none skipped or repeated", async () => {
    const arca = gateway.arca(businessId);
    await invoicing.paymentSettled(await settledPayment());
    arca.loseNextAnswer = true;
    const lostPayment = await settledPayment();
    const lost = await invoicing.paymentSettled(lostPayment);
    // ARCA authorised number 2, but the answer never came: the voucher waits, its number noted on the series.
    expect(lost).toMatchObject({ status: "PENDING", number: null });
    const [series] = await database.db.select().from(invoiceSeries).where(eq(invoiceSeries.businessId, businessId));
    expect(series).toMatchObject({ pendingInvoiceId: lost!.id, pendingNumber: 2, holder: null });
    // The next voucher of the series first settles the lost one: 2 is the lost voucher's, the new one is 3.
    const next = await invoicing.paymentSettled(await settledPayment());
    expect(next).toMatchObject({ status: "AUTHORIZED", number: 3 });
    // Its CAE and due date come from ARCA (FECompConsultar): the voucher is complete, with its PDF and e-mail.
    const [recovered] = await database.db.select().from(invoices).where(eq(invoices.id, lost!.id));
    expect(recovered).toMatchObject({ status: "AUTHORIZED", number: 2, cae: arca.authorized[1].cae, caeDueDate: arca.authorized[1].caeDueDate, lastError: null });
    expect(recovered.cae).toMatch(/^\d{14}$/);
    expect(await numbersOf(businessId)).toEqual([1, 2, 3]);
    expect(arca.authorized.map((v) => v.number)).toEqual([1, 2, 3]);
    expect(arca.requests.map((r) => r.number)).toEqual([1, 2, 3]);
    expect((await invoicing.pdf(businessId, lost!.id))?.filename).toBe("Factura-B-0003-00000002.pdf");
    const mails = inbox.messages.filter((m) => m.kind === "invoice").map((m) => m.text);
    expect(mails.some((t) => t.includes(`Factura B N° 0003-00000002 · CAE ${recovered.cae}`))).toBe(true);
  });

  it("an answer lost, and ARCA's voucher with that number is not the one asked for (another amount): not taken as ours, the operator is told why", async () => {
    const arca = gateway.arca(businessId);
    arca.loseNextAnswer = true;
    const lost = await invoicing.paymentSettled(await settledPayment());
    expect(lost).toMatchObject({ status: "PENDING", number: null });
    // ARCA keeps number 1 with another total: someone else's voucher on this point of sale.
    arca.authorized[0].totalCents = 99_900;
    const next = await invoicing.paymentSettled(await settledPayment());
    expect(next).toMatchObject({ status: "AUTHORIZED", number: 2 });
    const [kept] = await database.db.select().from(invoices).where(eq(invoices.id, lost!.id));
    expect(kept).toMatchObject({ status: "REJECTED", number: null, cae: null });
    expect(kept.lastError).toMatch(/^ARCA tiene autorizada la Factura B N° 0003-00000001, pero no coincide con este comprobante \(total: \$\s999,00 en ARCA, \$\s3\.123,45 acá\)/);
    expect(kept.lastError).toMatch(/al reintentar se pide un número nuevo/);
    // The operator's retry gives it a number of its own.
    await invoicing.retry(businessId, lost!.id);
    expect(await invoicing.issue(lost!.id)).toMatchObject({ status: "AUTHORIZED", number: 3 });
  });

  it("a voucher recognised without its CAE (FECompConsultar had nothing then) gets it from the sweep, and its e-mail", async () => {
    const arca = gateway.arca(businessId);
    arca.loseNextAnswer = true;
    const lost = await invoicing.paymentSettled(await settledPayment());
    const voucher = arca.voucher.bind(arca);
    arca.voucher = async () => null;
    await invoicing.paymentSettled(await settledPayment());
    const [waiting] = await database.db.select().from(invoices).where(eq(invoices.id, lost!.id));
    expect(waiting).toMatchObject({ status: "AUTHORIZED", number: 1, cae: null });
    expect(waiting.lastError).toMatch(/todavía no pudimos leer su CAE/);
    arca.voucher = voucher;
    // Not before its next attempt; then the sweep reads it.
    await invoicing.tick();
    expect((await database.db.select().from(invoices).where(eq(invoices.id, lost!.id)))[0].cae).toBeNull();
    clock = new Date(clock.getTime() + 60_000);
    inbox.messages.length = 0;
    await invoicing.tick();
    const [done] = await database.db.select().from(invoices).where(eq(invoices.id, lost!.id));
    expect(done).toMatchObject({ status: "AUTHORIZED", number: 1, cae: arca.authorized[0].cae, lastError: null, nextAttemptAt: null });
    expect(inbox.messages.filter((m) => m.kind === "invoice").map((m) => m.text).join()).toContain(`Factura B N° 0003-00000001 · CAE ${done.cae}`);
  });

  it("a process that died holding the series: nobody numbers until its lease runs out, then its voucher is recognised", async () => {
    const arca = gateway.arca(businessId);
    // A dead process asked for number 1 for this invoice; ARCA authorised it; the process died before storing it.
    const deadPayment = await settledPayment();
    const [dead] = await database.db
      .insert(invoices)
      .values({ businessId, type: 6, pointOfSale: 3, totalCents: 312_345, netCents: 258_138, vatCents: 54_207, vatRateBp: 2100, paymentId: deadPayment, issueDate: "2026-11-27", serviceFrom: "2026-11-27", serviceTo: "2026-11-27", nextAttemptAt: new Date(clock.getTime() + 3_600_000) })
      .returning();
    await database.db.insert(invoiceSeries).values({ businessId, pointOfSale: 3, type: 6, holder: dead.id, leaseUntil: new Date(clock.getTime() + 60_000), pendingInvoiceId: dead.id, pendingNumber: 1 });
    await arca.requestCae({ pointOfSale: 3, type: 6, number: 1, concept: 2, issueDate: "2026-11-27", serviceFrom: "2026-11-27", serviceTo: "2026-11-27", paymentDueDate: "2026-11-27", receiverDocType: 99, receiverDocNumber: "0", receiverVatConditionId: 5, totalCents: 312_345, netCents: 258_138, vatCents: 54_207, exemptCents: 0, vat: [] });
    const waiting = await invoicing.paymentSettled(await settledPayment());
    expect(waiting).toMatchObject({ status: "PENDING", attempts: 0 });
    expect(arca.requests).toHaveLength(1);
    clock = new Date(clock.getTime() + 61_000);
    await invoicing.tick();
    const rows = await database.db.select().from(invoices).where(eq(invoices.businessId, businessId));
    expect(rows.find((r) => r.id === dead.id)).toMatchObject({ status: "AUTHORIZED", number: 1, cae: arca.authorized[0].cae });
    expect(rows.find((r) => r.id === waiting!.id)).toMatchObject({ status: "AUTHORIZED", number: 2 });
    expect(await numbersOf(businessId)).toEqual([1, 2]);
  });

  it("ARCA down: the payment is settled anyway, the voucher waits with backoff, the count shows it, and it is issued when ARCA is back", async () => {
    const arca = gateway.arca(businessId);
    arca.down = true;
    const paymentId = await settledPayment();
    const inv = await invoicing.paymentSettled(paymentId);
    expect(inv).toMatchObject({ status: "PENDING", attempts: 1, number: null });
    expect(inv!.lastError).toBe("ARCA no responde: reintentamos automáticamente.");
    expect(inv!.nextAttemptAt!.getTime() - clock.getTime()).toBe(30_000);
    expect(await invoicing.pendingCount(businessId)).toBe(1);
    // Before its next attempt the sweep leaves it alone; the second failure waits twice as long.
    clock = new Date(clock.getTime() + 29_000);
    await invoicing.tick();
    expect((await database.db.select().from(invoices).where(eq(invoices.id, inv!.id)))[0].attempts).toBe(1);
    clock = new Date(clock.getTime() + 2_000);
    await invoicing.tick();
    const [second] = await database.db.select().from(invoices).where(eq(invoices.id, inv!.id));
    expect(second.attempts).toBe(2);
    expect(second.nextAttemptAt!.getTime() - clock.getTime()).toBe(60_000);
    arca.down = false;
    clock = new Date(clock.getTime() + 61_000);
    await invoicing.tick();
    const [done] = await database.db.select().from(invoices).where(eq(invoices.id, inv!.id));
    expect(done).toMatchObject({ status: "AUTHORIZED", number: 1, lastError: null });
    expect(await invoicing.pendingCount(businessId)).toBe(0);
    // Authorised after the receipt went out: the driver gets it by e-mail, PDF attached.
    const mail = inbox.messages.find((m) => m.kind === "invoice" && m.text.includes(`CAE ${done.cae}`));
    expect(mail?.subject).toBe("Tu Factura B N° 0003-00000001");
    expect(mail?.attachments?.[0]).toMatchObject({ filename: "Factura-B-0003-00000001.pdf", contentType: "application/pdf" });
    expect(Buffer.from(mail!.attachments![0].contentBase64, "base64").subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("the sweep invoices a settled payment whose settlement hook never ran", async () => {
    const paymentId = await settledPayment();
    await invoicing.tick();
    const [inv] = await database.db.select().from(invoices).where(eq(invoices.paymentId, paymentId));
    expect(inv).toMatchObject({ status: "AUTHORIZED", number: 1 });
  });

  it("a rejection is kept with ARCA's reason in Spanish, not retried by itself, and the operator's retry issues it", async () => {
    const arca = gateway.arca(businessId);
    arca.rejectNext = [{ code: 10015, message: "El campo DocNro es inválido." }];
    const inv = await invoicing.paymentSettled(await settledPayment());
    expect(inv).toMatchObject({ status: "REJECTED", number: null, lastError: "ARCA rechazó el comprobante: El campo DocNro es inválido. (código 10015)" });
    clock = new Date(clock.getTime() + 3_600_000);
    await invoicing.tick();
    expect(arca.requests).toHaveLength(1);
    expect(await invoicing.retry(businessId, inv!.id)).toMatchObject({ status: "PENDING" });
    // Another company's retry finds nothing.
    expect(await invoicing.retry(await company(), inv!.id)).toBeNull();
    await invoicing.tick();
    const [done] = await database.db.select().from(invoices).where(eq(invoices.id, inv!.id));
    expect(done).toMatchObject({ status: "AUTHORIZED", number: 1 });
  });

  it("a refund after invoicing issues the matching credit note B (partial, then the rest), linked with CbtesAsoc; a chargeback credits what is left", async () => {
    const arca = gateway.arca(businessId);
    const paymentId = await settledPayment();
    const inv = (await invoicing.paymentSettled(paymentId))!;
    // Only the unused balance went back so far: nothing to credit.
    expect(await invoicing.paymentRefunded(paymentId)).toBeUndefined();
    // The operator refunds $1.000 of the charge.
    await database.db.update(payments).set({ refundedCents: 187_655 + 100_000 }).where(eq(payments.id, paymentId));
    const nc = await invoicing.paymentRefunded(paymentId);
    expect(nc).toMatchObject({ status: "AUTHORIZED", type: 8, number: 1, totalCents: 100_000, creditNoteOf: inv.id, paymentId });
    expect(nc!.netCents + nc!.vatCents).toBe(100_000);
    expect(arca.requests.at(-1)!.associated).toEqual([{ type: 6, pointOfSale: 3, number: 1, cuit: gateway.settings.get(businessId)!.cuit, date: inv.issueDate }]);
    expect(await invoicing.paymentRefunded(paymentId)).toBeUndefined();
    // Then a chargeback: the rest of the invoice, once (the sweep finds it too, and writes nothing more).
    await database.db.update(payments).set({ status: "CHARGED_BACK" }).where(eq(payments.id, paymentId));
    await invoicing.tick();
    await invoicing.tick();
    const notes = await database.db.select().from(invoices).where(eq(invoices.creditNoteOf, inv.id));
    expect(notes.map((n) => n.totalCents).sort((a, b) => a - b)).toEqual([100_000, 212_345]);
    expect(notes.every((n) => n.status === "AUTHORIZED")).toBe(true);
    expect(notes.reduce((s, n) => s + n.totalCents, 0)).toBe(inv.totalCents);
    expect(await numbersOf(businessId, 8)).toEqual([1, 2]);
    const [original] = await database.db.select().from(invoices).where(and(eq(invoices.id, inv.id), isNull(invoices.creditNoteOf)));
    expect(original.number).toBe(1);
  });

  it("a QR payment that settles through the payments service gets its Factura B at once, attached to the driver's receipt, which names it", async () => {
    const receipts = memoryInbox();
    const payments_ = createDriverPayments({ db: database.db, keyRing: createKeyRing(["c".repeat(64)]), logger, mailer: receipts, appName: "Enchufá", invoicing, now: () => clock });
    // Charged exactly what was prepaid: nothing to refund, the sweep settles it (SETTLING → FINISHED).
    const paymentId = await settledPayment({ step: "SETTLING", status: "APPROVED", amountCents: 121_000, chargedCents: 121_000, refundedCents: 0, finishedAt: null, receiptSentAt: null });
    await payments_.tick();
    const [inv] = await database.db.select().from(invoices).where(eq(invoices.paymentId, paymentId));
    expect(inv).toMatchObject({ status: "AUTHORIZED", type: 6, number: 1, totalCents: 121_000 });
    const receipt = receipts.messages.find((m) => m.kind === "receipt");
    expect(receipt?.text).toContain(`Factura B N° 0003-00000001 · CAE ${inv.cae}`);
    expect(receipt?.attachments?.map((a) => a.filename)).toEqual(["Factura-B-0003-00000001.pdf"]);
    // No second e-mail: the receipt carried it.
    expect(receipts.messages.filter((m) => m.kind === "invoice")).toEqual([]);
  });
});
