// Partners' tokens at the chargers (ADR 0021): an ocpp-rpc charger of each protocol
// (1.6 Authorize / StartTransaction; 2.0.1 Authorize / TransactionEvent Started) presents tokens
// of the test eMSP at a station published to roaming whose policy only lets known tags charge: a
// token the eMSP pushed (whitelist ALLOWED) is accepted locally, an unknown one is authorised in
// real time at the eMSP (with the location and EVSE, once for the Authorize and the start), a
// refused one is refused, and a silent eMSP is given up after the timeout. The sessions those
// tokens start are the partner's: their Session and CDR are pushed to it with the auth method and
// authorization reference. The company's own tags never make the eMSP be asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { z } from "zod";
import { businessUsers, chargers, chargingSessions, ocpiPartners, ocpiSessions, stations } from "#db/schema";
import { createKeyRing } from "#infra/crypto";
import { createOcpiApp, ocpiServices } from "../../ocpi/app";
import { createChargerAuthorizer } from "../../ocpi/charger-authorization";
import { pushToPartners } from "../../ocpi/push";
import { createInvitation, type OcpiServices } from "../../ocpi/registration";
import { cdr as cdrSchema, commandResponse, session as sessionSchema } from "../../ocpi/schemas";
import { expectStatus, TEST_KEYS } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, openOcppHarness, tagSpeaker, type Fixture, type OcppHarness } from "../ocpp/harness";
import { ocpiCall, serveLate, TestEmsp, type Received } from "./emsp";

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();
const silent = { info: () => {}, warn: () => {}, error: () => {} };
/** The real-time answer's deadline in these tests (5 s in production). */
const TIMEOUT_MS = 400;

