// The fiscal settings for ARCA (/Business/Fiscal) and "Probar conexión" (/Business/Fiscal/Test)
// against the ARCA emulator over msw, on PGlite and PostgreSQL: the certificate and key are
// checked, sealed and never returned; each failure of the test says what is wrong in Spanish;
// who may read and change them; every change audited without the secrets.
import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { auditLog, fiscalSettings } from "#db/schema";
import { memoryTicketStore } from "#infra/arca/client";
import { makeArcaCertificate } from "../../scripts/arca-test-certificates";
import { arca, ARCA_TEST_URLS } from "../mocks/arca";
import { createTenant, expectProblem, expectStatus, mintToken, openHarness, testBackends, type Harness, type Tenant } from "./helpers";

const server = setupServer(...arca.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterEach(() => arca.reset());
afterAll(() => server.close());

describe.each(testBackends())("fiscal settings ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let cert: ReturnType<typeof makeArcaCertificate>;
  beforeAll(async () => {
    h = await openHarness(backend, { arca: { wsaaUrl: ARCA_TEST_URLS.wsaa, wsfeUrl: ARCA_TEST_URLS.wsfe, tickets: memoryTicketStore() } });
    t = await createTenant(h, "fiscal-owner");
    cert = makeArcaCertificate(t.cuit);
  });
  afterAll(() => h.close());

  const settings = (over: Record<string, unknown> = {}) => ({ taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: 3, environment: "HOMOLOGACION", certificate: cert.certPem, privateKey: cert.keyPem, ...over });

  it("starts unconfigured, then saves the certificate sealed and answers only its CUIT, expiry and fingerprint", async () => {
    const empty = await expectStatus(await h.call("GET", "/Business/Fiscal", { token: t.token }), 200);
    expect(empty).toMatchObject({ configured: false, companyCuit: t.cuit, certificate: null });
    const saved = await expectStatus(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings() }), 200);
    expect(saved).toMatchObject({ configured: true, taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: 3, environment: "HOMOLOGACION", certificate: { cuit: t.cuit, expiresSoon: false, expired: false } });
    const text = JSON.stringify(saved);
    expect(text).not.toContain("BEGIN");
    const [row] = await h.db.select().from(fiscalSettings).where(eq(fiscalSettings.businessId, t.businessId));
    expect(row.certificateEncrypted).toMatch(/^v1\./);
    expect(row.keyEncrypted).not.toContain("PRIVATE KEY");
  });

  it("keeps the stored certificate when a change sends none", async () => {
    const saved = await expectStatus(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings({ certificate: "", privateKey: "", pointOfSale: 4 }) }), 200);
    expect(saved).toMatchObject({ configured: true, pointOfSale: 4, certificate: { cuit: t.cuit } });
    await expectStatus(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings({ certificate: undefined, privateKey: undefined }) }), 200);
  });

  it("refuses a certificate of another CUIT, a key that is not its own, an expired one and garbage, each on its field in Spanish", async () => {
    const foreign = makeArcaCertificate("20123456786");
    let p = await expectProblem(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings({ certificate: foreign.certPem, privateKey: foreign.keyPem }) }), 422);
    expect(p.errors?.certificate?.[0]).toMatch(/es del CUIT 20-12345678-6, no del de la empresa/);
    const other = makeArcaCertificate(t.cuit);
    p = await expectProblem(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings({ privateKey: other.keyPem }) }), 422);
    expect(p.errors?.privateKey?.[0]).toMatch(/no corresponde al certificado/);
    const expired = makeArcaCertificate(t.cuit, { notBefore: new Date(Date.now() - 400 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
    p = await expectProblem(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings({ certificate: expired.certPem, privateKey: expired.keyPem }) }), 422);
    expect(p.errors?.certificate?.[0]).toMatch(/venció/);
    p = await expectProblem(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings({ certificate: "-----BEGIN CERTIFICATE-----\nxx\n-----END CERTIFICATE-----" }) }), 422);
    expect(p.errors?.certificate?.[0]).toMatch(/no se puede leer/);
    p = await expectProblem(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings({ privateKey: undefined }) }), 422);
    expect(p.errors?.privateKey?.[0]).toMatch(/van juntos/);
    p = await expectProblem(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings({ pointOfSale: 0, taxCondition: "OTRA" }) }), 422);
    expect(Object.keys(p.errors ?? {}).sort()).toEqual(["pointOfSale", "taxCondition"]);
  });

  it("Probar conexión succeeds when ARCA knows the certificate and the point of sale", async () => {
    await expectStatus(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings() }), 200);
    arca.emulator.registerTaxpayer(t.cuit, cert.certPem, [3]);
    const result = await expectStatus(await h.call("POST", "/Business/Fiscal/Test", { token: t.token }), 200);
    expect(result.ok).toBe(true);
    expect(result.steps.map((s: { step: string }) => s.step)).toEqual(["certificate", "login", "health", "pointOfSale"]);
    const after = await expectStatus(await h.call("GET", "/Business/Fiscal", { token: t.token }), 200);
    expect(after.lastTest).toMatchObject({ ok: true });
  });

  it("Probar conexión says which step failed: certificate unknown to ARCA, point of sale not enabled, ARCA down", async () => {
    const other = await createTenant(h, "fiscal-steps");
    const otherCert = makeArcaCertificate(other.cuit);
    await expectStatus(await h.call("PUT", "/Business/Fiscal", { token: other.token, body: settings({ certificate: otherCert.certPem, privateKey: otherCert.keyPem }) }), 200);
    let result = await expectStatus(await h.call("POST", "/Business/Fiscal/Test", { token: other.token }), 200);
    expect(result).toMatchObject({ ok: false, steps: [{ step: "certificate", ok: true }, { step: "login", ok: false }] });
    expect(result.message).toMatch(/ARCA no reconoce el certificado/);
    arca.emulator.registerTaxpayer(other.cuit, otherCert.certPem, [1, 2]);
    result = await expectStatus(await h.call("POST", "/Business/Fiscal/Test", { token: other.token }), 200);
    expect(result.message).toMatch(/punto de venta 3 no está habilitado.*Los habilitados son: 1, 2/);
    arca.emulator.setMode("down");
    const fresh = await createTenant(h, "fiscal-down");
    const freshCert = makeArcaCertificate(fresh.cuit);
    await expectStatus(await h.call("PUT", "/Business/Fiscal", { token: fresh.token, body: settings({ certificate: freshCert.certPem, privateKey: freshCert.keyPem }) }), 200);
    result = await expectStatus(await h.call("POST", "/Business/Fiscal/Test", { token: fresh.token }), 200);
    expect(result.message).toMatch(/ARCA no responde/);
    const after = await expectStatus(await h.call("GET", "/Business/Fiscal", { token: fresh.token }), 200);
    expect(after.lastTest).toMatchObject({ ok: false });
  });

  it("Probar conexión before any settings is a 409 in Spanish", async () => {
    const fresh = await createTenant(h, "fiscal-none");
    const p = await expectProblem(await h.call("POST", "/Business/Fiscal/Test", { token: fresh.token }), 409);
    expect(p.title).toMatch(/Primero guardá la configuración/);
  });

  it("audits a change with the certificate's CUIT and expiry, never the certificate or key", async () => {
    await expectStatus(await h.call("PUT", "/Business/Fiscal", { token: t.token, body: settings({ pointOfSale: 7 }) }), 200);
    const rows = await h.db.select().from(auditLog).where(eq(auditLog.businessId, t.businessId));
    const entry = rows.filter((r) => r.action === "fiscal_settings.update").at(-1)!;
    expect(entry).toBeTruthy();
    const text = JSON.stringify(entry);
    expect(text).toContain("pointOfSale");
    expect(text).not.toContain("BEGIN");
    expect(text).not.toMatch(/v1\.[0-9a-f]{8}\./);
  });

  it("lets Facturación change the settings and Lectura only read them; Técnico neither", async () => {
    const { businessMembers } = await import("#db/schema");
    for (const [uid, role] of [["fiscal-billing", "BILLING"], ["fiscal-reader", "READER"], ["fiscal-tech", "TECHNICIAN"]] as const) {
      await h.db.insert(businessMembers).values({ businessId: t.businessId, firebaseUid: uid, email: `${uid}@example.com`, role });
    }
    const as = (uid: string) => ({ token: mintToken(uid), headers: { "X-Enchufa-Business": t.businessId } });
    await expectStatus(await h.call("PUT", "/Business/Fiscal", { ...as("fiscal-billing"), body: settings() }), 200);
    await expectStatus(await h.call("GET", "/Business/Fiscal", as("fiscal-reader")), 200);
    await expectProblem(await h.call("PUT", "/Business/Fiscal", { ...as("fiscal-reader"), body: settings() }), 403);
    await expectProblem(await h.call("GET", "/Business/Fiscal", as("fiscal-tech")), 403);
  });
});
