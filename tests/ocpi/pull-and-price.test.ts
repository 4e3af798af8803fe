// An eMSP reconciling by pulling (mod_cdrs §Sender interface, mod_sessions §Sender interface) and
// pricing every CDR from the Tariffs it pulled (mod_tariffs), over real HTTP: the test eMSP
// (tests/ocpi/emsp.ts) registers, pulls /tariffs and /cdrs page by page following Link, and its
// own calculator (tests/ocpi/tariff-pricer.ts) must give each CDR's totals to the cent. The
// sessions are priced as the central system prices them (domain/pricing on the session's
// instants), with times that end mid-second. Table-driven: a new tariff shape is one more row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { businessUsers, chargingSessions, ocpiPartners, ocpiSessions, rates, stations, type BusinessUser } from "#db/schema";
import { isArgentineHoliday } from "#domain/holidays.server";
import { priceSessionByBand, rateSnapshotFromRow, sessionBands, usageFromSession } from "#domain/pricing";
import { createKeyRing } from "#infra/crypto";
import { createOcpiApp, ocpiServices } from "../../ocpi/app";
import { createInvitation, type OcpiServices } from "../../ocpi/registration";
import { cdr as cdrSchema, session as sessionSchema, tariff as tariffSchema, type Cdr, type Tariff } from "../../ocpi/schemas";
import { chargerInput, createTenant, expectStatus, openHarness, rateInput, stationInput, TEST_KEYS, testBackends, type Harness, type Tenant } from "../api/helpers";
import { pushToPartners } from "../../ocpi/push";
import { ocpiCall, serveLate, TestEmsp, type Received } from "./emsp";
import { cdrCosts, priceCdr } from "./tariff-pricer";

const silent = { info: () => {}, warn: () => {}, error: (o: object, m?: string) => console.error(m, JSON.stringify(o)) };
const NO_IDLE = { idlePricePerMinuteCents: 0, idleGraceMinutes: 0, idleMaxCents: null };
const NOTHING = { pricePerKwhCents: 0, pricePerMinuteCents: 0, sessionFeeCents: 0, ...NO_IDLE };

/** A tariff shape: the rate, and a session on it (seconds may be fractional: the charger's clock has milliseconds). */
interface Shape {
  name: string;
  rate: Record<string, unknown>;
  energyWh: number;
  chargingSeconds: number;
  idleSeconds: number;
  /** When the session starts, for shapes whose price depends on the local hour (else a day after the previous shape). */
  startedAt?: string;
  /** Meter readings during charging: minutes after the start, energy so far (Wh). */
  readings?: [number, number][];
}

