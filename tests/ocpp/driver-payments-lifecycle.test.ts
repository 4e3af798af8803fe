// What a provider says after approving a driver's QR payment reaches the payment
// (domain/payment-lifecycle.ts): Mercado Pago's chargebacks, mediations and refunds made in its
// panel, Pagos360's reversals and refunds; `authorized` and other currencies are not approvals;
// a refund counts only once the provider approves it; unsigned and retried notifications are read
// back, a wrong signature is refused; a payment Enchufá did not use (late, paid twice) is refunded.
// The providers are a fake `fetch` the service is given, so each test sets what they answer.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApi } from "#api/app";
import { createDriverPayments, type DriverPayments } from "../../payments";
import { auditLog, businessUsers, chargers, chargingSessions, connectors, notifications, payments, stations, type NewPayment } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { memoryInbox } from "#infra/mail";
import { signMercadoPagoManifest, type MpPayment } from "#infra/payments/mercadopago";
import { callApi, expectStatus, fakeVerifyToken, TEST_KEYS } from "../api/helpers";
import { testBackends } from "../setup/db";
import { createFixture, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const MP = "https://mp.test";
const P360 = "https://p360.test";
const SECRET = "webhook-secret-0123456789";

/** The providers as the test sets them: Mercado Pago's payments, refunds and merchant orders, Pagos360's requests. */
interface Providers {
  mp: Map<string, MpPayment>;
  refunds: { id: string; paymentId: string; amount: number | undefined; status: string }[];
  /** The status the next refund call answers (approved unless a test says otherwise). */
  refundAnswer: string;
  orders: Map<string, { id: string; payments: { id: string }[] }>;
  p360: Map<string, { id: string; state: string; external_reference: string; first_total: number }>;
  preferences: Record<string, unknown>[];
  calls: string[];
}

function fakeProviders(): { state: Providers; fetch: typeof fetch } {
  const state: Providers = { mp: new Map(), refunds: [], refundAnswer: "approved", orders: new Map(), p360: new Map(), preferences: [], calls: [] };
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const fake = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const method = init?.method ?? "GET";
    const path = url.pathname;
    state.calls.push(`${method} ${url.origin}${path}`);
    let m: RegExpMatchArray | null;
    if (method === "POST" && path === "/checkout/preferences") {
      state.preferences.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return json({ id: "pref-1", init_point: `${MP}/checkout/pref-1` }, 201);
    }
    if (path === "/v1/payments/search") return json({ results: [...state.mp.values()].filter((p) => p.external_reference === url.searchParams.get("external_reference")) });
    if ((m = path.match(/^\/v1\/payments\/([^/]+)\/refunds$/)) && method === "POST") {
      const body = JSON.parse(String(init?.body ?? "{}")) as { amount?: number };
      const refund = { id: `r-${state.refunds.length + 1}`, paymentId: m[1], amount: body.amount, status: state.refundAnswer };
      state.refunds.push(refund);
      return json({ id: refund.id, amount: body.amount ?? state.mp.get(m[1])?.transaction_amount, status: refund.status }, 201);
    }
    if ((m = path.match(/^\/v1\/payments\/([^/]+)\/refunds\/([^/]+)$/))) {
      const r = state.refunds.find((x) => x.id === m![2]);
      return r ? json({ id: r.id, amount: r.amount, status: r.status }) : json({ message: "not found" }, 404);
    }
    if ((m = path.match(/^\/v1\/payments\/([^/]+)$/))) {
      const p = state.mp.get(m[1]);
      return p ? json(p) : json({ message: "Payment not found" }, 404);
    }
    if ((m = path.match(/^\/merchant_orders\/([^/]+)$/))) {
      const o = state.orders.get(m[1]);
      return o ? json(o) : json({ message: "not found" }, 404);
    }
    if ((m = path.match(/^\/payment-request\/([^/]+)$/))) {
      const r = state.p360.get(m[1]);
      return r ? json({ ...r, checkout_url: `${P360}/checkout/${r.id}` }) : json({ message: "not found" }, 404);
    }
    return json({ message: `unexpected ${method} ${path}` }, 500);
  };
  return { state, fetch: fake as typeof fetch };
}

