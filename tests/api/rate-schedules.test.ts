// Scheduled rate changes and bulk repricing: /Business/Fees/{id}/Schedule and /Business/Fees/Reprice,
// their validation, tenancy, audit entries, the sweep that writes a due change into the rate, and
// the rounding of a percentage to the centavo (half up).
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyDueRateSchedules } from "#api/rate-schedule-sweep";
import { auditLog, rates, rateSchedules } from "#db/schema";
import { applyPercent, repriceChanges } from "#domain/rate-schedule";
import { chargerInput, createTenant, expectProblem, stationInput, expectStatus, openHarness, rateInput, testBackends, type Harness, type Tenant } from "./helpers";

const HOUR = 3_600_000;

describe("applyPercent: a percentage to the centavo, half up", () => {
  it.each([
    [35000, 10, 38500],
    [333, 10, 366], // 366.3
    [335, 10, 369], // 368.5 → 369 (half up)
    [1, 50, 2], // 1.5 → 2
    [3, -50, 2], // 1.5 → 2
    [999, 12.5, 1124], // 1123.875
    [10000, -100, 0],
    [0, 25, 0],
  ])("%i centavos moved by %s percent is %i", (cents, percent, expected) => expect(applyPercent(cents, percent)).toBe(expected));

  it("moves every money field, and the prices of time bands when the rate has them", () => {
    const base = { ...rateInput({ idleMaxCents: null, noShowFeeCents: 1000 }), currency: "ARS", idleActiveFrom: null, idleActiveTo: null } as never;
    expect(repriceChanges(base, 10)).toEqual({ pricePerKwhCents: 38500, sessionFeeCents: 55000, idlePricePerMinuteCents: expect.any(Number), noShowFeeCents: 1100 });
    const banded = { ...(base as object), bands: [{ days: "WEEKDAY", from: "18:00", to: "23:00", pricePerKwhCents: 40000, pricePerMinuteCents: 5 }] } as never;
    expect(repriceChanges(banded, 10)).toMatchObject({ bands: [{ days: "WEEKDAY", from: "18:00", to: "23:00", pricePerKwhCents: 44000, pricePerMinuteCents: 6 }] });
  });
});

