// Harness of the OCPP tests: a real database, the central system behind a real HTTP server
// (WebSocket upgrades on /ocpp/…), the Business API wired to it, and ocpp-rpc clients acting
// as chargers.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, type SQL } from "drizzle-orm";
import { RPCClient } from "ocpp-rpc";
import { chargers, chargingSessions } from "#db/schema";
import type { Database } from "#db/client";
import { seedCatalogs } from "#db/seed/catalogs";
import { createCentralSystem, type CentralSystem } from "#ocpp/central-system";
import type { CallLimit, ConnectionLimit } from "#ocpp/limits";
import type { RoamingAuthorizer } from "#ocpp/roaming";
import { followPartnerSessions } from "#ocpp/session-events";
import { callApi, createTestApi, chargerInput, createTenant, expectStatus, fakeVerifyToken, rateInput, stationInput, TEST_KEYS, type Harness, type LogEntry, type Tenant } from "../api/helpers";
import type { TestBackend } from "../setup/db";

export interface OcppHarness extends Harness {
  central: CentralSystem;
  /** ws://127.0.0.1:<port>/ocpp */
  endpoint: string;
  /** A second central system on the same database (another "node"), created on demand. */
  secondNode(): Promise<CentralSystem>;
}

export async function openOcppHarness(
  backend: TestBackend,
  opts: {
    commandTimeoutMs?: number;
    idleMaxMinutes?: number;
    callLimit?: CallLimit;
    connectionLimit?: ConnectionLimit;
    trustProxy?: boolean;
    roaming?: (db: Database["db"]) => RoamingAuthorizer;
  } = {},
): Promise<OcppHarness> {
  const database: Database = await backend.open();
  await seedCatalogs(database.db);
  const logs: LogEntry[] = [];
  const logger = {
    info: (obj: object, msg?: string) => logs.push({ level: "info", obj, msg }),
    warn: (obj: object, msg?: string) => logs.push({ level: "warn", obj, msg }),
    error: (obj: object, msg?: string) => logs.push({ level: "error", obj, msg }),
  };
  const centralOptions = {
    db: database.db,
    telemetryDb: database.telemetry,
    channels: database.channels,
    logger,
    sweepIntervalMs: 3_600_000, // tests run the sweep themselves
    commandTimeoutMs: opts.commandTimeoutMs ?? 1_500,
    idleMaxMinutes: opts.idleMaxMinutes ?? 240,
    callLimit: opts.callLimit,
    // Tests reconnect the same charger many times in seconds: unbounded unless a test is about it.
    connectionLimit: opts.connectionLimit ?? { perChargerPerMinute: 100_000, perAddressPerMinute: 100_000 },
    trustProxy: opts.trustProxy,
    roaming: opts.roaming?.(database.db),
  };
  // As the server wires it: the sessions a partner's token starts are handed to the partner.
  const startCentral = async (nodeId: string) => {
    const node = await createCentralSystem({ ...centralOptions, nodeId });
    if (centralOptions.roaming) followPartnerSessions(node.events, centralOptions.roaming, logger);
    return node;
  };
  const central = await startCentral("node-a");
  const api = createTestApi({ db: database.db, verifyToken: fakeVerifyToken, encryptionKeys: TEST_KEYS, logger, publicOrigin: "https://enchufa.test", ocpp: central });
  const server = http.createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  server.on("upgrade", central.handleUpgrade);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const others: CentralSystem[] = [];

  return {
    database,
    db: database.db,
    api,
    logs,
    central,
    endpoint: `ws://127.0.0.1:${port}/ocpp`,
    call: (method, path, init = {}) => callApi(api, method, path, init),
    async secondNode() {
      const node = await startCentral(`node-${others.length + 2}`);
      others.push(node);
      return node;
    },
    async close() {
      for (const o of others) await o.close();
      await central.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await database.close();
    },
  };
}