describe.each(testBackends())("Partners' tokens at the chargers ($name)", (backend) => {
  let h: OcppHarness;
  let cpo: { origin: string; close: () => Promise<void> };
  const deps = (origin: string) => ({ db: h.db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: origin, logger: silent, client: { local: true }, ocpp: h.central });

  beforeAll(async () => {
    h = await openOcppHarness(backend, {
      roaming: (db) => createChargerAuthorizer(ocpiServices({ db, keyRing: createKeyRing(TEST_KEYS), publicOrigin: "http://127.0.0.1", logger: silent, client: { local: true } }), { timeoutMs: TIMEOUT_MS }),
    });
    cpo = await serveLate((origin) => createOcpiApp(deps(origin)));
  });
  afterAll(async () => {
    await cpo?.close();
    await h?.close();
  });

  describe.each(["ocpp1.6", "ocpp2.0.1"] as const)("%s", (protocol) => {
    let f: Fixture;
    let cli: RPCClient;
    let emsp: TestEmsp;
    let svc: OcpiServices;
    let stationId: string;
    let talk: ReturnType<typeof tagSpeaker>;
    const asked: { uid: string; body: unknown }[] = [];
    const pushed: Received[] = [];
    /** The eMSP's real-time answers by uid (absent: 2004, not ours); `slow` answers after the deadline. */
    const answers = new Map<string, string>();
    const slow = new Set<string>();
    const tokenOf = (uid: string, over: Record<string, unknown> = {}) => ({
      country_code: "NL",
      party_id: "EMS",
      uid,
      type: "RFID",
      contract_id: `NL-EMS-${uid}`,
      issuer: "Test eMSP",
      valid: true,
      whitelist: "ALLOWED",
      last_updated: "2026-11-26T12:00:00Z",
      ...over,
    });
    const pushToken = async (uid: string, over: Record<string, unknown> = {}) => {
      const res = await ocpiCall("PUT", `${cpo.origin}/ocpi/2.2.1/tokens/NL/EMS/${uid}`, emsp.cpoToken, z.unknown(), tokenOf(uid, over));
      expect(res.body.status_code).toBe(1000);
    };
    const link = async (key: ReturnType<typeof eq>) => {
      const [s] = await h.db.select().from(chargingSessions).where(and(eq(chargingSessions.chargerId, f.chargerId), key));
      const [l] = await h.db.select().from(ocpiSessions).where(eq(ocpiSessions.sessionId, s.id));
      return { session: s, link: l };
    };

    beforeAll(async () => {
      f = await createFixture(h, `ocpi-tags-${protocol}-${backend.name}`);
      const [business] = await h.db.update(businessUsers).set({ ocpiPartyId: "ENC" }).where(eq(businessUsers.id, f.tenant.businessId)).returning();
      [{ stationId }] = (await h.db.select({ stationId: chargers.stationId }).from(chargers).where(eq(chargers.id, f.chargerId))) as { stationId: string }[];
      // Only known tags charge here: whatever a partner's token gets, it gets from the partner.
      await h.db.update(stations).set({ roamingPublished: true, authorizationPolicy: "KNOWN_TAGS" }).where(eq(stations.id, stationId));
      svc = ocpiServices(deps(cpo.origin));
      emsp = await new TestEmsp("EMS", "NL").start();
      emsp.extra = async (req) => {
        const m = /^\/ocpi\/2\.2\.1\/tokens\/([^/]+)\/authorize$/.exec(req.path);
        if (req.method === "POST" && m) {
          const uid = decodeURIComponent(m[1]);
          asked.push({ uid, body: req.body });
          if (slow.has(uid)) await new Promise((r) => setTimeout(r, TIMEOUT_MS * 3));
          const allowed = answers.get(uid);
          if (!allowed) return { status: 404, body: { status_code: 2004, status_message: "Unknown token", timestamp: new Date().toISOString() } };
          return { body: { data: { allowed, token: tokenOf(uid), authorization_reference: `REF-${uid}` }, status_code: 1000, timestamp: new Date().toISOString() } };
        }
        if ((req.method === "PUT" && req.path.startsWith("/ocpi/2.2.1/sessions/")) || (req.method === "POST" && req.path === "/ocpi/2.2.1/cdrs")) {
          pushed.push(req);
          return { body: { status_code: 1000, timestamp: new Date().toISOString() } };
        }
        if (req.method === "POST" && req.path.startsWith("/ocpi/2.2.1/results/")) return { body: { status_code: 1000, timestamp: new Date().toISOString() } };
        return undefined;
      };
      const { token: tokenA } = await createInvitation(svc, business);
      expect((await emsp.register(`${cpo.origin}/ocpi/versions`, tokenA)).body.status_code).toBe(1000);
      await expectStatus(await h.call("POST", "/Business/Tag", { token: f.tenant.token, body: { idTag: "PROPIA-01", holderName: "Ana" } }), 201);

      cli = chargerClient(h, f, { protocols: [protocol] });
      await cli.connect();
      talk = tagSpeaker(cli, protocol);
    });
    afterAll(async () => {
      await cli?.close({ force: true });
      // The next protocol's passes would try this eMSP once it is gone.
      if (f) await h.db.delete(ocpiPartners).where(eq(ocpiPartners.businessId, f.tenant.businessId));
      await emsp?.stop();
    });

    it("the company's own tags and unknown tags at a station not in roaming never make the eMSP be asked", async () => {
      expect(await talk.authorize("propia-01")).toBe("Accepted");
      await h.db.update(stations).set({ roamingPublished: false }).where(eq(stations.id, stationId));
      answers.set("NOT-PUBLISHED", "ALLOWED");
      expect(await talk.authorize("NOT-PUBLISHED")).toBe("Invalid");
      await h.db.update(stations).set({ roamingPublished: true }).where(eq(stations.id, stationId));
      expect(asked).toEqual([]);
    });

    it("a token the eMSP pushed (whitelist ALLOWED) is accepted locally; its session is the partner's, pushed with auth_method WHITELIST", async () => {
      await pushToken("CARD-STORED");
      expect(await talk.authorize("card-stored")).toBe("Accepted");
      const { status, sessionKey } = await talk.session("CARD-STORED", 7000, Date.now() - 2 * 60 * MIN);
      expect(status).toBe("Accepted");
      expect(asked).toEqual([]);
      const { session, link: l } = await link(sessionKey);
      expect(session.status).toBe("COMPLETED");
      expect(l).toMatchObject({ authMethod: "WHITELIST", tokenUid: "CARD-STORED", authorizationReference: null, token: { uid: "CARD-STORED", contract_id: "NL-EMS-CARD-STORED", type: "RFID" } });

      const report = await pushToPartners(svc);
      expect(report).toMatchObject({ sessions: 1, cdrs: 1, failures: 0 });
      const put = pushed.find((r) => r.method === "PUT" && r.path.endsWith(`/${session.id}`))!;
      expect(sessionSchema.parse(put.body)).toMatchObject({ auth_method: "WHITELIST", status: "COMPLETED", cdr_token: { uid: "CARD-STORED" }, location_id: stationId, evse_uid: f.chargerId });
      const cdr = cdrSchema.parse(pushed.find((r) => r.method === "POST" && (r.body as { id: string }).id === session.id)!.body);
      expect(cdr).toMatchObject({ auth_method: "WHITELIST", total_energy: 7, cdr_token: { contract_id: "NL-EMS-CARD-STORED" } });
    });

    it("an unknown uid is authorised in real time, with the location and EVSE; the start does not ask again; the session is AUTH_REQUEST with the eMSP's reference", async () => {
      answers.set("APP-LIVE", "ALLOWED");
      expect(await talk.authorize("APP-LIVE")).toBe("Accepted");
      expect(asked).toEqual([{ uid: "APP-LIVE", body: { location_id: stationId, evse_uids: [f.chargerId] } }]);
      const { status, sessionKey } = await talk.session("APP-LIVE", 3000, Date.now() - 90 * MIN);
      expect(status).toBe("Accepted");
      expect(asked).toHaveLength(1);
      const { link: l } = await link(sessionKey);
      expect(l).toMatchObject({ authMethod: "AUTH_REQUEST", authorizationReference: "REF-APP-LIVE", token: { uid: "APP-LIVE" } });
      await pushToPartners(svc);
      const cdr = cdrSchema.parse(pushed.filter((r) => r.method === "POST").at(-1)!.body);
      expect(cdr).toMatchObject({ auth_method: "AUTH_REQUEST", authorization_reference: "REF-APP-LIVE", total_energy: 3 });
    });

    it("refusals: the eMSP's BLOCKED and NOT_ALLOWED, a pushed token not valid, a NEVER token the eMSP refuses; nobody's token → the station's policy", async () => {
      answers.set("APP-BLOCKED", "BLOCKED");
      answers.set("APP-NOT", "NOT_ALLOWED");
      expect(await talk.authorize("APP-BLOCKED")).toBe("Blocked");
      expect(await talk.authorize("APP-NOT")).toBe("Invalid");
      await pushToken("CARD-OFF", { valid: false });
      expect(await talk.authorize("CARD-OFF")).toBe("Blocked");
      await pushToken("CARD-NEVER", { whitelist: "NEVER" });
      answers.set("CARD-NEVER", "EXPIRED");
      expect(await talk.authorize("CARD-NEVER")).toBe("Expired");
      expect(await talk.authorize("NADIE")).toBe("Invalid");
      // A refused start leaves an INVALID session that belongs to no partner.
      const { status, sessionKey } = await talk.session("APP-NOT", 1000, Date.now() - 60 * MIN);
      expect(status).toBe("Invalid");
      const { session, link: l } = await link(sessionKey);
      expect(session.status).toBe("INVALID");
      expect(l).toBeUndefined();
    });

    it("an eMSP that does not answer in time: Invalid after the deadline, not after the eMSP", async () => {
      answers.set("APP-SLOW", "ALLOWED");
      slow.add("APP-SLOW");
      const started = Date.now();
      expect(await talk.authorize("APP-SLOW")).toBe("Invalid");
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 3);
      // A stored ALLOWED_OFFLINE token whose eMSP is silent may charge (§WhitelistType).
      await pushToken("CARD-OFFLINE", { whitelist: "ALLOWED_OFFLINE" });
      answers.set("CARD-OFFLINE", "ALLOWED");
      slow.add("CARD-OFFLINE");
      expect(await talk.authorize("CARD-OFFLINE")).toBe("Accepted");
    });

    it.runIf(protocol === "ocpp1.6")("a START_SESSION's token is accepted at this KNOWN_TAGS station without asking the eMSP, and the session is linked to the command", async () => {
      cli.handle("RemoteStartTransaction", async ({ params }) => {
        const p = params as { connectorId: number; idTag: string };
        setTimeout(() => void cli.call("StartTransaction", { connectorId: p.connectorId, idTag: p.idTag, meterStart: 0, timestamp: iso(Date.now()) }).catch(() => {}), 10);
        return { status: "Accepted" };
      });
      const before = asked.length;
      const res = await ocpiCall("POST", `${cpo.origin}/ocpi/2.2.1/commands/START_SESSION`, emsp.cpoToken, commandResponse, {
        response_url: `${emsp.base}/2.2.1/results/start-1`,
        token: tokenOf("APP-CMD", { type: "APP_USER" }),
        location_id: stationId,
        evse_uid: f.chargerId,
        connector_id: "1",
        authorization_reference: "CMD-1",
      });
      expect(res.body.data).toMatchObject({ result: "ACCEPTED" });
      const [s] = await eventually(() => h.db.select().from(chargingSessions).where(eq(chargingSessions.idTag, "APP-CMD")), (rows) => rows.length === 1);
      expect(s.status).toBe("ACTIVE");
      const [l] = await eventually(() => h.db.select().from(ocpiSessions).where(eq(ocpiSessions.sessionId, s.id)), (rows) => rows.length === 1);
      expect(l).toMatchObject({ authMethod: "COMMAND", authorizationReference: "CMD-1" });
      expect(asked.length).toBe(before);
    });
  });
});
