// The station's authorization policy and the company's RFID tags answer Authorize and
// the start of a transaction, on both protocols (ocpp-rpc chargers in strict mode), and a grouped
// tag's session is priced with its group's rate.
import { and, eq, type SQL } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargers, chargingSessions, stations } from "#db/schema";
import { priceSession, usageFromSession } from "#domain/pricing";
import { expectStatus, rateInput, stationInput } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, tagSpeaker, type Fixture, type OcppHarness } from "./harness";

const MIN = 60_000;

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
    let talk: ReturnType<typeof tagSpeaker>;

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
      talk = tagSpeaker(cli, protocol);
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
        const { status, sessionKey } = await talk.session(tag, 5000, t0);
        expect(status, tag).toBe(answer);
        const [s] = await h.db.select().from(chargingSessions).where(and(eq(chargingSessions.chargerId, f.chargerId), sessionKey));
        expect(s, tag).toMatchObject({ status: "INVALID", paymentStatus: "NOT_REQUIRED", totalCents: 0 });
      }
    });

    it("a grouped tag's session is priced with its group's rate; another tag's with the connector's", async () => {
      const t0 = Date.now() - 3 * 60 * MIN;
      const grouped = await talk.session("flota-01", 10_000, t0);
      expect(grouped.status).toBe("Accepted");
      const ungrouped = await talk.session("LIBRE-01", 10_000, t0 + 60 * MIN);
      expect(ungrouped.status).toBe("Accepted");
      const closed = async (sessionKey: SQL) =>
        eventually(
          async () =>
            (
              await h.db
                .select()
                .from(chargingSessions)
                .where(and(eq(chargingSessions.chargerId, f.chargerId), sessionKey))
            )[0],
          (s) => s?.status === "COMPLETED",
        );
      const a = await closed(grouped.sessionKey);
      expect(a.rateId).toBe(groupRateId);
      expect(a.rateSnapshot?.pricePerKwhCents).toBe(10000);
      expect(a.energyCents).toBe(100_000); // 10 kWh × $ 100
      expect(a.totalCents).toBe(priceSession(a.rateSnapshot!, usageFromSession(a)).totalCents);
      const b = await closed(ungrouped.sessionKey);
      expect(b.rateId).toBe(f.rateId);
      expect(b.rateSnapshot?.pricePerKwhCents).toBe(35000);
      await setPolicy("OPEN");
    });
  });
});
