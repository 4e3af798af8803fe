// OCPP 2.0.1 beside 1.6J: ocpp-rpc clients speaking 2.0.1 (strict mode, so every
// message they send is schema-valid) against the started central system, on PGlite and (with
// TEST_DATABASE_URL) PostgreSQL. The charging session scenario runs once per protocol and must
// price identically.
import { asc, eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargerEvents, chargers, chargingSessions, connectors, meterSamples, notifications, statusEvents, transactionEvents } from "#db/schema";
import { priceSession, usageFromSession } from "#domain/pricing";
import { expectStatus, rateInput } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();
const V201 = { protocols: ["ocpp2.0.1"] };

type Protocol = "ocpp1.6" | "ocpp2.0.1";

/** One charger's part of the session scenario, in either protocol. */
interface Driver {
  boot(): Promise<unknown>;
  status(state: "Available" | "Plugged", at: number): Promise<unknown>;
  authorize(tag: string): Promise<string>;
  start(tag: string, meterWh: number, at: number): Promise<void>;
  charging(at: number): Promise<void>;
  meter(readings: { at: number; kwh?: number; wh?: number; powerW?: number; soc?: number }[]): Promise<void>;
  suspendedEV(at: number): Promise<void>;
  stop(meterWh: number, at: number): Promise<unknown>;
  unplugged(at: number): Promise<void>;
}

function driver16(cli: RPCClient): Driver {
  let tx = 0;
  return {
    boot: () => cli.call("BootNotification", { chargePointVendor: "Wallbox", chargePointModel: "Commander 2" }),
    status: (state, at) => cli.call("StatusNotification", { connectorId: 1, status: state === "Plugged" ? "Preparing" : "Available", errorCode: "NoError", timestamp: iso(at) }),
    authorize: async (tag) => ((await cli.call("Authorize", { idTag: tag })) as { idTagInfo: { status: string } }).idTagInfo.status,
    async start(tag, meterWh, at) {
      tx = ((await cli.call("StartTransaction", { connectorId: 1, idTag: tag, meterStart: meterWh, timestamp: iso(at) })) as { transactionId: number }).transactionId;
    },
    charging: async (at) => void (await cli.call("StatusNotification", { connectorId: 1, status: "Charging", errorCode: "NoError", timestamp: iso(at) })),
    meter: async (readings) =>
      void (await cli.call("MeterValues", {
        connectorId: 1,
        transactionId: tx,
        meterValue: readings.map((r) => ({
          timestamp: iso(r.at),
          sampledValue: [
            ...(r.kwh !== undefined ? [{ value: String(r.kwh), measurand: "Energy.Active.Import.Register", unit: "kWh" }] : []),
            ...(r.wh !== undefined ? [{ value: String(r.wh) }] : []),
            ...(r.powerW !== undefined ? [{ value: String(r.powerW), measurand: "Power.Active.Import", unit: "W" }] : []),
            ...(r.soc !== undefined ? [{ value: String(r.soc), measurand: "SoC", unit: "Percent" }] : []),
          ],
        })),
      })),
    suspendedEV: async (at) => void (await cli.call("StatusNotification", { connectorId: 1, status: "SuspendedEV", errorCode: "NoError", timestamp: iso(at) })),
    async stop(meterWh, at) {
      const answer = await cli.call("StopTransaction", { transactionId: tx, meterStop: meterWh, timestamp: iso(at), reason: "Local", idTag: "RFID-0042" });
      await cli.call("StatusNotification", { connectorId: 1, status: "Finishing", errorCode: "NoError", timestamp: iso(at) });
      return answer;
    },
    unplugged: async (at) => void (await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: iso(at) })),
  };
}

function driver201(cli: RPCClient, transactionId = "c0ffee00-0000-4000-8000-000000000001"): Driver {
  let seqNo = 0;
  const event = (eventType: "Started" | "Updated" | "Ended", at: number, triggerReason: string, extra: Record<string, unknown> = {}, info: Record<string, unknown> = {}) =>
    cli.call("TransactionEvent", { eventType, timestamp: iso(at), triggerReason, seqNo: seqNo++, evse: { id: 1, connectorId: 1 }, transactionInfo: { transactionId, ...info }, ...extra });
  const register = (at: number, wh: number, context: string) => [{ timestamp: iso(at), sampledValue: [{ value: wh, context, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "Wh" } }] }];
  return {
    boot: () => cli.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Wallbox", model: "Commander 2" } }),
    status: (state, at) => cli.call("StatusNotification", { timestamp: iso(at), connectorStatus: state === "Plugged" ? "Occupied" : "Available", evseId: 1, connectorId: 1 }),
    authorize: async (tag) => ((await cli.call("Authorize", { idToken: { idToken: tag, type: "ISO14443" } })) as { idTokenInfo: { status: string } }).idTokenInfo.status,
    start: async (tag, meterWh, at) =>
      void (await event("Started", at, "Authorized", { idToken: { idToken: tag, type: "ISO14443" }, meterValue: register(at, meterWh, "Transaction.Begin") }, { chargingState: "EVConnected" })),
    charging: async (at) => void (await event("Updated", at, "ChargingStateChanged", {}, { chargingState: "Charging" })),
    meter: async (readings) => {
      for (const r of readings) {
        const sampledValue = [
          ...(r.kwh !== undefined ? [{ value: r.kwh, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "kWh" } }] : []),
          ...(r.wh !== undefined ? [{ value: r.wh }] : []),
          ...(r.powerW !== undefined ? [{ value: r.powerW / 1000, measurand: "Power.Active.Import", unitOfMeasure: { unit: "W", multiplier: 3 } }] : []),
          ...(r.soc !== undefined ? [{ value: r.soc, measurand: "SoC", unitOfMeasure: { unit: "Percent" } }] : []),
        ];
        await event("Updated", r.at, "MeterValuePeriodic", { meterValue: [{ timestamp: iso(r.at), sampledValue }] });
      }
    },
    suspendedEV: async (at) => void (await event("Updated", at, "ChargingStateChanged", {}, { chargingState: "SuspendedEV" })),
    stop: (meterWh, at) =>
      event("Ended", at, "StopAuthorized", { idToken: { idToken: "RFID-0042", type: "ISO14443" }, meterValue: register(at, meterWh, "Transaction.End") }, { chargingState: "EVConnected", stoppedReason: "Local" }),
    unplugged: async (at) => void (await cli.call("StatusNotification", { timestamp: iso(at), connectorStatus: "Available", evseId: 1, connectorId: 1 })),
  };
}

