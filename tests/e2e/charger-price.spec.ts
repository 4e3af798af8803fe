import { test, expect, login } from "./fixtures";

// «Mostrar precio en el cargador» on the charger's form, with JavaScript and without it: created
// as «Sí», kept on the edit screen, changed back to «Según el protocolo». The spec creates and
// deletes its own charger (the demo operator is shared by every file).

test("«Mostrar precio en el cargador»: chosen at creation, shown and changed on the edit screen", async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const id = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const name = `Precio e2e ${id}`;

  await login(page, undefined, undefined, "/charger/new");
  await expect(page).toHaveURL(/\/charger\/new$/);
  const setting = page.getByLabel("Mostrar precio en el cargador");
  await expect(setting).toHaveValue("AUTO");
  await page.getByLabel("Nombre", { exact: true }).fill(name);
  const first = page.getByRole("group", { name: "Conector 1" });
  await first.getByLabel("Tipo de conector").selectOption({ label: "Tipo 2" });
  await first.getByLabel("Potencia máxima").fill("22");
  await page.getByLabel("Identidad OCPP", { exact: true }).fill(`E2E-PRICE-${id}`);
  await setting.selectOption({ label: "Sí" });
  await page.getByRole("button", { name: "Crear cargador" }).click();
  await expect(page.getByRole("heading", { name: "Configurá el cargador" })).toBeVisible();

  await page.getByRole("link", { name: "Ver el cargador" }).click();
  await expect(page).toHaveURL(/\/charger\/edit\/[0-9a-f-]{36}$/);
  const editUrl = page.url();
  await expect(setting).toHaveValue("ON");
  await expect(page.getByText("En OCPP 1.6 requiere que el cargador admita los mensajes «California Pricing».")).toBeVisible();

  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await setting.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`charger-price-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await setting.selectOption({ label: "Según el protocolo (sí en OCPP 2.0.1, no en 1.6)" });
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page).toHaveURL(/\/charger$/);
  await page.goto(editUrl);
  await expect(setting).toHaveValue("AUTO");

  await page.getByRole("link", { name: "Eliminar cargador" }).click();
  await page.getByTestId("delete-confirm").getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(page).toHaveURL(/\/charger$/);
});
