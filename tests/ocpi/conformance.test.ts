// What an independent eMSP found non-conforming in our OCPI 2.2.1, each test named after the
// clause it checks: routing headers both ways, a START_SESSION's attribution with a token the
// partner pushed, numbers with at most 4 decimals, evse_id on the EVSEs, partners' timestamps and
// nulls read liberally, removed chargers seen by pulls, and real-time answers shared by two nodes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { z } from "zod";
import { priceSession, usageFromSession, type RateSnapshot } from "#domain/pricing";
import { businessUsers, chargers, chargingSessions, ocpiRemovedEvses, ocpiSessions, stations } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { createOcpiApp, ocpiServices } from "../../ocpi/app";
import { sessionToCdr, type CdrPlace } from "../../ocpi/cdr";
import { createChargerAuthorizer } from "../../ocpi/charger-authorization";
import { OcpiClient, type Fetch } from "../../ocpi/client";
import { stationToLocation, type StationForOcpi } from "../../ocpi/mapping";
import { pushToPartners, sessionObject } from "../../ocpi/push";
import { createInvitation, type OcpiServices } from "../../ocpi/registration";
import { cdr as cdrSchema, commandResponse, credentials, location as locationSchema, session as sessionSchema, tariff, evse as evseSchema } from "../../ocpi/schemas";
import { chargerInput, expectStatus, stationInput, TEST_KEYS } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, type Fixture, type OcppHarness } from "../ocpp/harness";
import { ocpiCall, serveLate, TestEmsp, type Received } from "./emsp";

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const party = { countryCode: "AR", partyId: "ENC", operatorName: "Empresa" };
const STRICT_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Every number in `value` (as JSON would carry it) and every string that looks like a date. */
function walk(value: unknown, onNumber: (n: number, path: string) => void, path = ""): void {
  if (typeof value === "number") onNumber(value, path);
  else if (Array.isArray(value)) value.forEach((v, i) => walk(v, onNumber, `${path}[${i}]`));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, onNumber, `${path}.${k}`);
}
const decimals = (n: number) => (String(n).split(".")[1] ?? "").length;
const overFourDecimals = (value: unknown) => {
  const out: string[] = [];
  walk(value, (n, path) => decimals(n) > 4 && out.push(`${path}=${n}`));
  return out;
};

function rate(over: Partial<RateSnapshot> = {}): RateSnapshot {
  return {
    rateId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    name: "AC",
    currency: "ARS",
    pricePerKwhCents: 35_000,
    pricePerMinuteCents: 500,
    sessionFeeCents: 50_000,
    vatIncluded: true,
    vatRateBp: 2100,
    idleGraceMinutes: 15,
    idlePricePerMinuteCents: 2000,
    idleMaxCents: null,
    idleActiveFrom: null,
    idleActiveTo: null,
    noShowFeeCents: 0,
    ...over,
  };
}

