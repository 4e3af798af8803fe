// The central system's session events, as payments and roaming receive them: a start, a reading
// attached to the session, a connector's move and a stop each emit "session.changed" with the
// company and the charger, after the change is committed.
import type { RPCClient } from "ocpp-rpc";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargingSessions } from "#db/schema";
import type { SessionEventOf } from "#ocpp/session-events";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const iso = (t: number) => new Date(t).toISOString();

describe.each(testBackends())("OCPP session events ($name)", (backend) => {
  let h: OcppHarness;
  let f: Fixture;
  let cli: RPCClient;
  const seen: { event: SessionEventOf<"session.changed">; sessions: number }[] = [];
  beforeAll(async () => {
    h = await openOcppHarness(backend);
    f = await createFixture(h, `ocpp-events-${backend.name}`);
    // Each event is delivered after its commit: the listener reads the sessions as they are then.
    h.central.events.on("session.changed", async (event) => {
      const rows = await h.db.select({ id: chargingSessions.id }).from(chargingSessions).where(eq(chargingSessions.chargerId, f.chargerId));
      seen.push({ event, sessions: rows.length });
    });
    cli = chargerClient(h, f);
    await cli.connect();
  });
  afterAll(async () => {
    await cli.close();
    await h.close();
  });

  it("start, reading, connector status and stop each emit session.changed for the company and the charger", async () => {
    const expected = { type: "session.changed", businessId: f.tenant.businessId, chargerId: f.chargerId };
    const t0 = Date.now() - 30 * 60_000;
    await cli.call("StatusNotification", { connectorId: 1, status: "Preparing", errorCode: "NoError", timestamp: iso(t0 - 60_000) });
    await eventually(async () => seen.length, (n) => n >= 1);
    expect(seen.at(-1)).toEqual({ event: expected, sessions: 0 });

    const start = (await cli.call("StartTransaction", { connectorId: 1, idTag: "RFID-EVENTS", meterStart: 1_000, timestamp: iso(t0) })) as { transactionId: number };
    await eventually(async () => seen.length, (n) => n >= 2);
    expect(seen.at(-1)).toEqual({ event: expected, sessions: 1 });

    await cli.call("MeterValues", { connectorId: 1, transactionId: start.transactionId, meterValue: [{ timestamp: iso(t0 + 60_000), sampledValue: [{ value: "2500" }] }] });
    await eventually(async () => seen.length, (n) => n >= 3);

    await cli.call("StopTransaction", { transactionId: start.transactionId, meterStop: 3_000, timestamp: iso(t0 + 10 * 60_000), reason: "EVDisconnected" });
    await eventually(async () => seen.length, (n) => n >= 4);
    expect(seen.map((s) => s.event)).toEqual([expected, expected, expected, expected]);
  });
});
