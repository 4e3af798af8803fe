import ocppRpc from "ocpp-rpc";
import { E2E_PORT } from "../../playwright.config";
import { test, expect, activeOperator, login } from "./fixtures";

// A charger's maintenance from the dashboard, with JavaScript and without — the firmware
// update (a wrong URL told on its field, then UpdateFirmware and the progress the charger
// reports), a diagnostics file the charger uploads to the URL it was given and the operator
// downloads, and the charger's recent OCPP messages with the CSV.

const { RPCClient } = ocppRpc;

test("firmware, diagnostics and the OCPP messages of a charger", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const id = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const identity = `E2E-MNT-${id}`;
  const accountPassword = "Clave-Segura-1";
  const { email } = await activeOperator(`http://127.0.0.1:${E2E_PORT}`, { prefix: "maint", password: accountPassword, businessName: "Mantenimiento S.A." });
  await login(page, email, accountPassword, "/charger/new");
  await page.getByLabel("Nombre", { exact: true }).fill(`Mantenimiento ${id}`);
  await page.getByLabel("Modelo", { exact: true }).fill("Terra AC W22");
  const first = page.getByRole("group", { name: "Conector 1" });
  await first.getByLabel("Tipo de conector").selectOption({ label: "Tipo 2" });
  await first.getByLabel("Potencia máxima").fill("22");
  await page.getByLabel("Identidad OCPP", { exact: true }).fill(identity);
  await page.getByRole("button", { name: "Crear cargador" }).click();
  const password = await page.getByTestId("ocpp-password").inputValue();
  await page.getByRole("link", { name: "Ver el cargador" }).click();
  await expect(page).toHaveURL(/\/charger\/edit\/[0-9a-f-]{36}$/);
  const chargerUrl = page.url();

  const charger = new RPCClient({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity, password, protocols: ["ocpp1.6"], strictMode: true, reconnect: false } as ConstructorParameters<
    typeof RPCClient
  >[0]);
  const firmwareAsked: { location: string; retrieveDate: string }[] = [];
  charger.handle("UpdateFirmware", async ({ params }) => {
    firmwareAsked.push(params as (typeof firmwareAsked)[number]);
    return {};
  });
  let uploadTo = "";
  charger.handle("GetDiagnostics", async ({ params }) => {
    uploadTo = (params as { location: string }).location;
    return { fileName: "diagnostico-e2e.log" };
  });
  await charger.connect();
  try {
    await charger.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC", firmwareVersion: "1.8.1" });

    await page.getByTestId("charger-maintenance-link").click();
    await expect(page).toHaveURL(/\/maintenance$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mantenimiento del cargador");
    await expect(page.getByTestId("local-list-version")).toContainText("Todavía no sabemos qué lista tiene");
    await expect(page.getByTestId("firmware-state")).toContainText("1.8.1");

    // A URL that is not one: told on its field, nothing sent.
    const form = page.getByTestId("firmware-form");
    await form.getByLabel("Dirección del firmware").fill("file:///etc/passwd");
    await form.getByRole("button", { name: "Actualizar firmware" }).click();
    await expect(page.getByTestId("location-error")).toHaveText("Ingresá la dirección del firmware (http, https, ftp o ftps).");
    await expect(form.getByLabel("Dirección del firmware")).toHaveAttribute("aria-invalid", "true");
    expect(firmwareAsked).toHaveLength(0);

    await form.getByLabel("Dirección del firmware").fill("https://fw.example.com/terra-1.8.2.bin");
    await form.getByLabel("Descargar a partir de (opcional)").fill("2030-01-02T03:00");
    await form.getByRole("button", { name: "Actualizar firmware" }).click();
    await expect(page.getByTestId("maintenance-firmware-result")).toHaveText("El cargador aceptó «Actualizar firmware»: informa el avance en «Firmware y diagnóstico».");
    expect(firmwareAsked).toEqual([{ location: "https://fw.example.com/terra-1.8.2.bin", retrieveDate: "2030-01-02T06:00:00.000Z" }]);

    await charger.call("FirmwareStatusNotification", { status: "Downloading" });
    await charger.call("FirmwareStatusNotification", { status: "Installed" });
    await page.goto(page.url());
    await expect(page.getByTestId("firmware-status")).toContainText("Instalado");

    // Diagnostics: asked, uploaded by the charger to its one-time URL, downloaded by the operator.
    await page.getByTestId("diagnostics-form").getByRole("button", { name: "Pedir diagnóstico" }).click();
    await expect(page.getByTestId("maintenance-diagnostics-result")).toContainText("El cargador aceptó «Pedir diagnóstico»: sube diagnostico-e2e.log");
    expect(new URL(uploadTo).pathname).toMatch(/^\/api\/ChargerUpload\//);
    const upload = await fetch(uploadTo, { method: "PUT", body: "2030-01-02 03:00:01 arranque en frío\n" });
    expect(upload.status).toBe(201);
    expect((await fetch(uploadTo, { method: "PUT", body: "otra vez" })).status).toBe(401);
    await page.goto(page.url());
    const row = page.getByTestId("diagnostics-row").first();
    await expect(row).toHaveAttribute("data-status", "UPLOADED");
    const [download] = await Promise.all([page.waitForEvent("download"), row.getByTestId("diagnostics-download").click()]);
    expect(download.suggestedFilename()).toBe("diagnostico-e2e.log");
    const saved = await download.path();
    expect(saved).toBeTruthy();

    // The recent OCPP messages: both directions, the update among them, and the CSV.
    await page.goto(chargerUrl);
    await page.getByTestId("charger-maintenance-link").click();
    await page.getByTestId("charger-messages-link").click();
    await expect(page).toHaveURL(/\/messages$/);
    const rows = page.getByTestId("message-row");
    await expect(rows.first()).toBeAttached();
    await expect(page.locator("[data-testid=message-row][data-direction=OUT]").filter({ hasText: "UpdateFirmware" }).first()).toBeAttached();
    await page.getByLabel("Sentido").selectOption({ label: "Recibidos del cargador" });
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/direction=IN/);
    await expect(page.locator("[data-testid=message-row][data-direction=OUT]")).toHaveCount(0);
    await expect(page.locator("[data-testid=message-row][data-direction=IN]").filter({ hasText: "BootNotification" })).toBeAttached();
    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByTestId("messages-export").click()]);
    expect(csv.suggestedFilename()).toBe(`mensajes-ocpp-${identity}.csv`);
  } finally {
    await charger.close();
  }
});
