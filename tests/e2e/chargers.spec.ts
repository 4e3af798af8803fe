import type { Locator, Page } from "@playwright/test";
import { test, expect, login } from "./fixtures";

// Chargers: 'Mis cargadores', 'Nuevo cargador', 'Editar cargador' — with JavaScript
// and without it (the two projects). The demo operator is shared by every test file, so this
// spec only counts and deletes what it creates itself.

function unique(projectName: string) {
  return `${projectName}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
}

async function selectByText(select: Locator, text: string) {
  const value = await select.locator("option", { hasText: text }).first().getAttribute("value");
  await select.selectOption(value!);
}

/** The toast was rendered (it leaves by itself after 2 s, so visibility would race a slow machine). */
async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.getByTestId("toast").filter({ hasText: text })).toBeAttached();
}

test("create a charger with two connectors and a rate, see its password once, edit it, add it to a station, rotate the password and delete it", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const id = unique(testInfo.project.name);
  const identity = `E2E-${id}`;
  const name = `Cargador e2e ${id}`;

  await login(page, undefined, undefined, "/charger/new");
  await expect(page).toHaveURL(/\/charger\/new$/);
  await expect(page).toHaveTitle("Nuevo cargador - Enchufá");

  await page.getByLabel("Nombre", { exact: true }).fill(name);
  await page.getByLabel("Marca", { exact: true }).selectOption({ label: "ABB" });
  await page.getByLabel("Modelo", { exact: true }).fill("Terra AC W22");
  await page.getByLabel("Número de serie", { exact: true }).fill(`SN-${id}`);
  const first = page.getByRole("group", { name: "Conector 1" });
  await first.getByLabel("Tipo de conector").selectOption({ label: "Tipo 2" });
  await first.getByLabel("Potencia máxima").fill("22");
  await first.getByLabel("Tarifa").selectOption({ label: "AC Estándar" });

  // Rows come and go (conform intents; without JavaScript the server answers the form again).
  await page.getByRole("button", { name: "Agregar conector" }).click();
  const second = page.getByRole("group", { name: "Conector 2" });
  await expect(second.getByLabel("Número", { exact: true })).toHaveValue("2");
  await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue(name);
  await expect(first.getByLabel("Potencia máxima")).toHaveValue("22");
  await page.getByRole("button", { name: "Agregar conector" }).click();
  await expect(page.getByRole("group", { name: "Conector 3" })).toBeVisible();
  await page.getByRole("button", { name: "Quitar conector 3" }).click();
  await expect(page.getByRole("group", { name: "Conector 3" })).toHaveCount(0);

  await second.getByLabel("Tipo de conector").selectOption({ label: "CCS2 (Combo 2)" });
  await second.getByLabel("Formato").selectOption({ label: "Cable" });
  await second.getByLabel("Corriente").selectOption({ label: "DC" });
  await second.getByLabel("Potencia máxima").fill("7,4");
  await second.getByLabel("Tarifa").selectOption({ label: "Carga rápida DC" });

  // An identity another charger uses: a Spanish error on the field, nothing typed is lost.
  await page.getByLabel("Identidad OCPP", { exact: true }).fill("ENCH-CABA-01");
  await page.getByRole("button", { name: "Crear cargador" }).click();
  await expect(page.getByTestId("ocppIdentity-error")).toHaveText("Ya tenés un cargador con ese identificador OCPP.");
  await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue(name);
  await expect(second.getByLabel("Potencia máxima")).toHaveValue(/^7[.,]4$/);

  await page.getByLabel("Identidad OCPP", { exact: true }).fill(identity);
  await page.getByRole("button", { name: "Crear cargador" }).click();

  // The password, once.
  await expect(page.getByRole("heading", { name: "Configurá el cargador" })).toBeVisible();
  await expectToast(page, `Creamos el cargador «${name}».`);
  await expect(page.getByTestId("created-identity")).toHaveText(identity);
  await expect(page.getByTestId("ocpp-url")).toHaveText(new RegExp(`^wss?://[^/]+/ocpp/${identity}$`));
  const password = await page.getByTestId("ocpp-password").inputValue();
  expect(password.length).toBeGreaterThanOrEqual(16);

  await page.getByRole("link", { name: "Ver el cargador" }).click();
  await expect(page).toHaveURL(/\/charger\/edit\/[0-9a-f-]{36}$/);
  const editUrl = page.url();
  await expect(page.getByTestId("ocpp-password-once")).toHaveCount(0);
  expect(await page.content()).not.toContain(password);
  await expect(page.getByTestId("boot-report")).toContainText("Todavía no se conectó");
  await expect(page.getByTestId("ocpp-url")).toContainText(`/ocpp/${identity}`);
  await expect(page.getByRole("group", { name: "Conector 2" }).getByLabel("Potencia máxima")).toHaveValue("7.4");

  // Edit it.
  await page.getByLabel("Nombre", { exact: true }).fill(`${name} editado`);
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page).toHaveURL(/\/charger$/);
  await expectToast(page, `Guardamos los cambios del cargador «${name} editado».`);

  // Add it to a seeded station from the form's station select.
  await page.goto(editUrl);
  await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue(`${name} editado`);
  await selectByText(page.getByLabel("Estación", { exact: true }), "Enchufá Palermo");
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page).toHaveURL(/\/charger$/);

  // The list finds it by its identity, with its station, connection and connector states.
  await page.getByLabel("Buscar", { exact: true }).fill(identity);
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${identity}`));
  const row = page.getByTestId("charger-row").filter({ hasText: identity });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`${name} editado`);
  await expect(row).toContainText("Enchufá Palermo");
  await expect(row).toContainText("ABB");
  await expect(row).toContainText("Sin conexión");
  await expect(row).toContainText("Todavía no se conectó");
  await expect(row.getByRole("listitem")).toHaveCount(2);

  // Rotate the password (confirmed): a new one, shown once.
  await row.getByRole("link", { name: `${name} editado` }).click();
  await expect(page).toHaveURL(editUrl);
  await page.getByText("Rotar contraseña", { exact: true }).click();
  await page.getByRole("button", { name: "Sí, rotar contraseña" }).click();
  await expectToast(page, "Generamos una contraseña nueva");
  const rotated = await page.getByTestId("ocpp-password").inputValue();
  expect(rotated.length).toBeGreaterThanOrEqual(16);
  expect(rotated).not.toBe(password);
  await page.goto(editUrl);
  await expect(page.getByTestId("ocpp-password-once")).toHaveCount(0);
  expect(await page.content()).not.toContain(rotated);

  // Delete it (confirmed).
  await page.getByRole("link", { name: "Eliminar cargador" }).click();
  await expect(page.getByTestId("delete-confirm")).toContainText(`¿Eliminar el cargador «${name} editado»?`);
  await page.getByTestId("delete-confirm").getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(page).toHaveURL(/\/charger$/);
  await expectToast(page, `Eliminamos el cargador «${name} editado».`);
  await page.goto(`/charger?q=${identity}`);
  await expect(page.getByRole("heading", { name: "No hay cargadores que coincidan" })).toBeVisible();
  await page.goto(editUrl);
  await expect(page.getByRole("heading", { name: "No encontramos esta página" })).toBeVisible();
});

test("the list: seeded chargers with their Spanish statuses, filters, sorting and pages in the URL", async ({ page }) => {
  await login(page, undefined, undefined, "/charger");
  await expect(page).toHaveTitle("Mis cargadores - Enchufá");
  const palermo = page.getByTestId("charger-row").filter({ hasText: "ENCH-CABA-01" });
  await expect(palermo).toContainText("Palermo AC 1");
  await expect(palermo).toContainText("Enchufá Palermo");
  await expect(palermo.getByRole("listitem").first()).toHaveText(
    /(Disponible|Preparando|Cargando|Suspendido \(VE\)|Suspendido \(cargador\)|Finalizando|Reservado|No disponible|En falla)$/,
  );

  await selectByText(page.getByLabel("Estación", { exact: true }), "Enchufá Córdoba Centro");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/stationId=[0-9a-f-]{36}/);
  const rows = page.getByTestId("charger-row");
  // With JavaScript the URL changes before the filtered list is rendered: wait for the list itself.
  await expect(rows.filter({ hasNotText: "Enchufá Córdoba Centro" })).toHaveCount(0);
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) await expect(row).toContainText("Enchufá Córdoba Centro");
  await expect(page.getByLabel("Estación", { exact: true })).toHaveValue(/[0-9a-f-]{36}/);

  // 'Nuevo cargador' from a filtered list preselects that station (`?stationId=`).
  const stationId = await page.getByLabel("Estación", { exact: true }).inputValue();
  await page.getByRole("link", { name: "Nuevo cargador" }).click();
  await expect(page).toHaveURL(new RegExp(`/charger/new\\?stationId=${stationId}$`));
  await expect(page.getByText("Se va a sumar a la estación Enchufá Córdoba Centro")).toBeVisible();
  await expect(page.getByLabel("Estación", { exact: true })).toHaveValue(stationId);
  await page.goBack();

  await page.getByLabel("Estado", { exact: true }).selectOption({ label: "Sin conexión o no disponibles" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/status=offline/);
  await expect(page).toHaveURL(/stationId=/);

  await page.goto("/charger?pageSize=5");
  await page.getByRole("link", { name: /Identidad OCPP/ }).click();
  await expect(page).toHaveURL(/sort=ocppIdentity/);
  // The sorted list itself, not only its URL (with JavaScript the URL changes first).
  await expect(page.getByRole("columnheader", { name: /Identidad OCPP/ })).toHaveAttribute("aria-sort", "ascending");
  const identities = await page.getByTestId("charger-row").locator(".charger-identity").allTextContents();
  expect(identities).toEqual([...identities].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
  await page.getByRole("link", { name: /Siguiente/ }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).toHaveURL(/sort=ocppIdentity/);
  await expect(page.getByText(/^Mostrando 6–10 de/)).toBeVisible();
});

test("an unknown charger shows the 404 screen", async ({ page }) => {
  await login(page, undefined, undefined, "/charger");
  await expect(page).toHaveURL(/\/charger$/);
  const res = await page.goto("/charger/edit/00000000-0000-4000-8000-000000000000");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "No encontramos esta página" })).toBeVisible();
});
