import { test, expect, login } from "./fixtures";

// Inicio: KPIs for a period, server-rendered charts, and the same figures as the activity list.

const number = (text: string) => Number(text.replace(/[^\d,]/g, "").replace(",", "."));

test.beforeEach(async ({ page }) => {
  await login(page);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { name: "Inicio", level: 1 })).toBeVisible();
});

test("the KPIs of the last 30 days match the activity list for the same period", async ({ page }) => {
  await page.getByRole("link", { name: "Últimos 30 días" }).click();
  await expect(page).toHaveURL(/period=30d/);
  const sessions = number(await page.getByTestId("kpi-sessions-value").innerText());
  const energy = number(await page.getByTestId("kpi-energy-value").innerText());
  expect(sessions).toBeGreaterThan(100);
  expect(energy).toBeGreaterThan(100);

  await page.getByRole("link", { name: "Ver las cargas del período" }).click();
  await expect(page).toHaveURL(/\/activity\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByRole("heading", { name: "Actividad", level: 1 })).toBeVisible();
  expect(number(await page.getByTestId("activity-total-count").innerText())).toBe(sessions);
  expect(number(await page.getByTestId("activity-total-energy").innerText())).toBeCloseTo(energy, 2);
});

test("charts render on the server with an accessible name and a data table", async ({ page }) => {
  for (const [id, name] of [
    ["chart-energy-day", "Energía entregada por día"],
    ["chart-revenue-day", "Facturación por día"],
    ["chart-hours", "Cargas por hora del día"],
    ["chart-status", "Estado de los conectores ahora"],
    ["chart-top-stations", "Estaciones con más facturación"],
  ]) {
    const chart = page.getByTestId(id);
    await expect(chart.getByRole("img", { name: new RegExp(`^${name}`) })).toBeVisible();
  }
  // 30 days of bars, one per day.
  await expect(page.getByTestId("chart-energy-day").locator("rect")).toHaveCount(30);
  // The data table behind a native <details> (works without JavaScript).
  const hours = page.getByTestId("chart-hours");
  await hours.getByText("Ver los datos en una tabla").click();
  await expect(hours.getByRole("table").getByRole("row")).toHaveCount(25);
});

test("a custom period is a GET form; a wrong range is explained on the field", async ({ page }) => {
  await page.getByLabel("Desde").fill("2025-03-10");
  await page.getByLabel("Hasta").fill("2025-03-01");
  await page.getByRole("button", { name: "Aplicar" }).click();
  await expect(page).toHaveURL(/period=custom&from=2025-03-10&to=2025-03-01/);
  await expect(page.getByTestId("to-error")).toHaveText("La fecha 'hasta' no puede ser anterior a 'desde'.");
  await expect(page.getByLabel("Hasta")).toHaveAttribute("aria-invalid", "true");

  await page.getByRole("link", { name: "Hoy" }).click();
  await expect(page).toHaveURL(/period=today/);
  await expect(page.getByRole("link", { name: "Hoy" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("chart-energy-day").locator("rect")).toHaveCount(1);
});
