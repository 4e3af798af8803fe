// Issue 25: the station's authorization policy and the company's RFID tags answer Authorize and
// the start of a transaction, on both protocols (ocpp-rpc chargers in strict mode), and a grouped
// tag's session is priced with its group's rate.
import { and, eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargers, chargingSessions, stations } from "#db/schema";
import { priceSession, usageFromSession } from "#domain/pricing";
import { expectStatus, rateInput, stationInput } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();
type Protocol = "ocpp1.6" | "ocpp2.0.1";

/** Authorize and a whole session in the charger's protocol. */
function speaker(cli: RPCClient, protocol: Protocol) {
  let seq = 0;
  const register = (at: number, wh: number, context: string) => [{ timestamp: iso(at), sampledValue: [{ value: wh, context, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "Wh" } }] }];
  return {
    async authorize(tag: string): Promise<string> {
      if (protocol === "ocpp1.6") return ((await cli.call("Authorize", { idTag: tag })) as { idTagInfo: { status: string } }).idTagInfo.status;
      return ((await cli.call("Authorize", { idToken: { idToken: tag, type: "ISO14443" } })) as { idTokenInfo: { status: string } }).idTokenInfo.status;
    },
    /** Starts (answer status) and, when accepted, stops after `wh` Wh and unplugs. Returns the answer and the transaction key. */
    async session(tag: string, wh: number, t0: number): Promise<{ status: string; key: { transactionId?: number; ocppTransactionId?: string } }> {
      if (protocol === "ocpp1.6") {
        const started = (await cli.call("StartTransaction", { connectorId: 1, idTag: tag, meterStart: 0, timestamp: iso(t0) })) as { transactionId: number; idTagInfo: { status: string } };
        if (started.idTagInfo.status === "Accepted") {
          await cli.call("StopTransaction", { transactionId: started.transactionId, meterStop: wh, timestamp: iso(t0 + 30 * MIN), reason: "EVDisconnected" });
          await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: iso(t0 + 30 * MIN) });
        }
        return { status: started.idTagInfo.status, key: { transactionId: started.transactionId } };
      }
      const transactionId = crypto.randomUUID();
      const base = { evse: { id: 1, connectorId: 1 } };
      const started = (await cli.call("TransactionEvent", {
        ...base,
        eventType: "Started",
        timestamp: iso(t0),
        triggerReason: "Authorized",
        seqNo: seq++,
        transactionInfo: { transactionId, chargingState: "EVConnected" },
        idToken: { idToken: tag, type: "ISO14443" },
        meterValue: register(t0, 0, "Transaction.Begin"),
      })) as { idTokenInfo?: { status: string } };
      const status = started.idTokenInfo?.status ?? "";
      if (status === "Accepted") {
        await cli.call("TransactionEvent", {
          ...base,
          eventType: "Ended",
          timestamp: iso(t0 + 30 * MIN),
          triggerReason: "EVCommunicationLost",
          seqNo: seq++,
          transactionInfo: { transactionId, chargingState: "Idle", stoppedReason: "EVDisconnected" },
          meterValue: register(t0 + 30 * MIN, wh, "Transaction.End"),
        });
      }
      return { status, key: { ocppTransactionId: transactionId } };
    },
  };
}

