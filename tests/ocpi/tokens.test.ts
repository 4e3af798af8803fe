// OCPI Tokens receiver and real-time authorization: the test eMSP pushes its drivers'
// tokens (PUT, PATCH, GET back), only under its own country and party; the CPO decides a stored
// token by its whitelist and asks the eMSP in real time otherwise, and an unknown token is asked of
// the registered eMSPs (2004 from one that does not know it). One operator's partners' tokens do
// not authorize at another operator's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { businessUsers, ocpiTokens, stations, type BusinessUser } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { createOcpiApp, ocpiServices } from "../../ocpi/app";
import { createInvitation, type OcpiServices } from "../../ocpi/registration";
import { authorizeToken } from "../../ocpi/tokens-module";
import { token as tokenSchema, locationReferences } from "../../ocpi/schemas";
import { createTenant, expectStatus, openHarness, stationInput, TEST_KEYS, testBackends, type Harness } from "../api/helpers";
import { ocpiCall, serveLate, TestEmsp } from "./emsp";

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe.each(testBackends())("OCPI Tokens ($name)", (backend) => {
  let h: Harness;
  let cpo: { origin: string; close: () => Promise<void> };
  let svc: OcpiServices;
  let emsp: TestEmsp;
  let business: BusinessUser;
  let otherBusiness: BusinessUser;
  let stationId: string;
  const asked: { uid: string; body: unknown }[] = [];
  /** What the eMSP answers to real-time authorization, by uid (absent: 2004 unknown token). */
  const answers = new Map<string, string>();
  const tokenOf = (uid: string, over: Record<string, unknown> = {}) => ({
    country_code: "NL",
    party_id: "EMS",
    uid,
    type: "RFID",
    contract_id: `NL-EMS-${uid}`,
    issuer: "Test eMSP",
    valid: true,
    whitelist: "ALLOWED",
    last_updated: "2026-11-26T12:00:00Z",
    ...over,
  });
  const url = (uid: string, cc = "NL", pid = "EMS") => `${cpo.origin}/ocpi/2.2.1/tokens/${cc}/${pid}/${uid}`;

  beforeAll(async () => {
    h = await openHarness(backend);
    const t = await createTenant(h, "tokens-owner");
    const other = await createTenant(h, "tokens-other");
    [business] = await h.db.update(businessUsers).set({ ocpiPartyId: "ENC" }).where(eq(businessUsers.id, t.businessId)).returning();
    [otherBusiness] = await h.db.update(businessUsers).set({ ocpiPartyId: "OTR" }).where(eq(businessUsers.id, other.businessId)).returning();
    stationId = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput() }), 201)).id;
    await h.db.update(stations).set({ roamingPublished: true }).where(eq(stations.id, stationId));
    cpo = await serveLate((origin) => {
      const deps = { db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: origin, logger: silent, client: { local: true } };
      svc = ocpiServices(deps);
      return createOcpiApp(deps);
    });
    emsp = await new TestEmsp("EMS", "NL").start();
    emsp.extra = (req) => {
      const m = /^\/ocpi\/2\.2\.1\/tokens\/([^/]+)\/authorize$/.exec(req.path);
      if (req.method !== "POST" || !m) return undefined;
      const uid = decodeURIComponent(m[1]);
      if (req.body !== undefined) locationReferences.parse(req.body);
      asked.push({ uid, body: req.body });
      const allowed = answers.get(uid);
      if (!allowed) return { status: 404, body: { status_code: 2004, status_message: "Unknown token", timestamp: new Date().toISOString() } };
      return { body: { data: { allowed, token: tokenOf(uid), authorization_reference: `REF-${uid}` }, status_code: 1000, timestamp: new Date().toISOString() } };
    };
    const { token: tokenA } = await createInvitation(svc, business);
    expect((await emsp.register(`${cpo.origin}/ocpi/versions`, tokenA)).body.status_code).toBe(1000);
  });
  afterAll(async () => {
    await emsp?.stop();
    await cpo?.close();
    await h?.close();
  });

  it("PUT stores a token (201), again updates it (200); GET returns it; PATCH changes fields", async () => {
    const created = await ocpiCall("PUT", url("CARD-0001"), emsp.cpoToken, z.unknown(), tokenOf("CARD-0001"));
    expect(created).toMatchObject({ status: 201, body: { status_code: 1000 } });
    expect((await ocpiCall("PUT", url("CARD-0001"), emsp.cpoToken, z.unknown(), tokenOf("CARD-0001", { visual_number: "0001" }))).status).toBe(200);
    const got = await ocpiCall("GET", url("CARD-0001"), emsp.cpoToken, tokenSchema);
    expect(got.body.data).toMatchObject({ uid: "CARD-0001", visual_number: "0001", whitelist: "ALLOWED" });
    const patched = await ocpiCall("PATCH", url("CARD-0001"), emsp.cpoToken, z.unknown(), { whitelist: "ALWAYS", last_updated: "2026-11-26T13:00:00Z" });
    expect(patched.body.status_code).toBe(1000);
    expect((await ocpiCall("GET", url("CARD-0001"), emsp.cpoToken, tokenSchema)).body.data).toMatchObject({ whitelist: "ALWAYS", visual_number: "0001" });
    const [row] = await h.db.select().from(ocpiTokens).where(eq(ocpiTokens.uid, "CARD-0001"));
    expect(row).toMatchObject({ businessId: business.id, whitelist: "ALWAYS", valid: true, type: "RFID" });
  });

  it("refuses another party's path (2001), a body not matching its URL (2001), PATCH without last_updated (2001); unknown tokens are 404 / 2004", async () => {
    expect((await ocpiCall("PUT", url("CARD-0002", "DE", "XYZ"), emsp.cpoToken, z.unknown(), tokenOf("CARD-0002", { country_code: "DE", party_id: "XYZ" }))).body.status_code).toBe(2001);
    expect((await ocpiCall("PUT", url("CARD-0002"), emsp.cpoToken, z.unknown(), tokenOf("OTHER"))).body.status_code).toBe(2001);
    expect((await ocpiCall("PUT", url("CARD-0002"), emsp.cpoToken, z.unknown(), { uid: "CARD-0002" })).body.status_code).toBe(2001);
    expect((await ocpiCall("PATCH", url("CARD-0001"), emsp.cpoToken, z.unknown(), { valid: false })).body.status_code).toBe(2001);
    const unknown = await ocpiCall("GET", url("NOPE"), emsp.cpoToken, z.unknown());
    expect(unknown).toMatchObject({ status: 404, body: { status_code: 2004 } });
    expect((await ocpiCall("GET", url("NOPE"), null, z.unknown())).status).toBe(401);
  });

  it("a stored token with whitelist ALWAYS is allowed locally, without asking the eMSP", async () => {
    const decision = await authorizeToken(svc, business.id, "CARD-0001", { location: { locationId: stationId } });
    expect(decision).toMatchObject({ allowed: "ALLOWED", source: "LOCAL", token: { uid: "CARD-0001" } });
    expect(asked).toEqual([]);
  });

  it("a stored token with whitelist ALLOWED is allowed locally too (§WhitelistType: the CPO chooses)", async () => {
    await ocpiCall("PUT", url("CARD-0005"), emsp.cpoToken, z.unknown(), tokenOf("CARD-0005"));
    expect(await authorizeToken(svc, business.id, "card-0005")).toMatchObject({ allowed: "ALLOWED", source: "LOCAL", token: { uid: "CARD-0005" } });
    expect(asked).toEqual([]);
  });

  it("a stored token with whitelist ALLOWED_OFFLINE is asked in real time, with the location; an invalid one is BLOCKED", async () => {
    await ocpiCall("PUT", url("CARD-0003"), emsp.cpoToken, z.unknown(), tokenOf("CARD-0003", { whitelist: "ALLOWED_OFFLINE" }));
    answers.set("CARD-0003", "NO_CREDIT");
    const decision = await authorizeToken(svc, business.id, "CARD-0003", { location: { locationId: stationId, evseUid: "e1" } });
    expect(decision).toMatchObject({ allowed: "NO_CREDIT", source: "REAL_TIME", authorizationReference: "REF-CARD-0003" });
    expect(asked.at(-1)).toEqual({ uid: "CARD-0003", body: { location_id: stationId, evse_uids: ["e1"] } });
    await ocpiCall("PUT", url("CARD-0004"), emsp.cpoToken, z.unknown(), tokenOf("CARD-0004", { valid: false }));
    expect(await authorizeToken(svc, business.id, "CARD-0004")).toMatchObject({ allowed: "BLOCKED", source: "LOCAL" });
  });

  it("an unknown token is asked of the registered eMSPs; nobody knows it → null; another operator's partners are not asked", async () => {
    answers.set("APP-77", "ALLOWED");
    expect(await authorizeToken(svc, business.id, "APP-77", { type: "APP_USER" })).toMatchObject({ allowed: "ALLOWED", source: "REAL_TIME" });
    expect(await authorizeToken(svc, business.id, "NOBODY")).toBeNull();
    const before = asked.length;
    expect(await authorizeToken(svc, otherBusiness.id, "CARD-0001")).toBeNull();
    expect(asked.length).toBe(before);
  });
});