const place: CdrPlace = {
  station: { id: "5f0b9a3e-58a5-4c55-9a53-7c3f2d3e0a11", name: "Palermo", address: "Av. Santa Fe 3253", city: "Buenos Aires", postalCode: "C1425BGH", country: "ARG", latitude: -34.5875, longitude: -58.4097 },
  chargerId: "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6",
  connector: { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE" },
};
const cdrToken = { country_code: "NL", party_id: "EMS", uid: "012345678", type: "RFID" as const, contract_id: "NL-EMS-C12345678-X" };

describe("OCPI 2.2.1 objects we emit", () => {
  it("types §number: every number of a CDR and a Session has at most 4 decimals, and the CDR's time totals agree with its periods to the fourth decimal", () => {
    const r = rate();
    const startedAt = new Date("2026-11-26T12:00:00Z");
    const chargingEndedAt = new Date(startedAt.getTime() + 60.5 * 60_000);
    const unpluggedAt = new Date(chargingEndedAt.getTime() + 45.5 * 60_000);
    const priced = priceSession(r, usageFromSession({ energyWh: 12_345, startedAt, chargingEndedAt, unpluggedAt, stoppedAt: unpluggedAt }));
    const session = { id: "c0ffee00-1111-4222-8333-444455556666", startedAt, chargingEndedAt, unpluggedAt, stoppedAt: unpluggedAt, energyWh: 12_345, rateId: r.rateId, rateSnapshot: r, ...priced, updatedAt: unpluggedAt };
    const cdr = cdrSchema.parse(sessionToCdr(party, session, place, cdrToken, { authMethod: "COMMAND" }));
    expect(overFourDecimals(cdr)).toEqual([]);
    const sum = (type: string) => cdr.charging_periods.flatMap((p) => p.dimensions).filter((d) => d.type === type).reduce((a, d) => a + d.volume, 0);
    expect(cdr.total_parking_time).toBeCloseTo(sum("PARKING_TIME"), 3);
    expect(cdr.total_time).toBeCloseTo(sum("TIME") + sum("PARKING_TIME"), 3);
    // 60.5 minutes of charging and 45.5 idle, in hours with 4 decimals.
    expect(sum("TIME")).toBe(1.0083);
    expect(cdr.total_parking_time).toBe(0.7583);

    const row = { ...session, status: "COMPLETED", vatCents: priced.vatCents, totalCents: priced.totalCents } as unknown as Parameters<typeof sessionObject>[1];
    expect(overFourDecimals(sessionSchema.parse(sessionObject(party, row, place, cdrToken, null)))).toEqual([]);
  });

  it("mod_locations §EVSE evse_id: every EVSE carries the same eMI3 id as the CDRs of its sessions", () => {
    const station: StationForOcpi = {
      ...place.station,
      parkingType: null,
      openingHours: { twentyFourSeven: true, periods: [] },
      timeZone: "America/Argentina/Buenos_Aires",
      lastUpdated: new Date("2026-11-26T12:00:00Z"),
      facilities: [],
      chargers: [
        {
          id: place.chargerId,
          enabled: true,
          online: true,
          updatedAt: new Date("2026-11-26T12:00:00Z"),
          connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22, rateId: null, status: "Available", updatedAt: new Date("2026-11-26T12:00:00Z") }],
        },
      ],
    };
    const location = locationSchema.parse(stationToLocation(party, station));
    const r = rate();
    const at = new Date("2026-11-26T12:00:00Z");
    const cdr = sessionToCdr(
      party,
      { id: "c0ffee00-1111-4222-8333-444455556666", startedAt: at, chargingEndedAt: at, unpluggedAt: at, stoppedAt: at, energyWh: 0, rateId: null, rateSnapshot: r, energyCents: 0, timeCents: 0, sessionFeeCents: 0, idleCents: 0, vatCents: 0, totalCents: 0, updatedAt: at },
      place,
      cdrToken,
      { authMethod: "WHITELIST" },
    );
    expect(location.evses![0].evse_id).toBeDefined();
    expect(location.evses![0].evse_id).toBe(cdr.cdr_location.evse_id);
  });
});

