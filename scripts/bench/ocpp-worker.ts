// One worker process of `npm run bench:ocpp`: a slice of simulated chargers (ocpp-rpc clients)
// with realistic traffic — boot, status, a heartbeat every HEARTBEAT_S, and charging sessions
// (start, meter values every 10 s, stop, finishing, available). Reports call latencies to the
// parent every few seconds.
import ocppRpc from "ocpp-rpc";

const { RPCClient } = ocppRpc;
type Client = InstanceType<typeof RPCClient>;

interface Job {
  endpoint: string;
  identities: string[];
  password: string;
  rampPerSecond: number;
  heartbeatSeconds: number;
  meterSeconds: number;
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

async function runCharger(job: Job, identity: string) {
  const cli = new RPCClient({ endpoint: job.endpoint, identity, password: job.password, protocols: ["ocpp1.6"], strictMode: false, reconnect: false, callTimeoutMs: 30_000 } as ConstructorParameters<typeof RPCClient>[0]);
  try {
    await cli.connect();
  } catch {
    failedConnects++;
    return;
  }
  connected++;
  cli.once("close", () => connected--);
  await timed(cli, "BootNotification", { chargePointVendor: "Bench", chargePointModel: "Sim-22" });
  await timed(cli, "StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError" });

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
    while (!stopping && Date.now() < idleUntil) {
      await heartbeat();
      await sleep(1_000 + Math.random() * 1_000);
    }
    if (stopping) break;
    await timed(cli, "StatusNotification", { connectorId: 1, status: "Preparing", errorCode: "NoError" });
    await timed(cli, "Authorize", { idTag: "BENCH" });
    const start = await timed(cli, "StartTransaction", { connectorId: 1, idTag: "BENCH", meterStart: meter, timestamp: new Date().toISOString() });
    const transactionId = Number(start?.transactionId ?? 0);
    await timed(cli, "StatusNotification", { connectorId: 1, status: "Charging", errorCode: "NoError" });
    const chargeUntil = Date.now() + jitter(120_000);
    while (!stopping && Date.now() < chargeUntil) {
      await sleep(job.meterSeconds * 1000);
      meter += 61; // 22 kW for 10 s
      await timed(cli, "MeterValues", {
        connectorId: 1,
        transactionId,
        meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: String(meter) }, { value: "22000", measurand: "Power.Active.Import", unit: "W" }] }],
      });
      await heartbeat();
    }
    await timed(cli, "StopTransaction", { transactionId, meterStop: meter, timestamp: new Date().toISOString(), reason: "Local" });
    await timed(cli, "StatusNotification", { connectorId: 1, status: "Finishing", errorCode: "NoError" });
    await timed(cli, "StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError" });
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
  const gap = 1000 / job.rampPerSecond;
  for (const identity of job.identities) {
    if (stopping) break;
    void runCharger(job, identity);
    await sleep(gap);
  }
});
