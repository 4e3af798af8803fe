// /Business/Invoice… over the API with an in-memory ARCA: the list (filters, pending count, the
// rejection's reason), one voucher, its PDF (with the fiscal QR's data), the Libro IVA Ventas CSV
// of a month matching the vouchers, the audited retry, another company's vouchers never seen,
// bad filters answered 422 in Spanish, and the roles (Lectura reads, cannot retry).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, businessMembers, invoices, payments } from "#db/schema";
import { createInvoicing, type Invoicing } from "../../invoicing";
import { fakeGateway } from "../mocks/arca-fake";
import { sha256 } from "../../payments/link";
import { createTenant, expectProblem, expectStatus, mintToken, openHarness, testBackends, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("invoices API ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let other: Tenant;
  const gateway = fakeGateway();
  let service: Invoicing;
  // The API is built before the database exists; it reaches the service made afterwards.
  const invoicing = new Proxy({} as Invoicing, { get: (_, k: keyof Invoicing) => service[k] });
  const ids = { b: "", a: "", rejected: "", pending: "", otherInvoice: "" };

  const settle = async (tenant: Tenant, over: Partial<typeof payments.$inferInsert> = {}) => {
    const [p] = await h.db
      .insert(payments)
      .values({ businessId: tenant.businessId, provider: "MERCADOPAGO", origin: "QR", step: "FINISHED", status: "PARTIALLY_REFUNDED", amountCents: 500_000, chargedCents: 121_000, refundedCents: 379_000, finishedAt: new Date(), ...over })
      .returning();
    return (await service.paymentSettled(p.id))!;
  };

  beforeAll(async () => {
    h = await openHarness(backend, { invoicing });
    service = createInvoicing({ db: h.db, gateway, logger: { info: () => {}, warn: () => {}, error: () => {} } });
    t = await createTenant(h, `inv-${backend.name}`);
    other = await createTenant(h, `inv-other-${backend.name}`);
    for (const x of [t, other]) gateway.settings.set(x.businessId, { companyId: x.businessId, cuit: x.cuit, taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: 3, environment: "HOMOLOGACION" });
    ids.b = (await settle(t)).id;
    ids.a = (await settle(t, { buyerCuit: "30500010912", buyerName: "Flota; \"Sur\" SA", chargedCents: 242_000, refundedCents: 258_000 })).id;
    gateway.arca(t.businessId).rejectNext = [{ code: 10013, message: "El campo CondicionIVAReceptorId es obligatorio." }];
    ids.rejected = (await settle(t)).id;
    gateway.arca(t.businessId).down = true;
    ids.pending = (await settle(t)).id;
    gateway.arca(t.businessId).down = false;
    ids.otherInvoice = (await settle(other)).id;
  }, 60_000);
  afterAll(() => h?.close());

  it("lists the company's vouchers, newest first, with the pending count and the rejection in Spanish", async () => {
    const body = await expectStatus(await h.call("GET", "/Business/Invoice", { token: t.token }), 200);
    expect(body.total).toBe(4);
    expect(body.pendingCount).toBe(1);
    expect(body.items.map((i: { id: string }) => i.id)).toEqual([ids.pending, ids.rejected, ids.a, ids.b]);
    const b = body.items.find((i: { id: string }) => i.id === ids.b);
    expect(b).toMatchObject({ type: 6, typeLabel: "Factura B", pointOfSale: 3, number: 1, formattedNumber: "0003-00000001", status: "AUTHORIZED", totalCents: 121_000, netCents: 100_000, vatCents: 21_000, creditNoteOf: null, sessionIds: null });
    expect(b.cae).toMatch(/^\d{14}$/);
    expect(b.caeDueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.items.find((i: { id: string }) => i.id === ids.a)).toMatchObject({ type: 1, typeLabel: "Factura A", number: 1, receiver: { docType: 80, docNumber: "30500010912" } });
    expect(body.items.find((i: { id: string }) => i.id === ids.rejected)).toMatchObject({ status: "REJECTED", number: null, lastError: "ARCA rechazó el comprobante: El campo CondicionIVAReceptorId es obligatorio. (código 10013)" });
    // Filters: state and type.
    const rejected = await expectStatus(await h.call("GET", "/Business/Invoice?status=REJECTED", { token: t.token }), 200);
    expect(rejected.items.map((i: { id: string }) => i.id)).toEqual([ids.rejected]);
    const facturaA = await expectStatus(await h.call("GET", "/Business/Invoice?type=1", { token: t.token }), 200);
    expect(facturaA.items.map((i: { id: string }) => i.id)).toEqual([ids.a]);
  });

  it("answers bad filters with 422 in Spanish and another company's voucher with 404", async () => {
    const bad = await expectProblem(await h.call("GET", "/Business/Invoice?type=7&status=VOID", { token: t.token }), 422);
    expect(bad.errors?.type).toEqual(["Elegí una opción válida."]);
    expect(bad.errors?.status).toEqual(["Elegí una opción válida."]);
    await expectProblem(await h.call("GET", `/Business/Invoice/${ids.otherInvoice}`, { token: t.token }), 404);
    await expectProblem(await h.call("GET", `/Business/Invoice/${ids.otherInvoice}/Pdf`, { token: t.token }), 404);
    await expectProblem(await h.call("POST", `/Business/Invoice/${ids.otherInvoice}/Retry`, { token: t.token }), 404);
    await expectProblem(await h.call("GET", "/Business/Invoice/not-an-id", { token: t.token }), 404);
    const list = await expectStatus(await h.call("GET", "/Business/Invoice", { token: other.token }), 200);
    expect(list.items.map((i: { id: string }) => i.id)).toEqual([ids.otherInvoice]);
  });

  it("serves an authorised voucher's PDF; one without CAE is a 404", async () => {
    const one = await expectStatus(await h.call("GET", `/Business/Invoice/${ids.b}`, { token: t.token }), 200);
    expect(one.id).toBe(ids.b);
    const res = await h.call("GET", `/Business/Invoice/${ids.b}/Pdf`, { token: t.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain('filename="Factura-B-0003-00000001.pdf"');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(bytes.length).toBeGreaterThan(2000);
    await expectProblem(await h.call("GET", `/Business/Invoice/${ids.pending}/Pdf`, { token: t.token }), 404);
  });

  it("the driver's link opens their authorised invoice's PDF and nobody else's; a voucher waiting for ARCA is said on the receipt", async () => {
    const token = "secreto-del-enlace-del-conductor";
    const [inv] = await h.db.select().from(invoices).where(eq(invoices.id, ids.b));
    await h.db.update(payments).set({ accessTokenHash: sha256(token) }).where(eq(payments.id, inv.paymentId!));
    const res = await h.call("GET", `/Driver/Payment/${inv.paymentId}/Invoice/Pdf?t=${token}`, { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain('filename="Factura-B-0003-00000001.pdf"');
    expect(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");
    // Another secret, none, or a payment id that is not one: nothing.
    await expectProblem(await h.call("GET", `/Driver/Payment/${inv.paymentId}/Invoice/Pdf?t=otro-secreto`, { token: null }), 404);
    await expectProblem(await h.call("GET", `/Driver/Payment/${inv.paymentId}/Invoice/Pdf`, { token: null }), 404);
    await expectProblem(await h.call("GET", `/Driver/Payment/not-an-id/Invoice/Pdf?t=${token}`, { token: null }), 404);
    const view = await expectStatus(await h.call("GET", `/Driver/Payment/${inv.paymentId}?t=${token}`, { token: null }), 200);
    expect(view.receipt).toMatchObject({ invoice: expect.stringMatching(/^Factura B N° 0003-00000001 · CAE \d{14}$/), invoicePending: false });

    // The voucher ARCA has not authorised: the receipt says it is on its way, and there is no PDF yet.
    const [pending] = await h.db.select().from(invoices).where(eq(invoices.id, ids.pending));
    await h.db.update(payments).set({ accessTokenHash: sha256(token) }).where(eq(payments.id, pending.paymentId!));
    const waiting = await expectStatus(await h.call("GET", `/Driver/Payment/${pending.paymentId}?t=${token}`, { token: null }), 200);
    expect(waiting.receipt).toMatchObject({ invoice: null, invoicePending: true });
    await expectProblem(await h.call("GET", `/Driver/Payment/${pending.paymentId}/Invoice/Pdf?t=${token}`, { token: null }), 404);
  });

  it("the Libro IVA Ventas of the month lists exactly the authorised vouchers, amounts adding up", async () => {
    const now = new Date();
    const from = `${now.toISOString().slice(0, 8)}01`;
    const res = await h.call("GET", `/Business/Invoice/Export.csv?from=${from}`, { token: t.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = (await res.text()).replace(/^\uFEFF/, "");
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe("Fecha;Tipo;Punto de venta;Número;Receptor;Documento del receptor;Neto gravado;IVA;Exento;Total;CAE;Vencimiento del CAE;Cargas");
    const authorised = (await h.db.select().from(invoices).where(eq(invoices.businessId, t.businessId))).filter((i) => i.status === "AUTHORIZED");
    expect(lines).toHaveLength(1 + authorised.length);
    expect(lines, text).toContainEqual(expect.stringContaining(';Factura B;3;1;Consumidor Final;;"1000,00";"210,00";"0,00";"1210,00";'));
    // Decimal commas and a receiver's name with the separator and quotes are quoted (domain/csv), not split.
    expect(lines).toContainEqual(expect.stringContaining(';Factura A;3;1;"Flota; ""Sur"" SA";CUIT 30-50001091-2;"2000,00";"420,00";"0,00";"2420,00";'));
  });

  it("retries a rejected voucher (audited), which ARCA then authorises; an authorised one is a 409", async () => {
    const body = await expectStatus(await h.call("POST", `/Business/Invoice/${ids.rejected}/Retry`, { token: t.token }), 200);
    expect(body.id).toBe(ids.rejected);
    const [after] = await h.db.select().from(invoices).where(eq(invoices.id, ids.rejected));
    expect(after).toMatchObject({ status: "AUTHORIZED", number: 2 });
    const [entry] = await h.db.select().from(auditLog).where(eq(auditLog.resourceId, ids.rejected));
    expect(entry).toMatchObject({ action: "invoice.retry", resourceType: "invoice" });
    const conflict = await expectProblem(await h.call("POST", `/Business/Invoice/${ids.b}/Retry`, { token: t.token }), 409);
    expect(conflict.title).toBe("El comprobante ya está autorizado: no hay nada que reintentar.");
  });

  it("Lectura reads the vouchers but cannot retry them", async () => {
    const uid = `inv-reader-${backend.name}`;
    await h.db.insert(businessMembers).values({ businessId: t.businessId, firebaseUid: uid, email: `${uid}@example.com`, role: "READER" });
    const token = mintToken(uid);
    await expectStatus(await h.call("GET", "/Business/Invoice", { token }), 200);
    await expectProblem(await h.call("POST", `/Business/Invoice/${ids.pending}/Retry`, { token }), 403);
  });
});
