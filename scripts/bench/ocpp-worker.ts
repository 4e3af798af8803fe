// One worker process of `npm run bench:ocpp`: a slice of simulated chargers with realistic
// traffic — boot, status, a heartbeat every HEARTBEAT_S, and charging sessions (start, meter
// values every 10 s, stop, finishing, available) — in OCPP 1.6J, or for a share of them (--v201)
// in OCPP 2.0.1 with the same session as TransactionEvents. Reports call latencies to the parent
// every few seconds.
//
// Each charger is a LeanCharger (lean-charger.ts: a WebSocket, a counter and a map of pending
// calls), or with `--client ocpp-rpc` ocpp-rpc's RPCClient, as the tests use.
import ocppRpc from "ocpp-rpc";
import { CALL_TIMEOUT_MS, LeanCharger, leanChargers, type Client } from "./lean-charger";

const { RPCClient } = ocppRpc;

interface Job {
  endpoint: string;
  identities: string[];
  password: string;
  rampPerSecond: number;
  heartbeatSeconds: number;
  meterSeconds: number;
  /** Share of the chargers (0–1) that speak OCPP 2.0.1. */
  v201Share: number;
  /** "lean" (LeanCharger) or "ocpp-rpc" (RPCClient). */
  client: "lean" | "ocpp-rpc";
}

/** [method, latency ms, epoch ms when the answer came] per call since the last report. */
const latencies: [string, number, number][] = [];
let calls = 0;
let errors = 0;
let connected = 0;
let failedConnects = 0;
let stopping = false;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const jitter = (ms: number) => ms * (0.5 + Math.random());

async function timed(cli: Client, method: string, params: unknown) {
  const t = performance.now();
  try {
    const result = await cli.call(method, params);
    latencies.push([method, performance.now() - t, Date.now()]);
    calls++;
    return result as Record<string, unknown>;
  } catch {
    errors++;
    return undefined;
  }
}

/** The calls of one charger in its protocol: the same session either way. */
interface Dialect {
  boot(): unknown[];
  status(status: "Available" | "Preparing" | "Charging" | "Finishing"): [string, unknown] | null;
  authorize(): unknown;
  start(meter: number): Promise<string>;
  meter(tx: string, meter: number): [string, unknown];
  stop(tx: string, meter: number): [string, unknown];
}

const dialect16 = (cli: Client): Dialect => ({
  boot: () => [{ chargePointVendor: "Bench", chargePointModel: "Sim-22" }],
  status: (status) => ["StatusNotification", { connectorId: 1, status, errorCode: "NoError" }],
  authorize: () => ({ idTag: "BENCH" }),
  start: async (meter) => String((await timed(cli, "StartTransaction", { connectorId: 1, idTag: "BENCH", meterStart: meter, timestamp: new Date().toISOString() }))?.transactionId ?? 0),
  meter: (tx, meter) => [
    "MeterValues",
    { connectorId: 1, transactionId: Number(tx), meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: String(meter) }, { value: "22000", measurand: "Power.Active.Import", unit: "W" }] }] },
  ],
  stop: (tx, meter) => ["StopTransaction", { transactionId: Number(tx), meterStop: meter, timestamp: new Date().toISOString(), reason: "Local" }],
});

function dialect201(cli: Client, identity: string): Dialect {
  let seqNo = 0;
  let n = 0;
  const event = (eventType: string, tx: string, triggerReason: string, info: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    eventType,
    timestamp: new Date().toISOString(),
    triggerReason,
    seqNo: seqNo++,
    evse: { id: 1, connectorId: 1 },
    transactionInfo: { transactionId: tx, ...info },
    ...extra,
  });
  const register = (meter: number, context: string) => [{ timestamp: new Date().toISOString(), sampledValue: [{ value: meter, context, measurand: "Energy.Active.Import.Register" }] }];
  return {
    boot: () => [{ reason: "PowerUp", chargingStation: { vendorName: "Bench", model: "Sim-22" } }],
    // Charging and Finishing are chargingStates of the transaction's events in 2.0.1.
    status: (status) =>
      status === "Charging" || status === "Finishing"
        ? null
        : ["StatusNotification", { timestamp: new Date().toISOString(), connectorStatus: status === "Preparing" ? "Occupied" : "Available", evseId: 1, connectorId: 1 }],
    authorize: () => ({ idToken: { idToken: "BENCH", type: "ISO14443" } }),
    async start(meter) {
      const tx = `${identity}-${++n}`;
      seqNo = 0;
      await timed(cli, "TransactionEvent", event("Started", tx, "Authorized", { chargingState: "Charging" }, { idToken: { idToken: "BENCH", type: "ISO14443" }, meterValue: register(meter, "Transaction.Begin") }));
      return tx;
    },
    meter: (tx, meter) => [
      "TransactionEvent",
      event("Updated", tx, "MeterValuePeriodic", {}, {
        meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: meter, context: "Sample.Periodic" }, { value: 22, measurand: "Power.Active.Import", unitOfMeasure: { unit: "W", multiplier: 3 } }] }],
      }),
    ],
    stop: (tx, meter) => ["TransactionEvent", event("Ended", tx, "StopAuthorized", { chargingState: "EVConnected", stoppedReason: "Local" }, { meterValue: register(meter, "Transaction.End") })],
  };
}