describe("reading partners' answers liberally", () => {
  const answering =
    (body: unknown): Fetch =>
    async () =>
      new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
  const warnings: unknown[] = [];
  const client = (body: unknown) => new OcpiClient({ fetch: answering(body), checkHost: async () => {}, logger: { warn: (o: unknown) => warnings.push(o) } });
  const theirCredentials = { token: "abc", url: "https://emsp.example/ocpi/versions", roles: [{ role: "EMSP", party_id: "EMS", country_code: "NL", business_details: { name: "eMSP" } }] };

  it("types §DateTime: an answer whose timestamp has a space separator and microseconds is accepted, and the timestamp logged", async () => {
    warnings.length = 0;
    const { data } = await client({ data: theirCredentials, status_code: 1000, timestamp: "2026-11-28 11:13:09.455669+00:00" }).request("GET", "https://emsp.example/ocpi/2.2.1/credentials", "t", credentials);
    expect(data.token).toBe("abc");
    expect(warnings).toEqual([expect.objectContaining({ timestamp: "2026-11-28 11:13:09.455669+00:00" })]);
  });

  it("types §Optional fields: null in an optional field (business_details.website, logo; status_message) is read as absent", async () => {
    const roles = [{ ...theirCredentials.roles[0], business_details: { name: "eMSP", website: null, logo: null } }];
    const { data } = await client({ data: { ...theirCredentials, roles }, status_code: 1000, status_message: null, timestamp: "2026-11-28T11:13:09Z" }).request("GET", "https://emsp.example/ocpi/2.2.1/credentials", "t", credentials);
    expect(data.roles[0].business_details).toEqual({ name: "eMSP" });
    // A required field sent as null is still missing.
    await expect(client({ data: { ...theirCredentials, token: null }, status_code: 1000, timestamp: "2026-11-28T11:13:09Z" }).request("GET", "https://emsp.example/x", "t", credentials)).rejects.toThrow(
      "datos que no cumplen OCPI 2.2.1",
    );
  });
});

