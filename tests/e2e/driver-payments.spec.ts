import { E2E_PAYMENTS_EMULATOR_PORT, E2E_PORT } from "../../playwright.config";
import { EMULATOR_WEBHOOK_SECRET } from "../../scripts/payments-emulator";
import { startSimCharger, type SimCharger } from "../../scripts/sim-charger";
import { test, expect, login } from "./fixtures";
import type { Page } from "@playwright/test";
import { arsToCents, qrOperator } from "./qr-setup";

// "Drivers pay at the charger", in the browser with JavaScript on and off, against the
// server under test in local mode, the payment providers' emulator it starts (MERCADOPAGO_API_URL
// points at it: nothing leaves this machine) and a simulated OCPP 1.6 charger (scripts/sim-charger.ts).
// The operator connects Mercado Pago and turns QR payment on; while the charger is offline the
// driver's page says why and takes no money; once it connects the driver prepays, approves at
// the emulator's checkout, follows the charge, stops it, and gets the priced receipt with the
// unused balance refunded; the operator sees the payment in Pagos and in Actividad.

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const PAYMENTS_EMULATOR = `http://127.0.0.1:${E2E_PAYMENTS_EMULATOR_PORT}`;

type EmulatorState = { refunds: { payment_id: number; amount: number }[]; payments: { id: number; external_reference: string; status: string; transaction_amount: number }[] };

