// /Business/Roaming: the party id, adding a partner both ways (an invitation whose
// token A the test eMSP registers with; a registration with the eMSP's versions URL and token),
// the partners' list and state, unregistering, and which stations are offered — seen by the
// eMSP through /ocpi. Tokens never reach the audit log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { auditLog } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { createOcpiApp } from "../../ocpi/app";
import { location } from "../../ocpi/schemas";
import { ocpiCall, serveLate, TestEmsp } from "../ocpi/emsp";
import { createTenant, expectProblem, expectStatus, openHarness, stationInput, TEST_KEYS, testBackends, type Harness, type Tenant } from "./helpers";

describe.each(testBackends())("Business API: roaming ($name)", (backend) => {
  let h: Harness;
  let cpo: { origin: string; close: () => Promise<void> };
  let t: Tenant;
  let other: Tenant;
  let emsp: TestEmsp;
  let emsp2: TestEmsp;
  let stationId: string;
  let invitedId = "";
  let registeredId = "";

  beforeAll(async () => {
    const late: { app?: ReturnType<typeof createOcpiApp> } = {};
    cpo = await serveLate(() => ({ fetch: (request: Request) => late.app!.fetch(request) }));
    h = await openHarness(backend, { publicOrigin: cpo.origin, ocpiClient: { local: true } });
    late.app = createOcpiApp({ db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: cpo.origin, logger: { info: () => {}, warn: () => {}, error: () => {} }, client: { local: true } });
    t = await createTenant(h, "roaming-owner");
    other = await createTenant(h, "roaming-other");
    emsp = await new TestEmsp("EMS", "NL").start();
    emsp2 = await new TestEmsp("TWO", "DE").start();
    stationId = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Palermo" }) }), 201)).id;
  });
  afterAll(async () => {
    await emsp?.stop();
    await emsp2?.stop();
    await cpo?.close();
    await h?.close();
  });

  it("settings: country AR, no party id yet, our versions URL; a partner cannot be added before the party id", async () => {
    const s = await expectStatus(await h.call("GET", "/Business/Roaming", { token: t.token }), 200);
    expect(s).toEqual({ countryCode: "AR", partyId: null, versionsUrl: `${cpo.origin}/ocpi/versions` });
    const p = await expectProblem(await h.call("POST", "/Business/Roaming/Partner", { token: t.token, body: {} }), 422);
    expect(p.errors).toEqual({ partyId: ["Configurá tu party id antes de agregar socios."] });
  });

  it("sets the party id (upper case, 3 letters or digits) and audits it", async () => {
    const bad = await expectProblem(await h.call("PUT", "/Business/Roaming", { token: t.token, body: { partyId: "E N" } }), 422);
    expect(bad.errors).toEqual({ partyId: ["Ingresá 3 letras o números (por ejemplo ENC)."] });
    const s = await expectStatus(await h.call("PUT", "/Business/Roaming", { token: t.token, body: { partyId: "enc" } }), 200);
    expect(s.partyId).toBe("ENC");
    await expectStatus(await h.call("PUT", "/Business/Roaming", { token: other.token, body: { partyId: "OTR" } }), 200);
    const [entry] = await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, t.businessId), eq(auditLog.action, "profile.update")));
    expect(entry.changes).toMatchObject({ ocpiPartyId: { before: null, after: "ENC" } });
  });

  it("an invitation: our versions URL and a token A, with which the eMSP registers; the list shows it REGISTERED", async () => {
    const created = await expectStatus(await h.call("POST", "/Business/Roaming/Partner", { token: t.token, body: { versionsUrl: "", token: "" } }), 201);
    expect(created).toMatchObject({ versionsUrl: `${cpo.origin}/ocpi/versions`, partner: { status: "PENDING" } });
    expect(created.token).toMatch(/^[\x21-\x7E]{32,64}$/);
    invitedId = created.id;
    const answer = await emsp.register(created.versionsUrl, created.token);
    expect(answer.body.status_code).toBe(1000);
    const list = await expectStatus(await h.call("GET", "/Business/Roaming/Partner", { token: t.token }), 200);
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ id: invitedId, status: "REGISTERED", name: "Test eMSP", countryCode: "NL", partyId: "EMS", version: "2.2.1", failures: 0 });
    expect(list.items[0].modules).toContain("cdrs RECEIVER");
    expect(JSON.stringify(list)).not.toContain(created.token);
    const audit = await h.db.select().from(auditLog).where(eq(auditLog.businessId, t.businessId));
    expect(audit.some((a) => a.action === "roaming_partner.create" && a.resourceId === invitedId)).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(created.token);
  });

  it("a registration with the eMSP's versions URL and token A: no token to hand over, REGISTERED at once", async () => {
    const tokenA = emsp2.issueTokenA();
    const created = await expectStatus(await h.call("POST", "/Business/Roaming/Partner", { token: t.token, body: { versionsUrl: emsp2.versionsUrl, token: tokenA } }), 201);
    expect(created).toMatchObject({ token: null, partner: { status: "REGISTERED", partyId: "TWO", countryCode: "DE" } });
    registeredId = created.id;
    expect(emsp2.registered).toBe(true);
    const audit = await h.db.select().from(auditLog).where(eq(auditLog.businessId, t.businessId));
    expect(JSON.stringify(audit)).not.toContain(tokenA);
  });

  it("a registration that fails (wrong token, half the fields, not a URL) is a 422 in Spanish on the field", async () => {
    const wrong = await expectProblem(await h.call("POST", "/Business/Roaming/Partner", { token: t.token, body: { versionsUrl: emsp2.versionsUrl, token: "wrong" } }), 422);
    expect(wrong.errors?.versionsUrl?.[0]).toMatch(/^No pudimos registrarnos con el socio: El socio respondió 401/);
    const half = await expectProblem(await h.call("POST", "/Business/Roaming/Partner", { token: t.token, body: { versionsUrl: emsp2.versionsUrl } }), 422);
    expect(half.errors).toEqual({ token: ["Para registrarte con un socio completá su URL de versiones y su token; para invitarlo dejá los dos vacíos."] });
    const notUrl = await expectProblem(await h.call("POST", "/Business/Roaming/Partner", { token: t.token, body: { versionsUrl: "ftp://x", token: "abc" } }), 422);
    expect(notUrl.errors?.versionsUrl).toEqual(["Ingresá la URL de versiones del socio (https://…)."]);
    expect((await expectStatus(await h.call("GET", "/Business/Roaming/Partner", { token: t.token }), 200)).total).toBe(2);
  });

  it("stations: the list with their roaming flag; publishing one makes it a Location for the partners", async () => {
    const before = await ocpiCall("GET", `${cpo.origin}/ocpi/2.2.1/locations`, emsp.cpoToken, z.array(location));
    expect(before.body.data).toEqual([]);
    const list = await expectStatus(await h.call("GET", "/Business/Roaming/Station", { token: t.token }), 200);
    expect(list.items).toEqual([{ id: stationId, name: "Palermo", city: "Buenos Aires", roamingPublished: false }]);
    const updated = await expectStatus(await h.call("PUT", `/Business/Roaming/Station/${stationId}`, { token: t.token, body: { roamingPublished: true } }), 200);
    expect(updated.roamingPublished).toBe(true);
    const after = await ocpiCall("GET", `${cpo.origin}/ocpi/2.2.1/locations`, emsp.cpoToken, z.array(location));
    expect(after.body.data!.map((l) => l.id)).toEqual([stationId]);
    // Another company's station: 404; a bad body: 422.
    await expectProblem(await h.call("PUT", `/Business/Roaming/Station/${stationId}`, { token: other.token, body: { roamingPublished: false } }), 404);
    await expectProblem(await h.call("PUT", `/Business/Roaming/Station/${stationId}`, { token: t.token, body: { roamingPublished: "yes" } }), 422);
    expect((await expectStatus(await h.call("GET", "/Business/Roaming/Station", { token: other.token }), 200)).items).toEqual([]);
  });

  it("tenancy: another company sees none of the partners and cannot remove them", async () => {
    expect((await expectStatus(await h.call("GET", "/Business/Roaming/Partner", { token: other.token }), 200)).items).toEqual([]);
    await expectProblem(await h.call("DELETE", `/Business/Roaming/Partner/${registeredId}`, { token: other.token }), 404);
  });

  it("unregistering a partner tells it (DELETE on its credentials) and removes it", async () => {
    const cpoToken = emsp2.cpoToken!;
    expect((await h.call("DELETE", `/Business/Roaming/Partner/${registeredId}`, { token: t.token })).status).toBe(204);
    expect(emsp2.received.at(-1)).toMatchObject({ method: "DELETE", path: "/ocpi/2.2.1/credentials" });
    expect((await ocpiCall("GET", `${cpo.origin}/ocpi/versions`, cpoToken, z.unknown())).status).toBe(401);
    const list = await expectStatus(await h.call("GET", "/Business/Roaming/Partner", { token: t.token }), 200);
    expect(list.items.map((p: { id: string }) => p.id)).toEqual([invitedId]);
    await expectProblem(await h.call("DELETE", `/Business/Roaming/Partner/${registeredId}`, { token: t.token }), 404);
  });
});

