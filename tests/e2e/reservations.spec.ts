import ocppRpc from "ocpp-rpc";
import { E2E_PORT } from "../../playwright.config";
import { test, expect, activeOperator, login } from "./fixtures";

// Reserving a connector for a tag from 'Reservas' and cancelling it — with and without
// JavaScript. The charger (an ocpp-rpc client) accepts the ReserveNow and the CancelReservation.

const { RPCClient } = ocppRpc;
const BASE = `http://127.0.0.1:${E2E_PORT}`;

async function api(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${BASE}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json() as Promise<Record<string, unknown>>;
}

test("reserve a connector for a tag, see it in the list, cancel it", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const id = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const password = "Clave-Segura-1";
  const { email, token } = await activeOperator(BASE, { prefix: "reserve", password, businessName: "Reservas S.A." });
  const station = await api(token, "POST", "/Business/ChargingStation", {
    name: `Estación ${id}`,
    address: "Av. Santa Fe 3253",
    city: "Buenos Aires",
    province: "AR-C",
    latitude: -34.5875,
    longitude: -58.4097,
    openingHours: { twentyFourSeven: true, periods: [] },
  });
  const charger = await api(token, "POST", "/Business/Charger", {
    name: `Reservable ${id}`,
    stationId: station.id,
    ocppIdentity: `E2E-RES-${id}`,
    connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22 }],
  });
  const asked: string[] = [];
  const cp = new RPCClient({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity: `E2E-RES-${id}`, password: charger.ocppPassword as string, protocols: ["ocpp1.6"], strictMode: true, reconnect: false } as ConstructorParameters<typeof RPCClient>[0]);
  cp.handle("ReserveNow", async ({ params }) => {
    asked.push(`reserve ${(params as { idTag: string }).idTag}`);
    return { status: "Accepted" };
  });
  cp.handle("CancelReservation", async () => {
    asked.push("cancel");
    return { status: "Accepted" };
  });
  await cp.connect();
  try {
    await login(page, email, password, "/reservation");
    await expect(page).toHaveURL(/\/reservation$/);
    await page.getByRole("link", { name: "Nueva reserva" }).first().click();
    await expect(page).toHaveURL(/\/reservation\/new$/);

    // Without a tag: the field says so, nothing is sent to the charger.
    await page.getByLabel("Conector").selectOption({ label: `Estación ${id} · Reservable ${id} · conector 1` });
    await page.getByRole("button", { name: "Reservar" }).click();
    await expect(page.getByTestId("idTag-error")).toHaveText("Este campo es obligatorio.");
    expect(asked).toEqual([]);

    await page.getByLabel("Tarjeta (idTag)").fill("FLOTA-7");
    await page.getByRole("button", { name: "Reservar" }).click();
    await expect(page).toHaveURL(/\/reservation$/);
    await expect(page.getByTestId("toast").filter({ hasText: "Reservamos el conector. El cargador reservó el conector 1 para FLOTA-7" })).toBeAttached();
    expect(asked).toEqual(["reserve FLOTA-7"]);
    const row = page.getByTestId("reservation-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("FLOTA-7");
    await expect(row).toContainText("Activa");

    await row.getByRole("button", { name: "Cancelar la reserva de FLOTA-7" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Cancelamos la reserva y el cargador la liberó." })).toBeAttached();
    await expect(page.getByTestId("reservation-row")).toContainText("Cancelada");
    expect(asked).toEqual(["reserve FLOTA-7", "cancel"]);
  } finally {
    await cp.close();
  }
});
