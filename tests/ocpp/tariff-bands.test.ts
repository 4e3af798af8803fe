// A session across time-of-use bands, on both OCPP versions: weekday 17:30 → 18:45 with the
// rate's own price ("resto") until 18:00 and "pico" from 18:00, priced per band the same in the
// rate preview, the stored session, the session detail (GET /Business/Activity/{id}).
import { and, eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargingSessions } from "#db/schema";
import { isArgentineHoliday } from "#domain/holidays.server";
import { localMoment } from "#domain/tariff-bands";
import { expectStatus } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, type OcppHarness } from "./harness";

const MIN = 60_000;
const TZ = "America/Argentina/Buenos_Aires";
const iso = (t: number) => new Date(t).toISOString();

/** 17:30 Buenos Aires time of the latest working weekday (not a holiday) whose 18:45 has passed. */
function lastWeekday1730(): number {
  const now = Date.now();
  for (let back = 0; back < 7; back++) {
    const day = localMoment(now - back * 86_400_000, TZ);
    const start = new Date(`${day.date}T17:30:00-03:00`).getTime();
    if (day.weekday >= 1 && day.weekday <= 5 && !isArgentineHoliday(day.date) && start + 75 * MIN < now) return start;
  }
  throw new Error("sin día hábil en la última semana");
}

const RATE = {
  name: "Tarifa por franjas",
  pricePerKwhCents: 30_000, // resto: the rate's own price outside every band
  sessionFeeCents: 0,
  idlePricePerMinuteCents: 0,
  idleMaxCents: null,
  bands: [{ name: "Pico", days: "WEEKDAY", from: "18:00", to: "23:00", pricePerKwhCents: 42_000, pricePerMinuteCents: 0 }],
};

/** The scenario's charger in either protocol: start at 17:30, readings at 18:00 and 18:30, stop at 18:45 unplugged. */
async function chargeAcrossBands(cli: RPCClient, protocol: "ocpp1.6" | "ocpp2.0.1", t0: number, transactionId: string) {
  const at = (min: number) => iso(t0 + min * MIN);
  if (protocol === "ocpp1.6") {
    await cli.call("BootNotification", { chargePointVendor: "Wallbox", chargePointModel: "Commander 2" });
    const { transactionId: tx } = (await cli.call("StartTransaction", { connectorId: 1, idTag: "RFID-0042", meterStart: 100_000, timestamp: at(0) })) as { transactionId: number };
    await cli.call("MeterValues", { connectorId: 1, transactionId: tx, meterValue: [{ timestamp: at(30), sampledValue: [{ value: "106000" }] }, { timestamp: at(60), sampledValue: [{ value: "111000" }] }] });
    await cli.call("StopTransaction", { transactionId: tx, meterStop: 115_000, timestamp: at(75), reason: "EVDisconnected", idTag: "RFID-0042" });
    return;
  }
  let seqNo = 0;
  const register = (min: number, wh: number, context: string) => [{ timestamp: at(min), sampledValue: [{ value: wh, context, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "Wh" } }] }];
  const event = (eventType: string, min: number, triggerReason: string, extra: Record<string, unknown>, info: Record<string, unknown> = {}) =>
    cli.call("TransactionEvent", { eventType, timestamp: at(min), triggerReason, seqNo: seqNo++, evse: { id: 1, connectorId: 1 }, transactionInfo: { transactionId, ...info }, ...extra });
  await cli.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Wallbox", model: "Commander 2" } });
  await event("Started", 0, "Authorized", { idToken: { idToken: "RFID-0042", type: "ISO14443" }, meterValue: register(0, 100_000, "Transaction.Begin") }, { chargingState: "Charging" });
  await event("Updated", 30, "MeterValuePeriodic", { meterValue: register(30, 106_000, "Sample.Periodic") });
  await event("Updated", 60, "MeterValuePeriodic", { meterValue: register(60, 111_000, "Sample.Periodic") });
  await event("Ended", 75, "EVDeparted", { meterValue: register(75, 115_000, "Transaction.End") }, { chargingState: "Idle", stoppedReason: "EVDisconnected" });
}

