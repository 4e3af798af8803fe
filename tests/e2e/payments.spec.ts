import { test, expect, login } from "./fixtures";

// Pagos: provider accounts and payments. The demo business is shared by both browser projects,
// so each uses its own provider: js connects Mercado Pago, no-js Pagos360, and each leaves it
// disconnected at the end.

test.beforeEach(async ({ page }) => {
  await login(page, undefined, undefined, "/payment");
  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByRole("heading", { name: "Pagos", level: 1 })).toBeVisible();
});

test("payments with filters and totals", async ({ page }) => {
  await expect(page.getByTestId("payment-totals")).toBeVisible();
  await page.getByLabel("Proveedor").selectOption({ label: "Pagos360" });
  await page.getByLabel("Estado").selectOption({ label: "Rechazado" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/provider=PAGOS360/);
  // With JavaScript the URL changes before the filtered list is rendered: wait for the list
  // itself (no row of another provider or status), then look at each row.
  const rows = page.getByTestId("payment-row");
  await expect(rows.filter({ hasNotText: "Pagos360" })).toHaveCount(0);
  await expect(rows.filter({ hasNotText: "Rechazado" })).toHaveCount(0);
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) {
    await expect(row).toContainText("Pagos360");
    await expect(row).toContainText("Rechazado");
  }
  await expect(page.getByTestId("total-approved")).toContainText("$ 0,00");
  await rows.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/activity\?session=/);
  await expect(page.getByRole("heading", { name: /^Carga #/ })).toBeVisible();
});

test("connect and disconnect a provider account; credentials are never shown back", async ({ page }, testInfo) => {
  const js = testInfo.project.name === "js";
  const provider = js ? "MERCADOPAGO" : "PAGOS360";
  const name = js ? "Mercado Pago" : "Pagos360";
  const secret = js ? `TEST-${Date.now()}123456-031512-abcdef0123456789abcdef-98765Zq9x` : `p360-e2e-${Date.now()}-Zq9x`;

  await page.getByTestId(`provider-${provider}`).getByRole("link").click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();

  // Invalid first: the message is on the field, what was typed stays.
  if (js) {
    await page.getByLabel("Clave pública (public key)").fill("pk_live_123");
    await page.getByLabel("Access token").fill(secret);
    await page.getByRole("button", { name: /Conectar Mercado Pago|Guardar las nuevas credenciales/ }).click();
    await expect(page.getByTestId("publicKey-error")).toHaveText("Debe empezar con APP_USR- o TEST- (copiala de tu panel de Mercado Pago).");
    await expect(page.getByLabel("Clave pública (public key)")).toHaveValue("pk_live_123");
    await page.getByLabel("Clave pública (public key)").fill("TEST-1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d");
    await page.getByRole("button", { name: /Conectar Mercado Pago|Guardar las nuevas credenciales/ }).click();
  } else {
    await page.getByLabel("Nombre de la cuenta").fill("Cuenta e2e");
    await page.getByLabel("API key").fill("corta");
    await page.getByRole("button", { name: /Conectar Pagos360|Guardar las nuevas credenciales/ }).click();
    await expect(page.getByTestId("apiKey-error")).toHaveText("La API key de Pagos360 tiene al menos 16 caracteres.");
    await expect(page.getByLabel("Nombre de la cuenta")).toHaveValue("Cuenta e2e");
    await page.getByLabel("API key").fill(secret);
    await page.getByRole("button", { name: /Conectar Pagos360|Guardar las nuevas credenciales/ }).click();
  }

  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByTestId("toast")).toContainText(`Conectamos tu cuenta de ${name}`);
  const card = page.getByTestId(`provider-${provider}`);
  await expect(card.getByTestId(`account-status-${provider}`)).toHaveText("Conectada");
  await expect(card.getByTestId(`account-last4-${provider}`)).toHaveText("termina en ••••Zq9x");
  if (js) await expect(card).toContainText("Pruebas (TEST)");
  expect(await page.content()).not.toContain(secret);

  // Disconnect, with a confirmation step.
  await card.getByRole("link").click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  await page.getByRole("link", { name: "Desconectar" }).click();
  await expect(page).toHaveURL(/confirm=disconnect/);
  await expect(page.getByTestId("disconnect-confirm")).toBeVisible();
  await page.getByRole("button", { name: "Sí, desconectar" }).click();
  await expect(page.getByTestId("toast")).toContainText(`Desconectamos tu cuenta de ${name}`);
  await expect(page.getByTestId(`account-status-${provider}`)).toHaveText("No conectada");
  await expect(page.getByRole("button", { name: `Conectar ${name}` })).toBeVisible();
});
