// The monthly close of access groups that invoice monthly, against an in-memory ARCA, on PGlite
// and PostgreSQL: one voucher per group and month for last month's sessions of its tags (not the
// ones paid by QR, not other groups', not history from before it was switched on), priced as the
// sessions were; a rerun and two closes at once write one voucher; ARCA down queues it.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "#db/client";
import { accessGroups, businessUsers, chargingSessions, invoices, invoiceSessions, payments, rfidTags, type AccessGroup } from "#db/schema";
import type { RateSnapshot } from "#domain/pricing";
import { createInvoicing, type Invoicing } from "../../invoicing";
import { fakeGateway } from "../mocks/arca-fake";
import { testBackends, validCuit } from "./helpers";

const logger = { info: () => {}, warn: () => {}, error: () => {} };
let seed = 45_000_000 + Math.floor(Math.random() * 100_000) * 10;
function nextCuit(prefix = "30"): string {
  const cuit = validCuit(seed, prefix);
  seed = Number(cuit.slice(2, 10)) + 1;
  return cuit;
}

const snapshot = (vatRateBp: number): RateSnapshot =>
  ({ rateId: null, name: "Flota", currency: "ARS", pricePerKwhCents: 10_000, pricePerMinuteCents: 0, sessionFeeCents: 0, vatIncluded: true, vatRateBp, idleGraceMinutes: 0, idlePricePerMinuteCents: 0, idleMaxCents: null }) as unknown as RateSnapshot;