describe.each(testBackends())("OCPI conformance against a test eMSP ($name)", (backend) => {
  let h: OcppHarness;
  let cpo: { origin: string; close: () => Promise<void> };
  let f: Fixture;
  let cli: RPCClient;
  let emsp: TestEmsp;
  let svc: OcpiServices;
  let stationId: string;
  const asked: string[] = [];
  const pushed: Received[] = [];
  const deps = (origin: string) => ({ db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: origin, logger: silent, client: { local: true }, ocpp: h.central });
  const node = (db = h.db) => createChargerAuthorizer(ocpiServices({ db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: "http://127.0.0.1", logger: silent, client: { local: true } }), { timeoutMs: 2_000 });
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
  const ok = () => ({ body: { status_code: 1000, timestamp: new Date().toISOString() } });
  let answerCount = 0;

  beforeAll(async () => {
    h = await openOcppHarness(backend, { roaming: (db) => node(db) });
    f = await createFixture(h, `ocpi-conformance-${backend.name}`);
    const [business] = await h.db.update(businessUsers).set({ ocpiPartyId: "ENC" }).where(eq(businessUsers.id, f.tenant.businessId)).returning();
    [{ stationId }] = (await h.db.select({ stationId: chargers.stationId }).from(chargers).where(eq(chargers.id, f.chargerId))) as { stationId: string }[];
    await h.db.update(stations).set({ roamingPublished: true, authorizationPolicy: "KNOWN_TAGS" }).where(eq(stations.id, stationId));
    cpo = await serveLate((origin) => createOcpiApp(deps(origin)));
    svc = ocpiServices(deps(cpo.origin));
    emsp = await new TestEmsp("EMS", "NL", { locationsReceiver: true }).start();
    emsp.extra = (req) => {
      const m = /^\/ocpi\/2\.2\.1\/tokens\/([^/]+)\/authorize$/.exec(req.path);
      if (req.method === "POST" && m) {
        const uid = decodeURIComponent(m[1]);
        asked.push(uid);
        // Every answer carries a new reference: a second question would show.
        return { body: { data: { allowed: "ALLOWED", token: tokenOf(uid), authorization_reference: `REF-${++answerCount}` }, status_code: 1000, timestamp: new Date().toISOString() } };
      }
      if ((req.method === "PUT" && req.path.startsWith("/ocpi/2.2.1/sessions/")) || (req.method === "POST" && req.path === "/ocpi/2.2.1/cdrs")) {
        pushed.push(req);
        return ok();
      }
      if (req.method === "POST" && req.path.startsWith("/ocpi/2.2.1/results/")) return ok();
      return undefined;
    };
    const { token: tokenA } = await createInvitation(svc, business);
    expect((await emsp.register(`${cpo.origin}/ocpi/versions`, tokenA)).body.status_code).toBe(1000);
    cli = chargerClient(h, f);
    await cli.connect();
    await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
  });
  afterAll(async () => {
    await cli?.close({ force: true });
    await emsp?.stop();
    await cpo?.close();
    await h?.close();
  });

  it("mod_sessions §Session authorization_reference, mod_cdrs §AuthMethod COMMAND: a START_SESSION with a token the partner pushed (and the driver tried a moment before) is COMMAND with the command's reference", async () => {
    const put = await ocpiCall("PUT", `${cpo.origin}/ocpi/2.2.1/tokens/NL/EMS/CARD-PUSHED`, emsp.cpoToken, z.unknown(), tokenOf("CARD-PUSHED"));
    expect(put.body.status_code).toBe(1000);
    // The driver taps the card first (accepted locally: WHITELIST), then starts from the app.
    expect(((await cli.call("Authorize", { idTag: "CARD-PUSHED" })) as { idTagInfo: { status: string } }).idTagInfo.status).toBe("Accepted");
    let transactionId = 0;
    cli.handle("RemoteStartTransaction", async ({ params }) => {
      const p = params as { connectorId: number; idTag: string };
      setTimeout(() => {
        void cli
          .call("StartTransaction", { connectorId: p.connectorId, idTag: p.idTag, meterStart: 0, timestamp: new Date(Date.now() - 40 * 60_000).toISOString() })
          .then((r) => (transactionId = (r as { transactionId: number }).transactionId))
          .catch(() => {});
      }, 10);
      return { status: "Accepted" };
    });
    const res = await ocpiCall("POST", `${cpo.origin}/ocpi/2.2.1/commands/START_SESSION`, emsp.cpoToken, commandResponse, {
      response_url: `${emsp.base}/2.2.1/results/start-pushed`,
      token: tokenOf("CARD-PUSHED"),
      location_id: stationId,
      evse_uid: f.chargerId,
      connector_id: "1",
      authorization_reference: "AUTHREF3",
    });
    expect(res.body.data).toMatchObject({ result: "ACCEPTED" });
    await eventually(async () => transactionId, (id) => id > 0);
    await cli.call("StopTransaction", { transactionId, meterStop: 4000, timestamp: new Date(Date.now() - 10 * 60_000).toISOString(), reason: "EVDisconnected" });
    await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: new Date(Date.now() - 10 * 60_000).toISOString() });
    const [s] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.transactionId, transactionId));
    const [l] = await eventually(() => h.db.select().from(ocpiSessions).where(eq(ocpiSessions.sessionId, s.id)), (rows) => rows.length === 1);
    expect(l).toMatchObject({ authMethod: "COMMAND", authorizationReference: "AUTHREF3" });
    await pushToPartners(svc);
    const session = sessionSchema.parse(pushed.find((r) => r.method === "PUT" && r.path.endsWith(`/${s.id}`))!.body);
    const cdr = cdrSchema.parse(pushed.find((r) => r.method === "POST" && (r.body as { id: string }).id === s.id)!.body);
    for (const o of [session, cdr]) expect(o).toMatchObject({ auth_method: "COMMAND", authorization_reference: "AUTHREF3", cdr_token: { uid: "CARD-PUSHED" } });
  });

  it("transport_and_format §Pull and Push: routing headers on every request we send to a functional module (Session PUT, CDR POST, Location PUT/PATCH, command result, real-time authorization)", async () => {
    await node().authorize({ businessId: f.tenant.businessId, stationId, chargerId: f.chargerId, idTag: "APP-ROUTED" });
    const functional = emsp.received.filter((r) => /^\/ocpi\/2\.2\.1\/(sessions|cdrs|locations|results|tokens)\b/.test(r.path));
    const kinds = new Set(functional.map((r) => `${r.method} ${r.path.split("/")[3]}`));
    for (const k of ["PUT sessions", "POST cdrs", "PUT locations", "POST results", "POST tokens"]) expect(kinds).toContain(k);
    // types §number at the boundary: no body we sent has a number with more than 4 decimals.
    expect(functional.flatMap((r) => overFourDecimals(r.body))).toEqual([]);
    for (const r of functional) {
      expect({ path: r.path, from: [r.headers["ocpi-from-country-code"], r.headers["ocpi-from-party-id"]], to: [r.headers["ocpi-to-country-code"], r.headers["ocpi-to-party-id"]] }).toEqual({
        path: r.path,
        from: ["AR", "ENC"],
        to: ["NL", "EMS"],
      });
    }
  });

  it("transport_and_format §Pull and Push: routing headers on every functional-module response (to the asker, through a hub too)", async () => {
    for (const module of ["locations", "tariffs", `locations/${stationId}`]) {
      const res = await ocpiCall("GET", `${cpo.origin}/ocpi/2.2.1/${module}`, emsp.cpoToken, z.unknown());
      expect(res.body.status_code).toBe(1000);
      expect([res.headers.get("ocpi-from-country-code"), res.headers.get("ocpi-from-party-id"), res.headers.get("ocpi-to-country-code"), res.headers.get("ocpi-to-party-id")]).toEqual(["AR", "ENC", "NL", "EMS"]);
    }
    // Through a hub: the answer goes to the party the request came from.
    const res = await fetch(`${cpo.origin}/ocpi/2.2.1/tariffs`, {
      headers: { Authorization: `Token ${Buffer.from(emsp.cpoToken!).toString("base64")}`, "OCPI-from-country-code": "DE", "OCPI-from-party-id": "HUB", "OCPI-to-country-code": "AR", "OCPI-to-party-id": "ENC" },
    });
    expect([res.headers.get("ocpi-to-country-code"), res.headers.get("ocpi-to-party-id"), res.headers.get("ocpi-from-party-id")]).toEqual(["DE", "HUB", "ENC"]);
    z.array(tariff).parse(((await res.json()) as { data: unknown }).data);
    // An unknown EVSE's error answer carries them too.
    const missing = await ocpiCall("GET", `${cpo.origin}/ocpi/2.2.1/locations/${stationId}/00000000-0000-4000-8000-000000000000`, emsp.cpoToken, z.unknown());
    expect(missing.status).toBe(404);
    expect(missing.headers.get("ocpi-to-party-id")).toBe("EMS");
  });

  it("types §DateTime, §Optional fields: a Token pushed with a space-separated, microsecond last_updated and null optional fields is stored", async () => {
    const res = await ocpiCall(
      "PUT",
      `${cpo.origin}/ocpi/2.2.1/tokens/NL/EMS/CARD-LIBERAL`,
      emsp.cpoToken,
      z.unknown(),
      tokenOf("CARD-LIBERAL", { last_updated: "2026-11-28 11:13:09.455669+00:00", visual_number: null, group_id: null, language: null }),
    );
    expect(res.body.status_code).toBe(1000);
    const got = await ocpiCall("GET", `${cpo.origin}/ocpi/2.2.1/tokens/NL/EMS/CARD-LIBERAL`, emsp.cpoToken, z.unknown());
    expect(got.body.data).not.toHaveProperty("visual_number");
  });

  it("mod_tokens §Real-time authorization: the answer one node got is the answer of the next node (not asked again, same authorization_reference)", async () => {
    const req = { businessId: f.tenant.businessId, stationId, chargerId: f.chargerId, idTag: "APP-TWO-NODES" };
    const first = (await node().authorize(req)) as { status: string; authorizationReference: string } | null;
    const second = (await node().authorize({ ...req, idTag: "app-two-nodes" })) as { status: string; authorizationReference: string; idTag: string } | null;
    expect(asked.filter((u) => u === "APP-TWO-NODES")).toHaveLength(1);
    expect(first).toMatchObject({ status: "Accepted", authorizationReference: expect.stringMatching(/^REF-/) });
    expect(second).toMatchObject({ status: "Accepted", authorizationReference: first!.authorizationReference, idTag: "app-two-nodes" });
  });

  it("mod_locations §EVSE status REMOVED: a charger deleted from a published station is pulled as a REMOVED EVSE, also by date_from and by its own URL", async () => {
    const added = await expectStatus(await h.call("POST", "/Business/Charger", { token: f.tenant.token, body: chargerInput({ name: "Cargador 2", stationId }) }), 201);
    const before = new Date();
    await new Promise((r) => setTimeout(r, 1100));
    const since = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    await expectStatus(await h.call("DELETE", `/Business/Charger/${added.id}`, { token: f.tenant.token }), 204);
    const list = await ocpiCall("GET", `${cpo.origin}/ocpi/2.2.1/locations?date_from=${since}`, emsp.cpoToken, z.array(locationSchema));
    const location = (list.body.data as z.infer<typeof locationSchema>[]).find((l) => l.id === stationId);
    expect(location).toBeDefined();
    expect(new Date(location!.last_updated).getTime()).toBeGreaterThan(before.getTime());
    const removed = location!.evses!.find((e) => e.uid === added.id)!;
    expect(removed).toMatchObject({ status: "REMOVED", evse_id: expect.stringMatching(/^AR\*ENC\*E/) });
    expect(removed.connectors.length).toBeGreaterThan(0);
    expect(location!.evses!.find((e) => e.uid === f.chargerId)!.status).not.toBe("REMOVED");
    const one = await ocpiCall("GET", `${cpo.origin}/ocpi/2.2.1/locations/${stationId}/${added.id}`, emsp.cpoToken, evseSchema);
    expect(one.body.data).toMatchObject({ uid: added.id, status: "REMOVED" });
    // Everything we answered: DateTimes as the spec writes them, numbers with at most 4 decimals.
    expect(overFourDecimals(location)).toEqual([]);
    expect(location!.evses!.map((e) => e.last_updated).every((t) => STRICT_DATETIME.test(t))).toBe(true);
  });

  it("mod_locations §EVSE status REMOVED: a charger moved to another station is REMOVED from the first and back when it returns; deleting a station with chargers records nothing", async () => {
    const other = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: f.tenant.token, body: stationInput({ name: "Belgrano" }) }), 201);
    const evsesOf = async () => {
      const res = await ocpiCall("GET", `${cpo.origin}/ocpi/2.2.1/locations/${stationId}`, emsp.cpoToken, locationSchema);
      return (res.body.data as z.infer<typeof locationSchema>).evses!.filter((e) => e.uid === f.chargerId).map((e) => e.status);
    };
    await h.db.update(chargers).set({ stationId: other.id }).where(eq(chargers.id, f.chargerId));
    expect(await evsesOf()).toEqual(["REMOVED"]);
    await h.db.update(chargers).set({ stationId }).where(eq(chargers.id, f.chargerId));
    expect((await evsesOf())[0]).not.toBe("REMOVED");
    expect(await evsesOf()).toHaveLength(1);
    // The other station, with a charger in it, deleted: its chargers are left without a station, nothing else.
    const moved = await expectStatus(await h.call("POST", "/Business/Charger", { token: f.tenant.token, body: chargerInput({ name: "Cargador 3", stationId: other.id }) }), 201);
    await h.db.delete(stations).where(eq(stations.id, other.id));
    const [left] = await h.db.select({ stationId: chargers.stationId }).from(chargers).where(eq(chargers.id, moved.id));
    expect(left.stationId).toBeNull();
    expect(await h.db.select().from(ocpiRemovedEvses).where(eq(ocpiRemovedEvses.stationId, other.id))).toEqual([]);
  });
});