describe.each(testBackends())("RFID tags at the charger ($name)", (backend) => {
  let h: OcppHarness;
  beforeAll(async () => {
    h = await openOcppHarness(backend);
  });
  afterAll(() => h?.close());

  describe.each(["ocpp1.6", "ocpp2.0.1"] as const)("%s", (protocol) => {
    let f: Fixture;
    let cli: RPCClient;
    let stationId: string;
    let groupRateId: string;
    let talk: ReturnType<typeof speaker>;

    beforeAll(async () => {
      f = await createFixture(h, `tags-${protocol}-${backend.name}`);
      const token = f.tenant.token;
      [{ stationId }] = (await h.db.select({ stationId: chargers.stationId }).from(chargers).where(eq(chargers.id, f.chargerId))) as { stationId: string }[];
      const elsewhere = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token, body: stationInput({ name: "Otra" }) }), 201)).id;
      groupRateId = (await expectStatus(await h.call("POST", "/Business/Fees", { token, body: rateInput({ name: "Flota", pricePerKwhCents: 10000, sessionFeeCents: 0, pricePerMinuteCents: 0 }) }), 201)).id;
      const here = await expectStatus(await h.call("POST", "/Business/AccessGroup", { token, body: { name: "Flota", allStations: false, stationIds: [stationId], rateId: groupRateId } }), 201);
      const away = await expectStatus(await h.call("POST", "/Business/AccessGroup", { token, body: { name: "Otra sede", allStations: false, stationIds: [elsewhere] } }), 201);
      for (const body of [
        { idTag: "FLOTA-01", holderName: "Ana", groupId: here.id },
        { idTag: "LIBRE-01", holderName: "Beto" },
        { idTag: "BLOQ-01", holderName: "Caro", blocked: true },
        { idTag: "VIEJA-01", holderName: "Dani", expiresOn: "2020-01-31" },
        { idTag: "LEJOS-01", holderName: "Eli", groupId: away.id },
      ]) {
        await expectStatus(await h.call("POST", "/Business/Tag", { token, body }), 201);
      }
      cli = chargerClient(h, f, { protocols: [protocol] });
      await cli.connect();
      talk = speaker(cli, protocol);
    });
    afterAll(() => cli?.close());

    const setPolicy = (policy: "OPEN" | "KNOWN_TAGS") => h.db.update(stations).set({ authorizationPolicy: policy }).where(eq(stations.id, stationId));

    it("OPEN (the default): any tag is Accepted, but a known tag that is blocked or expired is not", async () => {
      expect(await talk.authorize("DESCONOCIDA")).toBe("Accepted");
      expect(await talk.authorize("flota-01")).toBe("Accepted");
      expect(await talk.authorize("LEJOS-01")).toBe("Accepted"); // its group does not list this station, but the station is open
      expect(await talk.authorize("BLOQ-01")).toBe("Blocked");
      expect(await talk.authorize("VIEJA-01")).toBe("Expired");
    });

    it("KNOWN_TAGS: unknown → Invalid, group excludes the station → Invalid, blocked → Blocked, expired → Expired, the rest Accepted (any case)", async () => {
      await setPolicy("KNOWN_TAGS");
      expect(await talk.authorize("DESCONOCIDA")).toBe("Invalid");
      expect(await talk.authorize("LEJOS-01")).toBe("Invalid");
      expect(await talk.authorize("BLOQ-01")).toBe("Blocked");
      expect(await talk.authorize("VIEJA-01")).toBe("Expired");
      expect(await talk.authorize("libre-01")).toBe("Accepted");
      expect(await talk.authorize("FLOTA-01")).toBe("Accepted");
    });

    it("the start of a transaction gets the same answer; a refused start leaves an INVALID session with nothing to charge", async () => {
      const t0 = Date.now() - 5 * 60 * MIN;
      for (const [tag, answer] of [
        ["DESCONOCIDA", "Invalid"],
        ["BLOQ-01", "Blocked"],
        ["VIEJA-01", "Expired"],
        ["LEJOS-01", "Invalid"],
      ] as const) {
        const { status, key } = await talk.session(tag, 5000, t0);
        expect(status, tag).toBe(answer);
        const where = key.transactionId !== undefined ? eq(chargingSessions.transactionId, key.transactionId) : eq(chargingSessions.ocppTransactionId, key.ocppTransactionId!);
        const [s] = await h.db.select().from(chargingSessions).where(and(eq(chargingSessions.chargerId, f.chargerId), where));
        expect(s, tag).toMatchObject({ status: "INVALID", paymentStatus: "NOT_REQUIRED", totalCents: 0 });
      }
    });

    it("a grouped tag's session is priced with its group's rate; another tag's with the connector's", async () => {
      const t0 = Date.now() - 3 * 60 * MIN;
      const grouped = await talk.session("flota-01", 10_000, t0);
      expect(grouped.status).toBe("Accepted");
      const ungrouped = await talk.session("LIBRE-01", 10_000, t0 + 60 * MIN);
      expect(ungrouped.status).toBe("Accepted");
      const closed = async (key: { transactionId?: number; ocppTransactionId?: string }) =>
        eventually(
          async () =>
            (
              await h.db
                .select()
                .from(chargingSessions)
                .where(and(eq(chargingSessions.chargerId, f.chargerId), key.transactionId !== undefined ? eq(chargingSessions.transactionId, key.transactionId) : eq(chargingSessions.ocppTransactionId, key.ocppTransactionId!)))
            )[0],
          (s) => s?.status === "COMPLETED",
        );
      const a = await closed(grouped.key);
      expect(a.rateId).toBe(groupRateId);
      expect(a.rateSnapshot?.pricePerKwhCents).toBe(10000);
      expect(a.energyCents).toBe(100_000); // 10 kWh × $ 100
      expect(a.totalCents).toBe(priceSession(a.rateSnapshot!, usageFromSession(a)).totalCents);
      const b = await closed(ungrouped.key);
      expect(b.rateId).toBe(f.rateId);
      expect(b.rateSnapshot?.pricePerKwhCents).toBe(35000);
      await setPolicy("OPEN");
    });
  });
});
