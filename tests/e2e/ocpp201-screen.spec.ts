import ocppRpc from "ocpp-rpc";
import { E2E_PORT } from "../../playwright.config";
import { test, expect, activeOperator, login } from "./fixtures";

// A 2.0.1 charger on the charger screen, with JavaScript and without — its events listed
// newest first in Spanish, the intervals read and set (a wrong one told under its field), and the
// full report asked for, with the screen saying when it arrived.

const { RPCClient } = ocppRpc;

test("a 2.0.1 charger: events, intervals and the device report from the charger screen", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const id = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const identity = `E2E-V201-${id}`;
  const accountPassword = "Clave-Segura-1";
  const { email } = await activeOperator(`http://127.0.0.1:${E2E_PORT}`, { prefix: "v201", password: accountPassword, businessName: "Cargas 2.0.1 S.A." });
  await login(page, email, accountPassword, "/charger/new");
  await page.getByLabel("Nombre", { exact: true }).fill(`2.0.1 e2e ${id}`);
  const first = page.getByRole("group", { name: "Conector 1" });
  await first.getByLabel("Tipo de conector").selectOption({ label: "Tipo 2" });
  await first.getByLabel("Potencia máxima").fill("22");
  await page.getByLabel("Identidad OCPP", { exact: true }).fill(identity);
  await page.getByRole("button", { name: "Crear cargador" }).click();
  const password = await page.getByTestId("ocpp-password").inputValue();
  await page.getByRole("link", { name: "Ver el cargador" }).click();
  await expect(page).toHaveURL(/\/charger\/edit\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("charger-events-empty")).toBeVisible();

  const charger = new RPCClient({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity, password, protocols: ["ocpp2.0.1"], strictMode: true, reconnect: false } as ConstructorParameters<
    typeof RPCClient
  >[0]);
  const variables = new Map([
    ["OCPPCommCtrlr.HeartbeatInterval", "300"],
    ["SampledDataCtrlr.TxUpdatedInterval", "60"],
  ]);
  type Ref = { component: { name: string }; variable: { name: string }; attributeValue?: string };
  charger.handle("GetVariables", async ({ params }) => ({
    getVariableResult: (params as { getVariableData: Ref[] }).getVariableData.map((d) => ({
      attributeStatus: "Accepted",
      attributeValue: variables.get(`${d.component.name}.${d.variable.name}`),
      component: d.component,
      variable: d.variable,
    })),
  }));
  charger.handle("SetVariables", async ({ params }) => ({
    setVariableResult: (params as { setVariableData: Ref[] }).setVariableData.map((d) => {
      variables.set(`${d.component.name}.${d.variable.name}`, d.attributeValue!);
      return { attributeStatus: "Accepted", component: d.component, variable: d.variable };
    }),
  }));
  let reportId: number | undefined;
  charger.handle("GetBaseReport", async ({ params }) => {
    reportId = (params as { requestId: number }).requestId;
    return { status: "Accepted" };
  });
  await charger.connect();
  try {
    await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alfen", model: "Eve Single" } });
    await charger.call("StatusNotification", { timestamp: new Date().toISOString(), connectorStatus: "Available", evseId: 1, connectorId: 1 });
    await charger.call("SecurityEventNotification", { type: "StartupOfTheDevice", timestamp: new Date(Date.now() - 60_000).toISOString(), techInfo: "arranque en frío" });
    await charger.call("FirmwareStatusNotification", { status: "Installed", requestId: 3 });

    await page.reload();
    await expect(page.getByTestId("commands-connection")).toHaveText("Conectado", { timeout: 10_000 });
    const events = page.getByTestId("charger-event");
    await expect(events).toHaveCount(2);
    await expect(events.nth(0)).toContainText("Firmware");
    await expect(events.nth(0)).toContainText("Firmware instalado (Installed)");
    await expect(events.nth(1)).toContainText("Seguridad");
    await expect(events.nth(1)).toContainText("StartupOfTheDevice: arranque en frío");

    // Read the intervals: the values show and fill the form.
    await page.getByTestId("command-GetConfiguration").getByRole("button", { name: "Leer intervalos" }).click();
    await expect(page.getByTestId("command-result")).toHaveText("El cargador informó sus intervalos (señal de vida: 300 s; mediciones durante la carga: 60 s).");
    await expect(page.getByTestId("command-intervals")).toContainText("60 s");
    const set = page.getByTestId("command-ChangeConfiguration");
    await expect(set.getByLabel("Mediciones durante la carga (segundos)")).toHaveValue("60");

    // A wrong value: the server's message under the field, nothing sent.
    await set.getByLabel("Señal de vida (segundos)").fill("10");
    await set.getByRole("button", { name: "Cambiar intervalos" }).click();
    const heartbeat = set.getByLabel("Señal de vida (segundos)");
    await expect(heartbeat).toHaveAttribute("aria-invalid", "true");
    await expect(set.getByText("Ingresá un número entero de segundos entre 30 y 86.400.")).toBeVisible();
    expect(variables.get("OCPPCommCtrlr.HeartbeatInterval")).toBe("300");

    await heartbeat.fill("120");
    await set.getByRole("button", { name: "Cambiar intervalos" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "El cargador aceptó los intervalos nuevos" })).toBeAttached();
    expect(variables.get("OCPPCommCtrlr.HeartbeatInterval")).toBe("120");

    // The full report: asked, then its parts arrive and the screen says so.
    const report = page.getByTestId("command-GetBaseReport");
    await expect(page.getByTestId("command-report-status")).toHaveText("Todavía no llegó ningún informe.");
    await report.getByRole("button", { name: "Pedir informe" }).click();
    await expect(page.getByTestId("command-result")).toContainText("El cargador aceptó «Pedir informe»");
    const part = (seqNo: number, tbc: boolean) => ({
      requestId: reportId!,
      generatedAt: new Date().toISOString(),
      seqNo,
      ...(tbc ? { tbc } : {}),
      reportData: [{ component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" }, variableAttribute: [{ value: "120" }] }],
    });
    await charger.call("NotifyReport", part(0, true));
    await charger.call("NotifyReport", part(1, false));
    // Load the screen again (without JavaScript a reload would post the last command again).
    await page.goto(page.url());
    await expect(page.getByTestId("command-report-status")).toContainText(`Último informe (n.º ${reportId}): llegó completo el`);
    await expect(page.getByTestId("command-report-status")).toContainText("(2 partes, 2 variables)");
    await expect(events.nth(0)).toContainText(`Informe ${reportId}, parte 1: 1 variable`);
  } finally {
    await charger.close();
  }
});