async function runCharger(job: Job, identity: string, v201: boolean) {
  const protocol = v201 ? "ocpp2.0.1" : "ocpp1.6";
  const cli: Client =
    job.client === "ocpp-rpc"
      ? new RPCClient({ endpoint: job.endpoint, identity, password: job.password, protocols: [protocol], strictMode: false, reconnect: false, callTimeoutMs: CALL_TIMEOUT_MS } as ConstructorParameters<typeof RPCClient>[0])
      : new LeanCharger({ endpoint: job.endpoint, identity, password: job.password, protocol });
  const d = v201 ? dialect201(cli, identity) : dialect16(cli);
  const status = async (s: Parameters<Dialect["status"]>[0]) => {
    const call = d.status(s);
    if (call) await timed(cli, call[0], call[1]);
  };
  try {
    await cli.connect();
  } catch {
    failedConnects++;
    return;
  }
  connected++;
  cli.once("close", () => connected--);
  await timed(cli, "BootNotification", d.boot()[0]);
  await status("Available");

  let meter = 0;
  let nextHeartbeat = Date.now() + jitter(job.heartbeatSeconds * 1000);
  const heartbeat = async () => {
    if (Date.now() >= nextHeartbeat) {
      nextHeartbeat = Date.now() + job.heartbeatSeconds * 1000;
      await timed(cli, "Heartbeat", {});
    }
  };
  let first = true;
  while (!stopping) {
    // Idle between sessions. Before the first one, anywhere in that cycle: real chargers are
    // not all plugged in the same 10 s after a restart, and the window measures a steady state.
    const idleUntil = Date.now() + (first ? Math.random() * 90_000 : jitter(90_000));
    first = false;
    // One timer per wake-up that has something to do (the next heartbeat or the next plug-in),
    // not one every second: the simulated chargers' own timers and garbage count in the latency
    // they measure (their GC pauses delay the answers they time), and real chargers run elsewhere.
    while (!stopping && Date.now() < idleUntil) {
      await heartbeat();
      await sleep(Math.max(0, Math.min(idleUntil, nextHeartbeat) - Date.now()));
    }
    if (stopping) break;
    await status("Preparing");
    await timed(cli, "Authorize", d.authorize());
    const transactionId = await d.start(meter);
    await status("Charging");
    const chargeUntil = Date.now() + jitter(120_000);
    while (!stopping && Date.now() < chargeUntil) {
      await sleep(job.meterSeconds * 1000);
      meter += 61; // 22 kW for 10 s
      const [method, params] = d.meter(transactionId, meter);
      await timed(cli, method, params);
      await heartbeat();
    }
    const [method, params] = d.stop(transactionId, meter);
    await timed(cli, method, params);
    await status("Finishing");
    await status("Available");
  }
  await cli.close({ force: true }).catch(() => {});
}

process.on("message", async (msg: { type: "start"; job: Job } | { type: "stop" }) => {
  if (msg.type === "stop") {
    stopping = true;
    setTimeout(() => process.exit(0), 2_000).unref();
    return;
  }
  const { job } = msg;
  const report = setInterval(() => {
    process.send?.({ type: "report", connected, failedConnects, calls, errors, latencies: latencies.splice(0) });
    calls = 0;
    errors = 0;
  }, 2_000);
  report.unref();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const c of leanChargers) c.tick(now);
  }, 1_000);
  sweep.unref();
  const gap = 1000 / job.rampPerSecond;
  for (const [i, identity] of job.identities.entries()) {
    if (stopping) break;
    // Spread evenly: with a share of 0.3, 3 of every 10 chargers speak 2.0.1.
    void runCharger(job, identity, Math.floor((i + 1) * job.v201Share) > Math.floor(i * job.v201Share));
    await sleep(gap);
  }
});
