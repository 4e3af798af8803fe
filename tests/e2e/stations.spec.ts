// Stations with JavaScript on and off: create, edit and delete a station through the UI; add
// an unassigned charger to a station through 'Anadir cargador'. Every record is created here
// with a unique name and only those are deleted (the demo account is shared by parallel tests).
//
// The charger for 'Anadir cargador' is made through the Business API with the demo operator's
// own ID token (signed in at the Auth Emulator), not through another screen: it is fresh and
// unassigned for this test only, so the shared seeded data (ENCH-STOCK-01) is never moved, and
// the test removes it afterwards (the API has no "unassign", but it can delete a charger).
import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO, EMULATOR, expect, login, test } from "./fixtures";

const uid = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signIn(page: Page) {
  await login(page);
  await expect(page).toHaveURL(/\/home$/);
}

/** The demo operator's Firebase ID token, straight from the emulator. */
async function idToken(): Promise<string> {
  const res = await fetch(`${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=e2e`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: DEMO.email, password: DEMO.password, returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken?: string };
  if (!body.idToken) throw new Error("No se pudo obtener el token del operador demo");
  return body.idToken;
}

async function api(request: APIRequestContext, token: string, method: "POST" | "DELETE", path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${path} → ${res.status()} ${await res.text()}`).toBe(true);
  return res.status() === 204 ? undefined : ((await res.json()) as { id: string; name: string });
}

const STATION = (name: string) => ({
  name,
  address: "Av. Rivadavia 5000",
  city: "Buenos Aires",
  province: "AR-C",
  latitude: -34.6186,
  longitude: -58.4367,
  openingHours: { twentyFourSeven: true, periods: [] },
});

test.describe("stations", () => {
  // Long flows on a shared 2-core machine.
  test.describe.configure({ timeout: 90_000 });

  test("create, edit and delete a station", async ({ page }) => {
    const name = `Estación E2E ${uid()}`;
    await signIn(page);

    // Create
    await page.goto("/station");
    await expect(page).toHaveTitle("Mis estaciones - Enchufá");
    await page.getByRole("link", { name: "Nueva estación" }).first().click();
    await expect(page).toHaveTitle("Nueva estación - Enchufá");
    await page.getByLabel("Nombre").fill(name);
    await page.getByLabel("Dirección").fill("Av. Rivadavia 5000");
    await page.getByLabel("Localidad").fill("Buenos Aires");
    await page.getByLabel("Provincia").selectOption({ label: "Ciudad Autónoma de Buenos Aires" });
    await page.getByLabel("Latitud").fill("-34,6186");
    await page.getByLabel("Longitud").fill("-58,4367");
    await page.getByLabel("Wi-Fi").check();
    await page.getByLabel("Horarios por día").check();
    await page.getByLabel("lunes, franja 1: apertura").fill("08:00");
    await page.getByLabel("lunes, franja 1: cierre").fill("20:00");
    await page.getByRole("button", { name: "Crear estación" }).click();
    await expect(page).toHaveURL(/\/station$/);
    await expect(page.getByTestId("toast")).toContainText(`Creamos la estación «${name}».`);

    // Find it with the search (in the URL)
    await page.getByLabel("Buscar", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/q=Estaci/);
    const row = page.getByTestId("station-row").filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Sin publicar");
    await expect(row).toContainText("0 cargadores");

    // Edit: what was saved comes back, then publish and rename
    await row.getByRole("link", { name, exact: true }).click();
    await expect(page).toHaveTitle("Editar estación - Enchufá");
    await expect(page.getByLabel("lunes, franja 1: apertura")).toHaveValue("08:00");
    await expect(page.getByLabel("Wi-Fi")).toBeChecked();
    await expect(page.getByLabel("Latitud")).toHaveValue("-34.6186");
    await page.getByLabel("Nombre").fill(`${name} editada`);
    await page.getByLabel(/^Publicada/).check();
    await page.getByRole("button", { name: "Guardar cambios" }).click();
    await expect(page).toHaveURL(/\/station$/);
    await expect(page.getByTestId("toast")).toContainText(`Guardamos los cambios de la estación «${name} editada».`);

    // Delete, with the confirmation step
    await page.goto(`/station?q=${encodeURIComponent(name)}&published=true`);
    const edited = page.getByTestId("station-row").filter({ hasText: `${name} editada` });
    await expect(edited).toContainText("Publicada");
    await edited.getByRole("link", { name: `Eliminar ${name} editada` }).click();
    const confirm = page.getByTestId("confirm-delete");
    await expect(confirm).toContainText(`¿Eliminar «${name} editada»?`);
    await confirm.getByRole("button", { name: "Sí, eliminar" }).click();
    await expect(page.getByTestId("toast")).toContainText(`Eliminamos la estación «${name} editada».`);
    await expect(page).toHaveURL(/published=true/);
    await expect(page.getByTestId("station-row").filter({ hasText: name })).toHaveCount(0);
  });

  test("the form says what is wrong, keeps what was typed and warns outside Argentina", async ({ page }) => {
    await signIn(page);
    await page.goto("/station/new");
    await page.getByLabel("Dirección").fill("Gran Vía 1");
    await page.getByLabel("Latitud").fill("40,4168");
    await page.getByLabel("Longitud").fill("-3,7038");
    await page.getByLabel("Horarios por día").check();
    await page.getByRole("button", { name: "Crear estación" }).click();
    await expect(page.getByTestId("name-error")).toHaveText("Este campo es obligatorio.");
    await expect(page.getByTestId("province-error")).toHaveText("Elegí una provincia de la lista.");
    await expect(page.getByTestId("hours-error")).toHaveText("Indicá al menos una franja horaria o elegí «Abierta las 24 horas».");
    await expect(page.getByTestId("outside-argentina")).toBeVisible();
    await expect(page.getByLabel("Dirección")).toHaveValue("Gran Vía 1");
    await page.getByLabel("Latitud").fill("95");
    await page.getByRole("button", { name: "Crear estación" }).click();
    await expect(page.getByTestId("latitude-error")).toHaveText("La latitud debe estar entre -90 y 90.");
  });

  test("add an unassigned charger to a station; a station with chargers cannot be deleted", async ({ page, request }) => {
    const token = await idToken();
    const stationName = `Estación Añadir ${uid()}`;
    const chargerName = `Cargador E2E ${uid()}`;
    const station = (await api(request, token, "POST", "/Business/ChargingStation", STATION(stationName)))!;
    const charger = (await api(request, token, "POST", "/Business/Charger", {
      name: chargerName,
      ocppIdentity: `E2E-${uid()}`.toUpperCase(),
      connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22 }],
    }))!;
    try {
      await signIn(page);
      await page.goto(`/station/edit/${station.id}`);
      await expect(page.getByText("Esta estación todavía no tiene cargadores.")).toBeVisible();
      await page.getByRole("link", { name: "Añadir cargador" }).first().click();
      await expect(page).toHaveURL(new RegExp(`/charger/add\\?stationId=${station.id}$`));
      await expect(page).toHaveTitle("Anadir cargador - Enchufá");
      await expect(page.getByRole("link", { name: "Crear un cargador nuevo" }).first()).toHaveAttribute("href", `/charger/new?stationId=${station.id}`);

      // Nothing chosen: an error, nothing changes
      await page.getByRole("button", { name: "Añadir a la estación" }).click();
      await expect(page.getByTestId("chargerIds-error")).toHaveText("Elegí al menos un cargador.");

      // Search narrows the list (other tests may add unassigned chargers meanwhile)
      await page.getByLabel("Buscar", { exact: true }).fill(chargerName);
      await page.getByRole("button", { name: "Buscar" }).click();
      await expect(page.getByRole("checkbox", { name: /^Añadir / })).toHaveCount(1);
      await page.getByLabel(`Añadir ${chargerName}`).check();
      await page.getByRole("button", { name: "Añadir a la estación" }).click();
      await expect(page).toHaveURL(new RegExp(`/station/edit/${station.id}$`));
      await expect(page.getByTestId("toast")).toContainText(`Añadimos «${chargerName}» a «${stationName}».`);
      await expect(page.getByRole("table", { name: `Cargadores de ${stationName}` })).toContainText(chargerName);

      // It is no longer offered as unassigned
      await page.goto(`/charger/add?stationId=${station.id}&q=${encodeURIComponent(chargerName)}`);
      await expect(page.getByText("Ningún cargador sin estación coincide con la búsqueda")).toBeVisible();

      // The station now has a charger: the API refuses to delete it, with its message
      await page.goto(`/station?delete=${station.id}`);
      await expect(page.getByTestId("confirm-delete")).toContainText("1 cargador asignado");
      await page.getByRole("button", { name: "Sí, eliminar" }).click();
      await expect(page.getByTestId("toast")).toContainText("La estación tiene cargadores asignados.");
      await page.goto(`/station/edit/${station.id}`);
      await expect(page.getByLabel("Nombre")).toHaveValue(stationName);
    } finally {
      await api(request, token, "DELETE", `/Business/Charger/${charger.id}`);
      await api(request, token, "DELETE", `/Business/ChargingStation/${station.id}`);
    }
  });

  test("a photo of exactly 800 KB (the spec's limit) saves, with and without JavaScript", async ({ page, request }) => {
    const token = await idToken();
    const station = (await api(request, token, "POST", "/Business/ChargingStation", STATION(`Estación Foto ${uid()}`)))!;
    try {
      await signIn(page);
      await page.goto(`/station/edit/${station.id}`);
      const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
      const exact = Buffer.concat([png, Buffer.alloc(800 * 1024 - png.length, 0)]);
      await page.getByTestId("photo-input").setInputFiles({ name: "estacion.png", mimeType: "image/png", buffer: exact });
      await page.getByRole("button", { name: "Guardar cambios" }).click();
      await expect(page.getByTestId("toast")).toContainText(`Guardamos los cambios de la estación «${station.name}».`);
      await page.goto(`/station/edit/${station.id}`);
      await expect(page.getByTestId("photo-preview")).toHaveAttribute("src", /^\/api\/images\/[0-9a-f]{64}\.png$/);
    } finally {
      await api(request, token, "DELETE", `/Business/ChargingStation/${station.id}`);
    }
  });

  test("an unknown station is the 404 screen", async ({ page }) => {
    await signIn(page);
    const res = await page.goto("/station/edit/00000000-0000-4000-8000-000000000000");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "No encontramos esta página" })).toBeVisible();
  });
});
