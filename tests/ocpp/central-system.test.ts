// The OCPP 1.6J central system end to end: ocpp-rpc clients acting as chargers against a
// started server, on PGlite and (with TEST_DATABASE_URL) PostgreSQL.
import { and, eq } from "drizzle-orm";
import { RPCError, type RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandMessage } from "#contract/schemas/command-messages";
import { sealPaymentCredentials, createKeyRing } from "#infra/crypto";
import { rollupDrift } from "#db/rollup";
import { businessUsers, chargers, chargingSessions, connectors, meterSamples, notifications, paymentAccounts, payments, sessionDailyTotals, statusEvents } from "#db/schema";
import { priceSession, usageFromSession } from "#domain/pricing";
import { expectStatus, rateInput, TEST_KEYS } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();

describe.each(testBackends())("OCPP central system ($name)", (backend) => {
  let h: OcppHarness;
  beforeAll(async () => {
    h = await openOcppHarness(backend);
  });
  afterAll(() => h.close());

  const chargerRow = async (id: string) => (await h.db.select().from(chargers).where(eq(chargers.id, id)))[0];
  const notes = async (businessId: string) => h.db.select().from(notifications).where(eq(notifications.businessId, businessId));
  const sessions = async (chargerId: string) => h.db.select().from(chargingSessions).where(eq(chargingSessions.chargerId, chargerId));

  describe("connection", () => {
    let f: Fixture;
    beforeAll(async () => {
      f = await createFixture(h, `ocpp-auth-${backend.name}`);
    });

    it("refuses a wrong password, an unknown identity and a missing subprotocol with no data written", async () => {
      const attempts = [
        chargerClient(h, f, { password: "no-es-la-contraseña-correcta-000" }),
        chargerClient(h, { identity: "NO-EXISTE-01", password: f.password }),
        chargerClient(h, f, { protocols: [] }),
      ];
      const codes: number[] = [];
      for (const cli of attempts) {
        const err = (await cli.connect().then(
          () => null,
          (e: unknown) => e,
        )) as { code?: number } | null;
        expect(err).not.toBeNull();
        codes.push(Number(err?.code));
      }
      expect(codes).toEqual([401, 401, 400]);
      const row = await chargerRow(f.chargerId);
      expect(row.online).toBe(false);
      expect(row.lastHeartbeatAt).toBeNull();
      expect((await notes(f.tenant.businessId)).filter((n) => n.type.startsWith("CHARGER_"))).toEqual([]);
      expect(h.logs.some((l) => l.msg === "OCPP: autenticación rechazada" && (l.obj as { identity?: string }).identity === "NO-EXISTE-01")).toBe(true);
      expect(JSON.stringify(h.logs)).not.toContain(f.password);
    });

    it("accepts the right password, answers the boot with the heartbeat interval and stores what the charger reports", async () => {
      const cli = chargerClient(h, f);
      await cli.connect();
      const boot = (await cli.call("BootNotification", {
        chargePointVendor: "ABB",
        chargePointModel: "Terra AC",
        chargePointSerialNumber: "ABB-123",
        firmwareVersion: "1.8.21",
        iccid: "8954000000000000001",
        imsi: "722310000000001",
        meterType: "EM24",
        meterSerialNumber: "MTR-9",
      })) as { status: string; interval: number; currentTime: string };
      expect(boot).toMatchObject({ status: "Accepted", interval: f.heartbeatInterval });
      expect(Math.abs(Date.parse(boot.currentTime) - Date.now())).toBeLessThan(10_000);
      const hb = (await cli.call("Heartbeat", {})) as { currentTime: string };
      expect(Date.parse(hb.currentTime)).toBeGreaterThan(0);
      // Marking the connection online runs beside the first messages (a heartbeat no longer
      // waits for the database): wait for it rather than race it.
      const row = await eventually(() => chargerRow(f.chargerId), (r) => r.online === true);
      expect(row).toMatchObject({ online: true, connectedNode: "node-a", vendor: "ABB", bootModel: "Terra AC", firmwareVersion: "1.8.21", iccid: "8954000000000000001", imsi: "722310000000001", meterType: "EM24", meterSerial: "MTR-9" });
      expect(row.lastBootAt).not.toBeNull();
      await eventually(() => notes(f.tenant.businessId), (list) => list.some((n) => n.type === "CHARGER_ONLINE"));

      // The API shows it online.
      const dto = await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }), 200);
      expect(dto.online).toBe(true);
      await cli.close();
      await eventually(() => chargerRow(f.chargerId), (r) => !r.online);
    });

    it("a new connection from the same identity replaces the old one", async () => {
      const offlineBefore = (await notes(f.tenant.businessId)).filter((n) => n.type === "CHARGER_OFFLINE").length;
      const first = chargerClient(h, f);
      await first.connect();
      const closed = new Promise<{ code: number }>((resolve) => first.once("close", resolve));
      const second = chargerClient(h, f);
      await second.connect();
      expect((await closed).code).toBe(4000);
      await expect(second.call("Heartbeat", {})).resolves.toBeTruthy();
      expect(h.central.connectionCount()).toBe(1);
      // The replaced socket did not take the charger offline (the notification count below says
      // it went offline once, for the second socket's close).
      await eventually(() => chargerRow(f.chargerId), (r) => r.online);
      await second.close();
      await eventually(() => chargerRow(f.chargerId), (r) => !r.online);
      expect((await notes(f.tenant.businessId)).filter((n) => n.type === "CHARGER_OFFLINE")).toHaveLength(offlineBefore + 1);
    });

    it("a socket that closes as soon as it opens leaves the charger offline (its offline mark waits for its online mark)", async () => {
      // Twenty quick connect-and-close cycles: without the wait, the online mark of a socket
      // could land after its own offline mark and leave the charger online until the sweep.
      for (let i = 0; i < 20; i++) {
        const cli = chargerClient(h, f);
        await cli.connect();
        await cli.close({ force: true });
      }
      await eventually(() => chargerRow(f.chargerId), (r) => !r.online);
      // And it stays offline: nothing still pending marks it online again.
      await new Promise((r) => setTimeout(r, 300));
      expect((await chargerRow(f.chargerId)).online).toBe(false);
    });

    it("a disabled charger's boot is Rejected; a suspended company's tags are Blocked", async () => {
      await h.db.update(chargers).set({ enabled: false }).where(eq(chargers.id, f.chargerId));
      const cli = chargerClient(h, f);
      await cli.connect();
      expect(await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" })).toMatchObject({ status: "Rejected" });
      await h.db.update(chargers).set({ enabled: true }).where(eq(chargers.id, f.chargerId));
      expect(await cli.call("Authorize", { idTag: "TAG-1" })).toEqual({ idTagInfo: { status: "Accepted" } });
      await h.db.update(businessUsers).set({ status: "SUSPENDED" }).where(eq(businessUsers.id, f.tenant.businessId));
      expect(await cli.call("Authorize", { idTag: "TAG-1" })).toEqual({ idTagInfo: { status: "Blocked" } });
      await h.db.update(businessUsers).set({ status: "ACTIVE" }).where(eq(businessUsers.id, f.tenant.businessId));
      await cli.close();
    });
  });

  describe("a charging session", () => {
    let f: Fixture;
    let cli: RPCClient;
    beforeAll(async () => {
      // 20 min free, then $ 20/min, capped at $ 3000.
      f = await createFixture(h, `ocpp-session-${backend.name}`, rateInput({ idleGraceMinutes: 20 }));
      await h.db.insert(paymentAccounts).values({
        businessId: f.tenant.businessId,
        provider: "MERCADOPAGO",
        credentialsEncrypted: sealPaymentCredentials(createKeyRing(TEST_KEYS), "APP_USR-test", { businessId: f.tenant.businessId, provider: "MERCADOPAGO" }),
      });
      cli = chargerClient(h, f);
      await cli.connect();
      await cli.call("BootNotification", { chargePointVendor: "Wallbox", chargePointModel: "Commander 2" });
    });
    afterAll(() => cli.close());

    it("boot → status → authorize → start → meter values → suspended EV → stop → finishing → available: priced, paid for and notified", async () => {
      const t0 = Date.now() - 3 * 60 * MIN;
      await cli.call("StatusNotification", { connectorId: 0, status: "Available", errorCode: "NoError", timestamp: iso(t0 - 5 * MIN) });
      await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: iso(t0 - 5 * MIN) });
      await cli.call("StatusNotification", { connectorId: 1, status: "Preparing", errorCode: "NoError", timestamp: iso(t0 - MIN) });
      expect(await cli.call("Authorize", { idTag: "RFID-0042" })).toEqual({ idTagInfo: { status: "Accepted" } });
      const start = (await cli.call("StartTransaction", { connectorId: 1, idTag: "RFID-0042", meterStart: 125_000, timestamp: iso(t0) })) as { transactionId: number; idTagInfo: { status: string } };
      expect(start.idTagInfo.status).toBe("Accepted");
      expect(Number.isInteger(start.transactionId)).toBe(true);
      await cli.call("StatusNotification", { connectorId: 1, status: "Charging", errorCode: "NoError", timestamp: iso(t0) });
      await cli.call("MeterValues", {
        connectorId: 1,
        transactionId: start.transactionId,
        meterValue: [
          {
            timestamp: iso(t0 + 10 * MIN),
            sampledValue: [
              { value: "128.5", measurand: "Energy.Active.Import.Register", unit: "kWh" },
              { value: "21000", measurand: "Power.Active.Import", unit: "W" },
              { value: "55", measurand: "SoC", unit: "Percent" },
            ],
          },
          { timestamp: iso(t0 + 20 * MIN), sampledValue: [{ value: "132000" }] },
        ],
      });
      const live = (await sessions(f.chargerId))[0];
      expect(live).toMatchObject({ status: "ACTIVE", energyWh: 7000, idTag: "RFID-0042", transactionId: start.transactionId });
      expect(live.rateSnapshot?.idleGraceMinutes).toBe(20);

      await cli.call("StatusNotification", { connectorId: 1, status: "SuspendedEV", errorCode: "NoError", timestamp: iso(t0 + 30 * MIN) });
      const stopAnswer = await cli.call("StopTransaction", { transactionId: start.transactionId, meterStop: 132_500, timestamp: iso(t0 + 70 * MIN), reason: "Local", idTag: "RFID-0042" });
      expect(stopAnswer).toEqual({ idTagInfo: { status: "Accepted" } });
      expect((await sessions(f.chargerId))[0]).toMatchObject({ status: "IDLE", energyWh: 7500 });
      await cli.call("StatusNotification", { connectorId: 1, status: "Finishing", errorCode: "NoError", timestamp: iso(t0 + 70 * MIN) });
      await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: iso(t0 + 90 * MIN) });

      const [done] = await sessions(f.chargerId);
      expect(done).toMatchObject({ status: "COMPLETED", energyWh: 7500, meterStopWh: 132_500, idleMinutes: 60, stopReason: "Local", paymentStatus: "PENDING" });
      expect(done.chargingEndedAt?.toISOString()).toBe(iso(t0 + 30 * MIN));
      expect(done.unpluggedAt?.toISOString()).toBe(iso(t0 + 90 * MIN));
      const expected = priceSession(done.rateSnapshot!, usageFromSession({ ...done, timeZone: "America/Argentina/Buenos_Aires" }));
      expect(expected.idleCents).toBe(40 * 2000); // 60 idle minutes − 20 free, at $ 20
      expect(done.totalCents).toBe(expected.totalCents);
      expect(done.idleCents).toBe(expected.idleCents);
      expect(await h.db.select().from(meterSamples).where(eq(meterSamples.sessionId, done.id))).toHaveLength(2);

      // The API's activity shows it with the right energy, idle minutes and price.
      const page = await expectStatus(await h.call("GET", `/Business/Activity?chargerId=${f.chargerId}`, { token: f.tenant.token }), 200);
      expect(page.items[0]).toMatchObject({ id: done.id, energyWh: 7500, idleMinutes: 60, totalCents: expected.totalCents, status: "COMPLETED" });
      const detail = await expectStatus(await h.call("GET", `/Business/Activity/${done.id}`, { token: f.tenant.token }), 200);
      expect(detail.cost).toMatchObject({ idleCents: expected.idleCents, totalCents: expected.totalCents });
      expect(detail.meterSeries.length).toBe(2);

      const [payment] = await h.db.select().from(payments).where(eq(payments.sessionId, done.id));
      expect(payment).toMatchObject({ provider: "MERCADOPAGO", amountCents: expected.totalCents, status: "PENDING" });
      const completed = (await notes(f.tenant.businessId)).filter((n) => n.type === "SESSION_COMPLETED");
      expect(completed).toHaveLength(1);
      expect(completed[0]).toMatchObject({ title: "Sesión finalizada", link: `/activity?session=${done.id}` });
      expect(completed[0].body).toContain("7,5 kWh");

      // A repeated stop changes nothing and answers the same.
      const again = await cli.call("StopTransaction", { transactionId: start.transactionId, meterStop: 999_999, timestamp: iso(t0 + 95 * MIN), reason: "Other", idTag: "RFID-0042" });
      expect(again).toEqual(stopAnswer);
      const [after] = await sessions(f.chargerId);
      expect(after).toEqual(done);
      expect(await h.db.select().from(payments).where(eq(payments.sessionId, done.id))).toHaveLength(1);

      // The status history has every report.
      const history = await h.db.select().from(statusEvents).where(eq(statusEvents.chargerId, f.chargerId));
      expect(history.map((e) => e.status)).toEqual(expect.arrayContaining(["Preparing", "Charging", "SuspendedEV", "Finishing", "Available"]));

      // The daily rollup (KPIs, activity totals) took the closed session in, through the triggers.
      expect(await rollupDrift(h.db, f.tenant.businessId)).toEqual([]);
      const [rolled] = await h.db.select().from(sessionDailyTotals).where(eq(sessionDailyTotals.businessId, f.tenant.businessId));
      expect(rolled).toMatchObject({ status: "COMPLETED", paymentStatus: "PENDING", sessions: 1, energyWh: 7500, totalCents: done.totalCents });
    });

    it("transaction ids are unique across the whole system", async () => {
      const other = await createFixture(h, `ocpp-session2-${backend.name}`);
      const c2 = chargerClient(h, other);
      await c2.connect();
      const a = (await cli.call("StartTransaction", { connectorId: 2, idTag: "A", meterStart: 0, timestamp: iso(Date.now() - MIN) })) as { transactionId: number };
      const b = (await c2.call("StartTransaction", { connectorId: 1, idTag: "B", meterStart: 0, timestamp: iso(Date.now() - MIN) })) as { transactionId: number };
      expect(a.transactionId).not.toBe(b.transactionId);
      // A charger cannot stop another charger's transaction.
      await c2.call("StopTransaction", { transactionId: a.transactionId, meterStop: 100, timestamp: iso(Date.now()) });
      const [open] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.transactionId, a.transactionId));
      expect(open.status).toBe("ACTIVE");
      await cli.call("StopTransaction", { transactionId: a.transactionId, meterStop: 0, timestamp: iso(Date.now()), reason: "EVDisconnected" });
      await c2.close();
    });

    it("a malformed or unknown call gets the strict-mode CALLERROR and writes nothing", async () => {
      const g = await createFixture(h, `ocpp-loose-${backend.name}`);
      const loose = chargerClient(h, g, { strict: false });
      await loose.connect();
      const before = (await sessions(g.chargerId)).length;
      const bad = await loose.call("StartTransaction", { connectorId: "uno", idTag: "X", meterStart: 0, timestamp: iso(Date.now()) }).catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(RPCError);
      expect((bad as RPCError).rpcErrorCode).toMatch(/TypeConstraintViolation|FormationViolation|FormatViolation/);
      const unknown = await loose.call("HacerCafe", {}).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(RPCError);
      expect((unknown as RPCError).rpcErrorCode).toMatch(/NotImplemented|NotSupported|ProtocolError/);
      expect(await sessions(g.chargerId)).toHaveLength(before);
      await loose.close();
    });

    it("a Faulted connector creates a notification, and so does its recovery", async () => {
      await cli.call("StatusNotification", { connectorId: 2, status: "Faulted", errorCode: "GroundFailure", timestamp: iso(Date.now() - 1000) });
      await cli.call("StatusNotification", { connectorId: 2, status: "Available", errorCode: "NoError", timestamp: iso(Date.now()) });
      const list = await notes(f.tenant.businessId);
      const fault = list.find((n) => n.type === "CHARGER_FAULTED");
      expect(fault?.body).toMatch(/conector 2/);
      expect(list.some((n) => n.type === "CHARGER_RECOVERED")).toBe(true);
      const [k] = await h.db.select().from(connectors).where(and(eq(connectors.chargerId, f.chargerId), eq(connectors.connectorId, 2)));
      expect(k.status).toBe("Available");
    });

    it("status and start edge cases: late reports, unknown connectors, repeated and overlapping starts, unplug before stop", async () => {
      const connector2 = async () => (await h.db.select().from(connectors).where(and(eq(connectors.chargerId, f.chargerId), eq(connectors.connectorId, 2))))[0];
      const t = Date.now() + 1000;

      // A report older than the status we hold (queued while offline) is history only.
      await cli.call("StatusNotification", { connectorId: 2, status: "Preparing", errorCode: "NoError", timestamp: iso(t) });
      await cli.call("StatusNotification", { connectorId: 2, status: "Unavailable", errorCode: "NoError", timestamp: iso(t - 10 * MIN) });
      expect(await connector2()).toMatchObject({ status: "Preparing" });
      expect((await connector2()).statusAt?.toISOString()).toBe(iso(t));
      const late = await h.db.select().from(statusEvents).where(and(eq(statusEvents.chargerId, f.chargerId), eq(statusEvents.status, "Unavailable")));
      expect(late.some((e) => e.at.toISOString() === iso(t - 10 * MIN) && e.connectorId === (late[0]?.connectorId ?? null))).toBe(true);

      // A connector the operator has not configured stays on the charger's history.
      await cli.call("StatusNotification", { connectorId: 9, status: "Faulted", errorCode: "OtherError", timestamp: iso(t) });
      const unknown = await h.db.select().from(statusEvents).where(and(eq(statusEvents.chargerId, f.chargerId), eq(statusEvents.errorCode, "OtherError")));
      expect(unknown).toHaveLength(1);
      expect(unknown[0]).toMatchObject({ connectorId: null, status: "Faulted" });
      expect(unknown[0].info).toMatch(/^Conector 9 \(no configurado\)/);

      // A start repeated because its answer was lost gets the same transaction, once.
      const first = { connectorId: 2, idTag: "RFID-7", meterStart: 1000, timestamp: iso(t + 1000) };
      const a = (await cli.call("StartTransaction", first)) as { transactionId: number; idTagInfo: { status: string } };
      const b = (await cli.call("StartTransaction", first)) as { transactionId: number; idTagInfo: { status: string } };
      expect(b).toEqual(a);
      expect((await sessions(f.chargerId)).filter((x) => x.transactionId === a.transactionId)).toHaveLength(1);

      // Charging → SuspendedEV → Charging: the idle clock starts and is taken back.
      await cli.call("StatusNotification", { connectorId: 2, status: "SuspendedEV", errorCode: "NoError", timestamp: iso(t + 2000) });
      expect((await sessions(f.chargerId)).find((x) => x.transactionId === a.transactionId)?.chargingEndedAt?.toISOString()).toBe(iso(t + 2000));
      await cli.call("StatusNotification", { connectorId: 2, status: "Charging", errorCode: "NoError", timestamp: iso(t + 3000) });
      expect((await sessions(f.chargerId)).find((x) => x.transactionId === a.transactionId)?.chargingEndedAt).toBeNull();

      // Unplugged before the stop arrived: the session keeps when, and stays open for the stop.
      await cli.call("StatusNotification", { connectorId: 2, status: "Available", errorCode: "NoError", timestamp: iso(t + 4000) });
      const unplugged = (await sessions(f.chargerId)).find((x) => x.transactionId === a.transactionId)!;
      expect(unplugged).toMatchObject({ status: "ACTIVE" });
      expect(unplugged.unpluggedAt?.toISOString()).toBe(iso(t + 4000));

      // Its stop never arrives and the next start on that connector closes it first.
      const c = (await cli.call("StartTransaction", { connectorId: 2, idTag: "RFID-8", meterStart: 5000, timestamp: iso(t + 5000) })) as { transactionId: number };
      expect(c.transactionId).not.toBe(a.transactionId);
      const all = await sessions(f.chargerId);
      expect(all.find((x) => x.transactionId === a.transactionId)).toMatchObject({ status: "COMPLETED" });
      expect(all.find((x) => x.transactionId === c.transactionId)).toMatchObject({ status: "ACTIVE", idTag: "RFID-8", connectorNumber: 2 });

      // Meter values: the register gives delivered energy (kWh or Wh), a reading without a
      // register carries the energy so far, and the session keeps the highest.
      await cli.call("MeterValues", {
        connectorId: 2,
        transactionId: c.transactionId,
        meterValue: [
          { timestamp: iso(t + 5100), sampledValue: [{ value: "6200" }] },
          { timestamp: iso(t + 5200), sampledValue: [{ value: "11000", measurand: "Power.Active.Import", unit: "W" }, { value: "40", measurand: "SoC" }] },
          { timestamp: iso(t + 5300), sampledValue: [{ value: "5.9", measurand: "Energy.Active.Import.Register", unit: "kWh" }] },
        ],
      });
      const live = (await sessions(f.chargerId)).find((x) => x.transactionId === c.transactionId)!;
      expect(live.energyWh).toBe(1200);
      const samples = await h.db.select().from(meterSamples).where(eq(meterSamples.sessionId, live.id));
      expect(samples.sort((x, y) => x.at.getTime() - y.at.getTime()).map((x) => [x.energyWh, x.powerW, x.soc])).toEqual([
        [1200, null, null],
        [1200, 11000, 40],
        [900, null, null],
      ]);

      await cli.call("StopTransaction", { transactionId: c.transactionId, meterStop: 7000, timestamp: iso(t + 6000), reason: "EVDisconnected" });
      // Late meter values of a closed session write nothing.
      await cli.call("MeterValues", { connectorId: 2, transactionId: c.transactionId, meterValue: [{ timestamp: iso(t + 6100), sampledValue: [{ value: "9000" }] }] });
      expect(await h.db.select().from(meterSamples).where(eq(meterSamples.sessionId, live.id))).toHaveLength(3);
      expect((await sessions(f.chargerId)).find((x) => x.transactionId === c.transactionId)?.energyWh).toBe(2000);
    });

    it("a StopTransaction's transactionData is recorded with the MeterValues rules", async () => {
      const t = Date.now() - 30 * MIN; // (times ahead of the server's clock are taken as now)
      const d = (await cli.call("StartTransaction", { connectorId: 2, idTag: "RFID-9", meterStart: 10_000, timestamp: iso(t) })) as { transactionId: number };
      await cli.call("MeterValues", { connectorId: 2, transactionId: d.transactionId, meterValue: [{ timestamp: iso(t + 100), sampledValue: [{ value: "10500" }] }] });
      await cli.call("StopTransaction", {
        transactionId: d.transactionId,
        meterStop: 10_900,
        timestamp: iso(t + 1000),
        reason: "EVDisconnected",
        transactionData: [
          // No register: carries the energy so far (500 from the MeterValues above).
          { timestamp: iso(t + 200), sampledValue: [{ value: "7000", measurand: "Power.Active.Import", unit: "W" }] },
          { timestamp: iso(t + 300), sampledValue: [{ value: "10.8", measurand: "Energy.Active.Import.Register", unit: "kWh" }] },
          { timestamp: iso(t + 400), sampledValue: [{ value: "10600.4" }] },
          // Carries the highest so far (800), not the last (600).
          { timestamp: iso(t + 500), sampledValue: [{ value: "61", measurand: "SoC" }] },
          // Nothing this system records: skipped.
          { timestamp: iso(t + 600), sampledValue: [{ value: "230", measurand: "Voltage", unit: "V" }] },
        ],
      });
      const done = (await sessions(f.chargerId)).find((x) => x.transactionId === d.transactionId)!;
      expect(done).toMatchObject({ status: "COMPLETED", energyWh: 900 });
      const samples = await h.db.select().from(meterSamples).where(eq(meterSamples.sessionId, done.id));
      expect(samples.sort((x, y) => x.at.getTime() - y.at.getTime()).map((x) => [x.at.toISOString(), x.energyWh, x.powerW, x.soc])).toEqual([
        [iso(t + 100), 500, null, null],
        [iso(t + 200), 500, 7000, null],
        [iso(t + 300), 800, null, null],
        [iso(t + 400), 600, null, null],
        [iso(t + 500), 800, null, 61],
      ]);
    });
  });

  describe("offline detection", () => {
    it("a charger silent for twice its heartbeat interval goes offline, with a notification, and its socket is closed", async () => {
      const f = await createFixture(h, `ocpp-silent-${backend.name}`);
      const cli = chargerClient(h, f);
      await cli.connect();
      await eventually(() => chargerRow(f.chargerId), (r) => r.online === true);
      const before = Date.now();
      await cli.call("Heartbeat", {});
      // Heartbeats are written in batches (every second, and before each sweep).
      await h.central.flushSignsOfLife();
      expect((await chargerRow(f.chargerId)).lastHeartbeatAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
      const closed = new Promise((resolve) => cli.once("close", resolve));
      await h.db
        .update(chargers)
        .set({ lastHeartbeatAt: new Date(Date.now() - 3 * f.heartbeatInterval * 1000) })
        .where(eq(chargers.id, f.chargerId));
      await h.central.sweep();
      expect((await chargerRow(f.chargerId)).online).toBe(false);
      const offline = (await notes(f.tenant.businessId)).filter((n) => n.type === "CHARGER_OFFLINE");
      expect(offline).toHaveLength(1);
      expect(offline[0].body).toContain("heartbeat");
      await closed;
    });

    it("a stopped session whose unplug never arrives is priced after the maximum idle wait", async () => {
      const f = await createFixture(h, `ocpp-idlemax-${backend.name}`);
      const cli = chargerClient(h, f);
      await cli.connect();
      const t0 = Date.now() - 10 * 60 * MIN;
      const { transactionId } = (await cli.call("StartTransaction", { connectorId: 1, idTag: "T", meterStart: 0, timestamp: iso(t0) })) as { transactionId: number };
      await cli.call("StatusNotification", { connectorId: 1, status: "Charging", errorCode: "NoError", timestamp: iso(t0) });
      await cli.call("StopTransaction", { transactionId, meterStop: 10_000, timestamp: iso(t0 + 60 * MIN) });
      await cli.call("StatusNotification", { connectorId: 1, status: "Finishing", errorCode: "NoError", timestamp: iso(t0 + 60 * MIN) });
      await h.central.sweep();
      const [s] = await sessions(f.chargerId);
      expect(s).toMatchObject({ status: "COMPLETED", idleMinutes: 240, energyWh: 10_000, unpluggedAt: null });
      expect(s.idleCents).toBe(300_000); // capped at the rate's maximum
      expect(await rollupDrift(h.db, f.tenant.businessId)).toEqual([]);
      await cli.close();
    });
  });

  describe("commands from the charger screen", () => {
    let f: Fixture;
    let cli: RPCClient;
    beforeAll(async () => {
      f = await createFixture(h, `ocpp-cmd-${backend.name}`);
      cli = chargerClient(h, f);
      cli.handle("Reset", async ({ params }) => ({ status: (params as { type: string }).type === "Hard" ? "Rejected" : "Accepted" }));
      cli.handle("UnlockConnector", async () => ({ status: "Unlocked" }));
      cli.handle("ChangeAvailability", async () => ({ status: "Scheduled" }));
      cli.handle("TriggerMessage", async () => ({ status: "Accepted" }));
      cli.handle("RemoteStartTransaction", async ({ params }) => ({ status: (params as { idTag: string }).idTag === "ENCHUFA" ? "Accepted" : "Rejected" }));
      cli.handle("RemoteStopTransaction", async () => ({ status: "Accepted" }));
      await cli.connect();
    });
    afterAll(() => cli.close({ force: true }));

    const send = async (body: Record<string, unknown>) => expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/Command`, { token: f.tenant.token, body }), 200);

    it("each command reaches the charger and its answer comes back", async () => {
      expect(await send({ command: "Reset", type: "Soft" })).toMatchObject({ outcome: "accepted", status: "Accepted", message: "El cargador aceptó «Reiniciar»." });
      expect(await send({ command: "Reset", type: "Hard" })).toMatchObject({ outcome: "rejected", status: "Rejected" });
      expect(await send({ command: "UnlockConnector", connectorId: 1 })).toMatchObject({ outcome: "accepted", status: "Unlocked" });
      expect(await send({ command: "ChangeAvailability", connectorId: 0, type: "Inoperative" })).toMatchObject({ outcome: "accepted", status: "Scheduled" });
      expect(await send({ command: "TriggerMessage", requestedMessage: "StatusNotification", connectorId: 1 })).toMatchObject({ outcome: "accepted" });
      expect(await send({ command: "RemoteStartTransaction", connectorId: 1, idTag: "ENCHUFA" })).toMatchObject({ outcome: "accepted" });
      // No session on connector 2 → nothing to stop.
      expect(await send({ command: "RemoteStopTransaction", connectorId: 2 })).toMatchObject({ outcome: "rejected", message: "No hay una carga en curso en ese conector." });
      const { transactionId } = (await cli.call("StartTransaction", { connectorId: 2, idTag: "ENCHUFA", meterStart: 0, timestamp: iso(Date.now()) })) as { transactionId: number };
      const stopCalls: unknown[] = [];
      cli.handle("RemoteStopTransaction", async ({ params }) => {
        stopCalls.push(params);
        return { status: "Accepted" };
      });
      expect(await send({ command: "RemoteStopTransaction", connectorId: 2 })).toMatchObject({ outcome: "accepted" });
      expect(stopCalls).toEqual([{ transactionId }]);
    });

    it("bad parameters are a 422 with Spanish field messages; another company's charger is a 404", async () => {
      const res = await h.call("POST", `/Business/Charger/${f.chargerId}/Command`, { token: f.tenant.token, body: { command: "Reset", type: "Muy fuerte" } });
      expect(res.status).toBe(422);
      expect(JSON.stringify(await res.json())).toContain("Elegí el tipo de reinicio");
      const other = await createFixture(h, `ocpp-cmd-other-${backend.name}`);
      const foreign = await h.call("POST", `/Business/Charger/${f.chargerId}/Command`, { token: other.tenant.token, body: { command: "Reset", type: "Soft" } });
      expect(foreign.status).toBe(404);
    });

    it("a charger that does not answer times out; a disconnected one is offline", async () => {
      cli.handle("Reset", () => new Promise(() => {}));
      expect(await send({ command: "Reset", type: "Soft" })).toMatchObject({ outcome: "timeout", message: "El cargador no respondió a tiempo a «Reiniciar»." });
      const other = await createFixture(h, `ocpp-cmd-off-${backend.name}`);
      const res = await expectStatus(await h.call("POST", `/Business/Charger/${other.chargerId}/Command`, { token: other.tenant.token, body: { command: "Reset", type: "Soft" } }), 200);
      expect(res).toMatchObject({ outcome: "offline" });
    });

    it("a command sent from another node reaches the node holding the socket", async () => {
      cli.handle("UnlockConnector", async () => ({ status: "UnlockFailed" }));
      const nodeB = await h.secondNode();
      const result = await nodeB.sendCommand({ id: f.chargerId, ocppIdentity: f.identity }, { command: "UnlockConnector", connectorId: 1 });
      // The central system reports facts; the API words them.
      expect(result).toEqual({ command: "UnlockConnector", outcome: "rejected", status: "UnlockFailed" });
      expect(commandMessage(result)).toBe("El cargador no pudo desbloquear el conector («Desbloquear conector»).");
    });
  });

  describe("live events", () => {
    it("the company's dashboards hear about its chargers' changes, and only its own", async () => {
      const f = await createFixture(h, `ocpp-live-${backend.name}`);
      const other = await createFixture(h, `ocpp-live-other-${backend.name}`);
      const mine: string[] = [];
      const theirs: string[] = [];
      const un1 = h.central.live.subscribe(f.tenant.businessId, (e) => mine.push(e.kind));
      const un2 = h.central.live.subscribe(other.tenant.businessId, (e) => theirs.push(e.kind));
      const cli = chargerClient(h, f);
      await cli.connect();
      await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError" });
      await eventually(async () => mine, (m) => m.includes("connector"));
      expect(theirs).toEqual([]);
      un1();
      un2();
      await cli.close();
    });
  });
});
