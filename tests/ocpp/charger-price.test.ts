// The price on the charger's own screen, on both OCPP versions (ADR 0051): a 2.0.1 charger gets
// the price in force at boot (SetDisplayMessage), the running cost in the TransactionEvent
// answers and in CostUpdated, and the final cost; a 1.6 charger gets the California Pricing
// DataTransfer messages only when the operator turns the setting on. Amounts are the pricing
// rule's, to the cent; a charger that cannot show them never loses its session.
import { eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { RPCError } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargers, chargingSessions } from "#db/schema";
import { expectStatus } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();
const COST_VENDOR = "org.openchargealliance.costmsg";

type Received = { method: string; params: Record<string, unknown> }[];

/** A charger that records the calls it gets and answers them as told. */
function listening(cli: RPCClient, answers: Record<string, () => Record<string, unknown>>): Received {
  const got: Received = [];
  for (const [method, answer] of Object.entries(answers)) {
    cli.handle(method, async ({ params }) => {
      got.push({ method, params: params as Record<string, unknown> });
      return answer();
    });
  }
  return got;
}

const settle = () => new Promise((r) => setTimeout(r, 300));

async function setPriceDisplay(h: OcppHarness, f: Fixture, priceDisplay: "AUTO" | "ON" | "OFF") {
  const current = await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }), 200);
  const body = {
    name: current.name,
    stationId: current.stationId,
    ocppIdentity: current.ocppIdentity,
    heartbeatInterval: current.heartbeatInterval,
    priceDisplay,
    connectors: current.connectors.map((k: Record<string, unknown>) => ({ connectorId: k.connectorId, standard: k.standard, format: k.format, powerType: k.powerType, maxPowerKw: k.maxPowerKw, rateId: k.rateId })),
  };
  return expectStatus(await h.call("PUT", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token, body }), 200);
}

