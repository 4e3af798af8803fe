// Money found by a charging-station simulator (ADR 0030), on both protocols: a session on a
// connector/EVSE the operator never configured is refused (it would have no rate: free energy)
// and the operator told; a stop reading below readings already stored is a meter fault billed by
// the highest reading, flagged on the session and told to the operator.
import { and, eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargingSessions, notifications } from "#db/schema";
import { expectStatus } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, onlineSince, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();
type Protocol = "ocpp1.6" | "ocpp2.0.1";

/** A whole session in either protocol: start, periodic readings, stop, unplug. Answers the start's token status and the session's key. */
function sessionSpeaker(cli: RPCClient, protocol: Protocol) {
  let seq = 0;
  const register201 = (at: number, wh: number, context: string) => [{ timestamp: iso(at), sampledValue: [{ value: wh, context, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "Wh" } }] }];
  return async function run(o: { connector: number; meterStart: number; readings: number[]; meterStop: number; t0: number }) {
    const { connector, t0 } = o;
    if (protocol === "ocpp1.6") {
      const start = (await cli.call("StartTransaction", { connectorId: connector, idTag: "RFID-0042", meterStart: o.meterStart, timestamp: iso(t0) })) as { transactionId: number; idTagInfo: { status: string } };
      for (const [i, wh] of o.readings.entries()) {
        await cli.call("MeterValues", { connectorId: connector, transactionId: start.transactionId, meterValue: [{ timestamp: iso(t0 + (i + 1) * 10 * MIN), sampledValue: [{ value: String(wh) }] }] });
      }
      const stopAt = t0 + (o.readings.length + 1) * 10 * MIN;
      await cli.call("StopTransaction", { transactionId: start.transactionId, meterStop: o.meterStop, timestamp: iso(stopAt), reason: "EVDisconnected" });
      return { status: start.idTagInfo.status, key: eq(chargingSessions.transactionId, start.transactionId) };
    }
    const transactionId = crypto.randomUUID();
    const base = { evse: { id: connector, connectorId: 1 }, transactionInfo: { transactionId } };
    const started = (await cli.call("TransactionEvent", {
      ...base,
      eventType: "Started",
      timestamp: iso(t0),
      triggerReason: "Authorized",
      seqNo: seq++,
      transactionInfo: { transactionId, chargingState: "Charging" },
      idToken: { idToken: "RFID-0042", type: "ISO14443" },
      meterValue: register201(t0, o.meterStart, "Transaction.Begin"),
    })) as { idTokenInfo?: { status: string } };
    for (const [i, wh] of o.readings.entries()) {
      const at = t0 + (i + 1) * 10 * MIN;
      await cli.call("TransactionEvent", { ...base, eventType: "Updated", timestamp: iso(at), triggerReason: "MeterValuePeriodic", seqNo: seq++, meterValue: register201(at, wh, "Sample.Periodic") });
    }
    const stopAt = t0 + (o.readings.length + 1) * 10 * MIN;
    await cli.call("TransactionEvent", {
      ...base,
      eventType: "Ended",
      timestamp: iso(stopAt),
      triggerReason: "EVDeparted",
      seqNo: seq++,
      transactionInfo: { transactionId, stoppedReason: "EVDisconnected" },
      meterValue: register201(stopAt, o.meterStop, "Transaction.End"),
    });
    return { status: started.idTokenInfo?.status ?? "", key: eq(chargingSessions.ocppTransactionId, transactionId) };
  };
}

