// Local mode keeps the demo's online chargers online while it runs: each one is driven by a
// simulated charger that sends its heartbeats (scripts/local-demo-chargers.ts, scripts/sim-charger.ts).
import type { AddressInfo } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import { RPCServer } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#db/client";
import * as s from "#db/schema";
import { DEMO_OFFLINE_IDENTITY, demoStationChargerIdentities, seedDemoOperator } from "#db/seed/demo";
import { hashOcppPassword, verifyOcppPassword } from "#infra/crypto";
import { prepareDemoChargers } from "../../../scripts/local-demo-chargers";
import { prepareQrDemo, SIM_CHARGER_PASSWORD } from "../../../scripts/local-qr-demo";
import { startSimCharger } from "../../../scripts/sim-charger";
import { testBackends } from "../../setup/db";

describe("the demo's online chargers in local mode", () => {
  let database: Database;
  beforeAll(async () => {
    database = await testBackends()[0].open();
  }, 180_000);
  afterAll(() => database?.close());

  it("are the station chargers but the offline one and the QR demo's, with the simulated chargers' password, online again", { timeout: 90_000 }, async () => {
    const db = database.db;
    const now = new Date("2025-06-15T15:00:00Z");
    const { businessId } = await seedDemoOperator(db, { firebaseUid: "demo-fleet", email: "demo@enchufa.local", now });
    const qr = await prepareQrDemo(db, { businessId, encryptionKey: "a".repeat(64) });
    // One charger someone gave a password of their own is no longer the demo's to drive.
    const [mine, other] = demoStationChargerIdentities().filter((i) => i !== DEMO_OFFLINE_IDENTITY && i !== qr!.ocppIdentity);
    await db.update(s.chargers).set({ ocppPasswordHash: await hashOcppPassword("la-mia-1234") }).where(eq(s.chargers.ocppIdentity, mine));
    // The previous run's stop: its chargers went offline with a notification each.
    const [gone] = await db.select().from(s.chargers).where(eq(s.chargers.ocppIdentity, other));
    await db.update(s.chargers).set({ online: false }).where(eq(s.chargers.id, gone.id));
    await db.insert(s.notifications).values({ businessId, type: "CHARGER_OFFLINE", title: "Cargador sin conexión", body: `${gone.name} se desconectó. Sus conectores figuran sin conexión hasta que vuelva.`, link: `/charger/edit/${gone.id}` });

    const later = new Date(now.getTime() + 3_600_000);
    const fleet = await prepareDemoChargers(db, { businessId, exclude: [qr!.ocppIdentity], now: later });
    const expected = demoStationChargerIdentities().filter((i) => ![DEMO_OFFLINE_IDENTITY, qr!.ocppIdentity, mine].includes(i));
    expect(fleet.map((c) => c.ocppIdentity)).toEqual([...expected].sort());
    expect(fleet.length).toBeGreaterThan(5);
    const rows = await db.select().from(s.chargers).where(inArray(s.chargers.ocppIdentity, expected));
    for (const row of rows) {
      expect(await verifyOcppPassword(SIM_CHARGER_PASSWORD, row.ocppPasswordHash), row.ocppIdentity).toBe(true);
      expect(row).toMatchObject({ online: true, lastHeartbeatAt: later });
    }
    const [nordelta] = await db.select().from(s.chargers).where(eq(s.chargers.ocppIdentity, DEMO_OFFLINE_IDENTITY));
    expect(nordelta.online).toBe(false);
    const unread = await db.select().from(s.notifications).where(and(eq(s.notifications.businessId, businessId), eq(s.notifications.link, `/charger/edit/${gone.id}`)));
    const stopped = unread.filter((n) => n.body.includes("se desconectó"));
    expect(stopped.length).toBeGreaterThan(0);
    expect(stopped.every((n) => n.readAt !== null)).toBe(true);
    // The double-connector charger is simulated with both.
    expect(fleet.find((c) => c.ocppIdentity === "ENCH-NORD-01")?.connectors).toBe(2);
    // Idempotent.
    expect(await prepareDemoChargers(db, { businessId, exclude: [qr!.ocppIdentity], now: later })).toEqual(fleet);
  });
});

describe("a simulated charger", () => {
  const calls: { identity: string; method: string }[] = [];
  const server = new RPCServer({ protocols: ["ocpp1.6"], strictMode: false });
  let endpoint = "";
  beforeAll(async () => {
    server.on("client", (client) => {
      client.handle(({ method }: { method: string }) => {
        calls.push({ identity: client.identity, method });
        if (method === "BootNotification") return { status: "Accepted", currentTime: new Date().toISOString(), interval: 1 };
        if (method === "Heartbeat") return { currentTime: new Date().toISOString() };
        return {};
      });
    });
    const http = await server.listen(0, "127.0.0.1");
    endpoint = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close({ force: true }));

  const methods = (identity: string) => calls.filter((c) => c.identity === identity).map((c) => c.method);

  it("that resumes a demo charger sends only heartbeats, at the given interval; one that boots takes the interval it is given", async () => {
    const resumed = await startSimCharger({ endpoint, identity: "ENCH-CABA-01", password: SIM_CHARGER_PASSWORD, heartbeatSeconds: 1, boot: false });
    const booted = await startSimCharger({ endpoint, identity: "ENCH-QR-01", password: SIM_CHARGER_PASSWORD });
    try {
      await new Promise((r) => setTimeout(r, 2_600));
      expect(methods("ENCH-CABA-01")).toEqual(["Heartbeat", "Heartbeat"]);
      expect(methods("ENCH-QR-01").slice(0, 2)).toEqual(["BootNotification", "StatusNotification"]);
      expect(methods("ENCH-QR-01").filter((m) => m === "Heartbeat").length).toBeGreaterThanOrEqual(2);
    } finally {
      await resumed.close();
      await booted.close();
    }
  });
});
