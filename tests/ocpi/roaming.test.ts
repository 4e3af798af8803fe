// OCPI 2.2.1 CPO interface: a test eMSP (tests/ocpi/emsp.ts) registers with the CPO
// and the CPO with it, over real HTTP; tokens are stored hashed or sealed; wrong and missing
// tokens get 401; a token A opens only versions and credentials; one operator's partners see
// nothing of another's; Locations and Tariffs are pulled page by page, every object validated
// against the zod schemas written from the specification.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { businessUsers, ocpiPartners, stations, type BusinessUser } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { createOcpiApp, ocpiServices } from "../../ocpi/app";
import { createInvitation, registerWithPartner, removePartner, type OcpiServices } from "../../ocpi/registration";
import { connector, credentials, evse, location, tariff, versionDetails, versionList } from "../../ocpi/schemas";
import { hashCredentialsToken } from "../../ocpi/tokens";
import { chargerInput, createTenant, expectStatus, openHarness, rateInput, stationInput, TEST_KEYS, testBackends, type Harness, type Tenant } from "../api/helpers";
import { encodeToken, ocpiCall, serveLate, TestEmsp } from "./emsp";

const silent = { info: () => {}, warn: () => {}, error: (o: object, m?: string) => console.error(m, JSON.stringify(o)) };

