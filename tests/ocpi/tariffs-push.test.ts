// Tariffs pushed to a partner's Tariffs receiver (mod_tariffs §Receiver interface), against the
// test eMSP: a rate with a time-of-use band is PUT once with its band as a restricted element;
// a change scheduled for tomorrow 00:00 is PUT as a new version (its own id, start_date_time)
// while the rate's Tariff ends there, and the connector lists both ids; when the sweep writes the
// change into the rate, the rate's Tariff carries the new prices and the version is DELETEd; a
// session after midnight, priced by the central system, is priced by the eMSP from the Tariffs it
// was pushed to the same cents; a rate no longer used in roaming is DELETEd.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { applyDueRateSchedules } from "#api/rate-schedule-sweep";
import { businessUsers, chargingSessions, connectors, ocpiLocationPushes, ocpiPartners, ocpiSessions, rates, stations, type BusinessUser } from "#db/schema";
import { isArgentineHoliday } from "#domain/holidays.server";
import { priceSessionByBand, rateSnapshotFromRow, sessionBands, usageFromSession } from "#domain/pricing";
import { createKeyRing } from "#infra/crypto";
import { createOcpiApp, ocpiServices } from "../../ocpi/app";
import { pushToPartners } from "../../ocpi/push";
import { createInvitation, type OcpiServices } from "../../ocpi/registration";
import { cdr as cdrSchema, location as locationSchema, type Cdr } from "../../ocpi/schemas";
import { chargerInput, createTenant, expectStatus, openHarness, rateInput, stationInput, TEST_KEYS, testBackends, type Harness, type Tenant } from "../api/helpers";
import { ocpiCall, serveLate, TestEmsp, type Received } from "./emsp";
import { cdrCosts, priceCdr } from "./tariff-pricer";

const silent = { info: () => {}, warn: () => {}, error: (o: object, m?: string) => console.error(m, JSON.stringify(o)) };

