// The rate form's time-of-use bands, in both projects (JavaScript on and off): "Agregar franja"
// and "Quitar" add and remove rows (server-side without JavaScript), the preview prices the
// example per band, overlapping bands are refused with a Spanish message on the row, and the saved
// bands come back on the edit screen. axe-clean at 360 px with two rows and an error.
import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { DEMO, expect, login, test } from "./fixtures";

const norm = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();
const uniqueName = (info: TestInfo) => `Franjas e2e ${info.project.name} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const band = (page: Page, i: number) => page.getByTestId(`band-${i}`);

test("bands: add rows, preview per band, overlap refused, remove a row, save and read back", async ({ page, javaScriptEnabled }, info) => {
  test.setTimeout(120_000); // a shared, loaded machine
  const name = uniqueName(info);
  await login(page, DEMO.email, DEMO.password, "/rate/new");
  await expect(page).toHaveURL(/\/rate\/new$/);
  await page.getByLabel("Nombre de la tarifa").fill(name);
  await page.getByLabel("Precio por kWh").first().fill("300");

  await page.getByRole("button", { name: "Agregar franja" }).click();
  await expect(band(page, 0)).toBeVisible();
  await band(page, 0).getByLabel("Nombre").fill("Pico");
  await band(page, 0).getByLabel("Desde").fill("18:00");
  await band(page, 0).getByLabel("Hasta").fill("23:00");
  await band(page, 0).getByLabel("Precio por kWh").fill("420");

  await page.getByRole("button", { name: "Agregar franja" }).click();
  await expect(band(page, 1)).toBeVisible();
  // Without JavaScript the row was added by the server: what was typed in the first one is kept.
  await expect(band(page, 0).getByLabel("Desde")).toHaveValue("18:00");
  await band(page, 1).getByLabel("Desde").fill("17:00");
  await band(page, 1).getByLabel("Hasta").fill("19:00");
  await band(page, 1).getByLabel("Precio por kWh").fill("200");
  await page.getByRole("button", { name: "Crear tarifa" }).click();
  await expect(band(page, 1)).toContainText("Se superpone con la franja 1 (lunes a viernes).");

  // axe at 360 px on the form with two rows and an error; axe runs in the page, so only with
  // JavaScript (without it the server's HTML is the same markup).
  if (javaScriptEnabled) {
    await page.setViewportSize({ width: 360, height: 740 });
    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  await page.getByRole("button", { name: "Quitar la franja 2" }).click();
  await expect(band(page, 1)).toHaveCount(0);

  // The example: weekday, 75 min ending 18:45 (from 17:30), 15 kWh: 6 kWh at $300, 9 kWh at $420.
  await page.getByLabel("Minutos de carga").fill("75");
  await page.getByLabel("Energía", { exact: true }).fill("15");
  await page.getByLabel("Fin de la carga").fill("18:45");
  await page.getByLabel("Día", { exact: true }).selectOption("WEEKDAY");
  if (info.project.name === "no-js") await page.getByRole("button", { name: "Calcular vista previa" }).click();
  await expect(page.getByTestId("rate-preview")).toContainText("Fuera de franja");
  await expect(page.getByTestId("rate-preview")).toContainText("Pico (lunes a viernes 18:00–23:00)");
  await expect(page.getByTestId("preview-band-0")).toHaveText("$ 1.800,00");
  await expect(page.getByTestId("preview-band-1")).toHaveText("$ 3.780,00");
  expect(norm(await page.getByTestId("preview-total").textContent())).toBe("$ 5.580,00");
  await expect(page.getByTestId("preview-band-now")).toContainText("Ahora rige");

  await page.getByRole("button", { name: "Crear tarifa" }).click();
  await expect(page).toHaveURL(/\/rate(\?|$)/);
  await page.getByRole("link", { name }).first().click();
  await expect(page).toHaveURL(/\/rate\/edit\//);
  await expect(band(page, 0).getByLabel("Nombre")).toHaveValue("Pico");
  await expect(band(page, 0).getByLabel("Hasta")).toHaveValue("23:00");
  await expect(band(page, 0).getByLabel("Precio por kWh")).toHaveValue("420,00");

  // Clean up: delete the rate this run created.
  await page.getByRole("link", { name: "Eliminar tarifa" }).click();
  await page.getByTestId("delete-rate-confirm").getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(page.getByTestId("rate-row").filter({ hasText: name })).toHaveCount(0);
});
