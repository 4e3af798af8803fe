// An access group's billing data over /Business/AccessGroup (the CUIT's check digit, what
// «Facturar mensualmente» requires, switching it on never invoicing history) and its monthly
// invoice over /Business/Invoice: the list names the group and the sessions it covers, the detail
// lists them, the PDF is served, the Libro IVA Ventas carries their transaction numbers.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessGroups, chargingSessions, rfidTags } from "#db/schema";
import { createInvoicing, type Invoicing } from "../../invoicing";
import { fakeGateway } from "../mocks/arca-fake";
import { createTenant, expectProblem, expectStatus, openHarness, testBackends, validCuit, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("access groups' monthly invoices over the API ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let clock = new Date("2026-11-20T15:00:00Z");
  const gateway = fakeGateway();
  let service: Invoicing;
  const invoicing = new Proxy({} as Invoicing, { get: (_, k: keyof Invoicing) => service[k] });
  const customer = validCuit(33_445_566);
  let groupId = "";

  beforeAll(async () => {
    h = await openHarness(backend, { invoicing, now: () => clock });
    service = createInvoicing({ db: h.db, gateway, logger: { info: () => {}, warn: () => {}, error: () => {} }, now: () => clock });
    t = await createTenant(h, `grp-inv-${backend.name}`);
    gateway.settings.set(t.businessId, { companyId: t.businessId, cuit: t.cuit, taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: 3, environment: "HOMOLOGACION" });
  }, 60_000);
  afterAll(() => h?.close());

  it("keeps a group's billing data: the CUIT checked, «Facturar mensualmente» needs CUIT, name and condition", async () => {
    const badCuit = await expectProblem(await h.call("POST", "/Business/AccessGroup", { token: t.token, body: { name: "Flota", billingCuit: "30-50001091-3", billingName: "Flota SA" } }), 422);
    expect(badCuit.errors?.billingCuit).toEqual(["El dígito verificador del CUIT no es válido."]);
    const bad = await expectProblem(await h.call("POST", "/Business/AccessGroup", { token: t.token, body: { name: "Flota", billingMonthly: true } }), 422);
    expect(bad.errors?.billingCuit).toEqual(["Ingresá el CUIT al que se factura cada mes."]);
    expect(bad.errors?.billingName).toEqual(["Ingresá la razón social a la que se factura cada mes."]);
    expect(bad.errors?.billingTaxCondition).toEqual(["Elegí la condición frente al IVA del cliente."]);
    const wrongCondition = await expectProblem(await h.call("POST", "/Business/AccessGroup", { token: t.token, body: { name: "Flota", billingTaxCondition: "PRESIDENTE" } }), 422);
    expect(wrongCondition.errors?.billingTaxCondition).toEqual(["Elegí la condición frente al IVA del cliente."]);

    const plain = await expectStatus(await h.call("POST", "/Business/AccessGroup", { token: t.token, body: { name: "Visitas" } }), 201);
    expect(plain).toMatchObject({ billingCuit: null, billingName: null, billingTaxCondition: null, billingMonthly: false });

    const g = await expectStatus(
      await h.call("POST", "/Business/AccessGroup", { token: t.token, body: { name: "Flota Sur", billingCuit: `${customer.slice(0, 2)}-${customer.slice(2, 10)}-${customer[10]}`, billingName: "Flota Sur SA", billingTaxCondition: "MONOTRIBUTO", billingMonthly: false } }),
      201,
    );
    expect(g).toMatchObject({ billingCuit: customer, billingName: "Flota Sur SA", billingTaxCondition: "MONOTRIBUTO", billingMonthly: false });
    groupId = g.id;
    // Switched on now: sessions from this moment on are invoiced, not the group's history.
    clock = new Date("2026-11-20T16:00:00Z");
    const on = await expectStatus(await h.call("PUT", `/Business/AccessGroup/${groupId}`, { token: t.token, body: { name: "Flota Sur", billingCuit: customer, billingName: "Flota Sur SA", billingTaxCondition: "MONOTRIBUTO", billingMonthly: true } }), 200);
    expect(on.billingMonthly).toBe(true);
    const [row] = await h.db.select().from(accessGroups).where(eq(accessGroups.id, groupId));
    expect(row.billingSince?.toISOString()).toBe("2026-11-20T16:00:00.000Z");
    // Saving again keeps the moment it was switched on.
    clock = new Date("2026-11-25T16:00:00Z");
    await expectStatus(await h.call("PUT", `/Business/AccessGroup/${groupId}`, { token: t.token, body: { name: "Flota Sur SA", billingCuit: customer, billingName: "Flota Sur SA", billingTaxCondition: "MONOTRIBUTO", billingMonthly: true } }), 200);
    const [again] = await h.db.select().from(accessGroups).where(eq(accessGroups.id, groupId));
    expect(again.billingSince?.toISOString()).toBe("2026-11-20T16:00:00.000Z");
  });

  it("lists the monthly invoice with its group and sessions, details them, serves its PDF and puts them in the sales book", async () => {
    await h.db.insert(rfidTags).values({ businessId: t.businessId, idTag: "FS-01", holderName: "Camioneta", groupId });
    const mk = async (stoppedAt: string, totalCents: number) => {
      const stop = new Date(stoppedAt);
      const [s] = await h.db
        .insert(chargingSessions)
        .values({ businessId: t.businessId, connectorNumber: 1, idTag: "FS-01", startedAt: new Date(stop.getTime() - 3_600_000), stoppedAt: stop, meterStartWh: 0, energyWh: 12_500, status: "COMPLETED", totalCents })
        .returning();
      return s;
    };
    const before = await mk("2026-11-20T12:00:00Z", 9_999); // before monthly invoicing was switched on
    const s1 = await mk("2026-11-21T12:00:00Z", 12_100);
    const s2 = await mk("2026-11-28T12:00:00Z", 6_050);
    clock = new Date("2026-12-01T12:00:00Z");
    const [created] = await service.closeMonth();
    expect(created).toMatchObject({ status: "AUTHORIZED", type: 1, totalCents: 18_150 });

    const list = await expectStatus(await h.call("GET", "/Business/Invoice", { token: t.token }), 200);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: created.id, paymentId: null, sessionIds: [s1.id, s2.id], accessGroup: { id: groupId, name: "Flota Sur SA" }, billingMonth: "2026-11-01", receiver: { docType: 80, docNumber: customer, name: "Flota Sur SA" } });
    const one = await expectStatus(await h.call("GET", `/Business/Invoice/${created.id}`, { token: t.token }), 200);
    expect(one.sessions.map((s: { id: string }) => s.id)).toEqual([s1.id, s2.id]);
    expect(one.sessions[0]).toMatchObject({ transactionId: s1.transactionId, idTag: "FS-01", energyWh: 12_500, totalCents: 12_100, vatRateBp: 2100, stoppedAt: "2026-11-21T12:00:00.000Z" });
    expect(one.sessions.some((s: { id: string }) => s.id === before.id)).toBe(false);

    const pdf = await h.call("GET", `/Business/Invoice/${created.id}/Pdf`, { token: t.token });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");

    const csv = (await (await h.call("GET", "/Business/Invoice/Export.csv?from=2026-12-01", { token: t.token })).text()).replace(/^\uFEFF/, "");
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0].endsWith(";Cargas")).toBe(true);
    expect(lines[1]).toContain(`;Factura A;3;1;Flota Sur SA;CUIT ${customer.slice(0, 2)}-${customer.slice(2, 10)}-${customer[10]};`);
    expect(lines[1].endsWith(`;${s1.transactionId} ${s2.transactionId}`)).toBe(true);
  });
});
