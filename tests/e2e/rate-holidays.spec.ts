// «Feriados locales» and the price a driver sees, in both projects (JavaScript on and off):
// the company's local holidays are added and removed row by row (server-side without
// JavaScript), a date twice or one that does not exist is refused on its row in Spanish; the QR
// page of a connector with a banded rate says the band in force now and the next change.
// Screenshots at 360 and 1280 px go to the test's output folder.
import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { activeOperator, expect, login, test } from "./fixtures";
import { qrOperator } from "./qr-setup";

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const PASSWORD = "Clave-Segura-1";
const row = (page: Page, i: number) => page.getByTestId("holiday-row").nth(i);

async function axeAndWidth(page: Page, width: number) {
  await page.setViewportSize({ width, height: 800 });
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `no sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
}

async function shots(page: Page, info: TestInfo, name: string) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: info.outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("«Feriados locales»: add, refuse a repeated and an impossible date on their rows, save in order, remove", async ({ page, javaScriptEnabled }, info) => {
  test.setTimeout(120_000); // a shared, loaded machine
  const { email } = await activeOperator(BASE, { prefix: "holidays", password: PASSWORD, businessName: `Feriados ${info.project.name} S.A.` });
  await login(page, email, PASSWORD, "/rate/holidays");
  await expect(page).toHaveURL(/\/rate\/holidays$/, { timeout: 30_000 });
  await expect(page.getByTestId("national-holidays")).toContainText("/");
  await expect(page.getByText("La empresa no tiene feriados locales")).toBeVisible();

  await page.getByRole("button", { name: "Agregar feriado" }).click();
  await page.getByLabel("Feriado 1", { exact: true }).fill("07/10/2027");
  await page.getByRole("button", { name: "Agregar feriado" }).click();
  // Without JavaScript the row was added by the server: what was typed in the first one is kept.
  await expect(page.getByLabel("Feriado 1", { exact: true })).toHaveValue("07/10/2027");
  await page.getByLabel("Feriado 2", { exact: true }).fill("7/10/2027");
  await page.getByRole("button", { name: "Agregar feriado" }).click();
  await page.getByLabel("Feriado 3", { exact: true }).fill("30/02/2027");
  await page.getByRole("button", { name: "Guardar feriados" }).click();
  await expect(row(page, 2)).toContainText("«30/02/2027» no es una fecha válida");
  await page.getByLabel("Feriado 3", { exact: true }).fill("15/03/2027");
  await page.getByRole("button", { name: "Guardar feriados" }).click();
  await expect(row(page, 1)).toContainText("El 07/10/2027 ya está en la lista.");
  if (javaScriptEnabled) {
    await axeAndWidth(page, 360);
    await axeAndWidth(page, 1280);
  }

  await page.getByRole("button", { name: "Quitar el feriado 2" }).click();
  await expect(page.getByTestId("holiday-row")).toHaveCount(2);
  await page.getByRole("button", { name: "Guardar feriados" }).click();
  await expect(page.getByText("Guardamos 2 feriados locales.")).toBeVisible();
  // Saved in order: the March date first.
  await expect(page.getByLabel("Feriado 1", { exact: true })).toHaveValue("15/03/2027");
  await expect(page.getByLabel("Feriado 2", { exact: true })).toHaveValue("07/10/2027");
  await shots(page, info, "holidays");

  await page.getByRole("button", { name: "Quitar el feriado 1" }).click();
  await page.getByRole("button", { name: "Guardar feriados" }).click();
  await expect(page.getByText("Guardamos 1 feriado local.")).toBeVisible();
  await expect(page.getByTestId("holiday-row")).toHaveCount(1);
  await expect(page.getByLabel("Feriado 1", { exact: true })).toHaveValue("07/10/2027");

  // The rates list leads there.
  await page.goto("/rate");
  await expect(page.getByRole("link", { name: "Feriados locales" })).toHaveAttribute("href", "/rate/holidays");
});

test("the QR page says the band in force now and the next change, as the rate preview does", async ({ page }, info) => {
  test.setTimeout(120_000);
  const tag = `BAND-${info.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  // Every day: «Mañana» until 12:00 at $ 350, «Tarde» from 12:00 at $ 420 (so there is always a next change).
  const bands = (["WEEKDAY", "SATURDAY", "SUNDAY_HOLIDAY"] as const).flatMap((days) => [
    { name: "Mañana", days, from: "00:00", to: "12:00", pricePerKwhCents: 35_000, pricePerMinuteCents: 0 },
    { name: "Tarde", days, from: "12:00", to: "24:00", pricePerKwhCents: 42_000, pricePerMinuteCents: 0 },
  ]);
  const op = await qrOperator(BASE, { tag, prefix: "qr-band", rate: { sessionFeeCents: 0, pricePerKwhCents: 30_000, bands }, qr: { enabled: true } });
  await page.goto(`/cargar/${encodeURIComponent(op.identity)}/1`);
  const hour = Number(new Intl.DateTimeFormat("en-GB", { timeZone: "America/Argentina/Buenos_Aires", hour: "2-digit", hourCycle: "h23" }).format(new Date()));
  const text = (await page.getByTestId("band-now").textContent())!.replace(/\s+/g, " ");
  // Right at 12:00 or 00:00 the page and this test may read different sides of the edge.
  const expected = hour < 12 ? ["Ahora: $ 350,00/kWh (Mañana)", "Desde las 12:00: $ 420,00/kWh (Tarde)"] : ["Ahora: $ 420,00/kWh (Tarde)", "Desde mañana a las 00:00: $ 350,00/kWh (Mañana)"];
  for (const part of expected) expect(text).toContain(part);
  await expect(page.getByText("Fuera de las franjas horarias:")).toBeVisible();
  await shots(page, info, "qr-band");
});

test("the rate screen with bands, for the screenshots", async ({ page }, info) => {
  test.skip(info.project.name !== "js", "the same server-rendered screen");
  test.setTimeout(120_000);
  await login(page, undefined, undefined, "/rate");
  await expect(page).toHaveURL(/\/rate$/, { timeout: 30_000 });
  await shots(page, info, "rates");
  await page.getByRole("link", { name: "Carga rápida DC", exact: true }).first().click();
  await expect(page.getByTestId("preview-band-now")).toContainText("Ahora rige");
  await shots(page, info, "rate-banded");
});