export interface Fixture {
  tenant: Tenant;
  chargerId: string;
  identity: string;
  password: string;
  rateId: string;
  heartbeatInterval: number;
}

/** A company with a station, a rate with an idle penalty and a two-connector charger using it. */
export async function createFixture(h: Harness, uid: string, rateOverrides: Record<string, unknown> = {}): Promise<Fixture> {
  const tenant = await createTenant(h, uid);
  const station = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: tenant.token, body: stationInput() }), 201);
  const rate = await expectStatus(await h.call("POST", "/Business/Fees", { token: tenant.token, body: rateInput(rateOverrides) }), 201);
  const base = chargerInput({ stationId: station.id, heartbeatInterval: 60 });
  const input = { ...base, connectors: base.connectors.map((k) => ({ ...k, rateId: rate.id })) };
  const charger = await expectStatus(await h.call("POST", "/Business/Charger", { token: tenant.token, body: input }), 201);
  return { tenant, chargerId: charger.id, identity: charger.ocppIdentity, password: charger.ocppPassword, rateId: rate.id, heartbeatInterval: 60 };
}

/** An ocpp-rpc client acting as the charger (strict: it only sends valid OCPP 1.6). */
export function chargerClient(h: OcppHarness, f: Pick<Fixture, "identity" | "password">, opts: { strict?: boolean; protocols?: string[]; password?: string } = {}) {
  const protocols = opts.protocols ?? ["ocpp1.6"];
  const options = {
    endpoint: h.endpoint,
    identity: f.identity,
    password: opts.password ?? f.password,
    protocols,
    strictMode: protocols.length > 0 && (opts.strict ?? true),
    reconnect: false,
    callTimeoutMs: 5_000,
  };
  // The typings list every option as required; the library fills in defaults.
  return new RPCClient(options as ConstructorParameters<typeof RPCClient>[0]);
}

/**
 * Resolves once the charger is online through a socket opened after `since`. Right after a test's
 * client closes, the row may still say online from that socket, with its offline mark on the way;
 * the new socket's online mark waits for it (central-system.ts), so this is the mark to wait for.
 */
export function onlineSince(h: Harness, chargerId: string, since: Date) {
  return eventually(
    async () => (await h.db.select({ online: chargers.online, seen: chargers.lastHeartbeatAt }).from(chargers).where(eq(chargers.id, chargerId)))[0],
    (c) => Boolean(c?.online && c.seen && c.seen >= since),
  );
}

