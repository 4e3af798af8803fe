// Desktop layout checks an acceptance run found wrong, measured in the
// browser at 1280 px as the demo operator: with and without JavaScript the page is the same.
import type { Page } from "@playwright/test";
import { expect, login, test } from "./fixtures";

test.use({ viewport: { width: 1280, height: 900 } });

test.beforeEach(async ({ page }) => {
  await login(page);
  await expect(page).toHaveURL(/\/home$/);
});

test("Actividad fits 1280 px: no sideways scrolling, the Pago column whole", async ({ page }) => {
  await page.goto("/activity");
  const table = page.locator(".table-scroll").first();
  await expect(page.getByTestId("session-row").first()).toBeVisible();
  const { scroll, client } = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
  // The last column ends inside the table's box.
  const tableBox = (await table.boundingBox())!;
  const pago = (await page.getByRole("columnheader", { name: "Pago" }).boundingBox())!;
  expect(pago.x + pago.width).toBeLessThanOrEqual(tableBox.x + tableBox.width + 1);
});

/** Distance from each field's label to the next one's, in a card: even rhythm. */
async function labelSteps(page: Page, cardTitle: string, labels: string[]) {
  const card = page.locator("section").filter({ has: page.getByRole("heading", { name: cardTitle }) });
  const tops: number[] = [];
  for (const label of labels) tops.push((await card.locator("label", { hasText: new RegExp(`^${label}$`) }).first().boundingBox())!.y);
  return tops.slice(1).map((t, i) => Math.round(t - tops[i]));
}

test("Mi perfil: fields are evenly spaced, with or without a hint, editable or read-only", async ({ page }) => {
  await page.goto("/user");
  const company = await labelSteps(page, "Datos de la empresa", ["Nombre", "CUIT", "Domicilio", "Teléfono"]);
  // One-line hints: every step is the same (a read-only CUIT used to be 16 px shorter).
  expect(Math.max(...company) - Math.min(...company)).toBeLessThanOrEqual(1);
  const password = await labelSteps(page, "Cuenta", ["Contraseña actual", "Nueva contraseña", "Repetir contraseña"]);
  expect(Math.abs(password[0] - password[1])).toBeLessThanOrEqual(1);
});

test("Editar estación: the form's cards as wide as 'Cargadores'; its selects look like the charger screens'", async ({ page }) => {
  await page.goto("/station");
  await page.locator("a[href^='/station/edit/']").first().click();
  await expect(page).toHaveURL(/\/station\/edit\//);
  const chargers = (await page.locator("#station-chargers-title").locator("xpath=ancestor::section[1]").boundingBox())!;
  const data = (await page.getByRole("heading", { name: "Datos de la estación" }).locator("xpath=ancestor::section[1]").boundingBox())!;
  expect(Math.round(data.x + data.width)).toBe(Math.round(chargers.x + chargers.width));

  const look = (p: Page) => p.locator("form select").first().evaluate((el) => ({ cls: el.className, ...(({ appearance, height, backgroundImage }) => ({ appearance, height, chevron: backgroundImage !== "none" }))(getComputedStyle(el)) }));
  const stationSelect = await look(page);
  await page.goto("/charger/new");
  const chargerSelect = await look(page);
  expect(stationSelect).toEqual(chargerSelect);
  expect(stationSelect).toMatchObject({ cls: "field-select", appearance: "none", chevron: true });
});
