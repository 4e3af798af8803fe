// Load balancing (ADR 0018): a station's grid capacity shared among the connectors
// charging there, each told its limit with SetChargingProfile (TxProfile; 1.6 csChargingProfiles,
// 2.0.1 chargingProfile by EVSE). Two sessions on an 11 kW station get limits that add up to at
// most 11 kW; a third rebalances all three; a stop gives its share back; a charger that refuses
// profiles (or does not answer) is counted at its maximum.
import { eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargers } from "#db/schema";
import type { StationAllocationDto } from "#contract/dto";
import { chargerInput, expectStatus, stationInput } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, onlineSince, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

type Limits = Map<string, number>;
/** Limits follow socket messages and database writes: waited for, generously on a busy machine. */
const soon = <T,>(fn: () => Promise<T>, predicate: (value: T) => boolean) => eventually(fn, predicate, 15_000);
const total = (m: Limits) => [...m.values()].reduce((a, b) => a + b, 0);

describe.each(testBackends())("load balancing ($name)", (backend) => {
  let h: OcppHarness;
  let f: Fixture;
  let stationId: string;
  let second: { identity: string; password: string; id: string };
  beforeAll(async () => {
    h = await openOcppHarness(backend, { commandTimeoutMs: 800 });
    f = await createFixture(h, `balance-${backend.name}`);
    const t = f.tenant.token;
    stationId = (await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}`, { token: t }), 200)).stationId;
    const b = await expectStatus(
      await h.call("POST", "/Business/Charger", {
        token: t,
        body: chargerInput({ name: "Segundo", stationId, connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 7.4 }] }),
      }),
      201,
    );
    second = { identity: b.ocppIdentity, password: b.ocppPassword, id: b.id };
  });
  afterAll(() => h.close());

  const setCapacity = async (gridCapacityKw: number | null) =>
    expectStatus(await h.call("PUT", `/Business/ChargingStation/${stationId}`, { token: f.tenant.token, body: { ...stationInput(), gridCapacityKw } }), 200);
  const allocation = async () => (await expectStatus(await h.call("GET", `/Business/ChargingStation/${stationId}/Allocation`, { token: f.tenant.token }), 200)) as StationAllocationDto;

  /** The transaction each connector's last accepted limit was for (a TxProfile applies to one). */
  const transactions = new Map<string, string>();

  /** A charger that records the last limit (kW) it was given per connector, answering `answer()`. */
  async function connect(who: { identity: string; password: string }, id: string, limits: Limits, prefix: string, answer: () => unknown = () => ({ status: "Accepted" }), protocols?: string[]): Promise<RPCClient> {
    const cli = chargerClient(h, who, protocols ? { protocols } : {});
    cli.handle("SetChargingProfile", async ({ params }) => {
      const p = params as { connectorId?: number; evseId?: number; csChargingProfiles?: { chargingProfilePurpose: string; transactionId?: number; chargingSchedule: { chargingSchedulePeriod: { limit: number }[] } }; chargingProfile?: { chargingProfilePurpose: string; transactionId?: string; chargingSchedule: { chargingSchedulePeriod: { limit: number }[] }[] } };
      const profile = p.csChargingProfiles ?? p.chargingProfile!;
      expect(profile.chargingProfilePurpose).toBe("TxProfile");
      const schedule = Array.isArray(profile.chargingSchedule) ? profile.chargingSchedule[0] : profile.chargingSchedule;
      const result = (await answer()) as { status: string };
      if (result.status === "Accepted") {
        const connector = `${prefix}${p.connectorId ?? p.evseId}`;
        limits.set(connector, schedule.chargingSchedulePeriod[0].limit / 1000);
        transactions.set(connector, String(profile.transactionId));
      }
      return result;
    });
    const since = new Date();
    await cli.connect();
    await onlineSince(h, id, since);
    return cli;
  }

  it("two sessions on an 11 kW station share it (≤ 11 kW); a third rebalances all three; a stop gives its share back", async () => {
    await setCapacity(11);
    const limits: Limits = new Map();
    const a = await connect(f, f.chargerId, limits, "A");
    const b = await connect(second, second.id, limits, "B", undefined, ["ocpp2.0.1"]);
    try {
      const now = () => new Date().toISOString();
      const s1 = (await a.call("StartTransaction", { connectorId: 1, idTag: "LB-1", meterStart: 0, timestamp: now() })) as { transactionId: number };
      await soon(async () => limits.get("A1"), (v) => v === 11);
      const s2 = (await a.call("StartTransaction", { connectorId: 2, idTag: "LB-2", meterStart: 0, timestamp: now() })) as { transactionId: number };
      await soon(async () => [limits.get("A1"), limits.get("A2")], ([x, y]) => x === 5.5 && y === 5.5);
      expect(total(limits)).toBeLessThanOrEqual(11);

      // The third session, on a 2.0.1 charger of 7.4 kW: every connector gets 11 / 3.
      await b.call("TransactionEvent", {
        eventType: "Started",
        timestamp: now(),
        triggerReason: "Authorized",
        seqNo: 0,
        evse: { id: 1, connectorId: 1 },
        idToken: { idToken: "LB-3", type: "ISO14443" },
        transactionInfo: { transactionId: "lb-tx-3", chargingState: "Charging" },
      });
      await soon(async () => [limits.get("A1"), limits.get("A2"), limits.get("B1")], (v) => v.every((x) => x === 3.66));
      expect(total(limits)).toBeLessThanOrEqual(11);
      // Recorded by the central system just after each charger's answer.
      const shown = await soon(allocation, (x) => x.connectors.every((c) => c.allocatedKw === 3.66));
      expect(shown.gridCapacityKw).toBe(11);
      expect(shown.connectors.map((c) => [c.chargerName, c.connectorNumber, c.allocatedKw, c.status])).toEqual([
        ["Cargador 1", 1, 3.66, "Accepted"],
        ["Cargador 1", 2, 3.66, "Accepted"],
        ["Segundo", 1, 3.66, "Accepted"],
      ]);
      expect(shown.allocatedKw).toBeLessThanOrEqual(11);

      // One stops: the other two share the 11 kW again (the 7.4 kW one at most its maximum).
      await a.call("StopTransaction", { transactionId: s1.transactionId, meterStop: 1000, timestamp: now(), reason: "EVDisconnected" });
      await soon(async () => [limits.get("A2"), limits.get("B1")], ([x, y]) => x === 5.5 && y === 5.5);
      expect((await allocation()).connectors.map((c) => c.connectorNumber + c.chargerName)).toEqual(["2Cargador 1", "1Segundo"]);
      await a.call("StopTransaction", { transactionId: s2.transactionId, meterStop: 1000, timestamp: now(), reason: "EVDisconnected" });
      await b.call("TransactionEvent", { eventType: "Ended", timestamp: now(), triggerReason: "EVDeparted", seqNo: 1, evse: { id: 1, connectorId: 1 }, transactionInfo: { transactionId: "lb-tx-3", stoppedReason: "EVDisconnected" } });
      await soon(allocation, (x) => x.connectors.length === 0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a charger that reconnects mid-session is sent its limit again at once, without asking the others", async () => {
    await setCapacity(11);
    const limits: Limits = new Map();
    const a = await connect(f, f.chargerId, limits, "A");
    const b = await connect(second, second.id, limits, "B");
    let again: RPCClient | undefined;
    try {
      const now = () => new Date().toISOString();
      const s1 = (await a.call("StartTransaction", { connectorId: 1, idTag: "LB-R1", meterStart: 0, timestamp: now() })) as { transactionId: number };
      const s2 = (await b.call("StartTransaction", { connectorId: 1, idTag: "LB-R2", meterStart: 0, timestamp: now() })) as { transactionId: number };
      await soon(async () => [limits.get("A1"), limits.get("B1")], ([x, y]) => x === 5.5 && y === 5.5);
      // The first charger drops its connection (a reboot would also drop its TxProfile) and comes back.
      await a.close({ force: true });
      await eventually(() => h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }).then((r) => r.json() as Promise<{ online: boolean }>), (c) => !c.online);
      limits.clear();
      again = await connect(f, f.chargerId, limits, "R");
      await soon(async () => limits.get("R1"), (v) => v === 5.5);
      expect(limits.has("B1")).toBe(false); // the other charger's limit did not change: it is not asked again
      await again.call("StopTransaction", { transactionId: s1.transactionId, meterStop: 100, timestamp: now(), reason: "EVDisconnected" });
      await b.call("StopTransaction", { transactionId: s2.transactionId, meterStop: 100, timestamp: now(), reason: "EVDisconnected" });
      await soon(allocation, (x) => x.connectors.length === 0);
    } finally {
      await again?.close();
      await b.close();
    }
  });

  it("a session that starts on a connector before the previous one's allocation is cleared gets its own limit", async () => {
    await setCapacity(11);
    const limits: Limits = new Map();
    const a = await connect(f, f.chargerId, limits, "A");
    // The second charger never answers: each rebalance waits for its timeout, so the stop and the
    // new start below are both queued behind one, as behind a slow charger in production.
    const b = await connect(second, second.id, limits, "B", () => new Promise(() => {}));
    try {
      const now = () => new Date().toISOString();
      const s1 = (await a.call("StartTransaction", { connectorId: 1, idTag: "LB-N1", meterStart: 0, timestamp: now() })) as { transactionId: number };
      await soon(async () => limits.get("A1"), (v) => v === 11);
      const other = (await b.call("StartTransaction", { connectorId: 1, idTag: "LB-N2", meterStart: 0, timestamp: now() })) as { transactionId: number };
      await soon(async () => limits.get("A1"), (v) => v === 5.5);
      expect(transactions.get("A1")).toBe(String(s1.transactionId));
      // While the second charger is being waited for, the first session ends and a new one starts.
      await a.call("StopTransaction", { transactionId: s1.transactionId, meterStop: 100, timestamp: now(), reason: "EVDisconnected" });
      const s2 = (await a.call("StartTransaction", { connectorId: 1, idTag: "LB-N3", meterStart: 0, timestamp: now() })) as { transactionId: number };
      // Same limit as before, but for the new transaction: the old TxProfile ended with its session.
      await soon(async () => transactions.get("A1"), (v) => v === String(s2.transactionId));
      expect(limits.get("A1")).toBe(5.5);
      const shown = await soon(allocation, (x) => x.connectors.find((c) => c.chargerName === "Cargador 1")?.status === "Accepted");
      expect(shown.connectors.find((c) => c.chargerName === "Cargador 1")).toMatchObject({ allocatedKw: 5.5 });
      await a.call("StopTransaction", { transactionId: s2.transactionId, meterStop: 100, timestamp: now(), reason: "EVDisconnected" });
      await b.call("StopTransaction", { transactionId: other.transactionId, meterStop: 100, timestamp: now(), reason: "EVDisconnected" });
      await soon(allocation, (x) => x.connectors.length === 0);
    } finally {
      await a.close();
      await b.close({ force: true });
    }
  });

  it("a charger that refuses profiles is counted at its maximum; one that does not answer is recorded as such", async () => {
    await setCapacity(11);
    const limits: Limits = new Map();
    let secondAnswer: "Rejected" | "silent" = "Rejected";
    const a = await connect(f, f.chargerId, limits, "A");
    const b = await connect(second, second.id, limits, "B", () => (secondAnswer === "silent" ? new Promise(() => {}) : { status: secondAnswer }));
    try {
      const now = () => new Date().toISOString();
      await a.call("StartTransaction", { connectorId: 1, idTag: "LB-4", meterStart: 0, timestamp: now() });
      await soon(async () => limits.get("A1"), (v) => v === 11);
      await b.call("StartTransaction", { connectorId: 1, idTag: "LB-5", meterStart: 0, timestamp: now() });
      // The second charger says no: it draws up to 7.4 kW, the first keeps 11 − 7.4.
      await soon(async () => limits.get("A1"), (v) => v === 3.6);
      // The charger holds its new limit as it answers; the central system records it just after.
      // Until then the screen honestly shows the moment of the refusal (5.5 + 7.4 kW).
      const shown = await soon(allocation, (x) => x.connectors.find((c) => c.chargerName === "Cargador 1")?.allocatedKw === 3.6);
      const [row] = await h.db.select({ smart: chargers.smartCharging }).from(chargers).where(eq(chargers.id, second.id));
      expect(row.smart).toBe(false);
      expect(shown.connectors.find((c) => c.chargerName === "Segundo")).toMatchObject({ allocatedKw: null, status: "Rejected" });
      expect(shown.allocatedKw).toBeLessThanOrEqual(11);

      // Lowering the capacity rebalances at once (the API asks the central system).
      await setCapacity(9);
      await soon(async () => limits.get("A1"), (v) => v === 1.6);

      // Asked again (its firmware changed, say) and silent: the timeout is what the screen shows.
      secondAnswer = "silent";
      await h.db.update(chargers).set({ smartCharging: null }).where(eq(chargers.id, second.id));
      await setCapacity(10);
      await soon(allocation, (x) => x.connectors.find((c) => c.chargerName === "Segundo")?.status === "timeout");

      // Removing the capacity clears the allocations.
      await setCapacity(null);
      await soon(allocation, (x) => x.gridCapacityKw === null && x.connectors.every((c) => c.allocatedKw === null && c.status === null));
    } finally {
      await a.close();
      await b.close({ force: true });
    }
  });
});
