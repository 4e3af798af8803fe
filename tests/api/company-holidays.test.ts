// The company's local holidays (/Business/Holidays): validation with Spanish messages, tenancy,
// the audit entry, and the pricing that uses them — the QR page's band in force now, the API's
// preview — as "domingos y feriados" of every rate, besides the rate's own list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargerInput, createTenant, expectProblem, expectStatus, openHarness, rateInput, stationInput, testBackends, type Harness, type Tenant } from "./helpers";

/** Own price 350 (resto), «Pico» weekdays 18:00–23:00 at 420, «Feriado» all day on Sundays and holidays at 250. */
const BANDED = rateInput({
  name: "Por franjas",
  pricePerKwhCents: 35_000,
  sessionFeeCents: 0,
  bands: [
    { name: "Pico", days: "WEEKDAY", from: "18:00", to: "23:00", pricePerKwhCents: 42_000, pricePerMinuteCents: 0 },
    { name: "Feriado", days: "SUNDAY_HOLIDAY", from: "00:00", to: "24:00", pricePerKwhCents: 25_000, pricePerMinuteCents: 0 },
  ],
});

describe.each(testBackends())("company local holidays ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let other: Tenant;
  let clock = new Date("2026-11-28T15:00:00Z");
  beforeAll(async () => {
    h = await openHarness(backend, { now: () => clock });
    t = await createTenant(h, `holidays-${backend.name}`);
    other = await createTenant(h, `holidays-other-${backend.name}`);
  });
  afterAll(() => h.close());

  it("starts empty and lists the national holidays of the coming year beside them", async () => {
    const got = await expectStatus(await h.call("GET", "/Business/Holidays", { token: t.token }), 200);
    expect(got.dates).toEqual([]);
    expect(got.national).toContain("2026-12-08"); // Inmaculada Concepción
    expect(got.national).not.toContain("2026-11-23"); // passed
  });

  it("refuses a malformed date, a day that does not exist, a date twice and too many, in Spanish", async () => {
    const put = (dates: unknown) => h.call("PUT", "/Business/Holidays", { token: t.token, body: { dates } });
    expect((await expectProblem(await put(["15/03/2027"]), 422)).errors?.["dates[0]"]).toEqual(["Ingresá el feriado como fecha (AAAA-MM-DD)."]);
    expect((await expectProblem(await put(["2027-02-30"]), 422)).errors?.["dates[0]"]).toEqual(["Esa fecha no existe."]);
    expect((await expectProblem(await put(["2027-03-15", "2027-03-15"]), 422)).errors?.["dates[1]"]).toEqual(["El 15/03/2027 ya está en la lista."]);
    const many = Array.from({ length: 61 }, (_, i) => new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10));
    expect((await expectProblem(await put(many), 422)).errors?.dates?.[0]).toMatch(/Hasta 60 feriados locales/);
    expect((await expectStatus(await h.call("GET", "/Business/Holidays", { token: t.token }), 200)).dates).toEqual([]);
  });

  it("saves them in order, for the caller's company only, and the audit log says who changed them", async () => {
    const saved = await expectStatus(await h.call("PUT", "/Business/Holidays", { token: t.token, body: { dates: ["2027-10-07", "2027-03-15"] } }), 200);
    expect(saved.dates).toEqual(["2027-03-15", "2027-10-07"]);
    expect((await expectStatus(await h.call("GET", "/Business/Holidays", { token: t.token }), 200)).dates).toEqual(["2027-03-15", "2027-10-07"]);
    expect((await expectStatus(await h.call("GET", "/Business/Holidays", { token: other.token }), 200)).dates).toEqual([]);
    const audit = await expectStatus(await h.call("GET", "/Business/Audit?resource=profile", { token: t.token }), 200);
    const entry = audit.items.find((e: { action: string }) => e.action === "profile.holidays");
    expect(entry.changes.localHolidays).toEqual({ before: [], after: ["2027-03-15", "2027-10-07"] });
    expect((await expectStatus(await h.call("GET", "/Business/Audit?resource=profile", { token: other.token }), 200)).items.some((e: { action: string }) => e.action === "profile.holidays")).toBe(false);
  });

  it.each([
    // Thursday 10 December 2026, 17:30 in Argentina: a working day, resto until Pico at 18:00.
    { holidays: [] as string[], now: { name: null, pricePerKwhCents: 35_000 }, next: { at: "2026-12-10T21:00:00.000Z", day: "TODAY", name: "Pico", pricePerKwhCents: 42_000 }, energyCents: 385_000 },
    // The same Thursday declared a local holiday by the company: «Feriado» all day, resto from Friday 00:00.
    { holidays: ["2026-12-10"], now: { name: "Feriado", pricePerKwhCents: 25_000 }, next: { at: "2026-12-11T03:00:00.000Z", day: "TOMORROW", name: null, pricePerKwhCents: 35_000 }, energyCents: 250_000 },
  ])("local holidays $holidays: the QR page's band now and next, and the API preview", async ({ holidays, now, next, energyCents }) => {
    clock = new Date("2026-12-10T20:30:00Z");
    const tenant = await createTenant(h, `holidays-qr-${holidays.length}-${backend.name}`);
    await expectStatus(await h.call("PUT", "/Business/Holidays", { token: tenant.token, body: { dates: holidays } }), 200);
    const rate = await expectStatus(await h.call("POST", "/Business/Fees", { token: tenant.token, body: BANDED }), 201);
    const station = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: tenant.token, body: stationInput() }), 201);
    const base = chargerInput({ stationId: station.id });
    const charger = await expectStatus(await h.call("POST", "/Business/Charger", { token: tenant.token, body: { ...base, connectors: base.connectors.map((k) => ({ ...k, rateId: rate.id })) } }), 201);

    const info = await expectStatus(await h.call("GET", `/Driver/Charge/${charger.ocppIdentity}/1`, { token: null }), 200);
    expect(info.bandNow).toEqual({ ...now, pricePerMinuteCents: 0, next: { ...next, pricePerMinuteCents: 0 } });

    // One hour from 17:30, 10 kWh spread evenly: on a working day 5 kWh in resto and 5 in Pico
    // (175 000 + 210 000), on the local holiday all of it «Feriado» (250 000).
    const { connectorCount: _n, id: _id, createdAt: _c, updatedAt: _u, ...typed } = rate;
    const preview = await expectStatus(await h.call("POST", "/Business/Fees/Preview", { token: tenant.token, body: { rate: typed, usage: { energyWh: 10_000, chargingMinutes: 60, idleMinutes: 0, startedAt: clock.toISOString() } } }), 200);
    expect(preview.price.energyCents).toBe(energyCents);
  });
});
