// GET /Business/Payments/Reconciliation (+ Export.csv, POST Run): a company's payments against
// Mercado Pago's and Pagos360's records, the providers answered by msw at their real URLs with
// the company's own credentials. Matching data → no difference; each kind of difference shown;
// another company's payments never seen; bad periods → 422 in Spanish; a difference notified once.
import { and, eq } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { auditLog, notifications, payments } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { disabledMailer } from "#infra/mail";
import { createDriverPayments } from "../../payments";
import { MERCADOPAGO_DEFAULT_URL, type MpPayment } from "#infra/payments/mercadopago";
import { PAGOS360_DEFAULT_URL, type PaymentRequest } from "#infra/payments/pagos360";
import { createTenant, expectProblem, expectStatus, openHarness, TEST_KEYS, testBackends, type Harness, type Tenant } from "./helpers";

const MP_TOKEN = { ours: "APP_USR-1111222233334444-010203-recon0000000000000-11111", other: "APP_USR-1111222233334444-010203-recon0000000000000-22222" };
const P360_KEY = "p360-recon-key-0123456789";

/** What each provider has, per account (the bearer credential). */
const mp = new Map<string, MpPayment[]>();
const p360 = new Map<string, PaymentRequest>();

const provider = setupServer(
  http.get(`${MERCADOPAGO_DEFAULT_URL}/v1/payments/search`, ({ request }) => {
    const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    const q = new URL(request.url).searchParams;
    const ref = q.get("external_reference");
    const all = (mp.get(token) ?? []).filter((p) => !ref || p.external_reference === ref);
    const offset = Number(q.get("offset") ?? 0);
    const limit = Number(q.get("limit") ?? 30);
    return HttpResponse.json({ paging: { total: all.length, limit, offset }, results: all.slice(offset, offset + limit) });
  }),
  http.get(`${PAGOS360_DEFAULT_URL}/payment-request/:id`, ({ params, request }) => {
    const found = request.headers.get("authorization") === `Bearer ${P360_KEY}` ? p360.get(String(params.id)) : undefined;
    // Errors without a body: msw's streams do not end when the client cancels an unread body.
    return found ? HttpResponse.json(found) : new HttpResponse(null, { status: 404 });
  }),
);

