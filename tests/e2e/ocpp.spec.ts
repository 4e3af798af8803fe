import ocppRpc from "ocpp-rpc";
import { E2E_PORT } from "../../playwright.config";
import { test, expect, activeOperator, login } from "./fixtures";

// A charger (an ocpp-rpc client standing in for one) connects to the running server;
// the charger screen shows it connected — live with JavaScript, on reload without — and the
// operator's commands reach it, with the charger's answer as a toast.

const { RPCClient } = ocppRpc;

test("a charger connects over OCPP, the screen follows it, and a command reaches it", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const js = testInfo.project.name === "js";
  const id = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const identity = `E2E-OCPP-${id}`;

  // Its own operator: the charger's online/offline notifications must not land on the demo
  // operator while notifications.spec.ts marks everything read there.
  const accountPassword = "Clave-Segura-1";
  const { email } = await activeOperator(`http://127.0.0.1:${E2E_PORT}`, { prefix: "ocpp", password: accountPassword, businessName: "Cargas OCPP S.A." });
  await login(page, email, accountPassword, "/charger/new");
  await expect(page).toHaveURL(/\/charger\/new$/);
  await page.getByLabel("Nombre", { exact: true }).fill(`OCPP e2e ${id}`);
  const first = page.getByRole("group", { name: "Conector 1" });
  await first.getByLabel("Tipo de conector").selectOption({ label: "Tipo 2" });
  await first.getByLabel("Potencia máxima").fill("22");
  await page.getByLabel("Identidad OCPP", { exact: true }).fill(identity);
  await page.getByRole("button", { name: "Crear cargador" }).click();
  const password = await page.getByTestId("ocpp-password").inputValue();
  await page.getByRole("link", { name: "Ver el cargador" }).click();
  await expect(page).toHaveURL(/\/charger\/edit\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("commands-connection")).toHaveText("Sin conexión");

  const charger = new RPCClient({
    endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`,
    identity,
    password,
    protocols: ["ocpp1.6"],
    strictMode: true,
    reconnect: false,
  } as ConstructorParameters<typeof RPCClient>[0]);
  const resets: unknown[] = [];
  charger.handle("Reset", async ({ params }) => {
    resets.push(params);
    return { status: "Accepted" };
  });
  await charger.connect();
  try {
    await charger.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC W22" });
    await charger.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError" });

    // With JavaScript the page updates by itself; without it, on the next load.
    if (!js) await page.reload();
    await expect(page.getByTestId("commands-connection")).toHaveText("Conectado", { timeout: 10_000 });
    await expect(page.getByTestId("command-RemoteStopTransaction").getByRole("combobox")).toContainText("Disponible");

    const reset = page.getByTestId("command-Reset");
    await reset.getByLabel("Tipo").selectOption({ label: "Suave" });
    await reset.getByRole("button", { name: "Reiniciar" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "El cargador aceptó «Reiniciar»." })).toBeAttached();
    await expect(page.getByTestId("command-result")).toHaveText("El cargador aceptó «Reiniciar».");
    expect(resets).toEqual([{ type: "Soft" }]);
  } finally {
    await charger.close();
  }

  if (!js) await page.reload();
  await expect(page.getByTestId("commands-connection")).toHaveText("Sin conexión", { timeout: 10_000 });
  // Offline: the command is not sent, and the operator is told why.
  const unlock = page.getByTestId("command-UnlockConnector");
  await unlock.getByRole("button", { name: "Desbloquear conector" }).click();
  await expect(page.getByTestId("command-result")).toHaveText("El cargador no está conectado: no se pudo enviar «Desbloquear conector».");
});
