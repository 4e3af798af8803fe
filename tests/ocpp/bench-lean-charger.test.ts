// The bench's simulated charger (scripts/bench/lean-charger.ts) against the started central
// system: it must speak OCPP-J as the chargers do, or `bench:ocpp` would time something else.
// On PGlite only: what is checked is the client, not the database.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargers } from "#db/schema";
import { expectStatus } from "../api/helpers";
import { testBackends } from "../setup/db";
import { createFixture, eventually, openOcppHarness, type OcppHarness } from "./harness";
import { LeanCharger, leanChargers } from "../../scripts/bench/lean-charger";

describe("the bench's lean simulated charger", () => {
  let h: OcppHarness;
  beforeAll(async () => {
    h = await openOcppHarness(testBackends()[0], { commandTimeoutMs: 2_000 });
  });
  afterAll(() => h.close());

  it("boots and calls in 1.6 and 2.0.1, answers the server's calls NotImplemented, and reports its close", async () => {
    const f = await createFixture(h, "lean-16");
    const cli = new LeanCharger({ endpoint: h.endpoint, identity: f.identity, password: f.password, protocol: "ocpp1.6" });
    await cli.connect();
    expect(leanChargers.has(cli)).toBe(true);
    expect(await cli.call("BootNotification", { chargePointVendor: "Bench", chargePointModel: "Sim-22" })).toMatchObject({ status: "Accepted", interval: expect.any(Number) });
    expect(await cli.call("Heartbeat", {})).toMatchObject({ currentTime: expect.any(String) });
    // A malformed call is answered with a CALLERROR, which rejects.
    await expect(cli.call("StatusNotification", { connectorId: "uno" })).rejects.toThrow();
    const row = await eventually(async () => (await h.db.select().from(chargers).where(eq(chargers.id, f.chargerId)))[0], (r) => r.online);
    expect(row.ocppProtocol).toBe("ocpp1.6");

    // The operator's command reaches it; it has no handler, as RPCClient without one.
    const reset = await expectStatus(await h.call("POST", `/Business/Charger/${f.chargerId}/Command`, { token: f.tenant.token, body: { command: "Reset", type: "Soft" } }), 200);
    expect(reset).toMatchObject({ outcome: "rejected", status: "NotImplemented" });

    let closed = false;
    cli.once("close", () => (closed = true));
    await cli.close({ force: true });
    await eventually(async () => closed, (c) => c);
    expect(leanChargers.has(cli)).toBe(false);
    await expect(cli.call("Heartbeat", {})).rejects.toThrow("not connected");

    const f201 = await createFixture(h, "lean-201");
    const v201 = new LeanCharger({ endpoint: h.endpoint, identity: f201.identity, password: f201.password, protocol: "ocpp2.0.1" });
    await v201.connect();
    expect(await v201.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Bench", model: "Sim-22" } })).toMatchObject({ status: "Accepted" });
    await v201.close({ force: true });
  });

  it("a wrong password is refused at the upgrade; a call unanswered for 30 s fails at the sweep", async () => {
    const f = await createFixture(h, "lean-refused");
    await expect(new LeanCharger({ endpoint: h.endpoint, identity: f.identity, password: "not-the-password-0123456789", protocol: "ocpp1.6" }).connect()).rejects.toThrow(/401/);

    const cli = new LeanCharger({ endpoint: h.endpoint, identity: f.identity, password: f.password, protocol: "ocpp1.6" });
    await cli.connect();
    await cli.call("BootNotification", { chargePointVendor: "Bench", chargePointModel: "Sim-22" });
    // The sweep runs in the same turn as the call, before any answer can arrive.
    const answered = cli.call("Heartbeat", {});
    cli.tick(Date.now() + 29_000);
    expect(await answered).toMatchObject({ currentTime: expect.any(String) });
    const late = cli.call("Heartbeat", {});
    cli.tick(Date.now() + 30_001);
    await expect(late).rejects.toThrow("timeout");
    await cli.close({ force: true });
  });
});