describe.each(testBackends())("rate schedules ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let other: Tenant;
  let rateId: string;
  let clock = new Date("2026-11-28T15:00:00Z");
  beforeAll(async () => {
    h = await openHarness(backend, { now: () => clock });
    t = await createTenant(h, "sched-owner");
    other = await createTenant(h, "sched-other");
    rateId = (await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: "Rápida", pricePerKwhCents: 35000 }) }), 201)).id;
  });
  afterAll(() => h?.close());

  const tomorrowMidnight = "2026-11-29T00:00"; // Argentine time, no offset: a datetime-local input

  it("schedules a change for tomorrow 00:00 (Argentine time) and lists it with the prices from then", async () => {
    const created = await expectStatus(await h.call("POST", `/Business/Fees/${rateId}/Schedule`, { token: t.token, body: { effectiveFrom: tomorrowMidnight, pricePerKwhCents: 42000 } }), 201);
    expect(created).toMatchObject({ rateId, effectiveFrom: "2026-11-29T03:00:00.000Z", changes: { pricePerKwhCents: 42000 }, values: { pricePerKwhCents: 42000, sessionFeeCents: 50000 }, createdBy: expect.stringContaining("@") });
    const list = await expectStatus(await h.call("GET", `/Business/Fees/${rateId}/Schedule`, { token: t.token }), 200);
    expect(list.current.pricePerKwhCents).toBe(35000);
    expect(list.items).toHaveLength(1);
    expect(list.items[0].id).toBe(created.id);
  });

  it("refuses a change in the past, an empty one, one that leaves an invalid rate and a second at the same instant", async () => {
    const past = await expectProblem(await h.call("POST", `/Business/Fees/${rateId}/Schedule`, { token: t.token, body: { effectiveFrom: "2026-11-28T10:00", pricePerKwhCents: 1 } }), 422);
    expect(past.errors).toEqual({ effectiveFrom: ["El cambio tiene que regir en el futuro."] });
    const empty = await expectProblem(await h.call("POST", `/Business/Fees/${rateId}/Schedule`, { token: t.token, body: { effectiveFrom: "2026-12-01T00:00" } }), 422);
    expect(empty.errors).toEqual({ pricePerKwhCents: ["Indicá al menos un valor que cambie."] });
    const invalid = await expectProblem(await h.call("POST", `/Business/Fees/${rateId}/Schedule`, { token: t.token, body: { effectiveFrom: "2026-12-01T00:00", pricePerKwhCents: 0, sessionFeeCents: 0 } }), 422);
    expect(invalid.errors?.pricePerKwhCents?.[0]).toMatch(/al menos un precio/);
    const badDate = await expectProblem(await h.call("POST", `/Business/Fees/${rateId}/Schedule`, { token: t.token, body: { effectiveFrom: "mañana", pricePerKwhCents: 1 } }), 422);
    expect(badDate.errors?.effectiveFrom).toBeDefined();
    const twice = await expectProblem(await h.call("POST", `/Business/Fees/${rateId}/Schedule`, { token: t.token, body: { effectiveFrom: tomorrowMidnight, pricePerKwhCents: 1 } }), 409);
    expect(twice.title).toMatch(/Ya hay un cambio programado/);
  });

  it("another company's rate and schedule are not found", async () => {
    await expectProblem(await h.call("GET", `/Business/Fees/${rateId}/Schedule`, { token: other.token }), 404);
    await expectProblem(await h.call("POST", `/Business/Fees/${rateId}/Schedule`, { token: other.token, body: { effectiveFrom: "2026-12-02T00:00", pricePerKwhCents: 1 } }), 404);
    const [s] = await h.db.select().from(rateSchedules).where(eq(rateSchedules.rateId, rateId));
    await expectProblem(await h.call("DELETE", `/Business/Fees/${rateId}/Schedule/${s.id}`, { token: other.token }), 404);
  });

  it("the audit log says who scheduled what, and who cancelled it", async () => {
    const c = await expectStatus(await h.call("POST", `/Business/Fees/${rateId}/Schedule`, { token: t.token, body: { effectiveFrom: "2026-12-05T06:00", sessionFeeCents: 0 } }), 201);
    await expectStatus(await h.call("DELETE", `/Business/Fees/${rateId}/Schedule/${c.id}`, { token: t.token }), 204);
    const entries = await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, t.businessId), eq(auditLog.resourceId, rateId)));
    const scheduled = entries.filter((e) => e.action === "rate.schedule");
    expect(scheduled.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(scheduled.at(-1)!.changes.scheduled.after)).toMatch(/Desde 5\/12\/26, 06:00: Cargo por sesión \$\s0,00/);
    const cancelled = entries.find((e) => e.action === "rate.unschedule")!;
    expect(cancelled.actorEmail).toContain("@");
    expect(JSON.stringify(cancelled.changes.scheduled.before)).toContain("Desde 5/12/26, 06:00");
  });

  it("the sweep writes a due change into the rate, once, as a system entry", async () => {
    clock = new Date("2026-11-29T03:00:30Z");
    expect((await expectStatus(await h.call("GET", `/Business/Fees/${rateId}/Schedule`, { token: t.token }), 200)).current.pricePerKwhCents).toBe(42000);
    expect(await applyDueRateSchedules(h.db, clock)).toEqual([rateId]);
    expect(await applyDueRateSchedules(h.db, clock)).toEqual([]);
    const [row] = await h.db.select().from(rates).where(eq(rates.id, rateId));
    expect(row.pricePerKwhCents).toBe(42000);
    const [entry] = await h.db.select().from(auditLog).where(and(eq(auditLog.resourceId, rateId), eq(auditLog.action, "rate.schedule_apply")));
    expect(entry).toMatchObject({ actorUid: "system", changes: { pricePerKwhCents: { before: 35000, after: 42000 } } });
    // A change in force cannot be cancelled any more (it is the rate's own price now).
    const [applied] = await h.db.select().from(rateSchedules).where(eq(rateSchedules.rateId, rateId));
    await expectProblem(await h.call("DELETE", `/Business/Fees/${rateId}/Schedule/${applied.id}`, { token: t.token }), 404);
  });

  it("reprices several rates: preview changes nothing, confirm schedules one change per rate", async () => {
    clock = new Date("2026-11-30T12:00:00Z");
    const second = (await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: "Lenta", pricePerKwhCents: 335, sessionFeeCents: 0 }) }), 201)).id;
    const body = { rateIds: [rateId, second], percent: 10, effectiveFrom: "2026-12-01T00:00" };
    const preview = await expectStatus(await h.call("POST", "/Business/Fees/Reprice", { token: t.token, body: { ...body, preview: true } }), 200);
    expect(preview.items.map((i: { name: string; before: { pricePerKwhCents: number }; after: { pricePerKwhCents: number } }) => [i.name, i.before.pricePerKwhCents, i.after.pricePerKwhCents])).toEqual([
      ["Lenta", 335, 369],
      ["Rápida", 42000, 46200],
    ]);
    expect(await h.db.select().from(rateSchedules).where(eq(rateSchedules.rateId, second))).toEqual([]);
    const before = (await h.db.select().from(auditLog).where(eq(auditLog.action, "rate.reprice"))).length;
    expect(before).toBe(0);
    const done = await expectStatus(await h.call("POST", "/Business/Fees/Reprice", { token: t.token, body }), 201);
    expect(done.items.every((i: { scheduleId: string | null }) => i.scheduleId)).toBe(true);
    const reprices = await h.db.select().from(auditLog).where(eq(auditLog.action, "rate.reprice"));
    expect(reprices.map((e) => e.resourceId).sort()).toEqual([rateId, second].sort());
    const [s] = await h.db.select().from(rateSchedules).where(eq(rateSchedules.rateId, second));
    expect(s.changes).toMatchObject({ pricePerKwhCents: 369, noShowFeeCents: 110000 });
  });

  it("reprices to a new price per kWh, and refuses both or neither, unknown rates and other companies' rates", async () => {
    const preview = await expectStatus(await h.call("POST", "/Business/Fees/Reprice", { token: t.token, body: { rateIds: [rateId], pricePerKwhCents: 50000, effectiveFrom: "2026-12-03T00:00", preview: true } }), 200);
    // Laid over the change already pending for Dec 1st.
    expect(preview.items[0]).toMatchObject({ before: { pricePerKwhCents: 46200 }, after: { pricePerKwhCents: 50000 } });
    const both = await expectProblem(await h.call("POST", "/Business/Fees/Reprice", { token: t.token, body: { rateIds: [rateId], percent: 5, pricePerKwhCents: 1, effectiveFrom: "2026-12-03T00:00" } }), 422);
    expect(both.errors?.percent).toEqual(["Indicá un porcentaje o un nuevo precio por kWh (uno de los dos)."]);
    const foreign = await expectProblem(await h.call("POST", "/Business/Fees/Reprice", { token: other.token, body: { rateIds: [rateId], percent: 5, effectiveFrom: "2026-12-03T00:00" } }), 422);
    expect(foreign.errors?.rateIds).toEqual(["Elegí al menos una tarifa."]);
    const badPercent = await expectProblem(await h.call("POST", "/Business/Fees/Reprice", { token: t.token, body: { rateIds: [rateId], percent: 1.234, effectiveFrom: "2026-12-03T00:00" } }), 422);
    expect(badPercent.errors?.percent?.[0]).toMatch(/porcentaje/);
  });

  it("the QR page shows the prices in force and a change within 24 h («desde mañana 00:00»), not one further away", async () => {
    clock = new Date("2026-12-10T15:00:00Z"); // 12:00 in Argentina
    const r = (await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: "QR", pricePerKwhCents: 35000, sessionFeeCents: 0 }) }), 201)).id;
    const station = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput() }), 201);
    const base = chargerInput({ stationId: station.id });
    const charger = await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: { ...base, connectors: base.connectors.map((k) => ({ ...k, rateId: r })) } }), 201);
    const info = async () => expectStatus(await h.call("GET", `/Driver/Charge/${charger.ocppIdentity}/1`, { token: null }), 200);
    await expectStatus(await h.call("POST", `/Business/Fees/${r}/Schedule`, { token: t.token, body: { effectiveFrom: "2026-12-12T00:00", pricePerKwhCents: 50000 } }), 201);
    expect((await info()).upcoming).toBeNull(); // 36 h ahead
    await expectStatus(await h.call("POST", `/Business/Fees/${r}/Schedule`, { token: t.token, body: { effectiveFrom: "2026-12-11T00:00", pricePerKwhCents: 42000 } }), 201);
    const soon = await info();
    expect(soon.rate.pricePerKwhCents).toBe(35000);
    expect(soon.upcoming).toEqual({ effectiveFrom: "2026-12-11T03:00:00.000Z", day: "TOMORROW", pricePerKwhCents: 42000, pricePerMinuteCents: 0, sessionFeeCents: 0 });
    clock = new Date("2026-12-11T03:00:01Z"); // one second after midnight: in force, before any sweep
    const after = await info();
    expect(after.rate.pricePerKwhCents).toBe(42000);
    // The next one (the 12th, 00:00) is now within 24 h: announced as tomorrow's.
    expect(after.upcoming).toMatchObject({ effectiveFrom: "2026-12-12T03:00:00.000Z", day: "TOMORROW", pricePerKwhCents: 50000 });
  });

  it("a rate's pending changes are bounded", async () => {
    const r = (await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: "Muchos cambios" }) }), 201)).id;
    for (let i = 0; i < 24; i++) await expectStatus(await h.call("POST", `/Business/Fees/${r}/Schedule`, { token: t.token, body: { effectiveFrom: new Date(clock.getTime() + (i + 1) * HOUR).toISOString(), pricePerKwhCents: 1000 + i } }), 201);
    const full = await expectProblem(await h.call("POST", `/Business/Fees/${r}/Schedule`, { token: t.token, body: { effectiveFrom: new Date(clock.getTime() + 30 * HOUR).toISOString(), pricePerKwhCents: 1 } }), 409);
    expect(full.title).toMatch(/hasta 24/);
  });
});
