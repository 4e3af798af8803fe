// An access group's «Facturación mensual» in both projects (JavaScript on and off): a CUIT with a
// wrong check digit and «Facturar mensualmente» without a razón social are refused on their
// fields, then the group is saved with its billing data and shows it again when edited. With
// JavaScript, screenshots of the form at 1280 and 360 px. Each run deletes the group it created.
import type { TestInfo } from "@playwright/test";
import { DEMO, expect, login, test } from "./fixtures";

const suffix = (info: TestInfo) => `${info.project.name === "no-js" ? "N" : "J"}${Date.now().toString(36).slice(-6)}`;

test("a group with monthly invoicing: the CUIT checked, the data kept", async ({ page }, info) => {
  const name = `Flota ${suffix(info)}`;
  await login(page, DEMO.email, DEMO.password, "/group/new");
  await expect(page).toHaveTitle("Nuevo grupo - Enchufá");
  await page.getByLabel("Nombre del grupo").fill(name);
  await page.getByLabel("CUIT", { exact: true }).fill("30-50001091-3");
  await page.getByLabel(/^Facturar mensualmente/).check();
  await page.getByRole("button", { name: "Crear grupo" }).click();
  await expect(page.getByText("El dígito verificador del CUIT no es válido.")).toBeVisible();

  await page.getByLabel("CUIT", { exact: true }).fill("30-50001091-2");
  await page.getByLabel("Razón social", { exact: true }).fill("");
  await page.getByRole("button", { name: "Crear grupo" }).click();
  await expect(page.getByText("Ingresá la razón social a la que se factura cada mes.")).toBeVisible();
  await expect(page.getByText("Elegí la condición frente al IVA del cliente.")).toBeVisible();

  await page.getByLabel("Razón social", { exact: true }).fill("Flota Sur SA");
  await page.getByLabel("Condición frente al IVA del cliente").selectOption("MONOTRIBUTO");
  if (!(await page.getByLabel(/^Facturar mensualmente/).isChecked())) await page.getByLabel(/^Facturar mensualmente/).check();
  if (info.project.name === "js") {
    for (const [width, height] of [
      [1280, 900],
      [360, 800],
    ]) {
      await page.setViewportSize({ width, height });
      await page.getByRole("heading", { name: "Facturación mensual" }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/group-billing-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await page.getByRole("button", { name: "Crear grupo" }).click();
  await expect(page).toHaveURL(/\/group$/);
  await expect(page.getByTestId("toast").filter({ hasText: name })).toBeVisible();

  await page.goto(`/group?q=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name, exact: true }).first().click();
  await expect(page).toHaveTitle("Editar grupo - Enchufá");
  await expect(page.getByLabel("CUIT", { exact: true })).toHaveValue("30-50001091-2");
  await expect(page.getByLabel("Razón social", { exact: true })).toHaveValue("Flota Sur SA");
  await expect(page.getByLabel("Condición frente al IVA del cliente")).toHaveValue("MONOTRIBUTO");
  await expect(page.getByLabel(/^Facturar mensualmente/)).toBeChecked();

  await page.goto(`${new URL(page.url()).pathname}?delete=1`);
  await page.getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(page).toHaveURL(/\/group$/);
});
