// The tags as a charger's local authorization list (ADR 0018): POST
// /Business/Charger/{id}/LocalList sends a Full SendLocalList (1.6 idTag/idTagInfo, 2.0.1
// idToken/idTokenInfo) one version above what the charger holds, each tag with the answer it gets
// at that station; …/LocalList/Version asks GetLocalListVersion. Every answer: accepted, Failed,
// NotSupported, a CALLERROR, no answer, offline.
import { eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, chargingSessions, ocppMessages } from "#db/schema";
import { expectStatus, stationInput } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, onlineSince, openOcppHarness, type Fixture, type OcppHarness } from "./harness";
import type { CommandProtocol } from "#ocpp/commands";

const V201 = { protocols: ["ocpp2.0.1"] };

describe.each(testBackends())("local authorization list ($name)", (backend) => {
  let h: OcppHarness;
  let f: Fixture;
  beforeAll(async () => {
    h = await openOcppHarness(backend, { commandTimeoutMs: 800 });
    f = await createFixture(h, `locallist-${backend.name}`);
    const t = f.tenant.token;
    const charger = await expectStatus(await h.call("GET", `/Business/Charger/${f.chargerId}`, { token: t }), 200);
    // The charger's station takes registered cards only; another station exists.
    const station = await expectStatus(await h.call("GET", `/Business/ChargingStation/${charger.stationId}`, { token: t }), 200);
    await expectStatus(await h.call("PUT", `/Business/ChargingStation/${station.id}`, { token: t, body: { ...stationInput(), authorizationPolicy: "KNOWN_TAGS" } }), 200);
    const elsewhere = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t, body: stationInput({ name: "Otra" }) }), 201);
    const group = await expectStatus(await h.call("POST", "/Business/AccessGroup", { token: t, body: { name: "Solo la otra", allStations: false, stationIds: [elsewhere.id] } }), 201);
    for (const tag of [
      { idTag: "A-OK", holderName: "Ana" },
      { idTag: "B-BLOCKED", holderName: "Beto", blocked: true },
      { idTag: "C-EXPIRED", holderName: "Caro", expiresOn: "2020-01-31" },
      { idTag: "D-ELSEWHERE", holderName: "Dani", groupId: group.id },
      { idTag: "E-UNTIL", holderName: "Eva", expiresOn: "2099-03-15" },
    ]) {
      await expectStatus(await h.call("POST", "/Business/Tag", { token: t, body: tag }), 201);
    }
  });
  afterAll(() => h.close());

  const send = () => h.call("POST", `/Business/Charger/${f.chargerId}/LocalList`, { token: f.tenant.token });
  const ask = () => h.call("POST", `/Business/Charger/${f.chargerId}/LocalList/Version`, { token: f.tenant.token });
  const charger = () => h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }).then((r) => r.json() as Promise<{ online: boolean; localListVersion: number | null; localListAt: string | null }>);

  async function connect(handlers: Record<string, (params: Record<string, unknown>) => unknown>, opts: { protocols?: string[] } = {}): Promise<RPCClient> {
    const cli = chargerClient(h, f, opts);
    for (const [method, fn] of Object.entries(handlers)) cli.handle(method, async ({ params }) => (await fn((params ?? {}) as Record<string, unknown>)) as Record<string, unknown>);
    const since = new Date();
    await cli.connect();
    await onlineSince(h, f.chargerId, since);
    return cli;
  }
  const offline = () => eventually(charger, (c) => !c.online);

  it("1.6: the whole list with each tag's answer at this station, one version up each time; GetLocalListVersion stores what the charger says", async () => {
    const lists: Record<string, unknown>[] = [];
    let held = 0;
    const cli = await connect({
      SendLocalList: (p) => {
        lists.push(p);
        held = p.listVersion as number;
        return { status: "Accepted" };
      },
      GetLocalListVersion: () => ({ listVersion: held }),
    });
    try {
      const first = await expectStatus(await send(), 200);
      expect(first).toEqual({ outcome: "accepted", status: "Accepted", version: 1, entries: 5, message: "El cargador guardó la lista local (versión 1, 5 tarjetas)." });
      expect(lists[0]).toEqual({
        listVersion: 1,
        updateType: "Full",
        localAuthorizationList: [
          { idTag: "A-OK", idTagInfo: { status: "Accepted" } },
          { idTag: "B-BLOCKED", idTagInfo: { status: "Blocked" } },
          { idTag: "C-EXPIRED", idTagInfo: { status: "Expired" } },
          { idTag: "D-ELSEWHERE", idTagInfo: { status: "Invalid" } },
          // Valid through the 15th in Argentina: until the 16th at 00:00 (-03:00).
          { idTag: "E-UNTIL", idTagInfo: { status: "Accepted", expiryDate: "2099-03-16T03:00:00.000Z" } },
        ],
      });
      expect((await charger()).localListVersion).toBe(1);
      expect((await expectStatus(await send(), 200)).version).toBe(2);
      expect(lists[1].listVersion).toBe(2);

      held = 7; // the charger was given a list by someone else
      expect(await expectStatus(await ask(), 200)).toEqual({ outcome: "accepted", status: "Accepted", version: 7, message: "El cargador tiene la lista local versión 7." });
      expect((await charger()).localListVersion).toBe(7);
      expect((await expectStatus(await send(), 200)).version).toBe(8);

      const [entry] = await h.db.select().from(auditLog).where(eq(auditLog.action, "charger.local_list")).limit(1);
      expect(entry.resourceId).toBe(f.chargerId);
    } finally {
      await cli.close();
    }
  });

  it("1.6: Failed, NotSupported, a charger without the message, no answer, offline: the version held is unchanged", async () => {
    await offline();
    const before = (await charger()).localListVersion;
    let mode: "Failed" | "NotSupported" | "silent" = "Failed";
    const cli = await connect({
      SendLocalList: () => (mode === "silent" ? new Promise(() => {}) : { status: mode }),
      GetLocalListVersion: () => ({ listVersion: -1 }),
    });
    try {
      expect(await expectStatus(await send(), 200)).toMatchObject({ outcome: "rejected", status: "Failed", version: before, message: "El cargador no pudo guardar la lista local." });
      mode = "NotSupported";
      expect(await expectStatus(await send(), 200)).toMatchObject({ outcome: "rejected", status: "NotSupported", message: "El cargador no admite listas locales." });
      mode = "silent";
      expect(await expectStatus(await send(), 200)).toMatchObject({ outcome: "timeout", status: "timeout", version: before });
      expect(await expectStatus(await ask(), 200)).toMatchObject({ outcome: "rejected", version: -1, message: "El cargador no admite listas locales." });
    } finally {
      await cli.close({ force: true });
    }
    await offline();
    const plain = await connect({});
    try {
      expect(await expectStatus(await send(), 200)).toMatchObject({ outcome: "rejected", status: "NotImplemented", message: "El cargador no admite listas locales." });
      expect(await expectStatus(await ask(), 200)).toMatchObject({ outcome: "rejected", status: "NotImplemented" });
    } finally {
      await plain.close();
    }
    await offline();
    expect(await expectStatus(await send(), 200)).toMatchObject({ outcome: "offline", status: "offline" });
    expect(await expectStatus(await ask(), 200)).toMatchObject({ outcome: "offline" });
    expect((await charger()).localListVersion).toBe(-1);
  });

  it("2.0.1: SendLocalList with idToken / idTokenInfo and versionNumber; GetLocalListVersion's versionNumber", async () => {
    await offline();
    const lists: Record<string, unknown>[] = [];
    const cli = await connect(
      {
        SendLocalList: (p) => {
          lists.push(p);
          return { status: "Accepted" };
        },
        GetLocalListVersion: () => ({ versionNumber: 3 }),
      },
      V201,
    );
    try {
      expect(await expectStatus(await ask(), 200)).toMatchObject({ outcome: "accepted", version: 3 });
      expect(await expectStatus(await send(), 200)).toMatchObject({ outcome: "accepted", version: 4 });
      expect(lists[0]).toMatchObject({ versionNumber: 4, updateType: "Full" });
      const entries = lists[0].localAuthorizationList as unknown[];
      expect(entries).toHaveLength(5);
      expect(entries[1]).toEqual({ idToken: { idToken: "B-BLOCKED", type: "ISO14443" }, idTokenInfo: { status: "Blocked" } });
      expect(entries[4]).toEqual({ idToken: { idToken: "E-UNTIL", type: "ISO14443" }, idTokenInfo: { status: "Accepted", cacheExpiryDateTime: "2099-03-16T03:00:00.000Z" } });
    } finally {
      await cli.close();
    }
    expect(await h.db.select().from(chargingSessions)).toEqual([]);
  });
  // A company without tags: the charger's list is emptied with a Full update, on both protocols.
  it.each([
    ["ocpp1.6", { listVersion: 1, updateType: "Full", localAuthorizationList: [] }],
    ["ocpp2.0.1", { versionNumber: 1, updateType: "Full" }],
  ] as const)("%s: with no tags, a Full update that empties the charger's list is sent and accepted", async (protocol, expected) => {
    const empty = await createFixture(h, `locallist-empty-${protocol}-${backend.name}`);
    const lists: Record<string, unknown>[] = [];
    const cli = chargerClient(h, empty, { protocols: [protocol] });
    cli.handle("SendLocalList", async ({ params }) => {
      lists.push(params as Record<string, unknown>);
      return { status: "Accepted" };
    });
    const since = new Date();
    await cli.connect();
    await onlineSince(h, empty.chargerId, since);
    try {
      const result = await expectStatus(await h.call("POST", `/Business/Charger/${empty.chargerId}/LocalList`, { token: empty.tenant.token }), 200);
      expect(result).toEqual({ outcome: "accepted", status: "Accepted", version: 1, entries: 0, message: "El cargador guardó la lista local (versión 1, 0 tarjetas)." });
      expect(lists).toEqual([expected]);
      await h.central.flushMessageLog();
      const logged = await h.db.select({ action: ocppMessages.action, direction: ocppMessages.direction }).from(ocppMessages).where(eq(ocppMessages.chargerId, empty.chargerId));
      expect(logged).toContainEqual({ action: "SendLocalList", direction: "OUT" });
    } finally {
      await cli.close();
    }
  });

  // A call of ours that breaks the protocol's schema is our bug: not sent, logged as an error, and
  // the operator is not told the charger refused it.
  it("2.0.1: a list call of ours that breaks the schema is not sent, is logged as an error and is not blamed on the charger", async () => {
    await offline();
    const lists: unknown[] = [];
    const cli = await connect({ SendLocalList: (p) => (lists.push(p), { status: "Accepted" }) }, V201);
    const real = h.central.callCharger;
    const spy = vi.spyOn(h.central, "callCharger").mockImplementation((c, build) =>
      real(c, (protocol: CommandProtocol) => {
        const call = build(protocol);
        return { ...call, params: { ...call.params, updateType: "Everything" } };
      }),
    );
    const sentLists = async () => {
      await h.central.flushMessageLog();
      return (await h.db.select({ action: ocppMessages.action }).from(ocppMessages).where(eq(ocppMessages.chargerId, f.chargerId))).filter((m) => m.action === "SendLocalList").length;
    };
    const logBefore = await sentLists();
    try {
      const before = (await charger()).localListVersion;
      const result = await expectStatus(await send(), 200);
      expect(result).toMatchObject({ outcome: "error", status: "error", version: before });
      expect(result.message).toBe("No se pudo enviar ni consultar la lista local por un error de Enchufá, no del cargador (ya quedó registrado). Probá de nuevo más tarde.");
      expect(result.message).not.toMatch(/El cargador no/);
      expect(lists).toEqual([]);
      const error = h.logs.find((l) => l.level === "error" && l.msg === "OCPP: un mensaje nuestro no cumple el esquema del protocolo; no se envió");
      expect(error?.obj).toMatchObject({ identity: f.identity, method: "SendLocalList", protocol: "ocpp2.0.1" });
      // The rule broken, never the values (a list holds tags; a SetVariables, a password).
      expect(JSON.stringify(error?.obj)).not.toContain("A-OK");
      expect(await sentLists()).toBe(logBefore);
    } finally {
      spy.mockRestore();
      await cli.close();
    }
  });
});