describe.each(testBackends())("the price on the charger's screen ($name)", (backend) => {
  let h: OcppHarness;
  beforeAll(async () => {
    h = await openOcppHarness(backend);
  });
  afterAll(() => h.close());

  describe("OCPP 2.0.1", () => {
    const register = (t: number, wh: number, context: string) => [{ timestamp: iso(t), sampledValue: [{ value: wh, context, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "Wh" } }] }];

    it("the price at boot, the running cost during the session (answer and CostUpdated) and the total at the end, to the cent", async () => {
      // The fixture's rate: $ 350/kWh, $ 500 per session, idle $ 20/min after 15 min, VAT included.
      const f = await createFixture(h, `price-201-${backend.name}`);
      const cli = chargerClient(h, f, { protocols: ["ocpp2.0.1"] });
      const got = listening(cli, { SetDisplayMessage: () => ({ status: "Accepted" }), CostUpdated: () => ({}) });
      await cli.connect();
      try {
        await cli.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Wallbox", model: "Commander 2" } });
        const shown = await eventually(async () => got.filter((c) => c.method === "SetDisplayMessage"), (l) => l.length > 0);
        const price = "$ 350,00/kWh · $ 500,00 por carga · Inactivo: $ 20,00/min después de 15 min";
        // Both connectors share the rate: one message for the whole charger, in Spanish, UTF-8.
        expect(shown).toHaveLength(1);
        expect(shown[0].params.message).toMatchObject({ id: 9100, priority: "NormalCycle", message: { format: "UTF8", language: "es", content: price } });

        const t0 = Date.now() - 20 * MIN;
        let seqNo = 0;
        const event = (eventType: string, t: number, triggerReason: string, extra: Record<string, unknown>, info: Record<string, unknown> = {}) =>
          cli.call("TransactionEvent", { eventType, timestamp: iso(t), triggerReason, seqNo: seqNo++, evse: { id: 1, connectorId: 1 }, transactionInfo: { transactionId: "price-201", ...info }, ...extra }) as Promise<
            Record<string, unknown>
          >;
        const started = await event("Started", t0, "Authorized", { idToken: { idToken: "RFID-0042", type: "ISO14443" }, meterValue: register(t0, 100_000, "Transaction.Begin") }, { chargingState: "Charging" });
        expect(started).toMatchObject({ idTokenInfo: { status: "Accepted" }, updatedPersonalMessage: { format: "UTF8", content: price } });

        // 6 kWh so far: 6 × $ 350 + $ 500 = $ 2.600,00 (charging: no idle yet).
        const updated = await event("Updated", Date.now(), "MeterValuePeriodic", { meterValue: register(Date.now(), 106_000, "Sample.Periodic") });
        expect(updated.updatedPersonalMessage).toEqual({ format: "UTF8", language: "es", content: "Llevás $ 2.600,00 · 6,00 kWh" });
        // The protocol gives totalCost only once charging has ended.
        expect(updated.totalCost).toBeUndefined();
        const cost = await eventually(async () => got.filter((c) => c.method === "CostUpdated"), (l) => l.length > 0);
        expect(cost[0].params).toEqual({ totalCost: 2600, transactionId: "price-201" });

        const ended = await event("Ended", Date.now(), "EVDeparted", { meterValue: register(Date.now(), 109_250, "Transaction.End") }, { chargingState: "Idle", stoppedReason: "EVDisconnected" });
        const [row] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.ocppTransactionId, "price-201"));
        // 9,25 kWh × $ 350 = $ 3.237,50, plus $ 500: the stored price, and the one the charger shows.
        expect(row).toMatchObject({ status: "COMPLETED", totalCents: 373_750 });
        expect(ended).toMatchObject({ totalCost: 3737.5, updatedPersonalMessage: { content: "Total: $ 3.737,50 · 9,25 kWh" } });
      } finally {
        await cli.close();
      }
    });

    it("a change of the rate reaches the screen of the connected charger at once", async () => {
      const f = await createFixture(h, `price-201-rate-${backend.name}`, { sessionFeeCents: 0, idlePricePerMinuteCents: 0, idleMaxCents: null });
      const cli = chargerClient(h, f, { protocols: ["ocpp2.0.1"] });
      const got = listening(cli, { SetDisplayMessage: () => ({ status: "Accepted" }) });
      await cli.connect();
      try {
        await cli.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Wallbox", model: "Commander 2" } });
        await eventually(async () => got.length, (n) => n === 1);
        expect((got[0].params.message as { message: { content: string } }).message.content).toBe("$ 350,00/kWh");
        const { connectorCount: _n, id: _id, createdAt: _c, updatedAt: _u, ...rate } = await expectStatus(await h.call("GET", `/Business/Fees/${f.rateId}`, { token: f.tenant.token }), 200);
        await expectStatus(await h.call("PUT", `/Business/Fees/${f.rateId}`, { token: f.tenant.token, body: { ...rate, pricePerKwhCents: 123_456 } }), 200);
        await eventually(async () => got.length, (n) => n === 2);
        expect((got[1].params.message as { message: { content: string } }).message.content).toBe("$ 1.234,56/kWh");
      } finally {
        await cli.close();
      }
    });

    it("a charger that cannot show it is not asked again, and its session goes on; OFF sends nothing", async () => {
      const f = await createFixture(h, `price-201-refused-${backend.name}`);
      const cli = chargerClient(h, f, { protocols: ["ocpp2.0.1"] });
      const got = listening(cli, {
        SetDisplayMessage: () => ({ status: "NotSupportedMessageFormat" }),
        CostUpdated: () => {
          throw new RPCError("NotImplemented");
        },
      });
      await cli.connect();
      try {
        await cli.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Wallbox", model: "Commander 2" } });
        await eventually(async () => (await h.db.select({ refused: chargers.priceDisplayRefused }).from(chargers).where(eq(chargers.id, f.chargerId)))[0].refused, Boolean);
        await cli.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Wallbox", model: "Commander 2" } });
        const t0 = Date.now() - 5 * MIN;
        const started = (await cli.call("TransactionEvent", {
          eventType: "Started",
          timestamp: iso(t0),
          triggerReason: "Authorized",
          seqNo: 0,
          evse: { id: 1, connectorId: 1 },
          transactionInfo: { transactionId: "price-refused", chargingState: "Charging" },
          idToken: { idToken: "RFID-0042", type: "ISO14443" },
          meterValue: register(t0, 0, "Transaction.Begin"),
        })) as Record<string, unknown>;
        expect(started).toEqual({ idTokenInfo: { status: "Accepted" } });
        await settle();
        expect(got.map((c) => c.method)).toEqual(["SetDisplayMessage"]);
        const dto = await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }), 200);
        expect(dto).toMatchObject({ priceDisplay: "AUTO", showsPrice: false, priceDisplayRefused: true });
      } finally {
        await cli.close();
      }

      // Saving the setting asks again; OFF sends nothing at all.
      const off = await setPriceDisplay(h, f, "OFF");
      expect(off).toMatchObject({ priceDisplay: "OFF", showsPrice: false, priceDisplayRefused: false });
      const again = chargerClient(h, f, { protocols: ["ocpp2.0.1"] });
      const gotAgain = listening(again, { SetDisplayMessage: () => ({ status: "Accepted" }) });
      await again.connect();
      try {
        await again.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Wallbox", model: "Commander 2" } });
        await settle();
        expect(gotAgain).toEqual([]);
      } finally {
        await again.close();
      }
      const audit = await expectStatus(await h.call("GET", `/Business/Audit?resource=charger`, { token: f.tenant.token }), 200);
      const entry = audit.items.find((e: { action: string }) => e.action === "charger.update");
      expect(entry.changes.priceDisplay).toEqual({ before: "Según el protocolo (sí en OCPP 2.0.1, no en 1.6)", after: "No" });
    });
  });

  describe("OCPP 1.6 (California Pricing)", () => {
    // $ 1.000/kWh without VAT: $ 1.210,00 as the driver pays it; no session fee, no idle penalty.
    const RATE = { pricePerKwhCents: 100_000, vatIncluded: false, sessionFeeCents: 0, idlePricePerMinuteCents: 0, idleMaxCents: null };

    async function session16(cli: RPCClient) {
      const auth = (await cli.call("Authorize", { idTag: "RFID-0042" })) as { idTagInfo: { status: string } };
      expect(auth.idTagInfo.status).toBe("Accepted");
      const t0 = Date.now() - 10 * MIN;
      const { transactionId } = (await cli.call("StartTransaction", { connectorId: 1, idTag: "RFID-0042", meterStart: 50_000, timestamp: iso(t0) })) as { transactionId: number };
      await cli.call("MeterValues", { connectorId: 1, transactionId, meterValue: [{ timestamp: iso(Date.now()), sampledValue: [{ value: "52500" }] }] });
      await settle();
      await cli.call("StopTransaction", { transactionId, meterStop: 53_000, timestamp: iso(Date.now()), reason: "EVDisconnected", idTag: "RFID-0042" });
      await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: iso(Date.now()) });
      return transactionId;
    }

    it("sends nothing by default (AUTO is off on 1.6); once turned on, SetUserPrice, RunningCost and FinalCost with the rule's amounts", async () => {
      const f = await createFixture(h, `price-16-${backend.name}`, RATE);
      const quiet = chargerClient(h, f);
      const none = listening(quiet, { DataTransfer: () => ({ status: "Accepted" }) });
      await quiet.connect();
      try {
        await quiet.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
        await session16(quiet);
        await settle();
        expect(none).toEqual([]);
      } finally {
        await quiet.close();
      }

      expect(await setPriceDisplay(h, f, "ON")).toMatchObject({ priceDisplay: "ON", showsPrice: true });
      const cli = chargerClient(h, f);
      const got = listening(cli, { DataTransfer: () => ({ status: "Accepted" }) });
      await cli.connect();
      try {
        await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
        const transactionId = await session16(cli);
        const messages = await eventually(async () => got, (l) => l.some((c) => c.params.messageId === "FinalCost"));
        expect(messages.map((c) => [c.params.vendorId, c.params.messageId])).toEqual([
          [COST_VENDOR, "SetUserPrice"],
          [COST_VENDOR, "RunningCost"],
          [COST_VENDOR, "FinalCost"],
        ]);
        const [userPrice, runningCost, finalCost] = messages.map((c) => JSON.parse(c.params.data as string) as Record<string, unknown>);
        expect(userPrice).toEqual({ idToken: "RFID-0042", priceText: "$ 1.210,00/kWh" });
        // 2,5 kWh × $ 1.000 = $ 2.500 + 21 % VAT = $ 3.025,00.
        expect(runningCost).toMatchObject({
          transactionId,
          meterValue: 52_500,
          cost: 3025,
          state: "Charging",
          chargingPrice: { kWhPrice: 1210, hourPrice: 0, flatFee: 0 },
          idlePrice: { graceMinutes: 0, hourPrice: 0 },
        });
        const [row] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.transactionId, transactionId));
        // 3 kWh: $ 3.000 + VAT = $ 3.630,00, stored and shown alike.
        expect(row).toMatchObject({ status: "COMPLETED", totalCents: 363_000 });
        expect(finalCost).toEqual({ transactionId, cost: 3630, priceText: "Total: $ 3.630,00 · 3,00 kWh" });
      } finally {
        await cli.close();
      }
    });

    it("a charger without the extension is marked and not asked again; its session is priced as ever", async () => {
      const f = await createFixture(h, `price-16-unknown-${backend.name}`, RATE);
      await setPriceDisplay(h, f, "ON");
      const cli = chargerClient(h, f);
      const got = listening(cli, { DataTransfer: () => ({ status: "UnknownVendorId" }) });
      await cli.connect();
      try {
        await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
        const transactionId = await session16(cli);
        await settle();
        expect(got.map((c) => c.params.messageId)).toEqual(["SetUserPrice"]);
        const [row] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.transactionId, transactionId));
        expect(row).toMatchObject({ status: "COMPLETED", totalCents: 363_000 });
        const [charger] = await h.db.select({ refused: chargers.priceDisplayRefused }).from(chargers).where(eq(chargers.id, f.chargerId));
        expect(charger.refused).toBe(true);
      } finally {
        await cli.close();
      }
    });
  });
});
