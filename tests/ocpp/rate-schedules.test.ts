// A rate change scheduled for midnight, on both protocols: a session started before 00:00 keeps
// the old price (its snapshot), one started after it takes the new price — without waiting for
// the sweep to write the change into the rate.
import { eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargingSessions, rateSchedules } from "#db/schema";
import { rateInput } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, type OcppHarness } from "./harness";

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();

/** The last 00:00 in Argentina (UTC−3, no DST) before now. */
function lastArgentineMidnight(now = Date.now()): number {
  const local = now - 3 * 60 * MIN;
  return local - (local % (24 * 60 * MIN)) + 3 * 60 * MIN;
}

type Protocol = "ocpp1.6" | "ocpp2.0.1";

async function startAt(cli: RPCClient, protocol: Protocol, connector: number, at: number): Promise<void> {
  if (protocol === "ocpp1.6") {
    await cli.call("StartTransaction", { connectorId: connector, idTag: "RFID-0042", meterStart: 0, timestamp: iso(at) });
    return;
  }
  await cli.call("TransactionEvent", {
    eventType: "Started",
    timestamp: iso(at),
    triggerReason: "Authorized",
    seqNo: 0,
    evse: { id: connector, connectorId: 1 },
    idToken: { idToken: "RFID-0042", type: "ISO14443" },
    transactionInfo: { transactionId: `midnight-${connector}-${at}`, chargingState: "EVConnected" },
  });
}

describe.each(testBackends())("a rate change at midnight ($name)", (backend) => {
  let h: OcppHarness;
  beforeAll(async () => {
    h = await openOcppHarness(backend);
  });
  afterAll(() => h.close());

  for (const protocol of ["ocpp1.6", "ocpp2.0.1"] as const) {
    it(`${protocol}: a session started at 23:59 keeps today's price; one started at 00:01 takes the new price`, async () => {
      const f = await createFixture(h, `midnight-${protocol}-${backend.name}`, rateInput({ pricePerKwhCents: 35000 }));
      const midnight = lastArgentineMidnight();
      await h.db.insert(rateSchedules).values({ businessId: f.tenant.businessId, rateId: f.rateId, effectiveFrom: new Date(midnight), changes: { pricePerKwhCents: 42000 }, createdBy: "dueña@example.com" });
      const cli = chargerClient(h, f, { protocols: [protocol] });
      await cli.connect();
      try {
        await cli.call("BootNotification", protocol === "ocpp1.6" ? { chargePointVendor: "Wallbox", chargePointModel: "Commander 2" } : { reason: "PowerUp", chargingStation: { vendorName: "Wallbox", model: "Commander 2" } });
        await startAt(cli, protocol, 1, midnight - MIN);
        await startAt(cli, protocol, 2, midnight + MIN);
        const rows = await eventually(
          () => h.db.select().from(chargingSessions).where(eq(chargingSessions.chargerId, f.chargerId)),
          (r) => r.length === 2,
        );
        const byStart = rows.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
        expect(byStart.map((s) => [s.startedAt.toISOString(), s.rateSnapshot?.pricePerKwhCents])).toEqual([
          [iso(midnight - MIN), 35000],
          [iso(midnight + MIN), 42000],
        ]);
      } finally {
        await cli.close();
      }
    });
  }
});