// Production (ADR 0021): partners' URLs must be https and public. The test eMSP is live on
// 127.0.0.1, and still it is never called: the address is refused first, with the field message
// the Roaming screen shows under "URL de versiones del socio".
describe.each(testBackends())("Business API: roaming partners' addresses in production ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let emsp: TestEmsp;

  beforeAll(async () => {
    h = await openHarness(backend, { publicOrigin: "https://enchufa.test" });
    t = await createTenant(h, "roaming-ssrf");
    await expectStatus(await h.call("PUT", "/Business/Roaming", { token: t.token, body: { partyId: "SRF" } }), 200);
    emsp = await new TestEmsp("EMS", "NL").start();
  });
  afterAll(async () => {
    await emsp?.stop();
    await h?.close();
  });

  it.each([
    ["the test eMSP on this machine (plain http)", () => emsp.versionsUrl],
    ["the same over https", () => emsp.versionsUrl.replace("http:", "https:")],
    ["localhost", () => "https://localhost/ocpi/versions"],
    ["a private network", () => "https://10.1.2.3/ocpi/versions"],
    ["172.16/12", () => "https://172.20.1.1/ocpi/versions"],
    ["192.168/16", () => "https://192.168.0.10/ocpi/versions"],
    ["the metadata service", () => "https://169.254.169.254/latest/meta-data/"],
    ["CGNAT", () => "https://100.64.0.1/ocpi/versions"],
    ["IPv6 loopback", () => "https://[::1]/ocpi/versions"],
    ["IPv6 unique local", () => "https://[fd00::1]/ocpi/versions"],
    ["IPv6 link-local", () => "https://[fe80::1]/ocpi/versions"],
  ])("refuses %s with a Spanish field message, and calls nobody", async (_label, url) => {
    const tokenA = emsp.issueTokenA();
    const p = await expectProblem(await h.call("POST", "/Business/Roaming/Partner", { token: t.token, body: { versionsUrl: url(), token: tokenA } }), 422);
    expect(p.errors).toEqual({ versionsUrl: ["La dirección del socio tiene que ser pública y usar https."] });
    expect(emsp.received).toEqual([]);
    expect((await expectStatus(await h.call("GET", "/Business/Roaming/Partner", { token: t.token }), 200)).total).toBe(0);
  });
});