const SHAPES: Shape[] = [
  { name: "energy only (VAT included)", rate: { ...NOTHING, pricePerKwhCents: 35_000 }, energyWh: 12_345, chargingSeconds: 3_000, idleSeconds: 0 },
  { name: "energy only (VAT on top)", rate: { ...NOTHING, pricePerKwhCents: 28_927, vatIncluded: false }, energyWh: 33_117, chargingSeconds: 5_400, idleSeconds: 0 },
  { name: "time: 60.5 min of charging", rate: { ...NOTHING, pricePerMinuteCents: 500 }, energyWh: 9_000, chargingSeconds: 3_630, idleSeconds: 0 },
  { name: "time: 91.5 s of charging (VAT on top)", rate: { ...NOTHING, pricePerMinuteCents: 777, vatIncluded: false }, energyWh: 400, chargingSeconds: 91.5, idleSeconds: 0 },
  { name: "time: 12.5 s of charging", rate: { ...NOTHING, pricePerMinuteCents: 1_000 }, energyWh: 50, chargingSeconds: 12.5, idleSeconds: 0 },
  { name: "flat session fee", rate: { ...NOTHING, sessionFeeCents: 50_000 }, energyWh: 8_000, chargingSeconds: 1_800, idleSeconds: 0 },
  { name: "parking without grace: 30.5 min idle", rate: { ...NOTHING, pricePerKwhCents: 100, idlePricePerMinuteCents: 2_000 }, energyWh: 5_000, chargingSeconds: 1_200, idleSeconds: 1_830 },
  { name: "parking with a 15 min grace: 45.5 min idle", rate: { ...NOTHING, pricePerKwhCents: 100, idlePricePerMinuteCents: 2_000, idleGraceMinutes: 15 }, energyWh: 5_000, chargingSeconds: 1_200, idleSeconds: 2_730 },
  { name: "parking, idle within the grace", rate: { ...NOTHING, pricePerKwhCents: 100, idlePricePerMinuteCents: 2_000, idleGraceMinutes: 15 }, energyWh: 5_000, chargingSeconds: 1_200, idleSeconds: 600.4 },
  {
    name: "everything: energy, 60.5 min, fee, 45.5 min idle after a 15 min grace",
    rate: { pricePerKwhCents: 35_000, pricePerMinuteCents: 500, sessionFeeCents: 50_000, idlePricePerMinuteCents: 2_000, idleGraceMinutes: 15, idleMaxCents: null },
    energyWh: 20_000,
    chargingSeconds: 3_630,
    idleSeconds: 2_730,
  },
  {
    name: "everything, VAT on top, times cut mid-second",
    rate: { pricePerKwhCents: 29_000, pricePerMinuteCents: 413, sessionFeeCents: 41_322, idlePricePerMinuteCents: 1_653, idleGraceMinutes: 10, idleMaxCents: null, vatIncluded: false },
    energyWh: 17_777,
    chargingSeconds: 4_321.7,
    idleSeconds: 1_234.3,
  },
  {
    // A weekday session across two bands: resto (the rate's own prices) until 18:00 and pico from 18:00, 6 kWh read at 18:00.
    name: "time-of-use bands: a weekday 17:30 → 18:45, resto until 18:00 and pico from 18:00",
    rate: {
      ...NOTHING,
      pricePerKwhCents: 30_000,
      pricePerMinuteCents: 100,
      bands: [{ name: "Pico", days: "WEEKDAY", from: "18:00", to: "23:00", pricePerKwhCents: 42_000, pricePerMinuteCents: 200 }],
    },
    energyWh: 15_000,
    chargingSeconds: 75 * 60,
    idleSeconds: 0,
    startedAt: "2026-12-02T17:30:00-03:00",
    readings: [[30, 6_000]],
  },
  {
    // A Saturday band to 24:00 (end_time 00:00, "the end of the day") and a Sunday one from 00:00, VAT on top.
    name: "time-of-use bands across midnight: Saturday 22:30 → Sunday 00:30, VAT on top",
    rate: {
      ...NOTHING,
      pricePerKwhCents: 25_000,
      vatIncluded: false,
      bands: [
        { name: "Sábado noche", days: "SATURDAY", from: "20:00", to: "24:00", pricePerKwhCents: 20_000, pricePerMinuteCents: 0 },
        { name: "Valle", days: "SUNDAY_HOLIDAY", from: "00:00", to: "06:00", pricePerKwhCents: 10_000, pricePerMinuteCents: 50 },
      ],
    },
    energyWh: 10_000,
    chargingSeconds: 120 * 60,
    idleSeconds: 0,
    startedAt: "2026-12-05T22:30:00-03:00",
    readings: [[90, 5_000]],
  },
];