describe.each(testBackends())("meter faults and unconfigured connectors ($name)", (backend) => {
  let h: OcppHarness;
  let f: Fixture;
  beforeAll(async () => {
    h = await openOcppHarness(backend);
    // $ 350 per kWh, nothing else: the energy is the whole price.
    f = await createFixture(h, `meter-${backend.name}`, { sessionFeeCents: 0, idlePricePerMinuteCents: 0, idleMaxCents: null });
  });
  afterAll(() => h.close());

  async function connect(protocol: Protocol) {
    const cli = chargerClient(h, f, { protocols: [protocol] });
    const since = new Date();
    await cli.connect();
    await onlineSince(h, f.chargerId, since);
    if (protocol === "ocpp1.6") await cli.call("BootNotification", { chargePointVendor: "Wallbox", chargePointModel: "Commander 2" });
    else await cli.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Wallbox", model: "Commander 2" } });
    return cli;
  }
  const notices = async (title: string) =>
    (await h.db.select().from(notifications).where(and(eq(notifications.businessId, f.tenant.businessId), eq(notifications.title, title)))).map((n) => n.body);

  it("2.0.1: a session authorized before its EVSE was known is priced with the EVSE's rate, and refused when the EVSE is not configured", async () => {
    const cli = await connect("ocpp2.0.1");
    try {
      const t0 = Date.now() - 40 * MIN;
      const register = (at: number, wh: number, context: string) => [{ timestamp: iso(at), sampledValue: [{ value: wh, context, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "Wh" } }] }];
      const session = async (evse: number) => {
        const transactionId = crypto.randomUUID();
        let seqNo = 0;
        // Authorized first (no EVSE yet), then plugged in at `evse`, charged 3 kWh and unplugged.
        const started = (await cli.call("TransactionEvent", { eventType: "Started", timestamp: iso(t0), triggerReason: "Authorized", seqNo: seqNo++, transactionInfo: { transactionId }, idToken: { idToken: "RFID-0042", type: "ISO14443" } })) as { idTokenInfo?: { status: string } };
        await cli.call("TransactionEvent", { eventType: "Updated", timestamp: iso(t0 + MIN), triggerReason: "CablePluggedIn", seqNo: seqNo++, evse: { id: evse, connectorId: 1 }, transactionInfo: { transactionId, chargingState: "Charging" }, meterValue: register(t0 + MIN, 20_000, "Transaction.Begin") });
        await cli.call("TransactionEvent", { eventType: "Ended", timestamp: iso(t0 + 31 * MIN), triggerReason: "EVDeparted", seqNo: seqNo++, transactionInfo: { transactionId, stoppedReason: "EVDisconnected" }, meterValue: register(t0 + 31 * MIN, 23_000, "Transaction.End") });
        const [row] = await h.db.select().from(chargingSessions).where(and(eq(chargingSessions.chargerId, f.chargerId), eq(chargingSessions.ocppTransactionId, transactionId)));
        return { started: started.idTokenInfo?.status, row };
      };
      const priced = await session(1);
      expect(priced.started).toBe("Accepted");
      expect(priced.row).toMatchObject({ status: "COMPLETED", connectorNumber: 1, rateId: f.rateId, energyWh: 3_000, energyCents: 105_000, totalCents: 105_000 });

      const refused = await session(4);
      expect(refused.row).toMatchObject({ status: "INVALID", connectorNumber: 4, connectorId: null, totalCents: 0 });
      expect(await notices("Carga rechazada: conector no configurado")).toContain(
        "Cargador 1: se intentó iniciar una carga en el EVSE 4, que no está configurado en Enchufá. La rechazamos porque no tiene tarifa: agregá el conector con su tarifa al cargador para habilitarlo.",
      );
    } finally {
      await cli.close();
    }
  });

  describe.each(["ocpp1.6", "ocpp2.0.1"] as const)("%s", (protocol) => {
    const noun = protocol === "ocpp1.6" ? "conector" : "EVSE";

    it("refuses a session on a connector the operator never configured, charges nothing, and tells the operator once", async () => {
      const cli = await connect(protocol);
      try {
        const run = sessionSpeaker(cli, protocol);
        const t0 = Date.now() - 60 * MIN;
        const first = await run({ connector: 3, meterStart: 0, readings: [], meterStop: 10_000, t0 });
        expect(first.status).toBe("Invalid");
        const [session] = await h.db.select().from(chargingSessions).where(and(eq(chargingSessions.chargerId, f.chargerId), first.key));
        expect(session).toMatchObject({ status: "INVALID", connectorNumber: 3, connectorId: null, totalCents: 0 });
        const expected = `Cargador 1: se intentó iniciar una carga en el ${noun} 3, que no está configurado en Enchufá. La rechazamos porque no tiene tarifa: agregá el conector con su tarifa al cargador para habilitarlo.`;
        expect(await notices("Carga rechazada: conector no configurado")).toContain(expected);

        // The charger tries again: refused again, and the operator is not told twice within the hour.
        const again = await run({ connector: 3, meterStart: 10_000, readings: [], meterStop: 12_000, t0: t0 + 5 * MIN });
        expect(again.status).toBe("Invalid");
        expect((await notices("Carga rechazada: conector no configurado")).filter((b) => b === expected)).toHaveLength(1);

        // A configured connector still charges as before.
        const fine = await run({ connector: 1, meterStart: 0, readings: [2_000], meterStop: 4_000, t0: t0 + 10 * MIN });
        expect(fine.status).toBe("Accepted");
        const [ok] = await h.db.select().from(chargingSessions).where(and(eq(chargingSessions.chargerId, f.chargerId), fine.key));
        expect(ok).toMatchObject({ status: "COMPLETED", energyWh: 4_000, energyCents: 140_000, meterFault: null });
      } finally {
        await cli.close();
      }
    });

    it("bills a stop below the readings already stored by the highest reading, flags it and tells the operator", async () => {
      const cli = await connect(protocol);
      try {
        const run = sessionSpeaker(cli, protocol);
        const t0 = Date.now() - 50 * MIN;
        const { status, key } = await run({ connector: 2, meterStart: 1_000, readings: [5_000, 9_000], meterStop: 3_000, t0 });
        expect(status).toBe("Accepted");
        const [session] = await h.db.select().from(chargingSessions).where(and(eq(chargingSessions.chargerId, f.chargerId), key));
        // 8.000 Wh × $ 350, not the 2.000 Wh meterStop − meterStart says.
        expect(session).toMatchObject({ status: "COMPLETED", meterStartWh: 1_000, meterStopWh: 3_000, energyWh: 8_000, energyCents: 280_000, totalCents: 280_000, paymentStatus: "PENDING" });
        expect(session.meterFault).toEqual({ kind: "regressed", highestWh: 9_000, stopWh: 3_000, billedWh: 8_000 });

        const detail = await expectStatus<{ meterFaultNotice: string | null; energyKwh: number }>(await h.call("GET", `/Business/Activity/${session.id}`, { token: f.tenant.token }), 200);
        expect(detail.meterFaultNotice).toBe("El medidor retrocedió: facturamos según la lectura más alta registrada (9.000 Wh).");
        expect(detail.energyKwh).toBe(8);
        expect((await notices("Medidor con lecturas inconsistentes")).some((b) => b.includes("conector 2") && b.includes("(9.000 Wh)"))).toBe(true);
      } finally {
        await cli.close();
      }
    });
  });
});