describe.each(testBackends())("payment reconciliation ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let other: Tenant;
  const ids = { mp: "", p360: "", mpMissing: "", p360Missing: "", otherMp: "" };

  const mpPayment = (o: Partial<MpPayment> = {}): MpPayment => ({
    id: 5001,
    status: "approved",
    external_reference: ids.mp,
    transaction_amount: 1500,
    transaction_amount_refunded: 0,
    currency_id: "ARS",
    fee_details: [{ type: "mercadopago_fee", amount: 60.5, fee_payer: "collector" }],
    transaction_details: { net_received_amount: 1439.5 },
    ...o,
  });
  const p360Request = (o: Partial<PaymentRequest> = {}): PaymentRequest => ({
    id: 7001,
    state: "paid",
    checkout_url: "https://checkout.pagos360.test/7001",
    external_reference: ids.p360,
    first_total: 2000,
    request_result: [{ type: "collected_payment_request_result", amount: 2000, gross_fee: 80.25, net_amount: 1919.75 }],
    ...o,
  });
  /** Both providers agree with every payment of ours. */
  function matching() {
    mp.set(MP_TOKEN.ours, [mpPayment()]);
    mp.set(MP_TOKEN.other, [mpPayment({ id: 9001, external_reference: ids.otherMp, transaction_amount: 999 })]);
    p360.clear();
    p360.set("7001", p360Request());
  }

  beforeAll(async () => {
    provider.listen({ onUnhandledRequest: "error" });
    h = await openHarness(backend);
    t = await createTenant(h, `recon-${backend.name}`);
    other = await createTenant(h, `recon-other-${backend.name}`);
    await expectStatus(await h.call("PUT", "/MercadoPago/BusinessUser", { token: t.token, body: { publicKey: "APP_USR-pub-recon", accessToken: MP_TOKEN.ours } }), 200);
    await expectStatus(await h.call("PUT", "/Pagos360/BusinessUser", { token: t.token, body: { apiKey: P360_KEY, accountName: "Cobros" } }), 200);
    await expectStatus(await h.call("PUT", "/MercadoPago/BusinessUser", { token: other.token, body: { publicKey: "APP_USR-pub-other", accessToken: MP_TOKEN.other } }), 200);
    const base = { origin: "QR" as const, currency: "ARS", status: "APPROVED" as const, createdAt: new Date(Date.now() - 86_400_000) };
    const rows = await h.db
      .insert(payments)
      .values([
        { ...base, businessId: t.businessId, provider: "MERCADOPAGO", amountCents: 150_000, externalId: "5001" },
        { ...base, businessId: t.businessId, provider: "PAGOS360", amountCents: 200_000, externalId: "7001", checkoutId: "7001" },
        { ...base, businessId: other.businessId, provider: "MERCADOPAGO", amountCents: 99_900, externalId: "9001" },
        // Never paid: no difference, whatever the provider has.
        { ...base, businessId: t.businessId, provider: "MERCADOPAGO", amountCents: 50_000, status: "PENDING" },
      ])
      .returning({ id: payments.id });
    [ids.mp, ids.p360, ids.otherMp] = rows.map((r) => r.id);
  });
  afterEach(() => {
    provider.resetHandlers();
    matching();
  });
  afterAll(async () => {
    provider.close();
    await h?.close();
  });

  it("finds no difference when every payment matches; totals and fees to the cent", async () => {
    matching();
    const body = await expectStatus(await h.call("GET", "/Business/Payments/Reconciliation", { token: t.token }), 200);
    expect(body.differences).toEqual([]);
    expect(body.checked).toBe(3);
    expect(body.unchecked).toEqual([]);
    expect(body.totals).toEqual({ grossCents: 350_000, feeCents: 6_050 + 8_025, refundedCents: 0, netCents: 350_000 - 14_075 });
    // The fee read is stored on the payment: the Pagos list shows gross, fee and net.
    const [stored] = await h.db.select().from(payments).where(eq(payments.id, ids.mp));
    expect(stored.feeCents).toBe(6_050);
    const list = await expectStatus(await h.call("GET", "/Business/Payments", { token: t.token }), 200);
    const row = (id: string) => list.items.find((p: { id: string }) => p.id === id);
    expect(row(ids.mp)).toMatchObject({ amountCents: 150_000, feeCents: 6_050, netCents: 150_000 - 6_050 });
    expect(row(ids.p360)).toMatchObject({ amountCents: 200_000, feeCents: 8_025, netCents: 200_000 - 8_025 });
    // The period's totals are the rows added up; a pending payment keeps nothing and has no fee.
    expect(list.totals).toMatchObject({ feeCents: 14_075, netCents: list.items.reduce((sum: number, p: { netCents: number }) => sum + p.netCents, 0) });
    expect(list.totals.netCents).toBe(350_000 - 14_075);
  });

  it("shows each kind of difference, in Spanish", async () => {
    const [missingMp, missingP360] = await h.db
      .insert(payments)
      .values([
        { businessId: t.businessId, provider: "MERCADOPAGO", origin: "QR", amountCents: 80_000, status: "APPROVED", externalId: "5003" },
        { businessId: t.businessId, provider: "PAGOS360", origin: "QR", amountCents: 30_000, status: "PENDING", checkoutId: "7404" },
      ])
      .returning({ id: payments.id });
    try {
      mp.set(MP_TOKEN.ours, [
        mpPayment({ transaction_amount: 1400, currency_id: "USD", transaction_amount_refunded: 500 }),
        // A second payment on the same reference: unknown to us.
        mpPayment({ id: 5002, transaction_amount: 1500 }),
        // The other company's payment is not ours, even on our account.
        mpPayment({ id: 5004, external_reference: ids.otherMp }),
      ]);
      p360.set("7001", p360Request({ state: "reverted" }));
      const body = await expectStatus(await h.call("GET", "/Business/Payments/Reconciliation", { token: t.token }), 200);
      const byKind = Object.fromEntries(body.differences.map((d: { kind: string }) => [d.kind, d]));
      expect(Object.keys(byKind).sort()).toEqual(["AMOUNT", "CURRENCY", "MISSING_AT_PROVIDER", "REFUNDED", "STATUS", "UNKNOWN_TO_US"]);
      expect(byKind.AMOUNT).toMatchObject({ paymentId: ids.mp, externalId: "5001", ours: "150000", theirs: "140000", description: "Mostramos $ 1.500,00; Mercado Pago registra $ 1.400,00." });
      expect(byKind.CURRENCY).toMatchObject({ ours: "ARS", theirs: "USD" });
      expect(byKind.REFUNDED).toMatchObject({ ours: "0", theirs: "50000" });
      expect(byKind.UNKNOWN_TO_US).toMatchObject({ paymentId: ids.mp, externalId: "5002", ours: null, theirs: "150000" });
      expect(byKind.STATUS).toMatchObject({ provider: "PAGOS360", paymentId: ids.p360, ours: "APPROVED", theirs: "CHARGED_BACK" });
      expect(byKind.MISSING_AT_PROVIDER).toMatchObject({ paymentId: missingMp.id, externalId: "5003", theirs: null });
      // A Pagos360 request it does not have, never paid: not a difference.
      expect(body.differences.some((d: { paymentId: string }) => d.paymentId === missingP360.id)).toBe(false);
      for (const d of body.differences) expect(d.description).toMatch(/Mostramos|no tiene|tiene otro pago/);
      expect(JSON.stringify(body)).not.toContain(ids.otherMp);
    } finally {
      await h.db.delete(payments).where(eq(payments.id, missingMp.id));
      await h.db.delete(payments).where(eq(payments.id, missingP360.id));
    }
  });

  it("never shows another company's payments", async () => {
    matching();
    const mine = await expectStatus(await h.call("GET", "/Business/Payments/Reconciliation", { token: other.token }), 200);
    expect(mine.checked).toBe(1);
    expect(mine.differences).toEqual([]);
    expect(mine.totals.grossCents).toBe(99_900);
    expect(JSON.stringify(mine)).not.toContain(ids.mp);
    // Its provider's records never count for the company asking.
    mp.set(MP_TOKEN.other, []);
    const theirs = await expectStatus(await h.call("GET", "/Business/Payments/Reconciliation", { token: other.token }), 200);
    expect(theirs.differences.map((d: { kind: string; paymentId: string }) => [d.kind, d.paymentId])).toEqual([["MISSING_AT_PROVIDER", ids.otherMp]]);
  });

  it("says why a provider's payments were not compared", async () => {
    provider.use(http.get(`${MERCADOPAGO_DEFAULT_URL}/v1/payments/search`, () => new HttpResponse(null, { status: 500 })));
    const body = await expectStatus(await h.call("GET", "/Business/Payments/Reconciliation", { token: t.token }), 200);
    expect(body.unchecked).toEqual([{ provider: "MERCADOPAGO", reason: "No pudimos consultar a Mercado Pago: sus pagos no se compararon. Probá de nuevo más tarde." }]);
    expect(body.checked).toBe(1);
    expect(body.differences).toEqual([]);
  });

  it.each([
    ["from=2025-13-01", "from"],
    ["from=ayer", "from"],
    ["from=2025-03-10&to=2025-03-01", "to"],
    ["from=2025-01-01&to=2025-03-01", "to"],
  ])("refuses %s with a Spanish 422", async (qs, field) => {
    const problem = await expectProblem(await h.call("GET", `/Business/Payments/Reconciliation?${qs}`, { token: t.token }), 422);
    expect(problem.errors?.[field]?.[0]).toMatch(/fecha|período|días/i);
    await expectProblem(await h.call("GET", `/Business/Payments/Reconciliation/Export.csv?${qs}`, { token: t.token }), 422);
  });

  it("exports the differences as CSV", async () => {
    mp.set(MP_TOKEN.ours, [mpPayment({ transaction_amount: 1400 })]);
    const res = await h.call("GET", "/Business/Payments/Reconciliation/Export.csv", { token: t.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="conciliacion-\d{8}-\d{8}\.csv"$/);
    const text = await res.text();
    const lines = text.replace(/^\uFEFF/, "").trimEnd().split("\r\n");
    expect(lines[0]).toBe("Diferencia;Proveedor;Pago;Pago en el proveedor;Enchufá;Proveedor (valor);Detalle");
    expect(lines.slice(1)).toEqual([`Monto distinto;Mercado Pago;${ids.mp};5001;"1500,00";"1400,00";"Mostramos $ 1.500,00; Mercado Pago registra $ 1.400,00."`]);
  });

  it("Conciliar ahora: notifies a new difference once, with a link to the view, and is audited", async () => {
    mp.set(MP_TOKEN.ours, [mpPayment({ transaction_amount: 1400 })]);
    const first = await expectStatus(await h.call("POST", "/Business/Payments/Reconciliation/Run", { token: t.token }), 200);
    expect(first.reported).toBe(1);
    const again = await expectStatus(await h.call("POST", "/Business/Payments/Reconciliation/Run", { token: t.token }), 200);
    expect(again).toMatchObject({ reported: 0, differences: [{ kind: "AMOUNT" }] });
    const sent = await h.db.select().from(notifications).where(and(eq(notifications.businessId, t.businessId), eq(notifications.type, "PAYMENT_RECONCILIATION")));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ title: "Un pago no coincide con el proveedor", body: "Mostramos $ 1.500,00; Mercado Pago registra $ 1.400,00." });
    expect(sent[0].link).toMatch(/^\/payment\/reconciliation\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);
    const audit = await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, t.businessId), eq(auditLog.action, "payment.reconcile")));
    expect(audit).toHaveLength(2);
  });

  it("the daily run notifies each company of its new differences, once", async () => {
    const logger = { info: () => {}, warn: () => {}, error: (obj: object, msg?: string) => console.error(msg, obj) };
    const dp = createDriverPayments({ db: h.db, keyRing: createKeyRing(TEST_KEYS), logger, mailer: disabledMailer, appName: "Enchufá" });
    mp.set(MP_TOKEN.other, []);
    const count = async () => (await h.db.select().from(notifications).where(and(eq(notifications.businessId, other.businessId), eq(notifications.type, "PAYMENT_RECONCILIATION")))).length;
    const before = await count();
    await dp.dailyReconciliation();
    await dp.dailyReconciliation();
    expect((await count()) - before).toBe(1);
  });
});