describe.each(testBackends())("OCPI pulls: sessions, CDRs, and CDRs priced from the pulled tariffs ($name)", (backend) => {
  let h: Harness;
  let cpo: { origin: string; close: () => Promise<void> };
  let svc: OcpiServices;
  let t: Tenant;
  let business: BusinessUser;
  let emsp: TestEmsp;
  let emsp2: TestEmsp;
  const sessionIds: string[] = [];
  const t0 = Date.parse("2026-11-20T12:00:00.250Z");

  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, `ocpi-pull-${backend.name}`);
    [business] = await h.db.update(businessUsers).set({ ocpiPartyId: "ENC" }).where(eq(businessUsers.id, t.businessId)).returning();
    cpo = await serveLate((origin) => {
      const deps = { db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: origin, logger: silent, client: { local: true } };
      svc = ocpiServices(deps);
      return createOcpiApp(deps);
    });
    emsp = await new TestEmsp("EMS", "NL").start();
    emsp2 = await new TestEmsp("TWO", "DE").start();
    expect((await emsp.register(`${cpo.origin}/ocpi/versions`, (await createInvitation(svc, business)).token)).body.status_code).toBe(1000);
    expect((await emsp2.register(`${cpo.origin}/ocpi/versions`, (await createInvitation(svc, business)).token)).body.status_code).toBe(1000);
    const [partner] = await h.db.select().from(ocpiPartners).where(eq(ocpiPartners.partyId, "EMS"));
    const [partner2] = await h.db.select().from(ocpiPartners).where(eq(ocpiPartners.partyId, "TWO"));

    const station = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Estación Pull" }) }), 201);
    await h.db.update(stations).set({ roamingPublished: true }).where(eq(stations.id, station.id));
    // Each shape: its rate on a charger of the published station, and one closed session there by a driver of the partner.
    for (const [i, shape] of SHAPES.entries()) {
      const rate = await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: `Forma ${i}`, ...shape.rate }) }), 201);
      const base = chargerInput({ stationId: station.id });
      const charger = await expectStatus(
        await h.call("POST", "/Business/Charger", { token: t.token, body: { ...base, name: `Cargador ${i}`, connectors: [{ ...base.connectors[0], rateId: rate.id }] } }),
        201,
      );
      const [row] = await h.db.select().from(rates).where(eq(rates.id, rate.id));
      const snapshot = rateSnapshotFromRow(row);
      const startedAt = new Date(shape.startedAt ?? t0 + i * 86_400_000);
      const chargingEndedAt = new Date(startedAt.getTime() + shape.chargingSeconds * 1000);
      const unpluggedAt = new Date(chargingEndedAt.getTime() + shape.idleSeconds * 1000);
      const usage = usageFromSession({ energyWh: shape.energyWh, startedAt, chargingEndedAt, unpluggedAt, stoppedAt: unpluggedAt });
      // Priced as the central system prices it: by band in the station's zone, energy split by the readings.
      const readings = (shape.readings ?? []).map(([minute, energyWh]) => ({ at: new Date(startedAt.getTime() + minute * 60_000), energyWh }));
      const banded = priceSessionByBand(snapshot, { ...usage, readings, isHoliday: isArgentineHoliday });
      const { bands: _lines, bandsEstimated: _estimated, ...price } = banded;
      const [s] = await h.db
        .insert(chargingSessions)
        .values({
          businessId: t.businessId,
          stationId: station.id,
          chargerId: charger.id,
          connectorNumber: 1,
          idTag: `EMS${i}`,
          startedAt,
          chargingEndedAt,
          unpluggedAt,
          stoppedAt: unpluggedAt,
          meterStartWh: 0,
          meterStopWh: shape.energyWh,
          energyWh: shape.energyWh,
          status: "COMPLETED",
          rateId: rate.id,
          rateSnapshot: snapshot,
          ...price,
          priceBands: sessionBands(banded),
          updatedAt: unpluggedAt,
        })
        .returning();
      sessionIds.push(s.id);
      await h.db.insert(ocpiSessions).values({
        businessId: t.businessId,
        partnerId: partner.id,
        chargerId: charger.id,
        connectorNumber: 1,
        tokenUid: `EMS${i}`,
        token: { country_code: "NL", party_id: "EMS", uid: `EMS${i}`, type: "RFID", contract_id: `NL-EMS-C0000000${i}` },
        authMethod: "WHITELIST",
        sessionId: s.id,
      });
    }
    // One running session of the partner's driver, and one of the other partner's.
    const charger = (await h.db.select().from(ocpiSessions))[0].chargerId;
    const [running] = await h.db
      .insert(chargingSessions)
      .values({ businessId: t.businessId, stationId: station.id, chargerId: charger, connectorNumber: 1, idTag: "EMSRUN", startedAt: new Date(t0 + 30 * 86_400_000), meterStartWh: 0, energyWh: 1_500, status: "ACTIVE" })
      .returning();
    await h.db.insert(ocpiSessions).values({ businessId: t.businessId, partnerId: partner.id, chargerId: charger, connectorNumber: 1, tokenUid: "EMSRUN", token: { country_code: "NL", party_id: "EMS", uid: "EMSRUN", type: "RFID", contract_id: "NL-EMS-C00000099" }, sessionId: running.id });
    const [foreign] = await h.db
      .insert(chargingSessions)
      .values({ businessId: t.businessId, stationId: station.id, chargerId: charger, connectorNumber: 1, idTag: "TWO1", startedAt: new Date(t0), stoppedAt: new Date(t0 + 60_000), meterStartWh: 0, energyWh: 100, status: "COMPLETED" })
      .returning();
    await h.db.insert(ocpiSessions).values({ businessId: t.businessId, partnerId: partner2.id, chargerId: charger, connectorNumber: 1, tokenUid: "TWO1", token: { country_code: "DE", party_id: "TWO", uid: "TWO1", type: "RFID", contract_id: "DE-TWO-C00000001" }, sessionId: foreign.id });
  });
  afterAll(async () => {
    await emsp?.stop();
    await emsp2?.stop();
    await cpo?.close();
    await h?.close();
  });

  /** Every page of a Sender list, following Link (transport_and_format §Pagination); checks X-Total-Count on each. */
  async function pullAll<T extends z.ZodTypeAny>(who: TestEmsp, url: string, schema: T): Promise<z.infer<T>[]> {
    const items: z.infer<T>[] = [];
    let next: string | null = url;
    let answer: { status: number; headers: Headers; body: { data?: unknown; status_code: number } };
    let total: number | null = null;
    while (next) {
      answer = await ocpiCall("GET", next, who.cpoToken, z.array(schema));
      expect(answer.status).toBe(200);
      expect(answer.body.status_code).toBe(1000);
      const count = Number(answer.headers.get("x-total-count"));
      total ??= count;
      expect(count).toBe(total);
      items.push(...(answer.body.data as z.infer<T>[]));
      next = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get("link") ?? "")?.[1] ?? null;
    }
    expect(items).toHaveLength(total!);
    return items;
  }

  it("version details list the Sessions and CDRs Sender interfaces (version_information_endpoint §Endpoint)", async () => {
    expect(await emsp.cpoEndpoint("cdrs")).toBe(`${cpo.origin}/ocpi/2.2.1/cdrs`);
    const details = await ocpiCall("GET", `${cpo.origin}/ocpi/2.2.1`, emsp.cpoToken, z.unknown());
    expect((details.body.data as { endpoints: unknown[] }).endpoints).toEqual(
      expect.arrayContaining([
        { identifier: "sessions", role: "SENDER", url: `${cpo.origin}/ocpi/2.2.1/sessions` },
        { identifier: "cdrs", role: "SENDER", url: `${cpo.origin}/ocpi/2.2.1/cdrs` },
      ]),
    );
  });

  it("mod_cdrs §Sender interface: GET pages by offset/limit with Link and X-Total-Count, only this partner's completed sessions, oldest first", async () => {
    const url = await emsp.cpoEndpoint("cdrs");
    const cdrs = await pullAll(emsp, `${url}?limit=4`, cdrSchema);
    expect(cdrs.map((c) => c.id)).toEqual(sessionIds);
    expect(cdrs.every((c) => c.cdr_token.party_id === "EMS")).toBe(true);
    const first = await ocpiCall("GET", `${url}?limit=4`, emsp.cpoToken, z.array(cdrSchema));
    expect(first.headers.get("x-limit")).toBe("100");
    expect(first.headers.get("link")).toBe(`<${url}?offset=4&limit=4>; rel="next"`);
    // The other partner sees its own driver's CDR only.
    expect((await pullAll(emsp2, `${url}`, cdrSchema)).map((c) => c.cdr_token.uid)).toEqual(["TWO1"]);
  });

  it("mod_cdrs §Sender interface: date_from (inclusive) and date_to (exclusive) bound last_updated, and the Link keeps them", async () => {
    const url = await emsp.cpoEndpoint("cdrs");
    const all = await pullAll(emsp, url, cdrSchema);
    const from = all[3].last_updated;
    const to = all[7].last_updated;
    const window = await pullAll(emsp, `${url}?date_from=${from}&date_to=${to}&limit=2`, cdrSchema);
    expect(window.map((c) => c.id)).toEqual(sessionIds.slice(3, 7));
    const page = await ocpiCall("GET", `${url}?date_from=${from}&date_to=${to}&limit=2`, emsp.cpoToken, z.unknown());
    expect(page.headers.get("link")).toContain(`date_from=${encodeURIComponent(from)}`);
    expect((await ocpiCall("GET", `${url}?date_from=yesterday`, emsp.cpoToken, z.unknown())).body.status_code).toBe(2001);
  });

  it("mod_sessions §Sender interface: GET with date_from lists the partner's sessions, running ones included, in pages", async () => {
    const url = await emsp.cpoEndpoint("sessions");
    const sessions = await pullAll(emsp, `${url}?date_from=2020-01-01T00:00:00Z&limit=5`, sessionSchema);
    expect(sessions).toHaveLength(SHAPES.length + 1);
    const running = sessions.filter((s) => s.status === "ACTIVE");
    expect(running.map((s) => s.cdr_token.uid)).toEqual(["EMSRUN"]);
    // mod_sessions §Session: a running session carries its charging periods and cost so far.
    expect(running[0]).toMatchObject({ kwh: 1.5, charging_periods: [expect.objectContaining({ dimensions: expect.arrayContaining([{ type: "ENERGY", volume: 1.5 }]) })], total_cost: { excl_vat: 0, incl_vat: 0 } });
    expect(sessions.every((s) => s.cdr_token.party_id === "EMS")).toBe(true);
    expect((await pullAll(emsp2, url, sessionSchema)).map((s) => s.cdr_token.uid)).toEqual(["TWO1"]);
  });

  it.each(SHAPES.map((s, i) => [s.name, i] as const))(
    "mod_tariffs §PriceComponent step_size and mod_cdrs §ChargingPeriod tariff_id: an eMSP pricing the CDR's periods with the pulled tariff gets its totals to the cent — %s",
    async (_name, i) => {
      const tariffs = new Map<string, Tariff>((await pullAll(emsp, await emsp.cpoEndpoint("tariffs"), tariffSchema)).map((t) => [t.id, t]));
      const cdrs = await pullAll(emsp, await emsp.cpoEndpoint("cdrs"), cdrSchema);
      const cdr = cdrs.find((c) => c.id === sessionIds[i]) as Cdr;
      const [session] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.id, sessionIds[i]));
      // The CDR bills what the driver was billed.
      expect(cdr.total_cost.incl_vat).toBe(session.totalCents / 100);
      expect(priceCdr(cdr, tariffs)).toEqual(cdrCosts(cdr));
    },
  );

  it("a weekday session 17:30 → 18:45 (resto until 18:00, pico from 18:00): the CDR has a charging period per band, and the pulled tariff prices it to our total", async () => {
    const i = SHAPES.findIndex((s) => s.name.startsWith("time-of-use bands: a weekday"));
    const tariffs = new Map<string, Tariff>((await pullAll(emsp, await emsp.cpoEndpoint("tariffs"), tariffSchema)).map((t) => [t.id, t]));
    const cdr = (await pullAll(emsp, await emsp.cpoEndpoint("cdrs"), cdrSchema)).find((c) => c.id === sessionIds[i]) as Cdr;
    const [session] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.id, sessionIds[i]));
    const tariff = tariffs.get(session.rateId!)!;
    // mod_tariffs §TariffElement: the band first, restricted to its hours and days; then the rate's own prices.
    expect(tariff.elements[0].restrictions).toEqual({ start_time: "18:00", end_time: "23:00", day_of_week: ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY"] });
    expect(tariff.elements[1].restrictions).toBeUndefined();
    // 6 kWh and 30 min in resto ($300/kWh, $1/min), 9 kWh and 45 min in pico ($420/kWh, $2/min), VAT included.
    expect(cdr.charging_periods).toEqual([
      { start_date_time: "2026-12-02T20:30:00Z", dimensions: [{ type: "ENERGY", volume: 6 }, { type: "TIME", volume: 0.5 }], tariff_id: session.rateId },
      { start_date_time: "2026-12-02T21:00:00Z", dimensions: [{ type: "ENERGY", volume: 9 }, { type: "TIME", volume: 0.75 }], tariff_id: session.rateId },
    ]);
    expect(session.totalCents).toBe(180_000 + 378_000 + 3_000 + 9_000);
    expect(priceCdr(cdr, tariffs).total.incl_vat).toBe(5_700);
    expect(cdr.total_cost.incl_vat).toBe(5_700);
  });

  it("mod_sessions §Receiver interface: a running session is PATCHed with kwh, charging_periods and total_cost as it moves, at most once a minute; PUT whole when it ends", async () => {
    const seen: Received[] = [];
    emsp.extra = (req) => {
      if (!req.path.startsWith("/ocpi/2.2.1/sessions") && !req.path.startsWith("/ocpi/2.2.1/cdrs")) return undefined;
      seen.push(req);
      return { body: { status_code: 1000, timestamp: new Date().toISOString() } };
    };
    const [run] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.idTag, "EMSRUN"));
    const [rate] = await h.db.select().from(rates).where(eq(rates.name, "Forma 9"));
    const startedAt = run.startedAt.getTime();
    const at = (s: number) => new Date(startedAt + s * 1000);
    const move = (s: number, energyWh: number) => h.db.update(chargingSessions).set({ energyWh, updatedAt: at(s) }).where(eq(chargingSessions.id, run.id));
    await h.db.update(chargingSessions).set({ rateId: rate.id, rateSnapshot: rateSnapshotFromRow(rate) }).where(eq(chargingSessions.id, run.id));
    await move(10, 100);
    const path = `/ocpi/2.2.1/sessions/AR/ENC/${run.id}`;
    const mine = () => seen.splice(0).filter((r) => r.path === path);

    await pushToPartners(svc);
    const [put] = mine();
    expect(put.method).toBe("PUT");
    expect(sessionSchema.parse(put.body)).toMatchObject({ status: "ACTIVE", kwh: 0.1 });

    // A reading 30 s later waits; one 65 s after the state sent goes, as a PATCH of what moved.
    await move(40, 900);
    await pushToPartners(svc);
    expect(mine()).toEqual([]);
    await move(75, 1_200);
    await pushToPartners(svc);
    const patches = mine();
    expect(patches.map((r) => r.method)).toEqual(["PATCH"]);
    const body = patches[0].body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["charging_periods", "kwh", "last_updated", "total_cost"]);
    // 1.2 kWh at $350, 75 s at $5/min, the $500 fee: the cost so far, VAT included.
    expect(body).toMatchObject({ kwh: 1.2, total_cost: { incl_vat: (42_000 + 625 + 50_000) / 100 } });
    expect(sessionSchema.shape.charging_periods.parse(body.charging_periods)).toEqual([
      { start_date_time: put.body && (put.body as { start_date_time: string }).start_date_time, dimensions: [{ type: "ENERGY", volume: 1.2 }, { type: "TIME", volume: 0.0208 }], tariff_id: rate.id },
    ]);

    // Its end goes at once, whole.
    await h.db.update(chargingSessions).set({ status: "COMPLETED", stoppedAt: at(80), chargingEndedAt: at(80), updatedAt: at(80) }).where(eq(chargingSessions.id, run.id));
    await pushToPartners(svc);
    const [end] = mine();
    expect(end.method).toBe("PUT");
    expect(sessionSchema.parse(end.body)).toMatchObject({ status: "COMPLETED" });
    emsp.extra = undefined;
  });
});
