// A small simulated OCPP 1.6 charger (dev-only: local mode and browser tests). It
// connects with ocpp-rpc, boots, reports its connectors Available and, like a real charger,
// accepts RemoteStartTransaction (then StartTransaction with the idTag, MeterValues every few
// seconds at a fixed power) and RemoteStopTransaction (then StopTransaction). Enchufá may also
// stop it itself when the prepaid amount is reached: that arrives as a RemoteStopTransaction too.
import { RPCClient } from "ocpp-rpc";

export interface SimChargerOptions {
  /** ws://host:port/ocpp */
  endpoint: string;
  identity: string;
  password: string;
  connectors?: number;
  /** Power while charging (W); default 22 kW. */
  powerW?: number;
  /** Seconds between MeterValues while charging; default 5. */
  meterEverySeconds?: number;
  /**
   * Seconds between Heartbeats until the central system gives its own interval (BootNotification's
   * answer); default 300. Without them Enchufá marks the charger offline after twice its interval.
   */
  heartbeatSeconds?: number;
  /**
   * false: the charger connects as one that was already running (a demo charger with its seeded
   * state): no BootNotification and no StatusNotification, so its connectors keep the states
   * and charges they have. Default true: it boots and reports its connectors Available.
   */
  boot?: boolean;
  log?: (line: string) => void;
}

interface Running {
  connectorId: number;
  transactionId: number;
  meterWh: number;
  timer: NodeJS.Timeout;
}

export interface SimCharger {
  client: RPCClient;
  /** Transactions in progress, by connector. */
  running: Map<number, Running>;
  /** Plugs the vehicle out (StopTransaction if charging) — as a driver walking away would. */
  close(): Promise<void>;
}

const now = () => new Date().toISOString();

export async function startSimCharger(opts: SimChargerOptions): Promise<SimCharger> {
  const log = opts.log ?? (() => undefined);
  const connectors = opts.connectors ?? 1;
  const powerW = opts.powerW ?? 22_000;
  const every = opts.meterEverySeconds ?? 5;
  const client = new RPCClient({
    endpoint: opts.endpoint,
    identity: opts.identity,
    password: opts.password,
    protocols: ["ocpp1.6"],
    strictMode: true,
    reconnect: true,
    callTimeoutMs: 10_000,
  } as ConstructorParameters<typeof RPCClient>[0]);
  const running = new Map<number, Running>();
  let meterStart = 1_000_000;

  const status = (connectorId: number, s: string) => client.call("StatusNotification", { connectorId, errorCode: "NoError", status: s, timestamp: now() });

  async function start(connectorId: number, idTag: string) {
    await status(connectorId, "Preparing");
    const answer = (await client.call("StartTransaction", { connectorId, idTag, meterStart, timestamp: now() })) as { transactionId: number; idTagInfo: { status: string } };
    if (answer.idTagInfo.status !== "Accepted") {
      log(`cargador simulado ${opts.identity}: el sistema rechazó ${idTag} (${answer.idTagInfo.status})`);
      await client.call("StopTransaction", { transactionId: answer.transactionId, meterStop: meterStart, timestamp: now(), reason: "DeAuthorized" }).catch(() => undefined);
      await status(connectorId, "Available");
      return;
    }
    await status(connectorId, "Charging");
    const r: Running = { connectorId, transactionId: answer.transactionId, meterWh: meterStart, timer: undefined as unknown as NodeJS.Timeout };
    r.timer = setInterval(() => {
      r.meterWh += Math.round((powerW * every) / 3600);
      void client
        .call("MeterValues", {
          connectorId,
          transactionId: r.transactionId,
          meterValue: [{ timestamp: now(), sampledValue: [{ value: String(r.meterWh), measurand: "Energy.Active.Import.Register", unit: "Wh", context: "Sample.Periodic" }] }],
        })
        .catch(() => undefined);
    }, every * 1000);
    running.set(connectorId, r);
    log(`cargador simulado ${opts.identity}: carga ${r.transactionId} iniciada en el conector ${connectorId}`);
  }

  async function stop(r: Running, reason: string) {
    clearInterval(r.timer);
    running.delete(r.connectorId);
    meterStart = r.meterWh;
    await client.call("StopTransaction", { transactionId: r.transactionId, meterStop: r.meterWh, timestamp: now(), reason });
    await status(r.connectorId, "Finishing");
    await status(r.connectorId, "Available");
    log(`cargador simulado ${opts.identity}: carga ${r.transactionId} detenida (${reason})`);
  }

  client.handle("RemoteStartTransaction", async ({ params: raw }) => {
    const params = raw as { connectorId?: number; idTag: string };
    const connectorId = params.connectorId ?? 1;
    if (connectorId < 1 || connectorId > connectors || running.has(connectorId)) return { status: "Rejected" };
    setTimeout(() => void start(connectorId, params.idTag).catch((e) => log(`cargador simulado: ${(e as Error).message}`)), 200);
    return { status: "Accepted" };
  });
  client.handle("RemoteStopTransaction", async ({ params: raw }) => {
    const params = raw as { transactionId: number };
    const r = [...running.values()].find((x) => x.transactionId === params.transactionId);
    if (!r) return { status: "Rejected" };
    setTimeout(() => void stop(r, "Remote").catch((e) => log(`cargador simulado: ${(e as Error).message}`)), 200);
    return { status: "Accepted" };
  });
  // Anything else a real charger would take: accepted without effect.
  for (const m of ["ChangeConfiguration", "Reset", "UnlockConnector", "ChangeAvailability", "TriggerMessage", "ClearCache"]) client.handle(m, async () => ({ status: "Accepted" }));
  client.handle("GetConfiguration", async () => ({ configurationKey: [], unknownKey: [] }));

  // Heartbeats at the interval the central system asks for (or the one given), while connected.
  let heartbeatEvery = opts.heartbeatSeconds ?? 300;
  let heartbeat: NodeJS.Timeout | undefined;
  const beat = () => {
    clearInterval(heartbeat);
    heartbeat = setInterval(() => void client.call("Heartbeat", {}).catch(() => undefined), heartbeatEvery * 1000);
  };
  client.on("open", () => {
    beat();
    if (opts.boot === false) return;
    void (async () => {
      const answer = (await client.call("BootNotification", { chargePointVendor: "Enchufá", chargePointModel: "Simulador QR" })) as { interval?: number };
      if (answer.interval && answer.interval > 0) {
        heartbeatEvery = answer.interval;
        beat();
      }
      for (let c = 1; c <= connectors; c++) if (!running.has(c)) await status(c, "Available");
    })().catch((e) => log(`cargador simulado: ${(e as Error).message}`));
  });
  client.on("disconnect", () => clearInterval(heartbeat));
  client.on("close", () => clearInterval(heartbeat));
  await client.connect();
  log(`cargador simulado ${opts.identity} conectado`);

  return {
    client,
    running,
    async close() {
      clearInterval(heartbeat);
      for (const r of [...running.values()]) await stop(r, "EVDisconnected").catch(() => undefined);
      await client.close({ force: true }).catch(() => undefined);
    },
  };
}