test("a driver pays at the QR, charges, stops, and gets the receipt with the refund; the operator sees it", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const tag = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  // $ 500 per charge plus $ 200 per kWh, VAT included: a short charge costs a little over $ 500.
  const op = await qrOperator(BASE, { tag, prefix: "qr", rate: { sessionFeeCents: 50_000, pricePerKwhCents: 20_000 } });
  const driverPage = `/cargar/${encodeURIComponent(op.identity)}/1`;

  // The operator: Mercado Pago with the emulator's webhook secret, then QR payment on the station.
  await login(page, op.email, op.password, "/payment/payments/mercadoPago");
  await expect(page).toHaveURL(/\/payment\/payments\/mercadoPago$/);
  await page.getByLabel("Clave pública (public key)").fill("TEST-e2e-public-key-0001");
  await page.getByLabel("Access token").fill(`TEST-e2e-access-${tag}`);
  await page.getByLabel("Clave secreta de webhooks (opcional)").fill(EMULATOR_WEBHOOK_SECRET);
  await page.getByRole("button", { name: "Conectar Mercado Pago" }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByTestId("toast").filter({ hasText: "¡Listo! Conectamos tu cuenta de Mercado Pago." })).toBeAttached();

  // Not yet on: the driver is told, and there is nothing to pay.
  await page.goto(driverPage);
  await expect(page.getByTestId("unavailable")).toHaveText("Este cargador no acepta pagos con QR. Consultá en la estación cómo cargar.");

  await page.goto(`/station/edit/${op.stationId}`);
  await page.getByLabel("Cobrar con QR en esta estación").check();
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page).toHaveURL(/\/station$/);

  // The charger is offline: the page says why, shows its state, and has no pay button. The driver
  // is on a phone: the driver's pages are checked at 360 px.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(driverPage);
  await expect(page.getByRole("heading", { level: 2, name: op.stationName })).toBeVisible();
  await expect(page.getByTestId("connector-state")).toHaveText("Sin conexión");
  await expect(page.getByTestId("unavailable")).toHaveText("El cargador está sin conexión: no podría iniciar la carga. Probá en unos minutos.");
  await expect(page.getByRole("button", { name: /^Pagar con/ })).toHaveCount(0);

  let charger: SimCharger | undefined;
  try {
    charger = await startSimCharger({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity: op.identity, password: op.ocppPassword, powerW: 50_000, meterEverySeconds: 1 });
    // Online once it booted and said Available (a reload: this page does not follow the charger live).
    await expect(async () => {
      await page.goto(driverPage);
      await expect(page.getByTestId("connector-state")).toHaveText("Disponible", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByTestId("unavailable")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Pagar con Pagos360" })).toHaveCount(0); // only the provider connected
    await expect(page.getByText("$ 500,00 por carga", { exact: false })).toBeVisible();

    // Prepay the first preset ($ 2.000, checked by default) with Mercado Pago.
    const prepaid = 200_000;
    await expect(page.getByRole("radio", { name: "$ 2.000,00" })).toBeChecked();
    await page.getByLabel("Correo para el comprobante").fill("conductora@example.com");
    await expectNoSidewaysScroll(page);
    await page.getByLabel(/Acepto los/).check();
    await page.getByRole("button", { name: "Pagar con Mercado Pago" }).click();

    // The provider's checkout (the emulator's page), then back to the status page.
    await expect(page).toHaveURL(new RegExp(`^${PAYMENTS_EMULATOR}/mercadopago/checkout/`));
    await expect(page.getByText("$ 2.000,00")).toBeVisible();
    await page.getByRole("button", { name: "Aprobar pago" }).click();
    await expect(page).toHaveURL(/\/cargar\/pago\/[0-9a-f-]{36}\?t=/);
    const paymentId = /\/cargar\/pago\/([0-9a-f-]{36})/.exec(page.url())![1];

    // It follows by itself (live with JavaScript, a meta refresh without) to charging, with readings.
    const step = page.getByTestId("step");
    await expect(step).toHaveAttribute("data-step", "CHARGING", { timeout: 20_000 });
    await expect(step).toHaveText("Cargando");
    await expect(page.getByTestId("energy")).not.toHaveText("0,00 kWh", { timeout: 15_000 });
    await expect(page.getByTestId("cost")).toHaveText(/\$/);

    // The driver stops it.
    await page.getByRole("button", { name: "Detener carga" }).click();
    await expect(step).toHaveAttribute("data-step", "FINISHED", { timeout: 20_000 });
    await expect(step).toHaveText("Carga terminada");
    const receipt = page.getByTestId("receipt");
    await expect(receipt).toContainText(`Cargas con QR ${tag} S.A.`);
    await expect(receipt).toContainText(op.stationName);
    const charged = arsToCents(await page.getByTestId("charged").innerText());
    const refunded = arsToCents(await page.getByTestId("refunded").innerText());
    expect(charged, "priced by the rate: the fee and some energy").toBeGreaterThan(50_000);
    expect(charged).toBeLessThan(prepaid);
    expect(refunded).toBe(prepaid - charged);
    expect(charger.running.size, "the charger stopped").toBe(0);
    // Final: the page stops refreshing itself.
    await expect(page.getByText("Esta página se actualiza sola.")).toHaveCount(0);
    // The operator's CUIT is never broken across lines, and nothing scrolls sideways on a phone.
    const cuit = page.getByTestId("receipt-cuit");
    const lineHeight = await cuit.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.5);
    expect((await cuit.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
    await expectNoSidewaysScroll(page);
    await page.setViewportSize({ width: 1280, height: 720 });

    // The provider refunded exactly the unused balance of this payment, once.
    const state = (await (await fetch(`${PAYMENTS_EMULATOR}/_emulator/state`)).json()) as EmulatorState;
    const mp = state.payments.filter((p) => p.external_reference === paymentId);
    expect(mp).toHaveLength(1);
    expect(state.refunds.filter((r) => r.payment_id === mp[0].id).map((r) => Math.round(r.amount * 100))).toEqual([refunded]);

    // The operator: the row in Pagos (charged, refunded, net, step), then the session in Actividad.
    await page.goto("/payment");
    const row = page.getByTestId("payment-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(op.stationName);
    await expect(row).toContainText("Mercado Pago");
    await expect(row).toContainText("Carga con QR · costó");
    await expect(row.getByTestId("payment-step")).toHaveText("Terminada");
    // Payment, refunded, the provider's fee (unknown until read back), net.
    const cells = row.getByRole("cell");
    await expect(cells.nth(2)).toHaveText("$ 2.000,00");
    expect(arsToCents(await cells.nth(3).innerText())).toBe(refunded);
    expect(arsToCents(await cells.nth(5).innerText())).toBe(charged);
    await row.getByRole("link").click();
    await expect(page).toHaveURL(/\/activity\?session=/);
    const payments = page.getByRole("region", { name: "Pagos de la carga" });
    await expect(payments).toContainText("Mercado Pago (QR)");
    await expect(payments).toContainText("Terminada");
    await page.goto("/activity");
    await expect(page.getByTestId("session-row").filter({ hasText: op.stationName })).toHaveCount(1);
  } finally {
    await charger?.close();
  }
});

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ content: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect(widths.content, "the page scrolls sideways").toBeLessThanOrEqual(widths.viewport);
}