describe.each(testBackends())("OCPP 2.0.1 beside 1.6J ($name)", (backend) => {
  let h: OcppHarness;
  beforeAll(async () => {
    h = await openOcppHarness(backend);
  });
  afterAll(() => h.close());

  const chargerRow = async (id: string) => (await h.db.select().from(chargers).where(eq(chargers.id, id)))[0];
  const sessions = async (chargerId: string) => h.db.select().from(chargingSessions).where(eq(chargingSessions.chargerId, chargerId));
  const connectorStatus = async (chargerId: string, n: number) =>
    (await h.db.select().from(connectors).where(eq(connectors.chargerId, chargerId))).find((k) => k.connectorId === n)?.status;

  describe("negotiation and the record", () => {
    let f: Fixture;
    beforeAll(async () => {
      f = await createFixture(h, `v201-neg-${backend.name}`);
    });

    it("a 2.0.1 charger is accepted with the same Basic auth, and its boot (with its reason) is stored", async () => {
      const wrong = chargerClient(h, f, { ...V201, password: "no-es-la-contraseña-correcta-000" });
      expect(Number(((await wrong.connect().catch((e: unknown) => e)) as { code?: number }).code)).toBe(401);

      const cli = chargerClient(h, f, V201);
      await cli.connect();
      expect(cli.protocol).toBe("ocpp2.0.1");
      const boot = (await cli.call("BootNotification", {
        reason: "FirmwareUpdate",
        chargingStation: { vendorName: "Alfen", model: "Eve Single", serialNumber: "ALF-77", firmwareVersion: "6.1.0", modem: { iccid: "8954000000000000002", imsi: "722310000000002" } },
      })) as { status: string; interval: number; currentTime: string };
      expect(boot).toMatchObject({ status: "Accepted", interval: f.heartbeatInterval });
      expect(Date.parse(((await cli.call("Heartbeat", {})) as { currentTime: string }).currentTime)).toBeGreaterThan(0);
      const row = await eventually(() => chargerRow(f.chargerId), (r) => r.online && r.ocppProtocol === "ocpp2.0.1");
      expect(row).toMatchObject({ vendor: "Alfen", bootModel: "Eve Single", firmwareVersion: "6.1.0", lastBootReason: "FirmwareUpdate", iccid: "8954000000000000002", imsi: "722310000000002" });
      const dto = await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }), 200);
      expect(dto).toMatchObject({ ocppVersion: "2.0.1", ocppProtocol: "ocpp2.0.1", online: true });
      await cli.close();
      await eventually(() => chargerRow(f.chargerId), (r) => !r.online);
    });

    it("a charger that switches protocol (firmware update) is recorded anew on connect; offering both gets 2.0.1", async () => {
      const old = chargerClient(h, f, { protocols: ["ocpp1.6"] });
      await old.connect();
      await eventually(() => chargerRow(f.chargerId), (r) => r.online && r.ocppProtocol === "ocpp1.6");
      expect((await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }), 200)).ocppVersion).toBe("1.6");
      await old.close();
      await eventually(() => chargerRow(f.chargerId), (r) => !r.online);

      const both = chargerClient(h, f, { protocols: ["ocpp1.6", "ocpp2.0.1"], strict: false });
      await both.connect();
      expect(both.protocol).toBe("ocpp2.0.1");
      await eventually(() => chargerRow(f.chargerId), (r) => r.online && r.ocppProtocol === "ocpp2.0.1");
      // The 1.6 boot is not a 2.0.1 message: strict mode refuses it before any handler runs.
      await expect(both.call("BootNotification", { chargePointVendor: "X", chargePointModel: "Y" })).rejects.toBeTruthy();
      await both.close();
      await eventually(() => chargerRow(f.chargerId), (r) => !r.online);

      const unknown = chargerClient(h, f, { protocols: ["ocpp2.1"], strict: false });
      expect(Number(((await unknown.connect().catch((e: unknown) => e)) as { code?: number }).code)).toBe(400);
    });
  });

  describe("each 2.0.1 message", () => {
    let f: Fixture;
    let cli: RPCClient;
    beforeAll(async () => {
      f = await createFixture(h, `v201-msg-${backend.name}`);
      cli = chargerClient(h, f, V201);
      await cli.connect();
      await cli.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alfen", model: "Eve" } });
    });
    afterAll(() => cli.close());

    it("StatusNotification maps EVSE id onto the connector number; Occupied is Preparing; Faulted notifies", async () => {
      const t = Date.now() - 10 * MIN;
      expect(await cli.call("StatusNotification", { timestamp: iso(t), connectorStatus: "Available", evseId: 2, connectorId: 1 })).toEqual({});
      expect(await connectorStatus(f.chargerId, 2)).toBe("Available");
      await cli.call("StatusNotification", { timestamp: iso(t + 1000), connectorStatus: "Occupied", evseId: 2, connectorId: 1 });
      expect(await connectorStatus(f.chargerId, 2)).toBe("Preparing");
      await cli.call("StatusNotification", { timestamp: iso(t + 2000), connectorStatus: "Faulted", evseId: 2, connectorId: 1 });
      expect(await connectorStatus(f.chargerId, 2)).toBe("Faulted");
      const faulted = (await h.db.select().from(notifications).where(eq(notifications.businessId, f.tenant.businessId))).filter((n) => n.type === "CHARGER_FAULTED");
      expect(faulted).toHaveLength(1);
      expect(faulted[0].body).toContain("conector 2");
      // The station itself (EVSE 0) goes to the charger's history.
      await cli.call("StatusNotification", { timestamp: iso(t + 3000), connectorStatus: "Unavailable", evseId: 0, connectorId: 0 });
      const history = await h.db.select().from(statusEvents).where(eq(statusEvents.chargerId, f.chargerId));
      expect(history.filter((e) => e.connectorId === null).map((e) => e.status)).toEqual(["Unavailable"]);
      await cli.call("StatusNotification", { timestamp: iso(t + 4000), connectorStatus: "Available", evseId: 2, connectorId: 1 });
    });

    it("Authorize answers idTokenInfo for any token type", async () => {
      for (const type of ["ISO14443", "eMAID", "Central", "KeyCode"]) {
        expect(await cli.call("Authorize", { idToken: { idToken: "04A2B3C4D5E6F7", type } })).toEqual({ idTokenInfo: { status: "Accepted" } });
      }
    });

    it("MeterValues outside a transaction event attach to the EVSE's charging session", async () => {
      const t = Date.now() - 5 * MIN;
      const started = await cli.call("TransactionEvent", {
        eventType: "Started",
        timestamp: iso(t),
        triggerReason: "CablePluggedIn",
        seqNo: 0,
        evse: { id: 1, connectorId: 1 },
        transactionInfo: { transactionId: "mv-1", chargingState: "Charging" },
        meterValue: [{ timestamp: iso(t), sampledValue: [{ value: 2000, context: "Transaction.Begin", measurand: "Energy.Active.Import.Register" }] }],
      });
      expect(started).toEqual({});
      await cli.call("MeterValues", { evseId: 1, meterValue: [{ timestamp: iso(t + 1000), sampledValue: [{ value: 3.5, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "kWh" } }] }] });
      const s = (await sessions(f.chargerId)).find((x) => x.ocppTransactionId === "mv-1")!;
      expect(s).toMatchObject({ status: "ACTIVE", energyWh: 1500, meterStartWh: 2000, connectorNumber: 1, idTag: "" });
      expect(await connectorStatus(f.chargerId, 1)).toBe("Charging");
      await cli.call("TransactionEvent", {
        eventType: "Ended",
        timestamp: iso(t + 2000),
        triggerReason: "EVDeparted",
        seqNo: 1,
        transactionInfo: { transactionId: "mv-1", chargingState: "Idle", stoppedReason: "EVDisconnected" },
      });
      expect((await sessions(f.chargerId)).find((x) => x.ocppTransactionId === "mv-1")).toMatchObject({ status: "COMPLETED", energyWh: 1500, stopReason: "EVDisconnected" });
      expect(await connectorStatus(f.chargerId, 1)).toBe("Available");
    });

    it("NotifyEvent, SecurityEventNotification, FirmwareStatusNotification, LogStatusNotification and NotifyReport are answered and kept", async () => {
      const t = iso(Date.now() - MIN);
      expect(
        await cli.call("NotifyEvent", {
          generatedAt: t,
          seqNo: 0,
          eventData: [
            {
              eventId: 1,
              timestamp: t,
              trigger: "Delta",
              actualValue: "true",
              techCode: "E42",
              eventNotificationType: "HardWiredNotification",
              component: { name: "Connector", evse: { id: 1, connectorId: 1 } },
              variable: { name: "Problem" },
            },
          ],
        }),
      ).toEqual({});
      expect(await cli.call("SecurityEventNotification", { type: "StartupOfTheDevice", timestamp: t, techInfo: "cold boot" })).toEqual({});
      expect(await cli.call("FirmwareStatusNotification", { status: "Installed", requestId: 7 })).toEqual({});
      expect(await cli.call("LogStatusNotification", { status: "Uploaded", requestId: 8 })).toEqual({});
      expect(
        await cli.call("NotifyReport", {
          requestId: 9,
          generatedAt: t,
          seqNo: 0,
          reportData: [{ component: { name: "SecurityCtrlr" }, variable: { name: "SecurityProfile" }, variableAttribute: [{ value: "2" }] }],
        }),
      ).toEqual({});
      const kept = await h.db.select().from(chargerEvents).where(eq(chargerEvents.chargerId, f.chargerId)).orderBy(asc(chargerEvents.id));
      expect(kept.map((e) => [e.kind, e.summary])).toEqual([
        ["NotifyEvent", "Connector (EVSE 1, conector 1).Problem = true [E42]"],
        ["SecurityEventNotification", "StartupOfTheDevice: cold boot"],
        ["FirmwareStatusNotification", "Installed"],
        ["LogStatusNotification", "Uploaded"],
        ["NotifyReport", "Informe 9, parte 0: 1 variable"],
      ]);
      expect(kept.every((e) => e.businessId === f.tenant.businessId)).toBe(true);
      // The charger screen's list: newest first (NotifyReport, then the others by their own times), in Spanish.
      const page = await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}/Event`, { token: f.tenant.token }), 200);
      expect(page.items.map((e: { kindLabel: string }) => e.kindLabel).slice(0, 3)).toEqual(["Informe", "Registros", "Firmware"]);
      expect(page.items.map((e: { summary: string }) => e.summary)).toContain("Firmware instalado (Installed)");
      expect(page.lastReport).toMatchObject({ requestId: 9, parts: 1, variables: 1, complete: true });
    });
  });

  describe("the charging session, once per protocol", () => {
    const totals = new Map<Protocol, number>();

    it.each(["ocpp1.6", "ocpp2.0.1"] as const)("%s: boot → status → authorize → start → meter values → suspended EV → stop → unplug: priced in /Business/Activity", async (protocol) => {
      // 20 min free, then $ 20/min, capped at $ 3000.
      const f = await createFixture(h, `v201-e2e-${protocol}-${backend.name}`, rateInput({ idleGraceMinutes: 20 }));
      const cli = chargerClient(h, f, { protocols: [protocol] });
      await cli.connect();
      const d = protocol === "ocpp2.0.1" ? driver201(cli) : driver16(cli);
      const t0 = Date.now() - 3 * 60 * MIN;
      expect(await d.boot()).toMatchObject({ status: "Accepted" });
      await d.status("Available", t0 - 5 * MIN);
      await d.status("Plugged", t0 - MIN);
      expect(await connectorStatus(f.chargerId, 1)).toBe("Preparing");
      expect(await d.authorize("RFID-0042")).toBe("Accepted");
      await d.start("RFID-0042", 125_000, t0);
      await d.charging(t0);
      expect(await connectorStatus(f.chargerId, 1)).toBe("Charging");
      await d.meter([
        { at: t0 + 10 * MIN, kwh: 128.5, powerW: 21_000, soc: 55 },
        { at: t0 + 20 * MIN, wh: 132_000 },
      ]);
      const [live] = await sessions(f.chargerId);
      expect(live).toMatchObject({ status: "ACTIVE", energyWh: 7000, idTag: "RFID-0042", meterStartWh: 125_000 });
      await d.suspendedEV(t0 + 30 * MIN);
      expect(await connectorStatus(f.chargerId, 1)).toBe("SuspendedEV");
      await d.stop(132_500, t0 + 70 * MIN);
      expect((await sessions(f.chargerId))[0]).toMatchObject({ status: "IDLE", energyWh: 7500 });
      expect(await connectorStatus(f.chargerId, 1)).toBe("Finishing");
      await d.unplugged(t0 + 90 * MIN);

      const [done] = await sessions(f.chargerId);
      expect(done).toMatchObject({ status: "COMPLETED", energyWh: 7500, meterStopWh: 132_500, idleMinutes: 60, stopReason: "Local", idTag: "RFID-0042" });
      expect(done.idTokenType).toBe(protocol === "ocpp2.0.1" ? "ISO14443" : null);
      expect(done.startedAt.toISOString()).toBe(iso(t0));
      expect(done.chargingEndedAt?.toISOString()).toBe(iso(t0 + 30 * MIN));
      expect(done.unpluggedAt?.toISOString()).toBe(iso(t0 + 90 * MIN));
      const expected = priceSession(done.rateSnapshot!, usageFromSession({ ...done, timeZone: "America/Argentina/Buenos_Aires" }));
      expect(expected.idleCents).toBe(40 * 2000);
      expect(done.totalCents).toBe(expected.totalCents);
      totals.set(protocol, done.totalCents);
      const samples = await h.db.select().from(meterSamples).where(eq(meterSamples.sessionId, done.id));
      expect(samples.find((s) => s.at.toISOString() === iso(t0 + 10 * MIN))).toMatchObject({ energyWh: 3500, powerW: 21_000, soc: 55 });

      const page = await expectStatus(await h.call("GET", `/Business/Activity?chargerId=${f.chargerId}`, { token: f.tenant.token }), 200);
      expect(page.items[0]).toMatchObject({ id: done.id, energyWh: 7500, idleMinutes: 60, totalCents: expected.totalCents, status: "COMPLETED" });
      await cli.close();
    });

    it("both protocols price the same session identically", () => {
      expect(totals.size).toBe(2);
      expect(totals.get("ocpp2.0.1")).toBe(totals.get("ocpp1.6"));
    });
  });

  describe("late, out-of-order and repeated TransactionEvents", () => {
    it("one session per transactionId, idempotent by seqNo, times and energy placed by replay", async () => {
      const f = await createFixture(h, `v201-order-${backend.name}`, rateInput({ idleGraceMinutes: 20 }));
      const cli = chargerClient(h, f, V201);
      await cli.connect();
      const t0 = Date.now() - 2 * 60 * MIN;
      const tx = "queued-while-offline-1";
      const reg = (at: number, wh: number, context = "Sample.Periodic") => [{ timestamp: iso(at), sampledValue: [{ value: wh, context, measurand: "Energy.Active.Import.Register" }] }];
      const ev = (seqNo: number, eventType: string, at: number, triggerReason: string, info: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
        eventType,
        timestamp: iso(at),
        triggerReason,
        seqNo,
        offline: true,
        evse: { id: 1, connectorId: 1 },
        transactionInfo: { transactionId: tx, ...info },
        ...extra,
      });
      const events = [
        ev(0, "Started", t0, "Authorized", { chargingState: "EVConnected" }, { idToken: { idToken: "04AABBCCDD", type: "ISO14443" }, meterValue: reg(t0, 10_000, "Transaction.Begin") }),
        ev(1, "Updated", t0 + MIN, "ChargingStateChanged", { chargingState: "Charging" }),
        ev(2, "Updated", t0 + 30 * MIN, "MeterValuePeriodic", {}, { meterValue: reg(t0 + 30 * MIN, 15_000) }),
        ev(3, "Updated", t0 + 40 * MIN, "ChargingStateChanged", { chargingState: "SuspendedEV" }),
        ev(4, "Ended", t0 + 60 * MIN, "StopAuthorized", { chargingState: "EVConnected", stoppedReason: "Local" }, { meterValue: reg(t0 + 60 * MIN, 16_000, "Transaction.End") }),
      ];
      // Arrival order: a periodic reading first (it creates the session), then the start, the
      // state changes out of order, the start again (its answer was lost), the end, a repeat.
      const answers: unknown[] = [];
      for (const i of [2, 0, 3, 1, 0, 4, 3]) answers.push(await cli.call("TransactionEvent", events[i]));
      expect(answers[1]).toMatchObject({ idTokenInfo: { status: "Accepted" } });
      expect(answers[4]).toEqual(answers[1]); // the repeated Started answers the same

      const all = await sessions(f.chargerId);
      expect(all).toHaveLength(1);
      expect(all[0]).toMatchObject({ status: "IDLE", ocppTransactionId: tx, idTag: "04AABBCCDD", meterStartWh: 10_000, meterStopWh: 16_000, energyWh: 6000 });
      expect(all[0].startedAt.toISOString()).toBe(iso(t0));
      expect(all[0].chargingEndedAt?.toISOString()).toBe(iso(t0 + 40 * MIN));
      expect(await h.db.select().from(transactionEvents).where(eq(transactionEvents.sessionId, all[0].id))).toHaveLength(5);
      // The reading that arrived before the start was moved up once the meter start was known.
      const samples = await h.db.select().from(meterSamples).where(eq(meterSamples.sessionId, all[0].id));
      expect(samples.sort((a, b) => a.at.getTime() - b.at.getTime()).map((s) => [s.at.toISOString(), s.energyWh])).toEqual([
        [iso(t0), 0],
        [iso(t0 + 30 * MIN), 5000],
        [iso(t0 + 60 * MIN), 6000],
      ]);
      expect(await connectorStatus(f.chargerId, 1)).toBe("Finishing");

      await cli.call("StatusNotification", { timestamp: iso(t0 + 80 * MIN), connectorStatus: "Available", evseId: 1, connectorId: 1 });
      const [done] = await sessions(f.chargerId);
      expect(done).toMatchObject({ status: "COMPLETED", idleMinutes: 40, energyWh: 6000 });
      const expected = priceSession(done.rateSnapshot!, usageFromSession({ ...done, timeZone: "America/Argentina/Buenos_Aires" }));
      expect(done.idleCents).toBe(20 * 2000);
      expect(done.totalCents).toBe(expected.totalCents);
      // Late events of a priced session change nothing.
      await cli.call("TransactionEvent", ev(5, "Updated", t0 + 85 * MIN, "MeterValuePeriodic", {}, { meterValue: reg(t0 + 85 * MIN, 99_000) }));
      expect((await sessions(f.chargerId))[0]).toEqual(done);
      await cli.close();
    });

    it("periodic readings take the one-statement path: a repeat writes nothing; a reading below the meter start still moves the samples up", async () => {
      const f = await createFixture(h, `v201-plain-${backend.name}`);
      const cli = chargerClient(h, f, V201);
      await cli.connect();
      const t0 = Date.now() - 60 * MIN;
      const tx = "plain-updates-1";
      const reg = (at: number, wh: number) => [{ timestamp: iso(at), sampledValue: [{ value: wh, context: "Sample.Periodic", measurand: "Energy.Active.Import.Register" }] }];
      const ev = (seqNo: number, eventType: string, at: number, info: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
        cli.call("TransactionEvent", { eventType, timestamp: iso(at), triggerReason: "MeterValuePeriodic", seqNo, evse: { id: 1, connectorId: 1 }, transactionInfo: { transactionId: tx, ...info }, ...extra });
      await ev(0, "Started", t0, { chargingState: "Charging" }, { idToken: { idToken: "04AABBCCDD", type: "ISO14443" }, meterValue: reg(t0, 10_000) });
      // The running cost on the charger's screen (ADR 0051), no totalCost while charging.
      expect(await ev(1, "Updated", t0 + 10 * MIN, {}, { meterValue: reg(t0 + 10 * MIN, 12_000) })).toEqual({ updatedPersonalMessage: { format: "UTF8", language: "es", content: "Llevás $ 1.200,00 · 2,00 kWh" } });
      // The same seqNo again, even with another reading, is a repetition: no sample, no energy.
      await ev(1, "Updated", t0 + 10 * MIN, {}, { meterValue: reg(t0 + 10 * MIN, 99_000) });
      await ev(2, "Updated", t0 + 20 * MIN, {}, { meterValue: reg(t0 + 20 * MIN, 13_500) });
      let [s] = await sessions(f.chargerId);
      expect(s).toMatchObject({ status: "ACTIVE", meterStartWh: 10_000, energyWh: 3500 });
      const samplesOf = async () =>
        (await h.db.select().from(meterSamples).where(eq(meterSamples.sessionId, s.id))).sort((a, b) => a.at.getTime() - b.at.getTime()).map((m) => m.energyWh);
      expect(await samplesOf()).toEqual([0, 2000, 3500]);
      // A reading below the meter start (an earlier one, sent late) goes through the whole log.
      await ev(3, "Updated", t0 + 5 * MIN, {}, { meterValue: reg(t0 + 5 * MIN, 9_000) });
      [s] = await sessions(f.chargerId);
      expect(s).toMatchObject({ meterStartWh: 9_000, energyWh: 4500 });
      expect(await samplesOf()).toEqual([1000, 0, 3000, 4500]);
      expect(await h.db.select().from(transactionEvents).where(eq(transactionEvents.sessionId, s.id))).toHaveLength(4);
      await cli.close();
    });

    it("an Ended that says the vehicle left prices the session at once; a new Started on the connector closes a forgotten one", async () => {
      const f = await createFixture(h, `v201-ended-${backend.name}`);
      const cli = chargerClient(h, f, V201);
      await cli.connect();
      const t0 = Date.now() - 60 * MIN;
      const base = { evse: { id: 2, connectorId: 1 } };
      await cli.call("TransactionEvent", { ...base, eventType: "Started", timestamp: iso(t0), triggerReason: "CablePluggedIn", seqNo: 0, transactionInfo: { transactionId: "forgotten", chargingState: "Charging" } });
      await cli.call("TransactionEvent", { ...base, eventType: "Started", timestamp: iso(t0 + 10 * MIN), triggerReason: "CablePluggedIn", seqNo: 0, transactionInfo: { transactionId: "next", chargingState: "Charging" } });
      await cli.call("TransactionEvent", {
        eventType: "Ended",
        timestamp: iso(t0 + 20 * MIN),
        triggerReason: "EVDeparted",
        seqNo: 1,
        transactionInfo: { transactionId: "next", chargingState: "Idle", stoppedReason: "EVDisconnected" },
      });
      const all = await sessions(f.chargerId);
      expect(all.find((s) => s.ocppTransactionId === "forgotten")).toMatchObject({ status: "COMPLETED", stopReason: "Other" });
      expect(all.find((s) => s.ocppTransactionId === "next")).toMatchObject({ status: "COMPLETED", stopReason: "EVDisconnected", idleMinutes: 0, connectorNumber: 2 });
      await cli.close();
    });
  });

  describe("commands and password rotation", () => {
    let f: Fixture;
    let cli: RPCClient;
    const calls: [string, unknown][] = [];
    beforeAll(async () => {
      f = await createFixture(h, `v201-cmd-${backend.name}`);
      cli = chargerClient(h, f, V201);
      const answer = (method: string, status: string) =>
        cli.handle(method, async ({ params }) => {
          calls.push([method, params]);
          return { status };
        });
      answer("Reset", "Scheduled");
      answer("RequestStartTransaction", "Accepted");
      answer("RequestStopTransaction", "Accepted");
      answer("UnlockConnector", "OngoingAuthorizedTransaction");
      answer("ChangeAvailability", "Accepted");
      answer("TriggerMessage", "Accepted");
      await cli.connect();
      await eventually(() => chargerRow(f.chargerId), (r) => r.online && r.ocppProtocol === "ocpp2.0.1");
    });
    afterAll(() => cli.close({ force: true }));

    const send = async (body: Record<string, unknown>) => expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/Command`, { token: f.tenant.token, body }), 200);

    it("the screen's commands become their 2.0.1 calls, with the same answers", async () => {
      expect(await send({ command: "Reset", type: "Soft" })).toMatchObject({ outcome: "accepted", status: "Scheduled", message: "El cargador aceptó «Reiniciar»; lo aplica al terminar la carga en curso." });
      expect(await send({ command: "Reset", type: "Hard" })).toMatchObject({ outcome: "accepted" });
      expect(await send({ command: "RemoteStartTransaction", connectorId: 2, idTag: "ENCHUFA" })).toMatchObject({ outcome: "accepted", message: "El cargador aceptó «Iniciar carga»." });
      expect(await send({ command: "UnlockConnector", connectorId: 1 })).toMatchObject({ outcome: "rejected", message: "El cargador no desbloquea un conector con una carga autorizada en curso («Desbloquear conector»)." });
      expect(await send({ command: "ChangeAvailability", connectorId: 0, type: "Inoperative" })).toMatchObject({ outcome: "accepted" });
      expect(await send({ command: "ChangeAvailability", connectorId: 2, type: "Operative" })).toMatchObject({ outcome: "accepted" });
      expect(await send({ command: "TriggerMessage", requestedMessage: "DiagnosticsStatusNotification" })).toMatchObject({ outcome: "accepted" });
      expect(await send({ command: "RemoteStopTransaction", connectorId: 2 })).toMatchObject({ outcome: "rejected", message: "No hay una carga en curso en ese conector." });
      await cli.call("TransactionEvent", {
        eventType: "Started",
        timestamp: iso(Date.now()),
        triggerReason: "RemoteStart",
        seqNo: 0,
        evse: { id: 2, connectorId: 1 },
        transactionInfo: { transactionId: "remote-tx-9", chargingState: "Charging", remoteStartId: 1 },
      });
      expect(await send({ command: "RemoteStopTransaction", connectorId: 2 })).toMatchObject({ outcome: "accepted" });

      const sent = (method: string) => calls.filter(([m]) => m === method).map(([, p]) => p);
      expect(sent("Reset")).toEqual([{ type: "OnIdle" }, { type: "Immediate" }]);
      expect(sent("RequestStartTransaction")).toEqual([{ evseId: 2, remoteStartId: expect.any(Number), idToken: { idToken: "ENCHUFA", type: "Central" } }]);
      expect(sent("UnlockConnector")).toEqual([{ evseId: 1, connectorId: 1 }]);
      expect(sent("ChangeAvailability")).toEqual([{ operationalStatus: "Inoperative" }, { operationalStatus: "Operative", evse: { id: 2 } }]);
      expect(sent("TriggerMessage")).toEqual([{ requestedMessage: "LogStatusNotification" }]);
      expect(sent("RequestStopTransaction")).toEqual([{ transactionId: "remote-tx-9" }]);
    });

    it("a command sent from another node reaches a 2.0.1 charger in its protocol", async () => {
      const nodeB = await h.secondNode();
      expect(await nodeB.sendCommand({ id: f.chargerId, ocppIdentity: f.identity }, { command: "Reset", type: "Hard" })).toMatchObject({ outcome: "accepted", status: "Scheduled" });
      expect(calls.at(-1)).toEqual(["Reset", { type: "Immediate" }]);
    });

    it("GetBaseReport asks for the FullInventory; the NotifyReport parts are kept and the report shows as arrived", async () => {
      let asked: { requestId: number; reportBase: string } | undefined;
      cli.handle("GetBaseReport", async ({ params }) => {
        asked = params as typeof asked;
        return { status: "Accepted" };
      });
      expect(await send({ command: "GetBaseReport" })).toMatchObject({
        command: "GetBaseReport",
        outcome: "accepted",
        message: "El cargador aceptó «Pedir informe»: lo envía en partes y aparece en «Eventos del cargador» a medida que llega.",
      });
      expect(asked).toEqual({ requestId: expect.any(Number), reportBase: "FullInventory" });
      const requestId = asked!.requestId;
      const variable = (component: string, name: string, value: string) => ({ component: { name: component }, variable: { name }, variableAttribute: [{ value }] });
      const events = () => h.call("GET", `/Business/Charger/${f.chargerId}/Event`, { token: f.tenant.token }).then((r) => expectStatus(r, 200));
      await cli.call("NotifyReport", { requestId, generatedAt: iso(Date.now()), seqNo: 0, tbc: true, reportData: [variable("OCPPCommCtrlr", "HeartbeatInterval", "60"), variable("SampledDataCtrlr", "TxUpdatedInterval", "10")] });
      expect((await events()).lastReport).toMatchObject({ requestId, parts: 1, variables: 2, complete: false });
      await cli.call("NotifyReport", { requestId, generatedAt: iso(Date.now()), seqNo: 1, reportData: [variable("SecurityCtrlr", "SecurityProfile", "2")] });
      const page = await events();
      expect(page.lastReport).toMatchObject({ requestId, parts: 2, variables: 3, complete: true });
      expect(page.items[0]).toMatchObject({ kind: "NotifyReport", kindLabel: "Informe", summary: `Informe ${requestId}, parte 1: 1 variable` });

      cli.handle("GetBaseReport", async () => ({ status: "EmptyResultSet" }));
      expect(await send({ command: "GetBaseReport" })).toMatchObject({ outcome: "rejected", message: "El cargador no tiene nada que informar («Pedir informe»)." });
    });

    it("Leer / Cambiar intervalos: GetVariables and SetVariables on OCPPCommCtrlr.HeartbeatInterval and SampledDataCtrlr.TxUpdatedInterval", async () => {
      const seen: [string, unknown][] = [];
      const stored = new Map([
        ["OCPPCommCtrlr.HeartbeatInterval", "60"],
        ["SampledDataCtrlr.TxUpdatedInterval", "10"],
      ]);
      type Ref = { component: { name: string }; variable: { name: string }; attributeValue?: string };
      cli.handle("GetVariables", async ({ params }) => {
        seen.push(["GetVariables", params]);
        const data = (params as { getVariableData: Ref[] }).getVariableData;
        return { getVariableResult: data.map((d) => ({ attributeStatus: "Accepted", attributeValue: stored.get(`${d.component.name}.${d.variable.name}`), component: d.component, variable: d.variable })) };
      });
      cli.handle("SetVariables", async ({ params }) => {
        seen.push(["SetVariables", params]);
        const data = (params as { setVariableData: Ref[] }).setVariableData;
        return {
          setVariableResult: data.map((d) => {
            const key = `${d.component.name}.${d.variable.name}`;
            // This charger refuses a sample interval under 5 s.
            const ok = key !== "SampledDataCtrlr.TxUpdatedInterval" || Number(d.attributeValue) >= 5;
            if (ok) stored.set(key, d.attributeValue!);
            return { attributeStatus: ok ? "Accepted" : "Rejected", component: d.component, variable: d.variable };
          }),
        };
      });

      const read = await send({ command: "GetConfiguration" });
      expect(read).toEqual({
        command: "GetConfiguration",
        outcome: "accepted",
        settings: { heartbeatInterval: { status: "Accepted", value: "60" }, meterValueSampleInterval: { status: "Accepted", value: "10" } },
        message: "El cargador informó sus intervalos (señal de vida: 60 s; mediciones durante la carga: 10 s).",
      });
      expect(seen[0]).toEqual([
        "GetVariables",
        { getVariableData: [{ component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" } }, { component: { name: "SampledDataCtrlr" }, variable: { name: "TxUpdatedInterval" } }] },
      ]);

      const set = await send({ command: "ChangeConfiguration", heartbeatInterval: 120, meterValueSampleInterval: 30 });
      expect(set).toMatchObject({
        outcome: "accepted",
        settings: { heartbeatInterval: { status: "Accepted", value: "120" }, meterValueSampleInterval: { status: "Accepted", value: "30" } },
        message: "El cargador aceptó los intervalos nuevos (señal de vida 120 s: aceptado; mediciones durante la carga 30 s: aceptado).",
      });
      expect(seen[1]).toEqual([
        "SetVariables",
        {
          setVariableData: [
            { attributeValue: "120", component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" } },
            { attributeValue: "30", component: { name: "SampledDataCtrlr" }, variable: { name: "TxUpdatedInterval" } },
          ],
        },
      ]);
      // The accepted heartbeat is the charger's now (boot answers and the offline sweep use it).
      expect((await chargerRow(f.chargerId)).heartbeatInterval).toBe(120);
      expect(((await cli.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alfen", model: "Eve" } })) as { interval: number }).interval).toBe(120);

      const partly = await send({ command: "ChangeConfiguration", meterValueSampleInterval: 2 });
      expect(partly).toMatchObject({ outcome: "rejected", message: "El cargador no aplicó todos los intervalos (mediciones durante la carga 2 s: rechazado)." });
      expect(seen[2][1]).toEqual({ setVariableData: [{ attributeValue: "2", component: { name: "SampledDataCtrlr" }, variable: { name: "TxUpdatedInterval" } }] });
      expect((await chargerRow(f.chargerId)).heartbeatInterval).toBe(120);
    });

    it("intervals out of range, or none, are refused with the field's message before anything is sent", async () => {
      const before = calls.length;
      const refuse = async (body: Record<string, unknown>) => (await h.call("POST", `/Business/Charger/${f.chargerId}/Command`, { token: f.tenant.token, body })).json();
      expect((await refuse({ command: "ChangeConfiguration", heartbeatInterval: 10 })).errors).toEqual({ heartbeatInterval: ["Ingresá un número entero de segundos entre 30 y 86.400."] });
      expect((await refuse({ command: "ChangeConfiguration", meterValueSampleInterval: 1.5 })).errors).toEqual({
        meterValueSampleInterval: ["Ingresá un número entero de segundos entre 0 (sin mediciones periódicas) y 3.600."],
      });
      expect((await refuse({ command: "ChangeConfiguration" })).errors).toEqual({ heartbeatInterval: ["Ingresá al menos uno de los dos intervalos."] });
      expect(calls.length).toBe(before);
    });

    it("rotation: SetVariables BasicAuthPassword; the new password applies only when the charger accepts it", async () => {
      const rotate = () => h.call("POST", `/Business/Charger/${f.chargerId}/RotatePassword`, { token: f.tenant.token });
      const hashBefore = (await chargerRow(f.chargerId)).ocppPasswordHash;
      let offered: unknown;
      cli.handle("SetVariables", async ({ params }) => {
        offered = params;
        return { setVariableResult: [{ attributeStatus: "Rejected", component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" } }] };
      });
      const refused = await rotate();
      expect(refused.status).toBe(409);
      expect(JSON.stringify(await refused.json())).toContain("El cargador rechazó la contraseña nueva");
      expect((await chargerRow(f.chargerId)).ocppPasswordHash).toBe(hashBefore);

      cli.handle("SetVariables", async ({ params }) => {
        offered = params;
        return { setVariableResult: [{ attributeStatus: "Accepted", component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" } }] };
      });
      const body = await expectStatus(await rotate(), 200);
      expect(body.passwordDelivery).toBe("charger");
      expect(offered).toEqual({ setVariableData: [{ attributeValue: body.ocppPassword, component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" } }] });
      expect((await chargerRow(f.chargerId)).ocppPasswordHash).not.toBe(hashBefore);
      // The charger reconnects with the new password; from then on the old one no longer opens (ADR 0031).
      const fresh = chargerClient(h, { identity: f.identity, password: body.ocppPassword }, V201);
      await fresh.connect();
      await fresh.close();
      const stale = chargerClient(h, f, V201);
      expect(Number(((await stale.connect().catch((e: unknown) => e)) as { code?: number }).code)).toBe(401);
      expect(JSON.stringify(h.logs)).not.toContain(body.ocppPassword);
    });

    it("on 1.6 the same screen reads and sets HeartbeatInterval and MeterValueSampleInterval (one ChangeConfiguration per key); there is no report", async () => {
      const g = await createFixture(h, `v201-cfg16-${backend.name}`);
      const c16 = chargerClient(h, g);
      const seen: [string, unknown][] = [];
      c16.handle("GetConfiguration", async ({ params }) => {
        seen.push(["GetConfiguration", params]);
        return { configurationKey: [{ key: "HeartbeatInterval", readonly: false, value: "300" }], unknownKey: ["MeterValueSampleInterval"] };
      });
      c16.handle("ChangeConfiguration", async ({ params }) => {
        seen.push(["ChangeConfiguration", params]);
        const p = params as { key: string; value: string };
        return { status: p.key === "HeartbeatInterval" ? "RebootRequired" : "NotSupported" };
      });
      await c16.connect();
      await eventually(() => chargerRow(g.chargerId), (r) => r.online);
      const command = (body: Record<string, unknown>) => h.call("POST", `/Business/Charger/${g.chargerId}/Command`, { token: g.tenant.token, body }).then((r) => expectStatus(r, 200));

      expect(await command({ command: "GetConfiguration" })).toEqual({
        command: "GetConfiguration",
        outcome: "accepted",
        settings: { heartbeatInterval: { status: "Accepted", value: "300" }, meterValueSampleInterval: { status: "Unknown" } },
        message: "El cargador informó sus intervalos (señal de vida: 300 s; mediciones durante la carga: no lo informa).",
      });
      expect(seen.shift()).toEqual(["GetConfiguration", { key: ["HeartbeatInterval", "MeterValueSampleInterval"] }]);

      expect(await command({ command: "ChangeConfiguration", heartbeatInterval: 900, meterValueSampleInterval: 60 })).toMatchObject({
        outcome: "rejected",
        settings: { heartbeatInterval: { status: "RebootRequired", value: "900" }, meterValueSampleInterval: { status: "NotSupported", value: "60" } },
        message: "El cargador no aplicó todos los intervalos (señal de vida 900 s: aceptado, lo aplica al reiniciarse; mediciones durante la carga 60 s: no lo admite).",
      });
      expect(seen).toEqual([
        ["ChangeConfiguration", { key: "HeartbeatInterval", value: "900" }],
        ["ChangeConfiguration", { key: "MeterValueSampleInterval", value: "60" }],
      ]);
      // The heartbeat was taken (after a restart): it is the charger's interval now.
      expect((await chargerRow(g.chargerId)).heartbeatInterval).toBe(900);

      const before = seen.length;
      expect(await command({ command: "GetBaseReport" })).toMatchObject({
        outcome: "rejected",
        message: "Los cargadores OCPP 1.6 no envían informes del equipo: usá «Leer intervalos» para ver su configuración.",
      });
      expect(seen.length).toBe(before);
      await c16.close();
    });

    it("a second key left unanswered ends the command as a timeout, and still reports the first one the charger took", async () => {
      const g = await createFixture(h, `v201-cfgto-${backend.name}`);
      const c16 = chargerClient(h, g);
      c16.handle("ChangeConfiguration", async ({ params }) => {
        if ((params as { key: string }).key === "MeterValueSampleInterval") await new Promise((r) => setTimeout(r, 3_000));
        return { status: "Accepted" };
      });
      await c16.connect();
      await eventually(() => chargerRow(g.chargerId), (r) => r.online);
      const result = await expectStatus(await h.call("POST", `/Business/Charger/${g.chargerId}/Command`, { token: g.tenant.token, body: { command: "ChangeConfiguration", heartbeatInterval: 45, meterValueSampleInterval: 20 } }), 200);
      expect(result).toMatchObject({ outcome: "timeout", message: "El cargador no respondió a tiempo a «Cambiar intervalos».", settings: { heartbeatInterval: { status: "Accepted", value: "45" } } });
      expect(result.settings.meterValueSampleInterval).toBeUndefined();
      expect((await chargerRow(g.chargerId)).heartbeatInterval).toBe(45);
      await c16.close({ force: true });
    });

    it("rotation on 1.6: ChangeConfiguration AuthorizationKey", async () => {
      const g = await createFixture(h, `v201-rot16-${backend.name}`);
      const c16 = chargerClient(h, g);
      let offered: unknown;
      c16.handle("ChangeConfiguration", async ({ params }) => {
        offered = params;
        return { status: "RebootRequired" };
      });
      await c16.connect();
      await eventually(() => chargerRow(g.chargerId), (r) => r.online);
      const body = await expectStatus(await h.call("POST", `/Business/Charger/${g.chargerId}/RotatePassword`, { token: g.tenant.token }), 200);
      expect(body.passwordDelivery).toBe("charger");
      expect(offered).toEqual({ key: "AuthorizationKey", value: body.ocppPassword });
      await c16.close();
    });
  });
});
