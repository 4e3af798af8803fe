import ocppRpc from "ocpp-rpc";
import { E2E_PORT } from "../../playwright.config";
import { test, expect, activeOperator, login } from "./fixtures";

// "When chargers misbehave": a session its charger never stopped is found with the
// Actividad filter and closed from its detail with a reason — with and without JavaScript.

const { RPCClient } = ocppRpc;
const BASE = `http://127.0.0.1:${E2E_PORT}`;
const HOUR = 3_600_000;

async function api(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${BASE}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json() as Promise<Record<string, unknown>>;
}

test("a session the charger never stopped: found with the filter, closed with a reason, priced to its last reading", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const id = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const password = "Clave-Segura-1";
  const { email, token } = await activeOperator(BASE, { prefix: "close", password, businessName: "Cargas Colgadas S.A." });
  const charger = await api(token, "POST", "/Business/Charger", {
    name: `Colgado ${id}`,
    ocppIdentity: `E2E-CLOSE-${id}`,
    connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22 }],
  });

  // The charger starts a session 14 h ago, reports 8 kWh after 30 min, and is never heard of again.
  const cp = new RPCClient({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity: `E2E-CLOSE-${id}`, password: charger.ocppPassword as string, protocols: ["ocpp1.6"], strictMode: true, reconnect: false } as ConstructorParameters<typeof RPCClient>[0]);
  await cp.connect();
  const t0 = Date.now() - 14 * HOUR;
  const start = (await cp.call("StartTransaction", { connectorId: 1, idTag: "RFID-1", meterStart: 0, timestamp: new Date(t0).toISOString() })) as { transactionId: number };
  await cp.call("MeterValues", { connectorId: 1, transactionId: start.transactionId, meterValue: [{ timestamp: new Date(t0 + HOUR / 2).toISOString(), sampledValue: [{ value: "8000" }] }] });
  await cp.close();

  await login(page, email, password, "/activity");
  await expect(page).toHaveURL(/\/activity$/);
  await page.getByLabel("Cierre").selectOption({ label: "Sin cerrar hace más de 12 h" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/stuck=1/);
  const row = page.getByTestId("session-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`Colgado ${id}`);
  await row.getByRole("link").first().click();

  const card = page.getByTestId("close-session");
  // Without a reason: the server says what is missing, nothing changes.
  await card.getByRole("button", { name: "Cerrar la carga" }).click();
  await expect(page.getByTestId("close-reason-error")).toHaveText("Contá por qué cerrás la carga (al menos 5 caracteres).");
  await expect(page.getByTestId("session-detail")).toContainText("En curso");

  await card.getByLabel("Motivo").fill("El cargador perdió la conexión y no volvió.");
  await card.getByRole("button", { name: "Cerrar la carga" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: `Cerramos la carga #${start.transactionId}. El cargador no estaba conectado: quedó cobrada hasta su última lectura.` })).toBeAttached();
  const detail = page.getByTestId("session-detail");
  await expect(detail).toContainText("Completada");
  await expect(detail).toContainText("Cerrada por el operador");
  await expect(detail).toContainText("8 kWh");
  await expect(page.getByTestId("close-session")).toHaveCount(0);

  // The filter no longer finds it.
  await page.goto("/activity?stuck=1");
  await expect(page.getByTestId("session-row")).toHaveCount(0);
});