describe.each(testBackends())("monthly invoices of access groups ($name)", (backend) => {
  let database: Database;
  let clock: Date;
  let gateway: ReturnType<typeof fakeGateway>;
  let invoicing: Invoicing;
  let businessId: string;
  let group: AccessGroup;
  let customerCuit: string;

  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.close());

  beforeEach(async () => {
    // Early December in Argentina: November is the month to close.
    clock = new Date("2026-12-02T12:00:00Z");
    gateway = fakeGateway();
    invoicing = createInvoicing({ db: database.db, gateway, logger, now: () => clock });
    const cuit = nextCuit();
    const [b] = await database.db
      .insert(businessUsers)
      .values({ firebaseUid: `monthly-${cuit}`, email: `${cuit}@example.com`, businessName: `Cargas ${cuit}`, cuit, businessAddress: "Av. Corrientes 1234, CABA", status: "ACTIVE" })
      .returning();
    businessId = b.id;
    gateway.settings.set(b.id, { companyId: b.id, cuit, taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: 3, environment: "HOMOLOGACION" });
    customerCuit = nextCuit();
    [group] = await database.db
      .insert(accessGroups)
      .values({ businessId, name: "Flota Sur", billingCuit: customerCuit, billingName: "Flota Sur SA", billingTaxCondition: "RESPONSABLE_INSCRIPTO", billingMonthly: true, billingSince: new Date("2026-09-01T00:00:00Z") })
      .returning();
    await database.db.insert(rfidTags).values([
      { businessId, idTag: "FLOTA-1", holderName: "Camioneta 1", groupId: group.id },
      { businessId, idTag: "FLOTA-2", holderName: "Camioneta 2", groupId: group.id },
      { businessId, idTag: "OTRO-1", holderName: "Particular" },
    ]);
  });

  async function session(idTag: string, stoppedAt: string, totalCents: number, over: Partial<typeof chargingSessions.$inferInsert> = {}): Promise<string> {
    const stop = new Date(stoppedAt);
    const [s] = await database.db
      .insert(chargingSessions)
      .values({ businessId, connectorNumber: 1, idTag, startedAt: new Date(stop.getTime() - 3_600_000), stoppedAt: stop, meterStartWh: 0, energyWh: 10_000, status: "COMPLETED", totalCents, rateSnapshot: snapshot(2100), ...over })
      .returning({ id: chargingSessions.id });
    return s.id;
  }

  const groupInvoices = () => database.db.select().from(invoices).where(eq(invoices.accessGroupId, group.id));
  const coveredBy = async (invoiceId: string) =>
    (await database.db.select({ id: invoiceSessions.sessionId }).from(invoiceSessions).where(eq(invoiceSessions.invoiceId, invoiceId))).map((r) => r.id).sort();

  it("last month's sessions of the group's tags, in Argentine time, get one Factura A to the group's CUIT, linked to the sessions", async () => {
    // 03:30 UTC on 1 Nov is 00:30 in Argentina: November. 04:00 UTC on 1 Dec is 01:00 there: December's.
    // An October session not invoiced yet goes in too (recorded late; monthly invoicing is on since September).
    const inNov1 = await session("FLOTA-1", "2026-11-01T03:30:00Z", 12_100);
    const inNov2 = await session("flota-2", "2026-11-30T23:00:00Z", 24_200, { rateSnapshot: snapshot(1050) });
    const lateOct = await session("FLOTA-2", "2026-10-31T12:00:00Z", 1_000);
    await session("FLOTA-1", "2026-12-01T04:00:00Z", 5_000); // December: next month's
    await session("OTRO-1", "2026-11-10T12:00:00Z", 9_999); // not the group's tag
    await session("FLOTA-1", "2026-11-10T12:00:00Z", 0); // nothing charged
    await session("FLOTA-1", "2026-11-11T12:00:00Z", 3_000, { status: "ACTIVE", stoppedAt: null }); // still charging
    const paidByQr = await session("FLOTA-1", "2026-11-12T12:00:00Z", 7_000);
    await database.db.insert(payments).values({ businessId, sessionId: paidByQr, provider: "MERCADOPAGO", origin: "QR", step: "FINISHED", status: "APPROVED", amountCents: 10_000, chargedCents: 7_000 });

    const [inv] = await invoicing.closeMonth();
    expect(inv).toMatchObject({ status: "AUTHORIZED", type: 1, number: 1, billingMonth: "2026-11-01", accessGroupId: group.id, receiverDocType: 80, receiverDocNumber: customerCuit, receiverName: "Flota Sur SA", receiverVatCondition: 1, totalCents: 37_300, serviceFrom: "2026-10-31", serviceTo: "2026-11-30", vatRateBp: null });
    expect(inv.cae).toMatch(/^\d{14}$/);
    expect(await coveredBy(inv.id)).toEqual([inNov1, inNov2, lateOct].sort());
    // VAT per rate: 13 100 at 21 % → 2 274; 24 200 at 10,5 % → 2 300.
    const [req] = gateway.arca(businessId).requests;
    expect(req.vat).toEqual([
      { id: 4, baseCents: 21_900, amountCents: 2_300 },
      { id: 5, baseCents: 10_826, amountCents: 2_274 },
    ]);
    expect(req).toMatchObject({ type: 1, receiverDocType: 80, receiverDocNumber: customerCuit, receiverVatConditionId: 1, totalCents: 37_300, vatCents: 4_574, netCents: 32_726, serviceTo: "2026-11-30" });
  });

  it("a rerun, and two closes at once on two services, write one voucher per group and month and ask ARCA once", async () => {
    await session("FLOTA-1", "2026-11-05T12:00:00Z", 12_100);
    await session("FLOTA-2", "2026-11-06T12:00:00Z", 8_000);
    const other = createInvoicing({ db: database.db, gateway, logger, now: () => clock });
    const [a, b] = await Promise.all([invoicing.closeMonth(), other.closeMonth()]);
    expect(a.length + b.length).toBe(1);
    expect(await invoicing.closeMonth()).toEqual([]);
    await invoicing.tick();
    const rows = await groupInvoices();
    expect(rows).toHaveLength(1);
    expect(await coveredBy(rows[0].id)).toHaveLength(2);
    expect(gateway.arca(businessId).requests).toHaveLength(1);
  });

  it("a session recorded after its month was closed goes into the next month's invoice, once", async () => {
    const first = await session("FLOTA-1", "2026-11-05T12:00:00Z", 12_100);
    const [nov] = await invoicing.closeMonth();
    const late = await session("FLOTA-1", "2026-11-29T12:00:00Z", 5_000);
    clock = new Date("2027-01-03T12:00:00Z");
    const dec = await session("FLOTA-2", "2026-12-20T12:00:00Z", 6_000);
    const [decInv] = await invoicing.closeMonth();
    expect(decInv).toMatchObject({ billingMonth: "2026-12-01", totalCents: 11_000, number: 2 });
    expect(await coveredBy(nov.id)).toEqual([first]);
    expect(await coveredBy(decInv.id)).toEqual([late, dec].sort());
  });

  it("history from before monthly invoicing was switched on is not invoiced; a group without it, or a company without fiscal settings, gets nothing", async () => {
    await database.db.update(accessGroups).set({ billingSince: new Date("2026-11-15T00:00:00Z") }).where(eq(accessGroups.id, group.id));
    await session("FLOTA-1", "2026-11-10T12:00:00Z", 1_000);
    const after = await session("FLOTA-1", "2026-11-20T12:00:00Z", 2_000);
    const [inv] = await invoicing.closeMonth();
    expect(await coveredBy(inv.id)).toEqual([after]);

    await database.db.delete(invoiceSessions).where(eq(invoiceSessions.invoiceId, inv.id));
    await database.db.delete(invoices).where(eq(invoices.id, inv.id));
    await database.db.update(accessGroups).set({ billingMonthly: false }).where(eq(accessGroups.id, group.id));
    expect(await invoicing.closeMonth()).toEqual([]);
    await database.db.update(accessGroups).set({ billingMonthly: true }).where(eq(accessGroups.id, group.id));
    gateway.settings.delete(businessId);
    expect(await invoicing.closeMonth()).toEqual([]);
    expect(await groupInvoices()).toEqual([]);
  });

  it("an exempt customer of a Responsable Inscripto gets a Factura B with its CUIT; a monotributista operator issues Factura C", async () => {
    await database.db.update(accessGroups).set({ billingTaxCondition: "EXENTO" }).where(eq(accessGroups.id, group.id));
    await session("FLOTA-1", "2026-11-05T12:00:00Z", 12_100);
    const [b] = await invoicing.closeMonth();
    expect(b).toMatchObject({ type: 6, receiverDocType: 80, receiverVatCondition: 4, vatCents: 2_100, vatRateBp: 2100 });
    await database.db.delete(invoiceSessions).where(eq(invoiceSessions.invoiceId, b.id));
    await database.db.delete(invoices).where(eq(invoices.id, b.id));
    gateway.settings.set(businessId, { ...gateway.settings.get(businessId)!, taxCondition: "MONOTRIBUTO" });
    const [c] = await invoicing.closeMonth();
    expect(c).toMatchObject({ type: 11, netCents: 12_100, vatCents: 0 });
  });

  it("ARCA down: the monthly invoice waits in the queue and is issued by the sweep when ARCA is back", async () => {
    await session("FLOTA-1", "2026-11-05T12:00:00Z", 12_100);
    const arca = gateway.arca(businessId);
    arca.down = true;
    const [inv] = await invoicing.closeMonth();
    expect(inv).toMatchObject({ status: "PENDING", attempts: 1, number: null });
    expect(await invoicing.pendingCount(businessId)).toBe(1);
    arca.down = false;
    clock = new Date(clock.getTime() + 31_000);
    await invoicing.tick();
    const [done] = await groupInvoices();
    expect(done).toMatchObject({ status: "AUTHORIZED", number: 1, totalCents: 12_100, vatCents: 2_100 });
    expect(arca.authorized).toHaveLength(1);
  });

  it("the sweep closes the month by itself", async () => {
    await session("FLOTA-1", "2026-11-05T12:00:00Z", 12_100);
    await invoicing.tick();
    expect(await groupInvoices()).toMatchObject([{ status: "AUTHORIZED", billingMonth: "2026-11-01" }]);
  });
});