describe.each(testBackends())("a session across time-of-use bands ($name)", (backend) => {
  let h: OcppHarness;
  beforeAll(async () => {
    h = await openOcppHarness(backend);
  });
  afterAll(() => h.close());

  describe.each(["ocpp1.6", "ocpp2.0.1"] as const)("%s", (protocol) => {
    it("weekday 17:30 → 18:45, resto until 18:00 and pico from 18:00: priced per band in the preview, the session and its detail", async () => {
      const f = await createFixture(h, `bands-${protocol}-${backend.name}`, RATE);
      const t0 = lastWeekday1730();
      const cli = chargerClient(h, f, { protocols: [protocol] });
      await cli.connect();
      try {
        await chargeAcrossBands(cli, protocol, t0, `bands-${protocol}`);
      } finally {
        await cli.close();
      }
      const row = await eventually(
        async () => (await h.db.select().from(chargingSessions).where(and(eq(chargingSessions.chargerId, f.chargerId))))[0],
        (s) => s?.status === "COMPLETED",
      );
      // 6 kWh read at 18:00 in resto (30 min), 9 kWh after it in pico (45 min).
      const resto = { band: -1, label: "Fuera de franja", pricePerKwhCents: 30_000, pricePerMinuteCents: 0, energyWh: 6_000, minutes: 30, energyCents: 180_000, timeCents: 0 };
      const pico = { band: 0, label: "Pico (lunes a viernes 18:00–23:00)", pricePerKwhCents: 42_000, pricePerMinuteCents: 0, energyWh: 9_000, minutes: 45, energyCents: 378_000, timeCents: 0 };
      expect(row).toMatchObject({ energyWh: 15_000, energyCents: 558_000, timeCents: 0, subtotalCents: 558_000, vatCents: 96_843, totalCents: 558_000 });
      expect(row.priceBands).toEqual({ lines: [resto, pico], estimated: false });

      const detail = await expectStatus(await h.call("GET", `/Business/Activity/${row.id}`, { token: f.tenant.token }), 200);
      expect(detail.bands).toEqual({ lines: [resto, pico], estimated: false });
      expect(detail.cost.totalCents).toBe(558_000);

      // The preview of the same rate and usage: no readings, so the energy is interpolated
      // (evenly over the 75 minutes: the same 6 and 9 kWh here) and said so.
      const { connectorCount: _n, id: _id, createdAt: _c, updatedAt: _u, ...rate } = await expectStatus(await h.call("GET", `/Business/Fees/${f.rateId}`, { token: f.tenant.token }), 200);
      const preview = await expectStatus(
        await h.call("POST", "/Business/Fees/Preview", { token: f.tenant.token, body: { rate, usage: { energyWh: 15_000, chargingMinutes: 75, idleMinutes: 0, startedAt: iso(t0) } } }),
        200,
      );
      expect(preview.price).toMatchObject({ energyCents: 558_000, totalCents: 558_000, vatCents: 96_843, bands: [resto, pico], bandsEstimated: true });
    });
  });

  describe.each(["ocpp1.6", "ocpp2.0.1"] as const)("%s, on a company's local holiday", (protocol) => {
    it("the same weekday session declared a local holiday by the company is priced at the «domingos y feriados» band", async () => {
      const f = await createFixture(h, `bands-holiday-${protocol}-${backend.name}`, {
        ...RATE,
        bands: [...RATE.bands, { name: "Feriado", days: "SUNDAY_HOLIDAY", from: "00:00", to: "24:00", pricePerKwhCents: 25_000, pricePerMinuteCents: 0 }],
      });
      const t0 = lastWeekday1730();
      await expectStatus(await h.call("PUT", "/Business/Holidays", { token: f.tenant.token, body: { dates: [localMoment(t0, TZ).date] } }), 200);
      const cli = chargerClient(h, f, { protocols: [protocol] });
      await cli.connect();
      try {
        await chargeAcrossBands(cli, protocol, t0, `bands-holiday-${protocol}`);
      } finally {
        await cli.close();
      }
      const row = await eventually(
        async () => (await h.db.select().from(chargingSessions).where(and(eq(chargingSessions.chargerId, f.chargerId))))[0],
        (s) => s?.status === "COMPLETED",
      );
      // All 15 kWh at the holiday's 250: the snapshot took the company's holiday at the start.
      const feriado = { band: 1, label: "Feriado (domingos y feriados 00:00–24:00)", pricePerKwhCents: 25_000, pricePerMinuteCents: 0, energyWh: 15_000, minutes: 75, energyCents: 375_000, timeCents: 0 };
      expect(row.rateSnapshot?.localHolidays).toEqual([localMoment(t0, TZ).date]);
      expect(row).toMatchObject({ energyWh: 15_000, energyCents: 375_000, totalCents: 375_000 });
      expect(row.priceBands).toEqual({ lines: [feriado], estimated: false });
      const detail = await expectStatus(await h.call("GET", `/Business/Activity/${row.id}`, { token: f.tenant.token }), 200);
      expect(detail.bands).toEqual({ lines: [feriado], estimated: false });
    });
  });

  it("the rate's bands are validated with Spanish messages per row", async () => {
    const f = await createFixture(h, `bands-invalid-${backend.name}`);
    const res = await h.call("PUT", `/Business/Fees/${f.rateId}`, {
      token: f.tenant.token,
      body: {
        ...RATE,
        bands: [
          { days: "WEEKDAY", from: "17:00", to: "19:00", pricePerKwhCents: 1, pricePerMinuteCents: 0 },
          { days: "WEEKDAY", from: "18:00", to: "20:00", pricePerKwhCents: 1, pricePerMinuteCents: 0 },
          { days: "SATURDAY", from: "23:00", to: "05:00", pricePerKwhCents: 1, pricePerMinuteCents: 0 },
        ],
        localHolidays: ["2026-02-30"],
      },
    });
    expect(res.status).toBe(422);
    const text = JSON.stringify(await res.json());
    expect(text).toContain("Se superpone con la franja 1");
    expect(text).toContain("hasta las 24:00 y desde las 00:00");
    expect(text).toContain("Esa fecha no existe.");
  });

  it("a rate's bands and local holidays are stored, returned and audited", async () => {
    const f = await createFixture(h, `bands-audit-${backend.name}`);
    const put = await expectStatus(await h.call("PUT", `/Business/Fees/${f.rateId}`, { token: f.tenant.token, body: { ...RATE, localHolidays: ["2026-12-09", "2026-11-30", "2026-12-09"] } }), 200);
    expect(put.bands).toEqual([RATE.bands[0]]);
    expect(put.localHolidays).toEqual(["2026-11-30", "2026-12-09"]);
    const audit = await expectStatus(await h.call("GET", `/Business/Audit?resource=rate`, { token: f.tenant.token }), 200);
    const entry = audit.items.find((e: { action: string }) => e.action === "rate.update");
    expect(entry.changes.bands).toEqual({ before: [], after: [RATE.bands[0]] });
    expect(entry.changes.localHolidays).toEqual({ before: [], after: ["2026-11-30", "2026-12-09"] });
  });
});
