// The ARCA certificate's expiry, told to the operator by the invoicing sweep, on PGlite and
// PostgreSQL: a notification (and an e-mail to the company, and a live event for open screens)
// once when it enters its last 30 days, once more when it has expired, never twice from
// repeated sweeps; a new certificate uploaded through the settings starts over.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessUsers, fiscalSettings, notifications } from "#db/schema";
import { memoryInbox } from "#infra/mail";
import { createInvoicing } from "../../invoicing";
import { makeArcaCertificate } from "../../scripts/arca-test-certificates";
import { fakeGateway } from "../mocks/arca-fake";
import { createTenant, expectStatus, openHarness, testBackends, type Harness, type Tenant } from "./helpers";

const logger = { info: () => {}, warn: () => {}, error: () => {} };
const DAY = 86_400_000;

describe.each(testBackends())("certificate expiry warnings ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, "cert-expiry-owner");
  });
  afterAll(() => h.close());

  const upload = async (notAfter: Date) => {
    const cert = makeArcaCertificate(t.cuit, { notAfter });
    const body = { taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: 3, environment: "HOMOLOGACION", certificate: cert.certPem, privateKey: cert.keyPem };
    await expectStatus(await h.call("PUT", "/Business/Fiscal", { token: t.token, body }), 200);
  };
  const warnings = async () =>
    (await h.db.select().from(notifications).where(eq(notifications.businessId, t.businessId))).filter((n) => n.type.startsWith("FISCAL_CERTIFICATE_")).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

  it("warns 30 days ahead once, again once it has expired, by notification, e-mail and live event; a new certificate starts over", async () => {
    const start = new Date();
    let clock = start;
    const inbox = memoryInbox();
    const published: string[] = [];
    const invoicing = createInvoicing({ db: h.db, gateway: fakeGateway(), logger, mailer: inbox, appName: "Enchufá", now: () => clock, live: { publish: (businessId) => void published.push(businessId) } });
    await upload(new Date(start.getTime() + 40 * DAY));
    const [{ email }] = await h.db.select({ email: businessUsers.email }).from(businessUsers).where(eq(businessUsers.id, t.businessId));

    await invoicing.tick();
    expect(await warnings()).toEqual([]);

    clock = new Date(start.getTime() + 11 * DAY);
    await invoicing.tick();
    await invoicing.tick();
    let sent = await warnings();
    expect(sent.map((n) => n.type)).toEqual(["FISCAL_CERTIFICATE_EXPIRING"]);
    expect(sent[0]).toMatchObject({ title: "El certificado de ARCA vence pronto", link: "/fiscal" });
    expect(sent[0].body).toMatch(/^El certificado de factura electrónica vence el \d{2}\/\d{2}\/\d{4}\. Generá uno nuevo en ARCA/);
    expect(inbox.messages.filter((m) => m.kind === "fiscal-certificate").map((m) => [m.to, m.subject])).toEqual([[email, "El certificado de ARCA vence pronto"]]);
    expect(published).toEqual([t.businessId]);

    clock = new Date(start.getTime() + 41 * DAY);
    await invoicing.tick();
    await invoicing.tick();
    sent = await warnings();
    expect(sent.map((n) => n.type)).toEqual(["FISCAL_CERTIFICATE_EXPIRING", "FISCAL_CERTIFICATE_EXPIRED"]);
    expect(sent[1].body).toMatch(/^El certificado de factura electrónica venció el .*Los cobros siguen y sus comprobantes esperan en la cola\.$/);
    expect(inbox.messages.filter((m) => m.kind === "fiscal-certificate")).toHaveLength(2);

    // The operator uploads a new certificate: its own warning comes 30 days before it expires.
    await upload(new Date(start.getTime() + 35 * DAY));
    const [row] = await h.db.select().from(fiscalSettings).where(and(eq(fiscalSettings.businessId, t.businessId)));
    expect(row.expiryWarnedAt).toBeNull();
    clock = new Date(start.getTime() + 4 * DAY);
    await invoicing.tick();
    expect(await warnings()).toHaveLength(2);
    clock = new Date(start.getTime() + 6 * DAY);
    await invoicing.tick();
    await invoicing.tick();
    expect((await warnings()).map((n) => n.type)).toEqual(["FISCAL_CERTIFICATE_EXPIRING", "FISCAL_CERTIFICATE_EXPIRED", "FISCAL_CERTIFICATE_EXPIRING"]);
  });

  it("a certificate uploaded already inside its last 30 days is warned at once; one that expired unwarned gets only the expiry notice", async () => {
    const start = new Date();
    let clock = start;
    const invoicing = createInvoicing({ db: h.db, gateway: fakeGateway(), logger, now: () => clock });
    await h.db.delete(notifications).where(eq(notifications.businessId, t.businessId));
    await upload(new Date(start.getTime() + 10 * DAY));
    await invoicing.tick();
    expect((await warnings()).map((n) => n.type)).toEqual(["FISCAL_CERTIFICATE_EXPIRING"]);
    await h.db.delete(notifications).where(eq(notifications.businessId, t.businessId));
    await upload(new Date(start.getTime() + 10 * DAY + 60_000));
    clock = new Date(start.getTime() + 11 * DAY);
    await invoicing.tick();
    await invoicing.tick();
    expect((await warnings()).map((n) => n.type)).toEqual(["FISCAL_CERTIFICATE_EXPIRED"]);
  });
});