describe.each(testBackends())("OCPI 2.2.1 CPO interface ($name)", (backend) => {
  let h: Harness;
  let cpo: { origin: string; close: () => Promise<void> };
  let svc: OcpiServices;
  let t: Tenant;
  let other: Tenant;
  let business: BusinessUser;
  let otherBusiness: BusinessUser;
  let emsp: TestEmsp;
  let emsp2: TestEmsp;
  let stationIds: string[] = [];
  let idleRateId: string;
  let timeRateId: string;
  let chargerId: string;

  const versionsUrl = () => `${cpo.origin}/ocpi/versions`;
  const moduleUrl = (m: string) => `${cpo.origin}/ocpi/2.2.1/${m}`;

  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, "ocpi-owner");
    other = await createTenant(h, "ocpi-other");
    [business] = await h.db.update(businessUsers).set({ ocpiPartyId: "ENC" }).where(eq(businessUsers.id, t.businessId)).returning();
    [otherBusiness] = await h.db.update(businessUsers).set({ ocpiPartyId: "OTR" }).where(eq(businessUsers.id, other.businessId)).returning();
    cpo = await serveLate((origin) => {
      const deps = { db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: origin, logger: silent, client: { local: true } };
      svc = ocpiServices(deps);
      return createOcpiApp(deps);
    });
    emsp = await new TestEmsp("EMS", "NL").start();
    emsp2 = await new TestEmsp("TWO", "DE").start();

    // Three stations published to roaming, one not; a rate with an idle penalty and one by time.
    idleRateId = (await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: "Con penalidad" }) }), 201)).id;
    timeRateId = (
      await expectStatus(
        await h.call("POST", "/Business/Fees", {
          token: t.token,
          body: rateInput({ name: "Por tiempo", pricePerKwhCents: 0, pricePerMinuteCents: 500, sessionFeeCents: 0, vatIncluded: false, idlePricePerMinuteCents: 0, idleMaxCents: null }),
        }),
        201,
      )
    ).id;
    for (const name of ["A", "B", "C", "Oculta"]) {
      const s = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: `Estación ${name}` }) }), 201);
      stationIds.push(s.id);
    }
    const charger = await expectStatus(
      await h.call("POST", "/Business/Charger", {
        token: t.token,
        body: chargerInput({
          stationId: stationIds[0],
          connectors: [
            { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22, rateId: idleRateId },
            { connectorId: 2, standard: "IEC_62196_T2_COMBO", format: "CABLE", powerType: "DC", maxPowerKw: 50, rateId: timeRateId },
          ],
        }),
      }),
      201,
    );
    chargerId = charger.id;
    for (const id of stationIds.slice(0, 3)) await h.db.update(stations).set({ roamingPublished: true }).where(eq(stations.id, id));
    // The other operator has a published station too.
    const foreign = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: other.token, body: stationInput({ name: "Ajena" }) }), 201);
    await h.db.update(stations).set({ roamingPublished: true }).where(eq(stations.id, foreign.id));
    stationIds = stationIds.slice(0, 3);
  });
  afterAll(async () => {
    await emsp?.stop();
    await emsp2?.stop();
    await cpo?.close();
    await h?.close();
  });

  let tokenC = "";

  it("the eMSP registers with token A from the dashboard: versions, details, POST credentials → token C; A is spent", async () => {
    const { token: tokenA, partner } = await createInvitation(svc, business);
    const [stored] = await h.db.select().from(ocpiPartners).where(eq(ocpiPartners.id, partner.id));
    expect(stored.incomingTokenHash).toBe(hashCredentialsToken(tokenA));
    expect(JSON.stringify(stored)).not.toContain(tokenA);

    // Token A opens versions and credentials only.
    const versions = await ocpiCall("GET", versionsUrl(), tokenA, versionList);
    expect(versions.status).toBe(200);
    expect(versions.body.data).toEqual([{ version: "2.2.1", url: `${cpo.origin}/ocpi/2.2.1` }]);
    expect(versions.headers.get("x-request-id")).toBe("req-1");
    expect(versions.headers.get("x-correlation-id")).toBe("corr-1");
    const details = await ocpiCall("GET", `${cpo.origin}/ocpi/2.2.1`, tokenA, versionDetails);
    expect(details.body.data!.endpoints).toEqual(
      expect.arrayContaining([
        { identifier: "credentials", role: "RECEIVER", url: moduleUrl("credentials") },
        { identifier: "locations", role: "SENDER", url: moduleUrl("locations") },
        { identifier: "tariffs", role: "SENDER", url: moduleUrl("tariffs") },
      ]),
    );
    const refused = await ocpiCall("GET", moduleUrl("locations"), tokenA, z.unknown());
    expect(refused.status).toBe(401);
    expect(refused.body.status_code).toBe(2000);
    // PUT and DELETE before registering: 405 (credentials.asciidoc §PUT, §DELETE).
    expect((await ocpiCall("PUT", moduleUrl("credentials"), tokenA, z.unknown(), emsp.ourCredentials("x"))).status).toBe(405);
    expect((await ocpiCall("DELETE", moduleUrl("credentials"), tokenA, z.unknown())).status).toBe(405);

    const answer = await emsp.register(versionsUrl(), tokenA);
    expect(answer.status).toBe(200);
    expect(answer.body.status_code).toBe(1000);
    credentials.parse(answer.body.data);
    expect(answer.body.data).toMatchObject({ url: versionsUrl(), roles: [{ role: "CPO", country_code: "AR", party_id: "ENC", business_details: { name: business.businessName } }] });
    tokenC = answer.body.data!.token;
    // The CPO read the eMSP's versions and details with token B.
    const calls = emsp.received.filter((r) => r.method === "GET");
    expect(calls.map((r) => r.path)).toEqual(["/ocpi/versions", "/ocpi/2.2.1"]);

    const [row] = await h.db.select().from(ocpiPartners).where(eq(ocpiPartners.id, partner.id));
    expect(row).toMatchObject({ status: "REGISTERED", incomingTokenKind: "C", countryCode: "NL", partyId: "EMS", name: "Test eMSP", versionsUrl: emsp.versionsUrl, version: "2.2.1" });
    expect(row.incomingTokenHash).toBe(hashCredentialsToken(tokenC));
    // The eMSP's token is sealed (key ring), never stored in the clear.
    const tokenB = [...emsp.tokensForCpo][0];
    expect(row.outgoingTokenEncrypted).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(tokenB);
    expect(JSON.stringify(row)).not.toContain(tokenC);

    expect((await ocpiCall("GET", versionsUrl(), tokenA, z.unknown())).status).toBe(401);
    // Already registered: POST is 405.
    expect((await ocpiCall("POST", moduleUrl("credentials"), tokenC, z.unknown(), emsp.ourCredentials("y"))).status).toBe(405);
    const got = await ocpiCall("GET", moduleUrl("credentials"), tokenC, credentials);
    expect(got.body.data!.token).toBe(tokenC);
  });

  it("answers 401 with an OCPI envelope to a missing, unknown or malformed token", async () => {
    for (const auth of ["", "Token ", encodeToken("nope"), "Bearer abc", `Token ${"x".repeat(300)}`]) {
      const res = await ocpiCall("GET", moduleUrl("locations"), null, z.unknown(), undefined, auth);
      expect(res.status).toBe(401);
      expect(res.body.status_code).toBe(2000);
      expect(res.body.status_message).toMatch(/Unauthorized/);
    }
    expect((await ocpiCall("GET", versionsUrl(), null, z.unknown())).status).toBe(401);
  });

  it("accepts the token without Base64 too (2.1.1-style peers, transport_and_format NOTE)", async () => {
    const res = await ocpiCall("GET", versionsUrl(), null, versionList, undefined, `Token ${tokenC}`);
    expect(res.status).toBe(200);
  });

  it("PUT credentials: the eMSP renews its token; the CPO reads its endpoints again and answers a new token", async () => {
    const newB = emsp.issueTokenA();
    const answer = await ocpiCall("PUT", moduleUrl("credentials"), tokenC, credentials, emsp.ourCredentials(newB));
    expect(answer.body.status_code).toBe(1000);
    const renewed = answer.body.data!.token;
    expect(renewed).not.toBe(tokenC);
    expect((await ocpiCall("GET", versionsUrl(), tokenC, z.unknown())).status).toBe(401);
    expect((await ocpiCall("GET", versionsUrl(), renewed, versionList)).status).toBe(200);
    expect(emsp.received.at(-1)!.authorization).toBe(encodeToken(newB));
    tokenC = renewed;
  });

  it("a registration whose versions URL cannot be used answers 3001 and keeps token A", async () => {
    const { token: tokenA } = await createInvitation(svc, business);
    const bad = await ocpiCall("POST", moduleUrl("credentials"), tokenA, z.unknown(), { ...emsp.ourCredentials("unknown-to-emsp"), url: emsp.versionsUrl });
    expect(bad.status).toBe(200);
    expect(bad.body.status_code).toBe(3001);
    const malformed = await ocpiCall("POST", moduleUrl("credentials"), tokenA, z.unknown(), { token: "has space", url: "nope", roles: [] });
    expect(malformed.body.status_code).toBe(2001);
    expect((await ocpiCall("GET", versionsUrl(), tokenA, versionList)).status).toBe(200);
  });

  it("the CPO registers with the eMSP's versions URL and token A (the other direction)", async () => {
    const tokenA = emsp2.issueTokenA();
    const partner = await registerWithPartner(svc, otherBusiness, { versionsUrl: emsp2.versionsUrl, token: tokenA });
    expect(partner).toMatchObject({ status: "REGISTERED", partyId: "TWO", countryCode: "DE", incomingTokenKind: "C" });
    // The eMSP got our credentials (token B) and read our versions with it.
    const post = emsp2.received.find((r) => r.method === "POST")!;
    expect(post.authorization).toBe(encodeToken(tokenA));
    const ours = credentials.parse(post.body);
    expect(ours.roles[0]).toMatchObject({ role: "CPO", country_code: "AR", party_id: "OTR" });
    expect(emsp2.cpoToken).toBe(ours.token);
    expect(partner.incomingTokenHash).toBe(hashCredentialsToken(ours.token));
    expect(await ocpiCall("GET", versionsUrl(), ours.token, versionList)).toMatchObject({ status: 200 });
    // The token the eMSP answered (C) is what we use from now on; token A is no longer accepted by it.
    expect(emsp2.tokensForCpo.has(tokenA)).toBe(false);
  });

  it("a failed registration with a partner keeps nothing", async () => {
    const before = await h.db.select().from(ocpiPartners);
    await expect(registerWithPartner(svc, otherBusiness, { versionsUrl: emsp2.versionsUrl, token: "not-issued" })).rejects.toThrow(/socio/);
    expect(await h.db.select().from(ocpiPartners)).toHaveLength(before.length);
  });

  it("Locations: only stations published to roaming, page by page with Link, X-Total-Count and X-Limit", async () => {
    const seen: z.infer<typeof location>[] = [];
    let next: string | null = `${moduleUrl("locations")}?limit=2`;
    let pages = 0;
    while (next) {
      const res: Awaited<ReturnType<typeof ocpiCall<z.ZodArray<typeof location>>>> = await ocpiCall("GET", next, tokenC, z.array(location));
      expect(res.status).toBe(200);
      expect(res.headers.get("x-total-count")).toBe("3");
      expect(res.headers.get("x-limit")).toBe("100");
      seen.push(...res.body.data!);
      next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1] ?? null;
      pages++;
    }
    expect(pages).toBe(2);
    expect(seen.map((l) => l.id).sort()).toEqual([...stationIds].sort());
    const first = seen.find((l) => l.id === stationIds[0])!;
    expect(first).toMatchObject({ country_code: "AR", party_id: "ENC", publish: true, country: "ARG", coordinates: { latitude: "-34.587500", longitude: "-58.409700" }, time_zone: "America/Argentina/Buenos_Aires" });
    expect(first.evses).toHaveLength(1);
    const e = evse.parse(first.evses![0]);
    expect(e).toMatchObject({ uid: chargerId, status: "UNKNOWN" });
    expect(e.connectors).toEqual([
      expect.objectContaining({ id: "1", standard: "IEC_62196_T2", format: "SOCKET", power_type: "AC_3_PHASE", max_voltage: 230, max_amperage: 32, max_electric_power: 22000, tariff_ids: [idleRateId] }),
      expect.objectContaining({ id: "2", standard: "IEC_62196_T2_COMBO", format: "CABLE", power_type: "DC", max_voltage: 400, max_electric_power: 50000, tariff_ids: [timeRateId] }),
    ]);
  });

  it("Locations: one object, an EVSE and a connector; 404 with 2003 for unknown or unpublished ones", async () => {
    expect((await ocpiCall("GET", `${moduleUrl("locations")}/${stationIds[0]}`, tokenC, location)).body.data!.id).toBe(stationIds[0]);
    expect((await ocpiCall("GET", `${moduleUrl("locations")}/${stationIds[0]}/${chargerId}`, tokenC, evse)).body.data!.uid).toBe(chargerId);
    expect((await ocpiCall("GET", `${moduleUrl("locations")}/${stationIds[0]}/${chargerId}/2`, tokenC, connector)).body.data!.id).toBe("2");
    const [hidden] = await h.db.select().from(stations).where(eq(stations.name, "Estación Oculta"));
    for (const path of [hidden.id, "not-a-uuid", `${stationIds[0]}/${chargerId}/9`]) {
      const res = await ocpiCall("GET", `${moduleUrl("locations")}/${path}`, tokenC, z.unknown());
      expect(res.status).toBe(404);
      expect(res.body.status_code).toBe(2003);
    }
  });

  it("Locations: date_from (inclusive) and date_to (exclusive) filter on last_updated, and the Link keeps them", async () => {
    await h.db.update(stations).set({ updatedAt: new Date("2020-01-01T00:00:00Z") }).where(eq(stations.id, stationIds[2]));
    const recent = await ocpiCall("GET", `${moduleUrl("locations")}?date_from=2021-01-01T00:00:00Z&limit=1`, tokenC, z.array(location));
    expect(recent.headers.get("x-total-count")).toBe("2");
    expect(recent.headers.get("link")).toContain("date_from=2021-01-01T00%3A00%3A00Z");
    const old = await ocpiCall("GET", `${moduleUrl("locations")}?date_to=2020-01-01T00:00:01`, tokenC, z.array(location));
    expect(old.body.data!.map((l) => l.id)).toEqual([stationIds[2]]);
    expect(old.body.data![0].last_updated).toBe("2020-01-01T00:00:00Z");
    const bad = await ocpiCall("GET", `${moduleUrl("locations")}?date_from=yesterday`, tokenC, z.unknown());
    expect(bad.body.status_code).toBe(2001);
  });

  it("Tariffs: the rates of published connectors; ENERGY, FLAT, TIME net of VAT; the idle penalty as PARKING_TIME at the idle price; time by the second; no min_duration (mod_tariffs §TariffRestrictions: it counts the whole session)", async () => {
    const res = await ocpiCall("GET", `${moduleUrl("tariffs")}?limit=1`, tokenC, z.array(tariff));
    expect(res.headers.get("x-total-count")).toBe("2");
    const nextUrl = /<([^>]+)>/.exec(res.headers.get("link")!)![1];
    const second = await ocpiCall("GET", nextUrl, tokenC, z.array(tariff));
    expect(second.headers.get("link")).toBeNull();
    const all = [...res.body.data!, ...second.body.data!];
    const idle = all.find((x) => x.id === idleRateId)!;
    // rateInput: $350/kWh and $500 per session with 21 % VAT included; idle $20/min after 15 min, cap $3000.
    expect(idle).toMatchObject({ country_code: "AR", party_id: "ENC", currency: "ARS" });
    expect(idle.elements[0].price_components).toEqual([
      { type: "ENERGY", price: 289.2562, vat: 21, step_size: 1 },
      { type: "FLAT", price: 413.2231, vat: 21, step_size: 1 },
    ]);
    expect(idle.elements[1]).toEqual({
      price_components: [{ type: "PARKING_TIME", price: 991.7355, vat: 21, step_size: 1 }],
    });
    expect(idle.tariff_alt_text!.find((x) => x.language === "es")!.text).toContain("después de 15 minutos de terminada la carga, hasta ARS 3000.00");
    const byTime = all.find((x) => x.id === timeRateId)!;
    // $5/min without VAT: $300 an hour; no idle penalty → no PARKING_TIME at all.
    expect(byTime.elements).toEqual([{ price_components: [{ type: "TIME", price: 300, vat: 21, step_size: 1 }] }]);
  });

  it("tenancy: a partner of another operator sees none of this operator's locations or tariffs", async () => {
    const otherToken = emsp2.cpoToken!;
    const locs = await ocpiCall("GET", moduleUrl("locations"), otherToken, z.array(location));
    expect(locs.body.data!.map((l) => l.name)).toEqual(["Ajena"]);
    expect(locs.body.data![0].party_id).toBe("OTR");
    expect((await ocpiCall("GET", `${moduleUrl("locations")}/${stationIds[0]}`, otherToken, z.unknown())).status).toBe(404);
    const tariffs = await ocpiCall("GET", moduleUrl("tariffs"), otherToken, z.array(tariff));
    expect(tariffs.body.data).toEqual([]);
    expect(tariffs.headers.get("x-total-count")).toBe("0");
  });

  it("unregister: the eMSP DELETEs its credentials; its token stops working; the row stays UNREGISTERED", async () => {
    const res = await ocpiCall("DELETE", moduleUrl("credentials"), tokenC, z.unknown());
    expect(res.body.status_code).toBe(1000);
    expect((await ocpiCall("GET", versionsUrl(), tokenC, z.unknown())).status).toBe(401);
    const rows = await h.db.select().from(ocpiPartners).where(eq(ocpiPartners.businessId, t.businessId));
    expect(rows.find((r) => r.partyId === "EMS")).toMatchObject({ status: "UNREGISTERED", incomingTokenHash: null, outgoingTokenEncrypted: null });
  });

  it("unregister from the dashboard: the partner is told with DELETE on its credentials endpoint, the row removed", async () => {
    const [row] = await h.db.select().from(ocpiPartners).where(eq(ocpiPartners.businessId, other.businessId));
    const token = emsp2.cpoToken!;
    // Another operator cannot remove it.
    expect(await removePartner(svc, t.businessId, row.id)).toEqual({ found: false, notified: false });
    expect(await removePartner(svc, other.businessId, row.id)).toEqual({ found: true, notified: true });
    expect(emsp2.received.at(-1)).toMatchObject({ method: "DELETE", path: "/ocpi/2.2.1/credentials" });
    expect(emsp2.registered).toBe(false);
    expect((await ocpiCall("GET", versionsUrl(), token, z.unknown())).status).toBe(401);
  });
});