describe.each(testBackends())("OCPI tariff pushes ($name)", (backend) => {
  let h: Harness;
  let cpo: { origin: string; close: () => Promise<void> };
  let svc: OcpiServices;
  let t: Tenant;
  let business: BusinessUser;
  let emsp: TestEmsp;
  let rateId: string;
  let chargerId: string;
  let stationId: string;
  // Tuesday 2026-12-01, noon in Buenos Aires: "tomorrow 00:00" is Wednesday 2026-12-02T03:00Z.
  const clock = new Date("2026-12-01T15:00:00Z");
  const midnight = new Date("2026-12-02T03:00:00Z");
  let seen = 0;
  const pushesSince = () => emsp.tariffPushes.slice(seen, (seen = emsp.tariffPushes.length));
  const summary = (pushes: Received[]) => pushes.map((p) => `${p.method} ${p.path.split("/").pop()}`);

  beforeAll(async () => {
    h = await openHarness(backend, { now: () => clock });
    t = await createTenant(h, `ocpi-tariff-push-${backend.name}`);
    [business] = await h.db.update(businessUsers).set({ ocpiPartyId: "ENC" }).where(eq(businessUsers.id, t.businessId)).returning();
    cpo = await serveLate((origin) => {
      const deps = { db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: origin, logger: silent, client: { local: true } };
      svc = ocpiServices(deps);
      return createOcpiApp(deps);
    });
    emsp = await new TestEmsp("EMS", "NL", { tariffsReceiver: true, locationsReceiver: true }).start();
    expect((await emsp.register(`${cpo.origin}/ocpi/versions`, (await createInvitation(svc, business)).token)).body.status_code).toBe(1000);
    const station = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Estación Tarifas" }) }), 201);
    stationId = station.id;
    await h.db.update(stations).set({ roamingPublished: true }).where(eq(stations.id, station.id));
    const body = rateInput({
      name: "Franjas",
      pricePerKwhCents: 30_000,
      sessionFeeCents: 0,
      idlePricePerMinuteCents: 0,
      idleGraceMinutes: 0,
      idleMaxCents: null,
      bands: [{ name: "Pico", days: "WEEKDAY", from: "18:00", to: "23:00", pricePerKwhCents: 42_000, pricePerMinuteCents: 0 }],
    });
    rateId = (await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body }), 201)).id;
    const base = chargerInput({ stationId: station.id });
    chargerId = (await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: { ...base, connectors: [{ ...base.connectors[0], rateId }] } }), 201)).id;
  });
  afterAll(async () => {
    await emsp?.stop();
    await cpo?.close();
    await h?.close();
  });

  it("a partner with a Tariffs receiver gets the rate's Tariff once (PUT), its band as a restricted element; then nothing while nothing changes", async () => {
    expect(await pushToPartners(svc)).toMatchObject({ tariffs: 1, failures: 0 });
    const [put] = pushesSince();
    expect(put).toMatchObject({ method: "PUT", path: `/ocpi/2.2.1/tariffs/AR/ENC/${rateId}` });
    const held = emsp.tariffsHeld.get(rateId)!;
    expect(held.elements[0]).toMatchObject({ restrictions: { start_time: "18:00", end_time: "23:00", day_of_week: ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY"] } });
    expect(held.elements[1].restrictions).toBeUndefined();
    expect(held.end_date_time).toBeUndefined();
    expect(await pushToPartners(svc)).toMatchObject({ tariffs: 0, failures: 0 });
    expect(pushesSince()).toEqual([]);
  });

  it("a change scheduled for tomorrow 00:00 is PUT as a version of its own from then, the rate's Tariff ends there, and the connector lists both", async () => {
    const scheduled = await expectStatus(await h.call("POST", `/Business/Fees/${rateId}/Schedule`, { token: t.token, body: { effectiveFrom: "2026-12-02T00:00", pricePerKwhCents: 36_000 } }), 201);
    expect(await pushToPartners(svc)).toMatchObject({ failures: 0 });
    expect(summary(pushesSince()).sort()).toEqual([`PUT ${rateId}`, `PUT ${scheduled.id}`].sort());
    expect(emsp.tariffsHeld.get(rateId)).toMatchObject({ end_date_time: "2026-12-02T03:00:00Z" });
    const next = emsp.tariffsHeld.get(scheduled.id)!;
    expect(next).toMatchObject({ start_date_time: "2026-12-02T03:00:00Z" });
    expect(next.end_date_time).toBeUndefined();
    expect(next.elements[1].price_components).toEqual([expect.objectContaining({ type: "ENERGY", price: Math.round((360 / 1.21) * 10_000) / 10_000 })]);
    // mod_locations §Connector tariff_ids: the old and the new id, so the new one replaces the old by itself.
    // The Location is compared again; it goes once its interval since the last push has passed.
    await h.db.update(ocpiLocationPushes).set({ pushedAt: sql`${ocpiLocationPushes.pushedAt} - interval '11 seconds'` }).where(eq(ocpiLocationPushes.stationId, stationId));
    expect(await pushToPartners(svc)).toMatchObject({ tariffs: 0, locations: 1, failures: 0 });
    const location = locationSchema.parse(emsp.locationPushes.filter((p) => p.method === "PUT" && p.path.endsWith(stationId)).at(-1)!.body);
    expect(location.evses![0].connectors[0].tariff_ids).toEqual([rateId, scheduled.id]);
  });

  it("the sweep writes the change at midnight: the rate's Tariff is PUT with the new prices and the version DELETEd; a session after midnight is priced by the eMSP from what it was pushed, to the cent", async () => {
    const [pending] = (await expectStatus(await h.call("GET", `/Business/Fees/${rateId}/Schedule`, { token: t.token }), 200)).items;
    expect(await applyDueRateSchedules(h.db, new Date(midnight.getTime() + 30_000))).toEqual([rateId]);
    expect(await pushToPartners(svc)).toMatchObject({ failures: 0 });
    expect(summary(pushesSince())).toEqual([`PUT ${rateId}`, `DELETE ${pending.id}`]);
    expect([...emsp.tariffsHeld.keys()]).toEqual([rateId]);
    const now = emsp.tariffsHeld.get(rateId)!;
    expect(now.end_date_time).toBeUndefined();
    expect(now.elements[1].price_components).toEqual([expect.objectContaining({ type: "ENERGY", price: Math.round((360 / 1.21) * 10_000) / 10_000 })]);

    // 00:10 → 00:40 on Wednesday, outside the band: 5 kWh at the new $360/kWh.
    const [partner] = await h.db.select().from(ocpiPartners).where(eq(ocpiPartners.partyId, "EMS"));
    const [row] = await h.db.select().from(rates).where(eq(rates.id, rateId));
    const snapshot = rateSnapshotFromRow(row);
    const startedAt = new Date(midnight.getTime() + 10 * 60_000);
    const chargingEndedAt = new Date(startedAt.getTime() + 30 * 60_000);
    const usage = usageFromSession({ energyWh: 5_000, startedAt, chargingEndedAt, unpluggedAt: chargingEndedAt, stoppedAt: chargingEndedAt });
    const banded = priceSessionByBand(snapshot, { ...usage, isHoliday: isArgentineHoliday });
    const { bands: _b, bandsEstimated: _e, ...price } = banded;
    expect(price.totalCents).toBe(180_000);
    const [s] = await h.db
      .insert(chargingSessions)
      .values({ businessId: t.businessId, stationId, chargerId, connectorNumber: 1, idTag: "EMS1", startedAt, chargingEndedAt, unpluggedAt: chargingEndedAt, stoppedAt: chargingEndedAt, meterStartWh: 0, meterStopWh: 5_000, energyWh: 5_000, status: "COMPLETED", rateId, rateSnapshot: snapshot, ...price, priceBands: sessionBands(banded), updatedAt: chargingEndedAt })
      .returning();
    await h.db.insert(ocpiSessions).values({ businessId: t.businessId, partnerId: partner.id, chargerId, connectorNumber: 1, tokenUid: "EMS1", token: { country_code: "NL", party_id: "EMS", uid: "EMS1", type: "RFID", contract_id: "NL-EMS-C00000001" }, authMethod: "WHITELIST", sessionId: s.id, sessionPushedAt: chargingEndedAt, cdrPushedAt: chargingEndedAt });
    const answer = await ocpiCall("GET", await emsp.cpoEndpoint("cdrs"), emsp.cpoToken, z.array(cdrSchema));
    const cdr = (answer.body.data as Cdr[]).find((c) => c.id === s.id)!;
    expect(cdr.total_cost.incl_vat).toBe(1_800);
    expect(priceCdr(cdr, emsp.tariffsHeld)).toEqual(cdrCosts(cdr));
  });

  it("a rate no longer used by a published station is DELETEd from the partner", async () => {
    await h.db.update(connectors).set({ rateId: null }).where(eq(connectors.chargerId, chargerId));
    expect(await pushToPartners(svc)).toMatchObject({ failures: 0 });
    expect(summary(pushesSince())).toEqual([`DELETE ${rateId}`]);
    expect(emsp.tariffsHeld.size).toBe(0);
  });
});
