import ocppRpc from "ocpp-rpc";
import { formatArs } from "#domain/money";
import { priceSession } from "#domain/pricing";
import { E2E_PORT } from "../../playwright.config";
import { test, expect, activeOperator, login } from "./fixtures";

// An OCPP 2.0.1 charger (an ocpp-rpc client standing in for one) works on the same
// screens as a 1.6 one: the charger screen shows it connected and its protocol, a command
// reaches it in 2.0.1's terms, and a whole transaction (TransactionEvents with charging states)
// becomes a priced session in Actividad — idle penalty included — with and without JavaScript.

const { RPCClient } = ocppRpc;
const BASE = `http://127.0.0.1:${E2E_PORT}`;
const MIN = 60_000;
const norm = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

const RATE = {
  name: "Tarifa 2.0.1",
  pricePerKwhCents: 35_000,
  pricePerMinuteCents: 0,
  sessionFeeCents: 50_000,
  vatIncluded: true,
  vatRateBp: 2100,
  idleGraceMinutes: 15,
  idlePricePerMinuteCents: 2_000,
  idleMaxCents: null,
  idleActiveFrom: null,
  idleActiveTo: null,
  noShowFeeCents: 0,
};

async function api(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${BASE}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json() as Promise<Record<string, unknown>>;
}

test("an OCPP 2.0.1 charger: connected with its protocol, a command in 2.0.1 terms, a priced session in Actividad", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const js = testInfo.project.name === "js";
  const id = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const identity = `E2E-201-${id}`;
  const accountPassword = "Clave-Segura-1";
  const { email, token } = await activeOperator(BASE, { prefix: "ocpp201", password: accountPassword, businessName: "Cargas 2.0.1 S.A." });

  const station = await api(token, "POST", "/Business/ChargingStation", {
    name: `Estación 2.0.1 ${id}`,
    address: "Av. Santa Fe 3253",
    city: "Buenos Aires",
    province: "AR-C",
    postalCode: "C1425BGH",
    latitude: -34.5875,
    longitude: -58.4097,
    parkingType: "PARKING_LOT",
    services: [],
    openingHours: { twentyFourSeven: true, periods: [] },
    published: true,
  });
  const rate = await api(token, "POST", "/Business/Fees", RATE);
  const charger = await api(token, "POST", "/Business/Charger", {
    name: `Cargador 2.0.1 ${id}`,
    ocppIdentity: identity,
    model: "Wallbox 2.0.1",
    serialNumber: "SN-201",
    stationId: station.id,
    connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22, rateId: rate.id }],
  });

  const cp = new RPCClient({
    endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`,
    identity,
    password: charger.ocppPassword as string,
    protocols: ["ocpp2.0.1"],
    strictMode: true,
    reconnect: false,
  } as ConstructorParameters<typeof RPCClient>[0]);
  const resets: unknown[] = [];
  cp.handle("Reset", async ({ params }) => {
    resets.push(params);
    return { status: "Accepted" };
  });
  await cp.connect();
  // A transaction: 30 min charging 10 kWh, 25 min suspended (idle) before the unplug.
  const t0 = Date.now() - 60 * MIN;
  try {
    await cp.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Wallbox", model: "Commander 2" } });
    await cp.call("StatusNotification", { timestamp: new Date().toISOString(), connectorStatus: "Available", evseId: 1, connectorId: 1 });

    await login(page, email, accountPassword, `/charger/edit/${charger.id as string}`);
    await expect(page).toHaveURL(/\/charger\/edit\//);
    await expect(page.getByTestId("commands-connection")).toHaveText("Conectado", { timeout: 10_000 });
    await expect(page.getByTestId("ocpp-version")).toHaveText("OCPP 2.0.1");

    // Reset "Suave" is 2.0.1's OnIdle.
    const reset = page.getByTestId("command-Reset");
    await reset.getByLabel("Tipo").selectOption({ label: "Suave" });
    await reset.getByRole("button", { name: "Reiniciar" }).click();
    await expect(page.getByTestId("command-result")).toHaveText("El cargador aceptó «Reiniciar».");
    expect(resets).toEqual([{ type: "OnIdle" }]);

    const txId = `tx-${id}`;
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const energy = (wh: number, ms: number, context: string) => [{ timestamp: at(ms), sampledValue: [{ value: wh, context, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "Wh" } }] }];
    const evse = { id: 1, connectorId: 1 };
    await cp.call("TransactionEvent", {
      eventType: "Started",
      timestamp: at(0),
      triggerReason: "Authorized",
      seqNo: 0,
      evse,
      idToken: { idToken: "04A2B3C4D5E6F7", type: "ISO14443" },
      transactionInfo: { transactionId: txId, chargingState: "Charging" },
      meterValue: energy(1_000, 0, "Transaction.Begin"),
    });
    await cp.call("TransactionEvent", {
      eventType: "Updated",
      timestamp: at(30 * MIN),
      triggerReason: "ChargingStateChanged",
      seqNo: 1,
      evse,
      transactionInfo: { transactionId: txId, chargingState: "SuspendedEV" },
      meterValue: energy(11_000, 30 * MIN, "Sample.Periodic"),
    });
    await cp.call("TransactionEvent", {
      eventType: "Ended",
      timestamp: at(55 * MIN),
      triggerReason: "EVCommunicationLost",
      seqNo: 2,
      evse,
      transactionInfo: { transactionId: txId, chargingState: "Idle", stoppedReason: "EVDisconnected" },
      meterValue: energy(11_000, 55 * MIN, "Transaction.End"),
    });
  } finally {
    await cp.close();
  }

  const expected = priceSession({ ...RATE, rateId: rate.id as string, currency: "ARS" }, { energyWh: 10_000, chargingMinutes: 30, idleMinutes: 25, idleStartedAt: new Date(t0 + 30 * MIN) });
  expect(expected.idleCents).toBe(20_000); // 25 min idle, 15 of grace: 10 min at $ 20
  await page.goto("/activity");
  const row = page.getByTestId("session-row").first();
  await expect(row).toContainText(`Cargador 2.0.1 ${id}`);
  await expect(row.getByTestId("session-energy")).toHaveText("10 kWh");
  expect(norm(await row.textContent())).toContain(norm(formatArs(expected.totalCents)));
  await expect(row).toContainText("Completada");
  if (!js) return;
  // The session's detail shows the idle penalty.
  await row.getByRole("link").first().click();
  await expect(page.getByText(norm(formatArs(expected.idleCents)), { exact: false }).first()).toBeVisible();
});
