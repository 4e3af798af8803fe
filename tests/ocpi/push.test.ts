// What the push passes send partners (ADR 0021), against the test eMSP with a
// Locations receiver: the published station once as a whole Location (PUT), an EVSE's status as
// a PATCH after a StatusNotification of an ocpp-rpc charger, a flapping charger coalesced into one
// PATCH per interval with its latest status, the station's edits, a charger added and removed
// (REMOVED) as PUTs of the Location, unpublishing as a PATCH { publish: false }, a deleted
// station as its last Location with publish false. Then two
// push loops on the same database — two nodes — deliver each CDR and each session exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { businessUsers, chargers, chargingSessions, ocpiLocationPushes, ocpiPartners, ocpiSessions, stations } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { createOcpiApp, ocpiServices } from "../../ocpi/app";
import { pushToPartners, startPushLoop } from "../../ocpi/push";
import { createInvitation, type OcpiServices } from "../../ocpi/registration";
import { cdr as cdrSchema, location as locationSchema, type Location } from "../../ocpi/schemas";
import { chargerInput, expectStatus, stationInput, TEST_KEYS } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, openOcppHarness, type Fixture, type OcppHarness } from "../ocpp/harness";
import { serveLate, TestEmsp, type Received } from "./emsp";

const iso = (t: number) => new Date(t).toISOString();
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe.each(testBackends())("OCPI pushes ($name)", (backend) => {
  let h: OcppHarness;
  let cpo: { origin: string; close: () => Promise<void> };
  let f: Fixture;
  let cli: RPCClient;
  let emsp: TestEmsp;
  let svc: OcpiServices;
  let stationId: string;
  const deps = (origin: string) => ({ db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: origin, logger: silent, client: { local: true }, ocpp: h.central });
  const base = () => `/ocpi/2.2.1/locations/AR/ENC/${stationId}`;
  /** The location pushes since the last call. */
  let seen = 0;
  const pushesSince = () => emsp.locationPushes.slice(seen, (seen = emsp.locationPushes.length));
  /** As if the station's last push were older than the interval (10 s): its waiting changes may go. */
  const ageLastPush = () => h.db.update(ocpiLocationPushes).set({ pushedAt: sql`${ocpiLocationPushes.pushedAt} - interval '11 seconds'` }).where(eq(ocpiLocationPushes.stationId, stationId));
  const status = (connectorId: number, s: string, at = Date.now()) => cli.call("StatusNotification", { connectorId, status: s, errorCode: s === "Faulted" ? "GroundFailure" : "NoError", timestamp: iso(at) });
  const putOf = (pushes: Received[]) => {
    const puts = pushes.filter((p) => p.method === "PUT" && p.path === base());
    expect(puts).toHaveLength(1);
    return locationSchema.parse(puts[0].body);
  };

  beforeAll(async () => {
    h = await openOcppHarness(backend);
    f = await createFixture(h, `ocpi-push-${backend.name}`);
    const [business] = await h.db.update(businessUsers).set({ ocpiPartyId: "ENC" }).where(eq(businessUsers.id, f.tenant.businessId)).returning();
    [{ stationId }] = (await h.db.select({ stationId: chargers.stationId }).from(chargers).where(eq(chargers.id, f.chargerId))) as { stationId: string }[];
    await h.db.update(stations).set({ roamingPublished: true }).where(eq(stations.id, stationId));
    cpo = await serveLate((origin) => createOcpiApp(deps(origin)));
    svc = ocpiServices(deps(cpo.origin));
    emsp = await new TestEmsp("EMS", "NL", { locationsReceiver: true }).start();
    const { token: tokenA } = await createInvitation(svc, business);
    expect((await emsp.register(`${cpo.origin}/ocpi/versions`, tokenA)).body.status_code).toBe(1000);
    cli = chargerClient(h, f);
    await cli.connect();
    await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
    await status(1, "Available");
    await status(2, "Available");
  });
  afterAll(async () => {
    await cli?.close({ force: true });
    await emsp?.stop();
    await cpo?.close();
    await h?.close();
  });

  it("a partner never pushed to gets the published station once, whole (PUT); then nothing while nothing changes", async () => {
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1, failures: 0 });
    const location = putOf(pushesSince());
    expect(location).toMatchObject({ id: stationId, country_code: "AR", party_id: "ENC", publish: true, name: "Estación Palermo" });
    expect(location.evses).toEqual([expect.objectContaining({ uid: f.chargerId, status: "AVAILABLE" })]);
    expect(await pushToPartners(svc)).toMatchObject({ locations: 0, failures: 0 });
    expect(pushesSince()).toEqual([]);
  });

  it("a StatusNotification: the EVSE's status as a PATCH of the EVSE, once the interval since the last push has passed", async () => {
    // Connector 2 out of service, 1 charging: the EVSE is CHARGING (an available connector would keep it AVAILABLE).
    await status(2, "Unavailable");
    await status(1, "Charging");
    // Pushed a moment ago: the change waits (coalesced), nothing is sent.
    expect(await pushToPartners(svc)).toMatchObject({ locations: 0, failures: 0 });
    const [state] = await h.db.select().from(ocpiLocationPushes).where(eq(ocpiLocationPushes.stationId, stationId));
    expect(state.pending).toBe(true);
    await ageLastPush();
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1, failures: 0 });
    const [patch] = pushesSince();
    expect(patch).toMatchObject({ method: "PATCH", path: `${base()}/${f.chargerId}`, body: { status: "CHARGING", last_updated: expect.any(String) } });
    expect(Object.keys(patch.body as object).sort()).toEqual(["last_updated", "status"]);
  });

  it("a charger flapping between statuses: one PATCH per interval, with its latest status", async () => {
    await ageLastPush();
    const t = Date.now();
    for (const [i, s] of ["Available", "Preparing", "Charging", "Available", "Faulted", "Available", "Faulted"].entries()) {
      await status(1, s, t + i);
      await status(2, s === "Faulted" ? "Unavailable" : "Available", t + i);
    }
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1 });
    // Connector 1 faulted, 2 unavailable: the EVSE is OUTOFORDER (mapping: the "best" of its connectors).
    expect(pushesSince()).toEqual([expect.objectContaining({ method: "PATCH", path: `${base()}/${f.chargerId}`, body: expect.objectContaining({ status: "OUTOFORDER" }) })]);
    // More flapping right after: held back; after the interval, one PATCH with where it ended.
    await status(1, "Available");
    await status(1, "Charging");
    expect(await pushToPartners(svc)).toMatchObject({ locations: 0 });
    await ageLastPush();
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1 });
    expect(pushesSince()).toEqual([expect.objectContaining({ method: "PATCH", body: expect.objectContaining({ status: "CHARGING" }) })]);
  });

  it("editing the published station: a PUT of the Location with its new name and coordinates", async () => {
    await ageLastPush();
    await expectStatus(
      await h.call("PUT", `/Business/ChargingStation/${stationId}`, { token: f.tenant.token, body: stationInput({ name: "Palermo Soho", latitude: -34.5881, longitude: -58.4302 }) }),
      200,
    );
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1, failures: 0 });
    const location = putOf(pushesSince());
    expect(location).toMatchObject({ name: "Palermo Soho", coordinates: { latitude: "-34.588100", longitude: "-58.430200" } });
    expect(location.evses?.[0]).toMatchObject({ uid: f.chargerId, status: "CHARGING" });
  });

  it("a charger added: a PUT with its EVSE; removed: a PUT with it REMOVED, once", async () => {
    await ageLastPush();
    const added = await expectStatus(await h.call("POST", "/Business/Charger", { token: f.tenant.token, body: chargerInput({ name: "Cargador 2", stationId }) }), 201);
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1 });
    let location: Location = putOf(pushesSince());
    expect(location.evses?.map((e) => e.uid).sort()).toEqual([f.chargerId, added.id].sort());
    await ageLastPush();
    await expectStatus(await h.call("DELETE", `/Business/Charger/${added.id}`, { token: f.tenant.token }), 204);
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1 });
    location = putOf(pushesSince());
    expect(location.evses?.map((e) => [e.uid, e.status])).toEqual([
      [f.chargerId, "CHARGING"],
      [added.id, "REMOVED"],
    ]);
    await ageLastPush();
    expect(await pushToPartners(svc)).toMatchObject({ locations: 0 });
  });

  it("unpublishing: a PATCH of the Location { publish: false }; publishing again: the whole Location", async () => {
    await ageLastPush();
    await expectStatus(await h.call("PUT", `/Business/Roaming/Station/${stationId}`, { token: f.tenant.token, body: { roamingPublished: false } }), 200);
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1 });
    expect(pushesSince()).toEqual([expect.objectContaining({ method: "PATCH", path: base(), body: { publish: false, last_updated: expect.any(String) } })]);
    // Its chargers keep reporting: nothing goes to the partner while it is not published.
    await ageLastPush();
    await status(1, "Available");
    expect(await pushToPartners(svc)).toMatchObject({ locations: 0 });
    await expectStatus(await h.call("PUT", `/Business/Roaming/Station/${stationId}`, { token: f.tenant.token, body: { roamingPublished: true } }), 200);
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1 });
    expect(putOf(pushesSince())).toMatchObject({ publish: true, evses: [expect.objectContaining({ status: "AVAILABLE" })] });
  });

  it("a published station deleted: its last Location PUT once more with publish false, then forgotten", async () => {
    const other = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: f.tenant.token, body: stationInput({ name: "Belgrano" }) }), 201);
    await expectStatus(await h.call("PUT", `/Business/Roaming/Station/${other.id}`, { token: f.tenant.token, body: { roamingPublished: true } }), 200);
    const path = `/ocpi/2.2.1/locations/AR/ENC/${other.id}`;
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1 });
    expect(pushesSince()).toEqual([expect.objectContaining({ method: "PUT", path, body: expect.objectContaining({ name: "Belgrano", publish: true }) })]);
    await h.db.update(ocpiLocationPushes).set({ pushedAt: sql`${ocpiLocationPushes.pushedAt} - interval '11 seconds'` }).where(eq(ocpiLocationPushes.stationId, other.id));
    expect((await h.call("DELETE", `/Business/ChargingStation/${other.id}`, { token: f.tenant.token })).status).toBe(204);
    expect(await pushToPartners(svc)).toMatchObject({ locations: 1 });
    const [gone] = pushesSince();
    expect(gone).toMatchObject({ method: "PUT", path });
    expect(locationSchema.parse(gone.body)).toMatchObject({ name: "Belgrano", publish: false });
    expect(await h.db.select().from(ocpiLocationPushes).where(eq(ocpiLocationPushes.stationId, other.id))).toEqual([]);
    expect(await pushToPartners(svc)).toMatchObject({ locations: 0 });
  });

  it("two push loops on the same database (two nodes): each CDR and each session is delivered exactly once", async () => {
    const cdrs: string[] = [];
    const sessionPuts: string[] = [];
    emsp.extra = async (req) => {
      if (req.method === "POST" && req.path === "/ocpi/2.2.1/cdrs") {
        // A slow receiver: the two nodes' passes overlap.
        await new Promise((r) => setTimeout(r, 30));
        cdrs.push(cdrSchema.parse(req.body).id);
        return { body: { status_code: 1000, timestamp: new Date().toISOString() } };
      }
      if (req.method === "PUT" && req.path.startsWith("/ocpi/2.2.1/sessions/")) {
        sessionPuts.push(req.path.split("/").at(-1)!);
        return { body: { status_code: 1000, timestamp: new Date().toISOString() } };
      }
      return undefined;
    };
    const [partner] = await h.db.select({ id: ocpiPartners.id }).from(ocpiPartners).where(eq(ocpiPartners.businessId, f.tenant.businessId));
    const ids: string[] = [];
    const t0 = Date.now() - 3 * 3_600_000;
    for (let i = 0; i < 8; i++) {
      const [s] = await h.db
        .insert(chargingSessions)
        .values({
          businessId: f.tenant.businessId,
          stationId,
          chargerId: f.chargerId,
          connectorNumber: 1,
          idTag: `APP-${i}`,
          startedAt: new Date(t0 + i * 60_000),
          stoppedAt: new Date(t0 + i * 60_000 + 30_000),
          unpluggedAt: new Date(t0 + i * 60_000 + 30_000),
          meterStartWh: 0,
          meterStopWh: 1000,
          energyWh: 1000,
          status: "COMPLETED",
        })
        .returning({ id: chargingSessions.id });
      ids.push(s.id);
      await h.db.insert(ocpiSessions).values({
        businessId: f.tenant.businessId,
        partnerId: partner.id,
        chargerId: f.chargerId,
        connectorNumber: 1,
        tokenUid: `APP-${i}`,
        token: { country_code: "NL", party_id: "EMS", uid: `APP-${i}`, type: "APP_USER", contract_id: `NL-EMS-${i}` },
        sessionId: s.id,
      });
    }
    // Two nodes: each its own services (client, clock) over the one database, each its timer.
    const nodeA = ocpiServices(deps(cpo.origin));
    const nodeB = ocpiServices(deps(cpo.origin));
    const stops = [startPushLoop(nodeA, 20), startPushLoop(nodeB, 20)];
    // And passes started at the very same moment, too.
    await Promise.all([pushToPartners(nodeA), pushToPartners(nodeB), pushToPartners(nodeA), pushToPartners(nodeB)]);
    const deadline = Date.now() + 10_000;
    while (cdrs.length < ids.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    for (const stop of stops) stop();
    await new Promise((r) => setTimeout(r, 200));
    expect([...cdrs].sort()).toEqual([...ids].sort());
    expect([...sessionPuts].sort()).toEqual([...ids].sort());
    const links = await h.db.select().from(ocpiSessions).where(and(eq(ocpiSessions.businessId, f.tenant.businessId), sql`${ocpiSessions.cdrPushedAt} is null`));
    expect(links.filter((l) => ids.includes(l.sessionId!))).toEqual([]);
  });
});