/** Resolves once `predicate` holds (polling), for effects that follow a socket event. */
export async function eventually<T>(fn: () => Promise<T>, predicate: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await fn();
  while (!predicate(last)) {
    if (Date.now() > deadline) throw new Error(`eventually: condición no cumplida; último valor ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 25));
    last = await fn();
  }
  return last;
}

/**
 * A 1.6 charger for the drivers' QR payments: it starts what it is asked to start
 * (unless it refuses, or accepts and never starts), stops what it is asked to stop, and reports
 * the energy `charge` adds.
 */
export async function qrPaymentCharger(h: OcppHarness, f: Pick<Fixture, "identity" | "password">, opts: { startAnswer?: "Accepted" | "Rejected"; startsSession?: boolean } = {}) {
  const cli = chargerClient(h, f);
  const seen = { starts: 0, stops: 0, transactionId: 0 };
  let meter = 100_000;
  cli.handle("RemoteStartTransaction", async ({ params }) => {
    seen.starts++;
    const p = params as { connectorId: number; idTag: string };
    if ((opts.startAnswer ?? "Accepted") === "Accepted" && opts.startsSession !== false) {
      setTimeout(() => {
        void (async () => {
          await cli.call("StatusNotification", { connectorId: p.connectorId, status: "Charging", errorCode: "NoError" });
          const r = (await cli.call("StartTransaction", { connectorId: p.connectorId, idTag: p.idTag, meterStart: meter, timestamp: new Date().toISOString() })) as { transactionId: number };
          seen.transactionId = r.transactionId;
        })().catch(() => {}); // the test may close the socket first
      }, 10);
    }
    return { status: opts.startAnswer ?? "Accepted" };
  });
  cli.handle("RemoteStopTransaction", async ({ params }) => {
    seen.stops++;
    const { transactionId } = params as { transactionId: number };
    setTimeout(() => {
      void (async () => {
        await cli.call("StopTransaction", { transactionId, meterStop: meter, timestamp: new Date().toISOString(), reason: "Remote" });
        await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError" });
      })().catch(() => {}); // the test may close the socket first
    }, 10);
    return { status: "Accepted" };
  });
  const [row] = await h.db.select({ id: chargers.id }).from(chargers).where(eq(chargers.ocppIdentity, f.identity));
  const since = new Date();
  await cli.connect();
  // Before the boot: the boot also records a sign of life, which beside a previous socket's
  // online mark not yet cleared would look like this socket's.
  await onlineSince(h, row.id, since);
  await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
  await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError" });
  return {
    cli,
    seen,
    async charge(wh: number) {
      // The payment shows CHARGING once the start is recorded, which can be before this charger
      // has read the start's answer (its transaction id).
      await eventually(async () => seen.transactionId, (id) => id > 0);
      meter += wh;
      await cli.call("MeterValues", { connectorId: 1, transactionId: seen.transactionId, meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: String(meter) }] }] });
    },
  };
}

const MINUTE = 60_000;
const isoAt = (t: number) => new Date(t).toISOString();

/**
 * A charger presenting tags in its protocol: Authorize, and a whole session (started, stopped after
 * `wh` Wh 30 minutes later, unplugged), answering the start's status and the session's row condition.
 */
export function tagSpeaker(cli: RPCClient, protocol: "ocpp1.6" | "ocpp2.0.1") {
  let seq = 0;
  const register = (at: number, wh: number, context: string) => [{ timestamp: isoAt(at), sampledValue: [{ value: wh, context, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "Wh" } }] }];
  return {
    async authorize(tag: string): Promise<string> {
      if (protocol === "ocpp1.6") return ((await cli.call("Authorize", { idTag: tag })) as { idTagInfo: { status: string } }).idTagInfo.status;
      return ((await cli.call("Authorize", { idToken: { idToken: tag, type: "ISO14443" } })) as { idTokenInfo: { status: string } }).idTokenInfo.status;
    },
    async session(tag: string, wh: number, t0: number): Promise<{ status: string; sessionKey: SQL }> {
      if (protocol === "ocpp1.6") {
        const started = (await cli.call("StartTransaction", { connectorId: 1, idTag: tag, meterStart: 0, timestamp: isoAt(t0) })) as { transactionId: number; idTagInfo: { status: string } };
        if (started.idTagInfo.status === "Accepted") {
          await cli.call("StopTransaction", { transactionId: started.transactionId, meterStop: wh, timestamp: isoAt(t0 + 30 * MINUTE), reason: "EVDisconnected" });
          await cli.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: isoAt(t0 + 30 * MINUTE) });
        }
        return { status: started.idTagInfo.status, sessionKey: eq(chargingSessions.transactionId, started.transactionId) };
      }
      const transactionId = crypto.randomUUID();
      const base = { evse: { id: 1, connectorId: 1 } };
      const started = (await cli.call("TransactionEvent", {
        ...base,
        eventType: "Started",
        timestamp: isoAt(t0),
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
          timestamp: isoAt(t0 + 30 * MINUTE),
          triggerReason: "EVCommunicationLost",
          seqNo: seq++,
          transactionInfo: { transactionId, chargingState: "Idle", stoppedReason: "EVDisconnected" },
          meterValue: register(t0 + 30 * MINUTE, wh, "Transaction.End"),
        });
      }
      return { status, sessionKey: eq(chargingSessions.ocppTransactionId, transactionId) };
    },
  };
}
