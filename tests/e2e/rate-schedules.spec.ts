// Scheduled price changes and «Actualizar precios», JavaScript on and off: schedule a change on a
// rate's screen and cancel it; reprice by a percentage with the old → new preview, then confirm.
// Each run creates its own rate and deletes it.
import type { Page, TestInfo } from "@playwright/test";
import { DEMO, expect, login, test } from "./fixtures";

const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text });
const uniqueName = (info: TestInfo) => `Programada e2e ${info.project.name} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
/** A datetime-local value: 00:00 in Argentina, `days` days from now. */
const midnightIn = (days: number) => `${new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10)}T00:00`;

async function createRate(page: Page, name: string): Promise<string> {
  await login(page, DEMO.email, DEMO.password, "/rate/new");
  await page.getByLabel("Nombre de la tarifa").fill(name);
  await page.getByLabel("Precio por kWh").fill("350");
  await page.getByRole("button", { name: "Crear tarifa" }).click();
  await expect(page).toHaveURL(/\/rate(\?|$)/);
  await page.goto(`/rate?q=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page).toHaveURL(/\/rate\/edit\//);
  return page.url();
}

async function deleteRate(page: Page, editUrl: string) {
  await page.goto(`${editUrl}?delete=1`);
  await page.getByTestId("delete-rate-confirm").getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(page).toHaveURL(/\/rate(\?|$)/);
}

test("schedule a price change for tomorrow 00:00 on the rate's screen, then cancel it", async ({ page }, info) => {
  const name = uniqueName(info);
  const editUrl = await createRate(page, name);
  await expect(page.getByTestId("rate-current")).toContainText("350,00 / kWh");
  await page.getByLabel("Vigente desde").fill(midnightIn(1));
  await page.getByLabel("Nuevo precio por kWh").fill("420");
  await page.getByRole("button", { name: "Programar cambio" }).click();
  await expect(toast(page, "Programamos el cambio")).toBeVisible();
  const upcoming = page.getByTestId("rate-upcoming");
  await expect(upcoming).toContainText("00:00");
  await expect(upcoming).toContainText("420,00 / kWh");
  await expect(page.getByTestId("rate-current")).toContainText("350,00 / kWh");
  // A change in the past is refused on its field, nothing typed lost.
  await page.getByLabel("Vigente desde").fill(midnightIn(-1));
  await page.getByLabel("Nuevo precio por kWh").fill("500");
  await page.getByRole("button", { name: "Programar cambio" }).click();
  await expect(page.getByText("El cambio tiene que regir en el futuro.").first()).toBeVisible();
  await upcoming.getByRole("button", { name: /Cancelar el cambio/ }).click();
  await expect(toast(page, "Cancelamos el cambio programado.")).toBeVisible();
  await expect(page.getByTestId("rate-upcoming")).toHaveCount(0);
  await deleteRate(page, editUrl);
});

test("«Actualizar precios»: preview old → new, confirm, and the rate shows the upcoming price", async ({ page }, info) => {
  const name = uniqueName(info);
  const editUrl = await createRate(page, name);
  await page.goto("/rate");
  await page.getByRole("link", { name: "Actualizar precios" }).click();
  await expect(page).toHaveURL(/\/rate\/reprice$/);
  await page.getByRole("checkbox", { name: new RegExp(name) }).check();
  await page.getByLabel("Porcentaje").fill("10");
  await page.getByLabel("Vigente desde").fill(midnightIn(2));
  await page.getByRole("button", { name: "Ver cambios" }).click();
  const row = page.getByTestId("reprice-row").filter({ hasText: name });
  await expect(row).toContainText("350,00 / kWh");
  await expect(row).toContainText("385,00 / kWh");
  await page.getByRole("button", { name: "Confirmar actualización" }).click();
  await expect(toast(page, "Programamos nuevos precios en 1 tarifa")).toBeVisible();
  await page.goto(editUrl);
  await expect(page.getByTestId("rate-upcoming")).toContainText("385,00 / kWh");
  await deleteRate(page, editUrl);
});
