// OCPI Commands receiver (issue 27): the test eMSP starts and stops a session through Commands
// against an ocpp-rpc charger (OCPP 1.6J) and unlocks a connector; each CommandResponse comes at
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
import { commandResponse, commandResult } from "../../ocpi/schemas";
import { TEST_KEYS, testBackends } from "../api/helpers";
import { chargerClient, createFixture, eventually, openOcppHarness, type Fixture, type OcppHarness } from "../ocpp/harness";
import { ocpiCall, serveLate, TestEmsp } from "./emsp";

const iso = (ms: number) => new Date(ms).toISOString();
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe.each(testBackends())("OCPI Commands against an OCPP charger ($name)", (backend) => {
  let h: OcppHarness;
  let cpo: { origin: string; close: () => Promise<void> };
  let f: Fixture;
  let cli: RPCClient;
  let emsp: TestEmsp;
  let stationId: string;
  const results: { path: string; body: unknown }[] = [];
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
    f = await createFixture(h, `ocpi-cmd-${backend.name}`);
    const [business] = await h.db.update(businessUsers).set({ ocpiPartyId: "ENC" }).where(eq(businessUsers.id, f.tenant.businessId)).returning();
    [{ id: stationId }] = await h.db.update(stations).set({ roamingPublished: true }).where(eq(stations.businessId, f.tenant.businessId)).returning({ id: stations.id });
    const deps = (origin: string) => ({ db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: origin, logger: silent, client: { allowHttp: true }, ocpp: h.central });
    cpo = await serveLate((origin) => createOcpiApp(deps(origin)));
    emsp = await new TestEmsp("EMS", "NL").start();
    emsp.extra = (req) => {
      if (req.method === "POST" && req.path.startsWith("/ocpi/2.2.1/results/")) {
        results.push({ path: req.path, body: req.body });
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