describe.each(testBackends())("after the provider approves a QR payment ($name)", (backend) => {
  let h: OcppHarness;
  let f: Fixture;
  let dp: DriverPayments;
  let api: ReturnType<typeof createApi>;
  let stationId: string;
  let companyEmail: string;
  const inbox = memoryInbox();
  const providers = fakeProviders();

  beforeAll(async () => {
    h = await openOcppHarness(backend, { commandTimeoutMs: 1_000 });
    f = await createFixture(h, `life-${backend.name}`);
    dp = createDriverPayments({
      db: h.db,
      keyRing: createKeyRing(TEST_KEYS),
      logger: { info: () => {}, warn: (obj, msg) => h.logs.push({ level: "warn", obj, msg }), error: (obj, msg) => h.logs.push({ level: "error", obj, msg }) },
      mailer: inbox,
      appName: "Enchufá",
      ocpp: h.central,
      mercadoPagoUrl: MP,
      pagos360Url: P360,
      fetch: providers.fetch,
    });
    api = createApi({ db: h.db, verifyToken: fakeVerifyToken, encryptionKeys: TEST_KEYS, publicOrigin: "https://enchufa.test", ocpp: h.central, driverPayments: dp });
    await h.db.update(stations).set({ published: true, qrPaymentEnabled: true, qrMinCents: 100_000, qrMaxCents: 2_000_000 }).where(eq(stations.businessId, f.tenant.businessId));
    await h.db.update(businessUsers).set({ businessName: "Cargas Ñandú S.R.L. — Estaciones del Litoral" }).where(eq(businessUsers.id, f.tenant.businessId));
    [{ id: stationId }] = await h.db.select({ id: stations.id }).from(stations).where(eq(stations.businessId, f.tenant.businessId));
    [{ email: companyEmail }] = await h.db.select({ email: businessUsers.email }).from(businessUsers).where(eq(businessUsers.id, f.tenant.businessId));
    await expectStatus(await h.call("PUT", "/MercadoPago/BusinessUser", { token: f.tenant.token, body: { publicKey: "TEST-public-key-0000", accessToken: "TEST-access-life-0000", webhookSecret: SECRET } }), 200);
    await expectStatus(await h.call("PUT", "/Pagos360/BusinessUser", { token: f.tenant.token, body: { apiKey: `p360-life-${backend.name}-0123456789`, accountName: "Cobros QR" } }), 200);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    providers.state.refundAnswer = "approved";
  });

  /** A QR payment of the fixture's company, in the state a test starts from. */
  async function qrPayment(values: Partial<NewPayment>) {
    const [row] = await h.db
      .insert(payments)
      .values({
        businessId: f.tenant.businessId,
        provider: "MERCADOPAGO",
        amountCents: 500_000,
        status: "APPROVED",
        origin: "QR",
        step: "FINISHED",
        stationId,
        chargerId: f.chargerId,
        connectorNumber: 1,
        driverEmail: "conductora@example.com",
        chargedCents: 500_000,
        ...values,
      })
      .returning();
    return row;
  }
  /** Mercado Pago's payment `id` for our payment `ref`. */
  function mpPayment(id: string, ref: string, p: Partial<MpPayment> = {}) {
    providers.state.mp.set(id, { id: Number(id), status: "approved", status_detail: "accredited", external_reference: ref, transaction_amount: 5_000, currency_id: "ARS", ...p });
  }
  const signed = (dataId: string, ts = Math.floor(Date.now() / 1000)) => ({
    "x-signature": `ts=${ts},v1=${signMercadoPagoManifest(SECRET, dataId, "req-1", String(ts))}`,
    "x-request-id": "req-1",
  });
  const webhook = (query: string, headers: Record<string, string> = {}, body: unknown = {}) => callApi(api, "POST", `/Webhook/MercadoPago/${f.tenant.businessId}?${query}`, { body, headers });
  const notified = async (type: string) => h.db.select().from(notifications).where(and(eq(notifications.businessId, f.tenant.businessId), eq(notifications.type, type as "SYSTEM")));
  const uniqueId = () => String(Math.floor(Math.random() * 1e12));

  it("a chargeback reaches the payment: Contracargo, the operator notified and e-mailed", async () => {
    const ext = uniqueId();
    const p = await qrPayment({ externalId: ext });
    mpPayment(ext, p.id, { status: "charged_back", status_detail: "settled" });
    expect((await webhook(`data.id=${ext}&type=payment`, signed(ext))).status).toBe(200);
    expect(await dp.get(p.id)).toMatchObject({ status: "CHARGED_BACK", step: "FINISHED" });
    const [n] = await notified("PAYMENT_CHARGED_BACK");
    expect(n).toMatchObject({ title: "Contracargo", link: "/payment" });
    expect(n.body).toContain(ext);
    expect(inbox.messages.some((m) => m.to === companyEmail && m.subject.startsWith("Contracargo"))).toBe(true);
    // The same notice again: nothing more.
    await webhook(`data.id=${ext}&type=payment`, signed(ext));
    expect(await notified("PAYMENT_CHARGED_BACK")).toHaveLength(1);
  });

  it("a mediation: in dispute, then won when Mercado Pago approves it again", async () => {
    const ext = uniqueId();
    const p = await qrPayment({ externalId: ext, status: "PARTIALLY_REFUNDED", chargedCents: 120_000, refundedCents: 380_000 });
    mpPayment(ext, p.id, { status: "in_mediation", transaction_amount_refunded: 3_800 });
    await webhook(`data.id=${ext}&type=payment`, signed(ext));
    expect(await dp.get(p.id)).toMatchObject({ status: "IN_DISPUTE" });
    expect(await notified("PAYMENT_DISPUTED")).toHaveLength(1);
    mpPayment(ext, p.id, { status: "approved", transaction_amount_refunded: 3_800 });
    await webhook(`data.id=${ext}&type=payment`, signed(ext));
    expect(await dp.get(p.id)).toMatchObject({ status: "PARTIALLY_REFUNDED", refundedCents: 380_000 });
    expect(await notified("PAYMENT_DISPUTE_WON")).toHaveLength(1);
  });

  it("a refund made in Mercado Pago's panel, in part then in full, reaches the payment", async () => {
    const ext = uniqueId();
    const p = await qrPayment({ externalId: ext });
    mpPayment(ext, p.id, { status: "approved", transaction_amount_refunded: 1_000 });
    await webhook(`data.id=${ext}&type=payment`, signed(ext));
    expect(await dp.get(p.id)).toMatchObject({ status: "PARTIALLY_REFUNDED", refundedCents: 100_000, step: "FINISHED" });
    mpPayment(ext, p.id, { status: "refunded", transaction_amount_refunded: 5_000 });
    await webhook(`data.id=${ext}&type=payment`, signed(ext));
    expect(await dp.get(p.id)).toMatchObject({ status: "REFUNDED", refundedCents: 500_000 });
    expect(await notified("PAYMENT_REFUNDED_OUTSIDE")).toHaveLength(2);
  });

  it("authorized is not approved, and a verdict in another currency is ignored and logged", async () => {
    const a = await qrPayment({ step: "PAYING", status: "PENDING", chargedCents: null });
    mpPayment(uniqueId(), a.id, { status: "authorized", status_detail: "pending_capture" });
    const b = await qrPayment({ step: "PAYING", status: "PENDING", chargedCents: null });
    const usd = uniqueId();
    mpPayment(usd, b.id, { currency_id: "USD" });
    for (const [id, mp] of providers.state.mp) if (mp.external_reference === a.id || id === usd) await webhook(`data.id=${id}&type=payment`, signed(id));
    expect(await dp.get(a.id)).toMatchObject({ step: "PAYING", status: "PENDING" });
    expect(await dp.get(b.id)).toMatchObject({ step: "PAYING", status: "PENDING", externalId: null });
    expect(h.logs.some((l) => l.msg?.includes("no es en pesos"))).toBe(true);
  });

  it("IPN notices and notices without x-signature are read back (200); a stale but right signature too; a wrong one is refused", async () => {
    const [a, b, c, d] = [uniqueId(), uniqueId(), uniqueId(), uniqueId()];
    const pa = await qrPayment({ externalId: a });
    const pb = await qrPayment({ externalId: b });
    const pc = await qrPayment({ externalId: c });
    const pd = await qrPayment({ externalId: d });
    for (const [id, p] of [[a, pa], [b, pb], [c, pc], [d, pd]] as const) mpPayment(id, p.id, { status: "charged_back" });
    expect((await webhook(`topic=payment&id=${a}`)).status).toBe(200);
    expect((await webhook(`data.id=${b}&type=payment`, {}, { type: "payment", data: { id: b } })).status).toBe(200);
    const order = uniqueId();
    providers.state.orders.set(order, { id: order, payments: [{ id: c }] });
    expect((await webhook(`topic=merchant_order&id=${order}`)).status).toBe(200);
    // Mercado Pago's retry an hour later keeps its first ts.
    expect((await webhook(`data.id=${d}&type=payment`, signed(d, Math.floor(Date.now() / 1000) - 3_600))).status).toBe(200);
    for (const p of [pa, pb, pc, pd]) expect(await dp.get(p.id)).toMatchObject({ status: "CHARGED_BACK" });
    const e = uniqueId();
    const pe = await qrPayment({ externalId: e });
    mpPayment(e, pe.id, { status: "charged_back" });
    const wrong = { ...signed(e), "x-signature": `ts=${Math.floor(Date.now() / 1000)},v1=${"ab".repeat(32)}` };
    expect((await webhook(`data.id=${e}&type=payment`, wrong)).status).toBe(401);
    expect(await dp.get(pe.id)).toMatchObject({ status: "APPROVED" });
  });

  it("a refund counts only once Mercado Pago approves it: in process waits, rejected leaves it owed and tells the operator", async () => {
    const ext = uniqueId();
    const p = await qrPayment({ externalId: ext, step: "START_FAILED", chargedCents: 0, failureReason: "El cargador no aceptó iniciar la carga. Te devolvemos el total." });
    mpPayment(ext, p.id);
    providers.state.refundAnswer = "in_process";
    await dp.tick();
    expect(await dp.get(p.id)).toMatchObject({ step: "START_FAILED", refundedCents: 0, providerRefundId: expect.any(String) });
    // Approved later: the sweep reads it back, without a second refund call.
    const refund = providers.state.refunds.find((r) => r.paymentId === ext)!;
    refund.status = "approved";
    await dp.tick();
    expect(await dp.get(p.id)).toMatchObject({ step: "REFUNDED", status: "REFUNDED", refundedCents: 500_000 });
    expect(providers.state.refunds.filter((r) => r.paymentId === ext)).toHaveLength(1);

    const ext2 = uniqueId();
    const q = await qrPayment({ externalId: ext2, step: "SETTLING", chargedCents: 120_000 });
    mpPayment(ext2, q.id);
    providers.state.refundAnswer = "rejected";
    await dp.tick();
    expect(await dp.get(q.id)).toMatchObject({ step: "REFUND_PENDING", refundedCents: 0 });
    const rejected = (await notified("PAYMENT_REFUND_PENDING")).find((n) => n.body.includes(ext2));
    expect(rejected).toMatchObject({ title: "Devolución rechazada" });
    // The operator refunds it by hand and records it.
    const res = await callApi(api, "POST", `/Business/Payments/${q.id}/Refund`, { token: f.tenant.token, body: {} });
    expect(res.status).toBe(200);
    expect(await dp.get(q.id)).toMatchObject({ step: "FINISHED", status: "PARTIALLY_REFUNDED", refundedCents: 380_000 });
  });

  it("a second approved payment on the same checkout gets a row of its own and is refunded in full; so is one approved after the checkout ended", async () => {
    const first = uniqueId();
    const second = uniqueId();
    const p = await qrPayment({ externalId: first, step: "CHARGING", chargedCents: null });
    mpPayment(first, p.id);
    mpPayment(second, p.id);
    await webhook(`data.id=${second}&type=payment`, signed(second));
    await webhook(`data.id=${second}&type=payment`, signed(second));
    const extras = await h.db.select().from(payments).where(eq(payments.parentPaymentId, p.id));
    expect(extras).toHaveLength(1);
    expect(extras[0]).toMatchObject({ origin: "QR", externalId: second, step: "REFUNDED", status: "REFUNDED", refundedCents: 500_000, chargedCents: 0 });
    expect(providers.state.refunds.filter((r) => r.paymentId === second)).toEqual([expect.objectContaining({ amount: undefined, status: "approved" })]);
    expect(await dp.get(p.id)).toMatchObject({ step: "CHARGING", status: "APPROVED", externalId: first });
    expect((await notified("PAYMENT_UNUSED_REFUNDED")).some((n) => n.body.includes(second))).toBe(true);
    expect(inbox.messages.some((m) => m.to === "conductora@example.com" && m.text.includes("dos veces"))).toBe(true);

    // Approved after the sweep gave up on the checkout.
    const late = uniqueId();
    const q = await qrPayment({ step: "FAILED", status: "CANCELLED", chargedCents: null, failureReason: "El pago no se completó." });
    mpPayment(late, q.id);
    await webhook(`data.id=${late}&type=payment`, signed(late));
    expect(await dp.get(q.id)).toMatchObject({ step: "REFUNDED", status: "REFUNDED", externalId: late, refundedCents: 500_000 });
    expect(providers.state.refunds.some((r) => r.paymentId === late)).toBe(true);
  });

  it("an approval Mercado Pago dates after the checkout's validity is late, even before the sweep gave the checkout up: refunded in full, never started", async () => {
    const ext = uniqueId();
    const createdAt = new Date(Date.now() - 3_600_000);
    const q = await qrPayment({ step: "PAYING", status: "PENDING", chargedCents: null, createdAt });
    mpPayment(ext, q.id, { date_approved: new Date(createdAt.getTime() + 24 * 3_600_000 + 60_000).toISOString() });
    await webhook(`data.id=${ext}&type=payment`, signed(ext));
    expect(await dp.get(q.id)).toMatchObject({ step: "REFUNDED", status: "REFUNDED", externalId: ext, refundedCents: 500_000, startRequestedAt: null });
    expect(providers.state.refunds.some((r) => r.paymentId === ext)).toBe(true);
    expect((await notified("PAYMENT_UNUSED_REFUNDED")).some((n) => n.body.includes(ext))).toBe(true);
  });

  it("Pagos360: canceled ends the checkout, reverted is a chargeback, refunded closes a refund owed by itself", async () => {
    const note = (id: string) => callApi(api, "POST", `/Webhook/Pagos360/${f.tenant.businessId}`, { body: { entity_name: "PaymentRequest", type: "paid", entity_id: id } });
    const ids = [uniqueId(), uniqueId(), uniqueId()];
    const paying = await qrPayment({ provider: "PAGOS360", checkoutId: ids[0], step: "PAYING", status: "PENDING", chargedCents: null });
    const finished = await qrPayment({ provider: "PAGOS360", checkoutId: ids[1], externalId: ids[1] });
    const owed = await qrPayment({ provider: "PAGOS360", checkoutId: ids[2], externalId: ids[2], step: "REFUND_PENDING", chargedCents: 120_000 });
    const states = ["canceled", "reverted", "refunded"];
    [paying, finished, owed].forEach((p, i) => providers.state.p360.set(ids[i], { id: ids[i], state: states[i], external_reference: p.id, first_total: 5_000 }));
    for (const id of ids) expect((await note(id)).status).toBe(200);
    expect(await dp.get(paying.id)).toMatchObject({ step: "FAILED", status: "CANCELLED" });
    expect(await dp.get(finished.id)).toMatchObject({ step: "FINISHED", status: "CHARGED_BACK" });
    expect(await dp.get(owed.id)).toMatchObject({ step: "FINISHED", status: "PARTIALLY_REFUNDED", refundedCents: 380_000 });
  });

  it("the Mercado Pago checkout carries the company's name for the card statement and expires with the payment page", async () => {
    await h.db.update(chargers).set({ online: true }).where(eq(chargers.id, f.chargerId));
    await h.db.update(connectors).set({ status: "Available" }).where(eq(connectors.chargerId, f.chargerId));
    const requestKey = randomUUID().replace(/-/g, "");
    const body = { amountCents: 500_000, email: "a@example.com", provider: "MERCADOPAGO", acceptTerms: true, requestKey };
    // Connector 2: the earlier tests left payments under way on connector 1.
    await expectStatus(await callApi(api, "POST", `/Driver/Charge/${f.identity}/2`, { body }), 201);
    const pref = providers.state.preferences.at(-1)!;
    expect(pref).toMatchObject({ statement_descriptor: "Cargas Nandu S.R.L.", expires: true });
    const from = Date.parse(String(pref.expiration_date_from));
    expect(Date.parse(String(pref.expiration_date_to)) - from).toBe(24 * 3_600_000);
    await h.db.update(chargers).set({ online: false }).where(eq(chargers.id, f.chargerId));
  });
  it("the operator blocks the driver of a chargeback with one action: the QR checkout refuses that e-mail on its field, nothing is created; audited; unblocked, they pay again", async () => {
    await h.db.update(chargers).set({ online: true }).where(eq(chargers.id, f.chargerId));
    await h.db.update(connectors).set({ status: "Available" }).where(eq(connectors.chargerId, f.chargerId));
    const email = `bloqueada-${backend.name}@example.com`;
    const charged = await qrPayment({ status: "CHARGED_BACK", externalId: `cb-block-${backend.name}`, driverEmail: email, refundedCents: 100_000 });
    const approved = await qrPayment({ externalId: `ok-block-${backend.name}`, driverEmail: email });
    const headers = { authorization: `Bearer ${f.tenant.token}` };
    // Only a disputed or charged-back payment's driver can be blocked; another company's payment does not exist.
    const refused = await callApi(api, "POST", `/Business/Payments/${approved.id}/BlockDriver`, { headers });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { title: string }).title).toContain("en disputa o con contracargo");
    expect((await callApi(api, "POST", `/Business/Payments/${randomUUID()}/BlockDriver`, { headers })).status).toBe(404);

    const blocked = await expectStatus<{ driverBlocked: boolean; atRiskCents: number }>(await callApi(api, "POST", `/Business/Payments/${charged.id}/BlockDriver`, { headers }), 200);
    expect(blocked).toMatchObject({ driverBlocked: true, atRiskCents: 400_000 });
    // Again: nothing changes.
    await expectStatus(await callApi(api, "POST", `/Business/Payments/${charged.id}/BlockDriver`, { headers }), 200);
    const list = await expectStatus<{ items: { id: string; driverBlocked: boolean }[] }>(await callApi(api, "GET", `/Business/Payments?pageSize=100`, { headers }), 200);
    // Every payment of that e-mail shows it blocked.
    expect(list.items.filter((p) => p.id === charged.id || p.id === approved.id).map((p) => p.driverBlocked)).toEqual([true, true]);
    const audits = await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, f.tenant.businessId), eq(auditLog.action, "payment.block_driver")));
    expect(audits.map((a) => a.resourceId)).toContain(charged.id);

    const checkoutAs = (who: string) =>
      callApi(api, "POST", `/Driver/Charge/${f.identity}/2`, { body: { amountCents: 500_000, email: who, provider: "MERCADOPAGO", acceptTerms: true, requestKey: randomUUID().replace(/-/g, "") } });
    const before = (await h.db.select({ id: payments.id }).from(payments).where(eq(payments.businessId, f.tenant.businessId))).length;
    const denied = await checkoutAs(email.toUpperCase());
    expect(denied.status).toBe(422);
    expect(((await denied.json()) as { errors: Record<string, string[]> }).errors.email[0]).toMatch(/no acepta pagos con este correo/);
    expect((await h.db.select({ id: payments.id }).from(payments).where(eq(payments.businessId, f.tenant.businessId))).length).toBe(before);

    const unblocked = await expectStatus<{ driverBlocked: boolean }>(await callApi(api, "DELETE", `/Business/Payments/${charged.id}/BlockDriver`, { headers }), 200);
    expect(unblocked.driverBlocked).toBe(false);
    expect(await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, f.tenant.businessId), eq(auditLog.action, "payment.unblock_driver")))).toHaveLength(1);
    await expectStatus(await checkoutAs(email), 201);
    await h.db.update(chargers).set({ online: false }).where(eq(chargers.id, f.chargerId));
  });

  it("Pagos names a second payment's first and the amount a dispute puts at risk", async () => {
    const first = await qrPayment({ externalId: `first-${backend.name}` });
    const second = await qrPayment({ externalId: `second-${backend.name}`, parentPaymentId: first.id, step: "REFUNDED", status: "REFUNDED", refundedCents: 500_000, chargedCents: 0 });
    const disputed = await qrPayment({ externalId: `disp-${backend.name}`, status: "IN_DISPUTE", refundedCents: 120_000 });
    const list = await expectStatus<{ items: { id: string; parentPaymentId: string | null; parentExternalId: string | null; atRiskCents: number }[] }>(
      await callApi(api, "GET", `/Business/Payments?pageSize=100`, { headers: { authorization: `Bearer ${f.tenant.token}` } }),
      200,
    );
    const byId = new Map(list.items.map((p) => [p.id, p]));
    expect(byId.get(second.id)).toMatchObject({ parentPaymentId: first.id, parentExternalId: `first-${backend.name}`, atRiskCents: 0 });
    expect(byId.get(first.id)).toMatchObject({ parentPaymentId: null, parentExternalId: null });
    expect(byId.get(disputed.id)).toMatchObject({ atRiskCents: 380_000 });
  });
  it("a chargeback changes what the session says (Contracargo, out of revenue); the chargeback reimbursed to the seller makes it paid again", async () => {
    const [connector] = await h.db.select({ id: connectors.id }).from(connectors).where(eq(connectors.chargerId, f.chargerId)).limit(1);
    const startedAt = new Date(Date.now() - 3_600_000);
    const [session] = await h.db
      .insert(chargingSessions)
      .values({ businessId: f.tenant.businessId, stationId, chargerId: f.chargerId, connectorId: connector.id, connectorNumber: 1, idTag: "QR-CB", startedAt, stoppedAt: new Date(startedAt.getTime() + 1_800_000), meterStartWh: 0, energyWh: 9_000, totalCents: 500_000, status: "COMPLETED", paymentStatus: "PAID" })
      .returning();
    const ext = uniqueId();
    const p = await qrPayment({ externalId: ext, sessionId: session.id });
    const headers = { authorization: `Bearer ${f.tenant.token}` };
    // Each read asks for a period of its own: the dashboard's totals are cached a few seconds per period.
    const revenue = async (ms: number) => (await expectStatus<{ revenueCents: number }>(await callApi(api, "GET", `/Business/Dashboard?from=${new Date(startedAt.getTime() - ms).toISOString()}`, { headers }), 200)).revenueCents;
    const before = await revenue(60_000);
    mpPayment(ext, p.id, { status: "charged_back", status_detail: "settled" });
    await webhook(`data.id=${ext}&type=payment`, signed(ext));
    const sessionStatus = async () => (await h.db.select({ s: chargingSessions.paymentStatus }).from(chargingSessions).where(eq(chargingSessions.id, session.id)))[0].s;
    expect(await sessionStatus()).toBe("CHARGED_BACK");
    const detail = await expectStatus<{ paymentStatus: string }>(await callApi(api, "GET", `/Business/Activity/${session.id}`, { headers }), 200);
    expect(detail.paymentStatus).toBe("CHARGED_BACK");
    expect(await revenue(61_000)).toBe(before - 500_000);
    mpPayment(ext, p.id, { status: "charged_back", status_detail: "reimbursed" });
    await webhook(`data.id=${ext}&type=payment`, signed(ext));
    expect(await dp.get(p.id)).toMatchObject({ status: "APPROVED" });
    expect(await sessionStatus()).toBe("PAID");
    expect(await revenue(62_000)).toBe(before);
  });
});
