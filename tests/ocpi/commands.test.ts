// OCPI Commands receiver: the test eMSP starts and stops a session through Commands
// against an ocpp-rpc charger (OCPP 1.6J), receives the session updates and the CDR (PARKING_TIME
// at the idle price after the grace), and unlocks a connector; each CommandResponse comes at
// once and each CommandResult is POSTed to the eMSP's response_url. Only sessions the partner
// started can be stopped by it; unknown locations are 2003; reservations are NOT_SUPPORTED.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { z } from "zod";
import { businessUsers, chargingSessions, ocpiSessions, stations } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { createOcpiApp, ocpiServices } from "../../ocpi/app";
import { createInvitation } from "../../ocpi/registration";
import { cdr as cdrSchema, commandResponse, commandResult, session as sessionSchema } from "../../ocpi/schemas";
import { pushToPartners } from "../../ocpi/push";
import { hoursOf } from "../../ocpi/cdr";
import { ocpiPartners } from "#db/schema";
import { TEST_KEYS, testBackends } from "../api/helpers";
import { chargerClient, createFixture, eventually, openOcppHarness, type Fixture, type OcppHarness } from "../ocpp/harness";
import { ocpiCall, serveLate, TestEmsp } from "./emsp";

const iso = (ms: number) => new Date(ms).toISOString();
/** types.asciidoc §number: 4 decimals. */
const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe.each(testBackends())("OCPI Commands against an OCPP charger ($name)", (backend) => {
  let h: OcppHarness;
  let cpo: { origin: string; close: () => Promise<void> };
  let f: Fixture;
  let cli: RPCClient;
  let emsp: TestEmsp;
  let stationId: string;
  const results: { path: string; body: unknown }[] = [];
  const pushed: { method: string; path: string; body: unknown }[] = [];
  const remoteStarts: unknown[] = [];
  const commandsUrl = (c: string) => `${cpo.origin}/ocpi/2.2.1/commands/${c}`;
  const responseUrl = (id: string) => `${emsp.base}/2.2.1/results/${id}`;
  const resultOf = (id: string) => eventually(async () => results.find((r) => r.path.endsWith(`/results/${id}`)), (r) => r !== undefined).then((r) => commandResult.parse(r!.body));
  const token = (uid: string) => ({
    country_code: "NL",
    party_id: "EMS",
    uid,
    type: "APP_USER",
    contract_id: "NL-EMS-C00000001-X",
    issuer: "Test eMSP",
    valid: true,
    whitelist: "ALLOWED",
    last_updated: "2026-11-26T12:00:00Z",
  });

  beforeAll(async () => {
    h = await openOcppHarness(backend);
    // A one-minute grace, so a few minutes of idle time are billed.
    f = await createFixture(h, `ocpi-cmd-${backend.name}`, { idleGraceMinutes: 1 });
    const [business] = await h.db.update(businessUsers).set({ ocpiPartyId: "ENC" }).where(eq(businessUsers.id, f.tenant.businessId)).returning();
    [{ id: stationId }] = await h.db.update(stations).set({ roamingPublished: true }).where(eq(stations.businessId, f.tenant.businessId)).returning({ id: stations.id });
    const deps = (origin: string) => ({ db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: origin, logger: silent, client: { local: true }, ocpp: h.central });
    cpo = await serveLate((origin) => createOcpiApp(deps(origin)));
    emsp = await new TestEmsp("EMS", "NL").start();
    emsp.extra = (req) => {
      if (req.method === "POST" && req.path.startsWith("/ocpi/2.2.1/results/")) {
        results.push({ path: req.path, body: req.body });
        return { body: { status_code: 1000, timestamp: new Date().toISOString() } };
      }
      if ((req.method === "PUT" && req.path.startsWith("/ocpi/2.2.1/sessions/")) || (req.method === "POST" && req.path === "/ocpi/2.2.1/cdrs")) {
        pushed.push({ method: req.method, path: req.path, body: req.body });
        return { body: { status_code: 1000, timestamp: new Date().toISOString() } };
      }
      return undefined;
    };
    const { token: tokenA } = await createInvitation(ocpiServices(deps(cpo.origin)), business);
    expect((await emsp.register(`${cpo.origin}/ocpi/versions`, tokenA)).body.status_code).toBe(1000);

    cli = chargerClient(h, f);
    // The charger starts a transaction when asked, like a real one (after answering).
    cli.handle("RemoteStartTransaction", async ({ params }) => {
      const p = params as { connectorId: number; idTag: string };
      remoteStarts.push(p);
      setTimeout(() => void cli.call("StartTransaction", { connectorId: p.connectorId, idTag: p.idTag, meterStart: 1000, timestamp: iso(Date.now()) }).catch(() => {}), 10);
      return { status: "Accepted" };
    });
    cli.handle("RemoteStopTransaction", async () => ({ status: "Accepted" }));
    cli.handle("UnlockConnector", async () => ({ status: "Unlocked" }));
    await cli.connect();
    await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
    await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: iso(Date.now()) });
  });
  afterAll(async () => {
    await cli?.close({ force: true });
    await emsp?.stop();
    await cpo?.close();
    await h?.close();
  });

  let sessionId = "";

  it("START_SESSION: accepted at once, RemoteStartTransaction with the token's uid, ACCEPTED posted to response_url, the session exists", async () => {
    const res = await ocpiCall("POST", commandsUrl("START_SESSION"), emsp.cpoToken, commandResponse, {
      response_url: responseUrl("start-1"),
      token: token("EMSP-APP-0001"),
      location_id: stationId,
      evse_uid: f.chargerId,
      connector_id: "1",
      authorization_reference: "AUTH-1",
    });
    expect(res.body).toMatchObject({ status_code: 1000, data: { result: "ACCEPTED", timeout: 30 } });
    expect(await resultOf("start-1")).toEqual({ result: "ACCEPTED" });
    expect(remoteStarts).toEqual([{ connectorId: 1, idTag: "EMSP-APP-0001" }]);
    const [session] = await eventually(
      () => h.db.select().from(chargingSessions).where(eq(chargingSessions.idTag, "EMSP-APP-0001")),
      (rows) => rows.length === 1,
    );
    sessionId = session.id;
    expect(session).toMatchObject({ chargerId: f.chargerId, connectorNumber: 1, status: "ACTIVE" });
    const [link] = await h.db.select().from(ocpiSessions).where(eq(ocpiSessions.chargerId, f.chargerId));
    expect(link).toMatchObject({ tokenUid: "EMSP-APP-0001", authorizationReference: "AUTH-1", token: { contract_id: "NL-EMS-C00000001-X", type: "APP_USER" } });
  });

  it("STOP_SESSION: only a session this partner started; the charger is asked to stop it and the result posted", async () => {
    const other = await h.db.insert(chargingSessions).values({ businessId: f.tenant.businessId, chargerId: f.chargerId, connectorNumber: 2, idTag: "LOCAL-RFID", startedAt: new Date(), meterStartWh: 0 }).returning();
    const unknown = await ocpiCall("POST", commandsUrl("STOP_SESSION"), emsp.cpoToken, commandResponse, { response_url: responseUrl("stop-x"), session_id: other[0].id });
    expect(unknown.body.data).toMatchObject({ result: "UNKNOWN_SESSION" });
    const stopped: unknown[] = [];
    cli.handle("RemoteStopTransaction", async ({ params }) => {
      stopped.push(params);
      return { status: "Accepted" };
    });
    const res = await ocpiCall("POST", commandsUrl("STOP_SESSION"), emsp.cpoToken, commandResponse, { response_url: responseUrl("stop-1"), session_id: sessionId });
    expect(res.body.data).toMatchObject({ result: "ACCEPTED" });
    expect(await resultOf("stop-1")).toEqual({ result: "ACCEPTED" });
    const [session] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.id, sessionId));
    expect(stopped).toEqual([{ transactionId: session.transactionId }]);
    const [link] = await h.db.select().from(ocpiSessions).where(eq(ocpiSessions.sessionId, sessionId));
    expect(link.tokenUid).toBe("EMSP-APP-0001");
  });

  it("the session is pushed while it runs and when it ends, then its CDR: PARKING_TIME after the grace at the idle price", async () => {
    const svc = ocpiServices({ db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: cpo.origin, logger: silent, client: { local: true } });
    expect(await pushToPartners(svc)).toEqual({ sessions: 1, cdrs: 0, locations: 0, tariffs: 0, failures: 0 });
    const running = sessionSchema.parse(pushed[0].body);
    expect(pushed[0]).toMatchObject({ method: "PUT", path: `/ocpi/2.2.1/sessions/AR/ENC/${sessionId}` });
    expect(running).toMatchObject({ status: "ACTIVE", location_id: stationId, evse_uid: f.chargerId, connector_id: "1", auth_method: "COMMAND", authorization_reference: "AUTH-1", cdr_token: { uid: "EMSP-APP-0001" } });
    // Nothing changed: nothing is sent again.
    expect(await pushToPartners(svc)).toEqual({ sessions: 0, cdrs: 0, locations: 0, tariffs: 0, failures: 0 });

    // The charger stops after a minute of charging and is unplugged three minutes later.
    const [s] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.id, sessionId));
    const t0 = s.startedAt.getTime();
    await cli.call("StatusNotification", { connectorId: 1, status: "SuspendedEV", errorCode: "NoError", timestamp: iso(t0 + 60_000) });
    await cli.call("StopTransaction", { transactionId: s.transactionId, meterStop: 21_000, timestamp: iso(t0 + 60_000), reason: "Remote", idTag: "EMSP-APP-0001" });
    await cli.call("StatusNotification", { connectorId: 1, status: "Finishing", errorCode: "NoError", timestamp: iso(t0 + 61_000) });
    await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: iso(t0 + 240_000) });
    const [done] = await eventually(() => h.db.select().from(chargingSessions).where(eq(chargingSessions.id, sessionId)), (rows) => rows[0].status === "COMPLETED");
    // 3 idle minutes, 1 of grace: 2 minutes at $20 (rateInput), VAT included.
    expect(done.idleCents).toBe(4000);

    expect(await pushToPartners(svc)).toEqual({ sessions: 1, cdrs: 1, locations: 0, tariffs: 0, failures: 0 });
    const ended = sessionSchema.parse(pushed[1].body);
    expect(ended).toMatchObject({ status: "COMPLETED", kwh: 20, total_cost: { incl_vat: done.totalCents / 100 } });
    expect(pushed[2]).toMatchObject({ method: "POST", path: "/ocpi/2.2.1/cdrs" });
    const cdr = cdrSchema.parse(pushed[2].body);
    expect(cdr).toMatchObject({ id: sessionId, session_id: sessionId, auth_method: "COMMAND", total_energy: 20, cdr_token: { contract_id: "NL-EMS-C00000001-X" } });
    expect(cdr.charging_periods.map((p) => [p.start_date_time, p.dimensions, p.tariff_id ?? null])).toEqual([
      [iso(t0).replace(/\.\d{3}Z$/, "Z"), [{ type: "ENERGY", volume: 20 }, { type: "TIME", volume: hoursOf(60) }], f.rateId],
      [iso(t0 + 60_000).replace(/\.\d{3}Z$/, "Z"), [{ type: "PARKING_TIME", volume: hoursOf(60) }], null],
      [iso(t0 + 120_000).replace(/\.\d{3}Z$/, "Z"), [{ type: "PARKING_TIME", volume: hoursOf(120) }], f.rateId],
    ]);
    expect(cdr.total_parking_cost).toEqual({ excl_vat: round(40 / 1.21, 2), incl_vat: 40 });
    // Billed seconds as hours, 4 decimals cut (an eMSP rounding up to the 1 s step gets 180 s back).
    expect(cdr.total_parking_time).toBe(hoursOf(180));
    // Sent once: the next pass sends nothing; the partner shows its last sync.
    expect(await pushToPartners(svc)).toEqual({ sessions: 0, cdrs: 0, locations: 0, tariffs: 0, failures: 0 });
    const [partner] = await h.db.select().from(ocpiPartners).where(eq(ocpiPartners.businessId, f.tenant.businessId));
    expect(partner).toMatchObject({ failures: 0, lastError: null });
    expect(partner.lastSyncAt).not.toBeNull();
  });

  it("UNLOCK_CONNECTOR reaches the charger; unknown locations are 2003; reservations NOT_SUPPORTED; a bad body 2001", async () => {
    const res = await ocpiCall("POST", commandsUrl("UNLOCK_CONNECTOR"), emsp.cpoToken, commandResponse, {
      response_url: responseUrl("unlock-1"),
      location_id: stationId,
      evse_uid: f.chargerId,
      connector_id: "2",
    });
    expect(res.body.data).toMatchObject({ result: "ACCEPTED" });
    expect(await resultOf("unlock-1")).toEqual({ result: "ACCEPTED" });
    const unknown = await ocpiCall("POST", commandsUrl("START_SESSION"), emsp.cpoToken, z.unknown(), { response_url: responseUrl("s2"), token: token("X"), location_id: crypto.randomUUID() });
    expect(unknown.body.status_code).toBe(2003);
    const reserve = await ocpiCall("POST", commandsUrl("RESERVE_NOW"), emsp.cpoToken, commandResponse, {});
    expect(reserve.body.data).toMatchObject({ result: "NOT_SUPPORTED" });
    const bad = await ocpiCall("POST", commandsUrl("STOP_SESSION"), emsp.cpoToken, z.unknown(), { session_id: sessionId });
    expect(bad.body.status_code).toBe(2001);
    const missing = await ocpiCall("POST", commandsUrl("NOPE"), emsp.cpoToken, z.unknown(), {});
    expect(missing.status).toBe(404);
  });

  it("a station not published to roaming cannot be started", async () => {
    await h.db.update(stations).set({ roamingPublished: false }).where(eq(stations.id, stationId));
    const res = await ocpiCall("POST", commandsUrl("START_SESSION"), emsp.cpoToken, z.unknown(), { response_url: responseUrl("s3"), token: token("EMSP-APP-0002"), location_id: stationId });
    expect(res.body.status_code).toBe(2003);
    await h.db.update(stations).set({ roamingPublished: true }).where(eq(stations.id, stationId));
  });
});
