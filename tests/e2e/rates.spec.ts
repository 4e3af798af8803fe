// Rates (Tarifas): create with a live / server-side price preview, edit, delete, and a rate in
// use that cannot be deleted — in both projects (JavaScript on and off). Each run creates its
// own rate with a unique name and deletes only that one.
import type { Page, TestInfo } from "@playwright/test";
import { formatArs } from "#domain/money";
import { idleStartDate } from "~/components/rate/preview";
import { priceSession } from "#domain/pricing";
import { DEMO, expect, login, test } from "./fixtures";

const IN_USE = "La tarifa está asignada a conectores. Asignales otra tarifa antes de eliminarla.";
const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text });
const norm = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();
const uniqueName = (info: TestInfo) => `Tarifa e2e ${info.project.name} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** Without JavaScript the preview is computed by the server: press the button. */
async function refreshPreview(page: Page, info: TestInfo) {
  if (info.project.name === "no-js") await page.getByRole("button", { name: "Calcular vista previa" }).click();
}

async function previewTotal(page: Page) {
  return norm(await page.getByTestId("preview-total").textContent());
}

test("create a rate with its price preview, edit it, delete it", async ({ page }, info) => {
  const name = uniqueName(info);
  await login(page, DEMO.email, DEMO.password, "/rate/new");
  await expect(page).toHaveURL(/\/rate\/new$/);
  await expect(page).toHaveTitle("Nueva tarifa - Enchufá");

  await page.getByLabel("Nombre de la tarifa").fill(name);
  await page.getByLabel("Precio por kWh", { exact: true }).fill("1.234,56");
  await page.getByLabel("Precio por minuto", { exact: true }).fill("10.5");
  await page.getByLabel("Cargo por sesión", { exact: true }).fill("500");
  await page.getByLabel("El IVA se suma a los precios").check();
  await page.getByLabel("Minutos de gracia").fill("10");
  await page.getByLabel("Penalidad por minuto").fill("50");
  await page.getByLabel("Se cobra desde las").fill("22:00");
  await page.getByLabel("Hasta las").fill("06:00");
  await page.getByLabel("Cargo por no presentarse").fill("1.500");
  // The example: 45 min, 12,5 kWh, 20 min idle from 21:50 (10 of them after the grace, inside 22–06).
  await page.getByLabel("Energía").fill("12,5");
  await page.getByLabel("Fin de la carga").fill("21:50");
  await refreshPreview(page, info);

  const rate = {
    rateId: null,
    name,
    currency: "ARS",
    pricePerKwhCents: 123_456,
    pricePerMinuteCents: 1_050,
    sessionFeeCents: 50_000,
    vatIncluded: false,
    vatRateBp: 2100,
    idleGraceMinutes: 10,
    idlePricePerMinuteCents: 5_000,
    idleMaxCents: null,
    idleActiveFrom: "22:00",
    idleActiveTo: "06:00",
    noShowFeeCents: 150_000,
  };
  const expected = priceSession(rate, { energyWh: 12_500, chargingMinutes: 45, idleMinutes: 20, idleStartedAt: idleStartDate("21:50") });
  expect(expected.idleCents).toBe(50_000);
  await expect(page.getByTestId("preview-sentence")).toContainText("Una sesión de 45 min, 12,5 kWh y 20 min de inactividad cuesta");
  await expect.poll(() => previewTotal(page)).toBe(norm(formatArs(expected.totalCents)));
  await expect(page.getByTestId("preview-idle")).toHaveText(norm(formatArs(50_000)));
  await expect(page.getByTestId("preview-vat")).toHaveText(norm(formatArs(expected.vatCents)));
  // Nothing typed was lost by the preview.
  await expect(page.getByLabel("Precio por kWh", { exact: true })).toHaveValue("1.234,56");
  await expect(page.getByLabel("Nombre de la tarifa")).toHaveValue(name);

  await page.getByRole("button", { name: "Crear tarifa" }).click();
  await expect(page).toHaveURL(/\/rate$/);
  await expect(toast(page, `Creamos la tarifa «${name}».`)).toHaveCount(1);
  const row = page.getByTestId("rate-row").filter({ hasText: name });
  await expect(row).toContainText("$ 1.234,56 / kWh");
  await expect(row).toContainText("+ IVA 21 %");
  await expect(row).toContainText("de 22:00 a 06:00");
  await expect(row.getByTestId("rate-connectors")).toHaveText("Sin uso");

  // Edit: the amounts come back es-AR style; change the price per kWh.
  await row.getByRole("link", { name: `Editar ${name}` }).click();
  await expect(page).toHaveURL(/\/rate\/edit\/[0-9a-f-]{36}$/);
  await expect(page.getByLabel("Precio por kWh", { exact: true })).toHaveValue("1.234,56");
  await page.getByLabel("Precio por kWh", { exact: true }).fill("999");
  await page.getByLabel("Los precios incluyen IVA").check();
  await refreshPreview(page, info);
  const edited = priceSession(
    { ...rate, pricePerKwhCents: 99_900, vatIncluded: true },
    { energyWh: 30_000, chargingMinutes: 45, idleMinutes: 20, idleStartedAt: idleStartDate("20:00") },
  );
  await expect.poll(() => previewTotal(page)).toBe(norm(formatArs(edited.totalCents)));
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page).toHaveURL(/\/rate$/);
  await expect(toast(page, `Guardamos los cambios de la tarifa «${name}».`)).toHaveCount(1);
  await expect(row).toContainText("$ 999,00 / kWh");
  await expect(row).toContainText("IVA incluido (21 %)");

  // Delete, confirmed.
  await row.getByRole("link", { name: `Eliminar ${name}` }).click();
  const confirm = page.getByTestId("delete-rate-confirm");
  await expect(confirm).toContainText(`¿Eliminar la tarifa «${name}»?`);
  await confirm.getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(toast(page, `Eliminamos la tarifa «${name}».`)).toHaveCount(1);
  await expect(page.getByTestId("rate-row").filter({ hasText: name })).toHaveCount(0);
});

test("a rate in use cannot be deleted: the API's message as a toast", async ({ page }) => {
  await login(page, DEMO.email, DEMO.password, "/rate?q=AC%20Est%C3%A1ndar");
  const row = page.getByTestId("rate-row").filter({ hasText: "AC Estándar" });
  await expect(row.getByTestId("rate-connectors")).toHaveText(/\d+ conectores?/);
  await row.getByRole("link", { name: "Eliminar AC Estándar" }).click();
  await page.getByTestId("delete-rate-confirm").getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(toast(page, IN_USE)).toHaveCount(1);
  await expect(page.getByTestId("delete-rate-error")).toHaveText(IN_USE);
  await expect(page.getByTestId("rate-row").filter({ hasText: "AC Estándar" })).toHaveCount(1);

  // Same from its edit page.
  await page.goto("/rate?q=Carga%20r%C3%A1pida");
  await page.getByTestId("rate-row").filter({ hasText: "Carga rápida DC" }).getByRole("link", { name: "Editar Carga rápida DC" }).click();
  await page.getByRole("link", { name: "Eliminar tarifa" }).click();
  await page.getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(toast(page, IN_USE)).toHaveCount(1);
  await expect(page).toHaveURL(/\/rate\/edit\//);
});

test("bad amounts: Spanish errors on the fields, nothing typed is lost", async ({ page }, info) => {
  await login(page, DEMO.email, DEMO.password, "/rate/new");
  await page.getByLabel("Nombre de la tarifa").fill(uniqueName(info));
  await page.getByLabel("Precio por kWh", { exact: true }).fill("12,345");
  await page.getByLabel("Cargo por sesión", { exact: true }).fill("300");
  await page.getByRole("button", { name: "Crear tarifa" }).click();
  await expect(page.getByTestId("pricePerKwhCents-error")).toHaveText("Ingresá un importe válido, por ejemplo 1.234,56.");
  await expect(page.getByLabel("Precio por kWh", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Precio por kWh", { exact: true })).toHaveValue("12,345");
  await expect(page.getByLabel("Cargo por sesión", { exact: true })).toHaveValue("300");
  await expect(page).toHaveURL(/\/rate\/new$/);
});

test("an unknown rate is the 404 screen", async ({ page }) => {
  await login(page, DEMO.email, DEMO.password, "/rate/edit/5b5b5b5b-1111-4222-8333-444444444444");
  await expect(page.getByRole("heading", { name: "No encontramos esta página" })).toBeVisible();
});
