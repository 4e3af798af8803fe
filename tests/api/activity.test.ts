// /Business/Activity (list, keyset pages, detail, CSV), /Business/Dashboard and /Business/Graphic
// over a small hand-made history whose every figure is known.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargers, chargingSessions, connectors, meterSamples, payments, statusEvents, type NewChargingSession } from "#db/schema";
import { priceSession, rateSnapshotFromRow, type RateSnapshot } from "#domain/pricing";
import { eq, inArray } from "drizzle-orm";
import {
  chargerInput,
  createTenant,
  expectProblem,
  expectStatus,
  openHarness,
  rateInput,
  stationInput,
  testBackends,
  type Harness,
  type Tenant,
} from "./helpers";

const NOW = new Date("2025-03-12T12:00:00-03:00");
const at = (local: string) => new Date(`${local}-03:00`);
const MIN = 60_000;

describe.each(testBackends())("activity, dashboard and graphics ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let stationId: string;
  let chargerId: string;
  let snapshot: RateSnapshot;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await openHarness(backend, { now: () => NOW });
    t = await createTenant(h, "act-owner");
    stationId = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Estación Centro" }) }), 201)).id;
    const rate = await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: "AC" }) }), 201);
    snapshot = rateSnapshotFromRow({ ...rate, idleMaxCents: rate.idleMaxCents, idleActiveFrom: null, idleActiveTo: null });
    const charger = await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ name: "CP Centro", stationId }) }), 201);
    chargerId = charger.id;
    const [k1, k2] = charger.connectors as { id: string; connectorId: number }[];
    await h.db.update(connectors).set({ status: "Charging" }).where(eq(connectors.id, k1.id));
    await h.db.update(connectors).set({ status: "Available" }).where(eq(connectors.id, k2.id));

    const base = (over: Partial<NewChargingSession>): NewChargingSession => ({
      businessId: t.businessId,
      stationId,
      chargerId,
      connectorId: k1.id,
      connectorNumber: 1,
      idTag: "TAG-1",
      startedAt: NOW,
      meterStartWh: 1_000_000,
      rateId: rate.id,
      rateSnapshot: snapshot,
      status: "COMPLETED",
      ...over,
    });
    const rows: [string, NewChargingSession][] = [
      [
        "s1",
        base({
          startedAt: at("2025-03-10T12:00:00"),
          stoppedAt: at("2025-03-10T13:00:00"),
          energyWh: 10_000,
          meterStopWh: 1_010_000,
          idleMinutes: 20,
          energyCents: 350_000,
          sessionFeeCents: 50_000,
          idleCents: 40_000,
          subtotalCents: 440_000,
          vatCents: 76_364,
          totalCents: 500_000,
          paymentStatus: "PAID",
          stopReason: "EVDisconnected",
        }),
      ],
      ["s2", base({ startedAt: at("2025-03-11T08:00:00"), stoppedAt: at("2025-03-11T08:45:00"), energyWh: 5_500, totalCents: 250_000, idTag: "=HYPERLINK(\"x\")", connectorId: k2.id, connectorNumber: 2 })],
      ["s3", base({ startedAt: at("2025-03-12T11:30:00"), energyWh: 3_000, status: "ACTIVE", paymentStatus: "PENDING", totalCents: 0 })],
      ["s4", base({ startedAt: at("2025-03-11T09:00:00"), stoppedAt: at("2025-03-11T09:01:00"), energyWh: 0, status: "INVALID", paymentStatus: "NOT_REQUIRED" })],
      // 22:30 on the 10th in Buenos Aires = 01:30 UTC on the 11th: counts for the 10th.
      ["s5", base({ startedAt: new Date("2025-03-11T01:30:00Z"), stoppedAt: new Date("2025-03-11T02:00:00Z"), energyWh: 1_000, totalCents: 50_000, idleCents: 0 })],
    ];
    for (const [key, values] of rows) {
      const [row] = await h.db.insert(chargingSessions).values(values).returning({ id: chargingSessions.id });
      ids[key] = row.id;
    }
    await h.db.insert(meterSamples).values(
      [0, 20, 40, 60].map((m, i) => ({ sessionId: ids.s1, at: new Date(at("2025-03-10T12:00:00").getTime() + m * MIN), energyWh: i * 3_333, powerW: 10_000 })),
    );
    await h.db.insert(payments).values({ businessId: t.businessId, sessionId: ids.s1, provider: "MERCADOPAGO", amountCents: 500_000, status: "APPROVED", externalId: "mp-1" });
    await h.db.insert(statusEvents).values([
      // Before the period: the last of these (Available) is the status the period starts with.
      { businessId: t.businessId, chargerId, connectorId: k1.id, status: "Faulted", at: at("2025-03-08T00:00:00") },
      { businessId: t.businessId, chargerId, connectorId: k1.id, status: "Available", at: at("2025-03-09T10:00:00") },
      { businessId: t.businessId, chargerId, connectorId: k1.id, status: "Faulted", at: at("2025-03-11T00:00:00") },
      { businessId: t.businessId, chargerId, connectorId: k1.id, status: "Available", at: at("2025-03-11T06:00:00") },
    ]);
  });
  afterAll(() => h?.close());

  describe("/Business/Activity", () => {
    it("lists newest first with names, energy, duration, idle, total and payment status", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/Activity", { token: t.token }), 200);
      expect(body).toMatchObject({ total: 5, page: 1, pageSize: 20, nextCursor: null });
      expect(body.items.map((s: { id: string }) => s.id)).toEqual([ids.s3, ids.s4, ids.s2, ids.s5, ids.s1]);
      expect(body.items[4]).toMatchObject({
        stationName: "Estación Centro",
        chargerName: "CP Centro",
        connectorNumber: 1,
        connectorLabel: "Tipo 2",
        energyWh: 10_000,
        energyKwh: 10,
        durationMinutes: 60,
        idleMinutes: 20,
        totalCents: 500_000,
        currency: "ARS",
        status: "COMPLETED",
        paymentStatus: "PAID",
        stopReason: "EVDisconnected",
        stopReasonLabel: "Vehículo desconectado",
      });
      // Open session: duration up to now, no stop reason yet.
      expect(body.items[0]).toMatchObject({ status: "ACTIVE", durationMinutes: 30, stoppedAt: null, stopReasonLabel: null });
    });

    it("filters by station, charger, status, payment status and date range (Buenos Aires days)", async () => {
      const q = async (qs: string) => (await expectStatus(await h.call("GET", `/Business/Activity?${qs}`, { token: t.token }), 200)).items.map((s: { id: string }) => s.id);
      expect(await q("status=COMPLETED")).toEqual([ids.s2, ids.s5, ids.s1]);
      expect(await q("paymentStatus=PAID")).toEqual([ids.s1]);
      expect(await q("from=2025-03-11&to=2025-03-11")).toEqual([ids.s4, ids.s2]);
      expect(await q("from=2025-03-10&to=2025-03-10")).toEqual([ids.s5, ids.s1]);
      expect(await q(`stationId=${stationId}&chargerId=${chargerId}`)).toHaveLength(5);
      expect(await q("stationId=00000000-0000-4000-8000-000000000000")).toEqual([]);
      expect(await q("sort=-energyWh&pageSize=2")).toEqual([ids.s1, ids.s2]);
    });

    it("pages by keyset cursor and by page number alike", async () => {
      const first = await expectStatus(await h.call("GET", "/Business/Activity?pageSize=2", { token: t.token }), 200);
      expect(first.items.map((s: { id: string }) => s.id)).toEqual([ids.s3, ids.s4]);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await expectStatus(await h.call("GET", `/Business/Activity?pageSize=2&cursor=${first.nextCursor}`, { token: t.token }), 200);
      expect(second.items.map((s: { id: string }) => s.id)).toEqual([ids.s2, ids.s5]);
      const third = await expectStatus(await h.call("GET", `/Business/Activity?pageSize=2&cursor=${second.nextCursor}`, { token: t.token }), 200);
      expect(third.items.map((s: { id: string }) => s.id)).toEqual([ids.s1]);
      expect(third.nextCursor).toBeNull();
      const page2 = await expectStatus(await h.call("GET", "/Business/Activity?pageSize=2&page=2", { token: t.token }), 200);
      expect(page2.items.map((s: { id: string }) => s.id)).toEqual([ids.s2, ids.s5]);
      expect(page2.total).toBe(5);
    });

    it("pages back with `before` (prevCursor) to the same pages, and knows the first one", async () => {
      const ids3 = (p: { items: { id: string }[] }) => p.items.map((s) => s.id);
      const first = await expectStatus(await h.call("GET", "/Business/Activity?pageSize=2", { token: t.token }), 200);
      expect(first.prevCursor).toBeNull();
      const second = await expectStatus(await h.call("GET", `/Business/Activity?pageSize=2&cursor=${first.nextCursor}`, { token: t.token }), 200);
      const third = await expectStatus(await h.call("GET", `/Business/Activity?pageSize=2&cursor=${second.nextCursor}`, { token: t.token }), 200);
      expect(third.prevCursor).toEqual(expect.any(String));
      const backToSecond = await expectStatus(await h.call("GET", `/Business/Activity?pageSize=2&before=${third.prevCursor}`, { token: t.token }), 200);
      expect(ids3(backToSecond)).toEqual(ids3(second));
      expect(backToSecond.nextCursor).toBe(second.nextCursor);
      expect(backToSecond.prevCursor).toEqual(expect.any(String));
      const backToFirst = await expectStatus(await h.call("GET", `/Business/Activity?pageSize=2&before=${backToSecond.prevCursor}`, { token: t.token }), 200);
      expect(ids3(backToFirst)).toEqual(ids3(first));
      expect(backToFirst.prevCursor).toBeNull();
      expect(backToFirst.nextCursor).toBe(first.nextCursor);
      // Filters hold on both sides; other sorts page by number.
      const station = await expectStatus(await h.call("GET", `/Business/Activity?pageSize=1&stationId=${stationId}`, { token: t.token }), 200);
      const station2 = await expectStatus(await h.call("GET", `/Business/Activity?pageSize=1&stationId=${stationId}&cursor=${station.nextCursor}`, { token: t.token }), 200);
      const station1 = await expectStatus(await h.call("GET", `/Business/Activity?pageSize=1&stationId=${stationId}&before=${station2.prevCursor}`, { token: t.token }), 200);
      expect(ids3(station1)).toEqual(ids3(station));
      await expectProblem(await h.call("GET", `/Business/Activity?sort=-energyWh&before=${first.nextCursor}`, { token: t.token }), 422);
    });

    it("validates filters, sort and cursor (422)", async () => {
      const p = await expectProblem(await h.call("GET", "/Business/Activity?status=DONE&from=ayer&sort=idTag&pageSize=500", { token: t.token }), 422);
      expect(p.errors).toEqual({
        status: ["Elegí una opción válida."],
        from: ["Ingresá una fecha válida."],
        sort: ["Elegí una opción válida."],
        pageSize: ["Debe ser menor o igual a 100."],
      });
      const range = await expectProblem(await h.call("GET", "/Business/Activity?from=2025-03-12&to=2025-03-01", { token: t.token }), 422);
      expect(range.errors).toEqual({ to: ["La fecha 'hasta' debe ser posterior a 'desde'."] });
      const cursor = await expectProblem(await h.call("GET", "/Business/Activity?cursor=garbage", { token: t.token }), 422);
      expect(cursor.errors?.cursor?.[0]).toMatch(/cursor/);
      await expectProblem(await h.call("GET", "/Business/Activity?from=2025-02-30", { token: t.token }), 422);
    });

    it("shows the detail with rate snapshot, cost breakdown, meter series and payments", async () => {
      const body = await expectStatus(await h.call("GET", `/Business/Activity/${ids.s1}`, { token: t.token }), 200);
      expect(body).toMatchObject({
        id: ids.s1,
        meterStartWh: 1_000_000,
        meterStopWh: 1_010_000,
        rateSnapshot: snapshot,
        costIsEstimate: false,
        cost: { energyCents: 350_000, timeCents: 0, sessionFeeCents: 50_000, idleCents: 40_000, subtotalCents: 440_000, vatCents: 76_364, totalCents: 500_000 },
      });
      expect(body.meterSeries.map((m: { energyWh: number }) => m.energyWh)).toEqual([0, 3_333, 6_666, 9_999]);
      expect(body.meterSeries[0]).toEqual({ at: at("2025-03-10T12:00:00").toISOString(), energyWh: 0, powerW: 10_000, soc: null });
      expect(body.payments).toEqual([expect.objectContaining({ provider: "MERCADOPAGO", amountCents: 500_000, status: "APPROVED", transactionId: body.transactionId, stationName: "Estación Centro" })]);
    });

    it("estimates the cost of an open session from its snapshot", async () => {
      const body = await expectStatus(await h.call("GET", `/Business/Activity/${ids.s3}`, { token: t.token }), 200);
      expect(body.costIsEstimate).toBe(true);
      expect(body.cost).toEqual(priceSession(snapshot, { energyWh: 3_000, chargingMinutes: 30, idleMinutes: 0 }));
    });

    it("answers 404 for unknown or malformed ids", async () => {
      await expectProblem(await h.call("GET", "/Business/Activity/00000000-0000-4000-8000-000000000000", { token: t.token }), 404);
      await expectProblem(await h.call("GET", "/Business/Activity/123", { token: t.token }), 404);
    });

    it("exports CSV: UTF-8 BOM, ';' separator, decimal comma, filters, no formulas", async () => {
      const res = await h.call("GET", "/Business/Activity/Export.csv?status=COMPLETED", { token: t.token });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="actividad-20250312.csv"');
      expect(res.headers.get("x-export-rows")).toBe("3");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = new TextDecoder().decode(bytes.slice(3)).trimEnd().split("\r\n");
      expect(lines).toHaveLength(4);
      expect(lines[0].split(";").slice(0, 3)).toEqual(["Inicio", "Fin", "Transacción"]);
      expect(lines[0]).toContain("Energía (kWh)");
      const s1 = lines[3].split(";");
      expect(s1[0]).toBe("10/03/2025 12:00");
      expect(s1[1]).toBe("10/03/2025 13:00");
      expect(s1[3]).toBe("Estación Centro");
      expect(s1[5]).toBe("1 (Tipo 2)");
      // Decimal commas are quoted too: a spreadsheet that splits on ',' keeps them one cell.
      expect(s1[8]).toBe('"10,000"');
      expect(s1[16]).toBe('"5000,00"');
      expect(s1[17]).toBe("Pagada");
      // A tag that looks like a formula is neutralised (and quoted, it has a quote).
      expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    });
  });

  describe("/Business/Dashboard", () => {
    it("aggregates the period's KPIs in SQL", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/Dashboard?from=2025-03-10&to=2025-03-12", { token: t.token }), 200);
      expect(body).toEqual({
        from: at("2025-03-10T00:00:00").toISOString(),
        to: at("2025-03-13T00:00:00").toISOString(),
        energyKwh: 19.5,
        sessions: 5,
        startSuccessRate: 80,
        revenueCents: 800_000,
        idleRevenueCents: 40_000,
        // (60 + 45 + 30 + 30) min occupied over 2 connectors × 60 h elapsed.
        utilizationPct: 2.3,
        // Connector 1 faulted 6 of its 60 tracked hours.
        availabilityPct: 90,
        chargersTotal: 1,
        chargersOnline: 0,
        chargersOffline: 1,
        connectorsTotal: 2,
        connectorStatus: { Available: 1, Preparing: 0, Charging: 1, SuspendedEVSE: 0, SuspendedEV: 0, Finishing: 0, Reserved: 0, Unavailable: 0, Faulted: 0 },
        statusSummary: { available: 0, charging: 0, faulted: 0, offline: 2 },
        activeSessions: 1,
      });
    });

    it("counts each charger once, whatever its connectors; online only when also enabled", async () => {
      const u = await createTenant(h, "dashboard-charger-counts");
      const add = async (name: string, over: Record<string, unknown> = {}) =>
        (await expectStatus(await h.call("POST", "/Business/Charger", { token: u.token, body: chargerInput({ name, ...over }) }), 201)).id as string;
      const both = await add("Dos conectores");
      await add("Un conector", { connectors: chargerInput().connectors.slice(0, 1) });
      const disabled = await add("Deshabilitado");
      await h.db.update(chargers).set({ online: true }).where(inArray(chargers.id, [both, disabled]));
      await h.db.update(chargers).set({ enabled: false }).where(eq(chargers.id, disabled));
      const body = await expectStatus(await h.call("GET", "/Business/Dashboard", { token: u.token }), 200);
      expect(body).toMatchObject({ chargersTotal: 3, chargersOnline: 1, chargersOffline: 2, connectorsTotal: 5 });
    });

    it("defaults to the last 30 days and validates the period", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/Dashboard", { token: t.token }), 200);
      expect(body.to).toBe(NOW.toISOString());
      expect(new Date(body.to).getTime() - new Date(body.from).getTime()).toBe(30 * 86_400_000);
      expect(body.sessions).toBe(5);
      const p = await expectProblem(await h.call("GET", "/Business/Dashboard?from=2023-01-01&to=2025-01-01", { token: t.token }), 422);
      expect(p.errors).toEqual({ to: ["El período no puede superar los 366 días."] });
    });
  });

  describe("/Business/Graphic", () => {
    it("energyRevenueByDay: one point per Buenos Aires day, zeros included", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/Graphic?series=energyRevenueByDay&from=2025-03-09&to=2025-03-12", { token: t.token }), 200);
      expect(body).toMatchObject({ series: "energyRevenueByDay", timeZone: "America/Argentina/Buenos_Aires" });
      expect(body.points).toEqual([
        { date: "2025-03-09", energyKwh: 0, revenueCents: 0, idleRevenueCents: 0, sessions: 0 },
        { date: "2025-03-10", energyKwh: 11, revenueCents: 550_000, idleRevenueCents: 40_000, sessions: 2 },
        { date: "2025-03-11", energyKwh: 5.5, revenueCents: 250_000, idleRevenueCents: 0, sessions: 1 },
        { date: "2025-03-12", energyKwh: 3, revenueCents: 0, idleRevenueCents: 0, sessions: 1 },
      ]);
    });

    it("sessionsByHour: 24 local hours", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/Graphic?series=sessionsByHour&from=2025-03-01&to=2025-03-12", { token: t.token }), 200);
      expect(body.points).toHaveLength(24);
      const nonZero = body.points.filter((p: { sessions: number }) => p.sessions > 0).map((p: { hour: number; sessions: number }) => [p.hour, p.sessions]);
      expect(nonZero).toEqual([
        [8, 1],
        [11, 1],
        [12, 1],
        [22, 1],
      ]);
    });

    it("topStations: ranked by revenue", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/Graphic?series=topStations&from=2025-03-01&to=2025-03-12", { token: t.token }), 200);
      expect(body.points).toEqual([{ stationId, stationName: "Estación Centro", sessions: 4, energyKwh: 19.5, revenueCents: 800_000 }]);
    });

    it("validates the series name", async () => {
      const p = await expectProblem(await h.call("GET", "/Business/Graphic?series=everything", { token: t.token }), 422);
      expect(p.errors).toEqual({ series: ["Elegí una opción válida."] });
    });
  });
});
