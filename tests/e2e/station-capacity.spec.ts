import { E2E_PORT } from "../../playwright.config";
import { test, expect, activeOperator, login } from "./fixtures";

// Load balancing: a station's grid capacity set on its form (with and without
// JavaScript), checked like every field, and shown on the station screen with its allocation.

const BASE = `http://127.0.0.1:${E2E_PORT}`;

test("set a station's grid capacity: a wrong value is refused on the field, a right one is saved and shown", async ({ page }) => {
  test.setTimeout(90_000);
  const password = "Clave-Segura-1";
  const { email, token } = await activeOperator(BASE, { prefix: "capacity", password, businessName: "Capacidad S.A." });
  const res = await fetch(`${BASE}/api/Business/ChargingStation`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Estación con tope", address: "Av. Santa Fe 3253", city: "Buenos Aires", province: "AR-C", latitude: -34.5875, longitude: -58.4097, openingHours: { twentyFourSeven: true, periods: [] } }),
  });
  expect(res.status).toBe(201);
  const station = (await res.json()) as { id: string };

  await login(page, email, password, `/station/edit/${station.id}`);
  await expect(page).toHaveURL(new RegExp(`/station/edit/${station.id}$`));
  const field = page.getByLabel("Capacidad de red (kW)");
  await expect(field).toHaveValue("");
  await field.fill("-3");
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page.getByTestId("gridCapacityKw-error")).toHaveText("Ingresá la capacidad en kW: un número mayor que 0 y hasta 100.000, o dejalo vacío.");

  await page.getByLabel("Capacidad de red (kW)").fill("11,5");
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page).toHaveURL(/\/station$/);
  await expect(page.getByTestId("toast").filter({ hasText: "Guardamos los cambios de la estación «Estación con tope»." })).toBeAttached();

  await page.goto(`/station/edit/${station.id}`);
  await expect(page.getByLabel("Capacidad de red (kW)")).toHaveValue("11,5");
  await expect(page.getByText("Capacidad de la red: 11,5 kW. Ningún conector está cargando ahora.")).toBeVisible();
  const saved = (await (await fetch(`${BASE}/api/Business/ChargingStation/${station.id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { gridCapacityKw: number | null };
  expect(saved.gridCapacityKw).toBe(11.5);
});
