import type { Page } from "@playwright/test";
import { E2E_PAYMENTS_EMULATOR_PORT, E2E_PORT } from "../../playwright.config";
import { DEMO_MERCADOPAGO_ACCESS_TOKEN, DEMO_PAGOS360_API_KEY } from "../../scripts/local-qr-demo";
import { EMULATOR_WEBHOOK_SECRET } from "../../scripts/payments-emulator";
import { startSimCharger } from "../../scripts/sim-charger";
import { DEMO, expect, idToken, login, test } from "./fixtures";
import { apiCall, qrOperator, type QrOperator } from "./qr-setup";

// Conciliación against the providers' emulator, in the browser with JavaScript on and off: the
// demo's seeded payments are known to the emulated providers, so the demo reconciles to zero;
// changes made at the provider behind Enchufá's back (no notification) each show as a difference;
// and a payment Mercado Pago approves after the checkout's validity is refunded by itself.

const BASE = `http://127.0.0.1:${E2E_PORT}`;
/** What Conciliación says when every payment matches (app/components/payment/Reconciliation.tsx EMPTY_TEXT). */
const EMPTY_TEXT = "Sin diferencias: cada pago coincide con el proveedor.";
const PAYMENTS_EMULATOR = `http://127.0.0.1:${E2E_PAYMENTS_EMULATOR_PORT}`;

type EmulatorState = {
  preferences: { id: string; external_reference: string }[];
  payments: { id: number; external_reference: string; status: string; date_approved: string | null }[];
  refunds: { payment_id: number; amount: number; status?: string }[];
};

const emulatorState = async () => (await (await fetch(`${PAYMENTS_EMULATOR}/_emulator/state`)).json()) as EmulatorState;

async function emulatorPost<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${PAYMENTS_EMULATOR}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.ok, `${path}: ${res.status} ${await res.clone().text()}`).toBe(true);
  return (await res.json()) as T;
}

/** An operator of its own with a Mercado Pago account on the emulator, and its driver's approved payment charging. */
async function paidAndCharging(page: Page, tag: string, prefix: string): Promise<{ op: QrOperator; paymentId: string; close: () => Promise<void> }> {
  const op = await qrOperator(BASE, { tag, prefix, rate: { sessionFeeCents: 50_000, pricePerKwhCents: 20_000 }, qr: { enabled: true } });
  await apiCall(BASE, op.token, "PUT", "/MercadoPago/BusinessUser", { publicKey: "TEST-recon-public-key-0001", accessToken: `TEST-recon-access-${tag}`, webhookSecret: EMULATOR_WEBHOOK_SECRET });
  const charger = await startSimCharger({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity: op.identity, password: op.ocppPassword, powerW: 22_000, meterEverySeconds: 1 });
  await expect(async () => {
    await page.goto(`/cargar/${encodeURIComponent(op.identity)}/1`);
    await expect(page.getByTestId("connector-state")).toHaveText("Disponible", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.getByLabel("Correo para el comprobante").fill("conductora@example.com");
  await page.getByLabel(/Acepto los/).check();
  await page.getByRole("button", { name: "Pagar con Mercado Pago" }).click();
  await expect(page).toHaveURL(new RegExp(`^${PAYMENTS_EMULATOR}/mercadopago/checkout/`));
  await page.getByRole("button", { name: "Aprobar pago" }).click();
  await expect(page).toHaveURL(/\/cargar\/pago\/[0-9a-f-]{36}\?t=/);
  const paymentId = /\/cargar\/pago\/([0-9a-f-]{36})/.exec(page.url())![1];
  await expect(page.getByTestId("step")).toHaveAttribute("data-step", "CHARGING", { timeout: 20_000 });
  return { op, paymentId, close: () => charger.close() };
}

const tagOf = (name: string) => `${name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

test("the demo reconciles to zero: every seeded payment is the providers' too", async ({ page }) => {
  // The demo's own accounts at the emulated providers (another spec may have disconnected them).
  const token = await idToken(DEMO.email, DEMO.password);
  await apiCall(BASE, token, "PUT", "/MercadoPago/BusinessUser", { publicKey: "TEST-demo-public-key-0001", accessToken: DEMO_MERCADOPAGO_ACCESS_TOKEN, webhookSecret: EMULATOR_WEBHOOK_SECRET });
  await apiCall(BASE, token, "PUT", "/Pagos360/BusinessUser", { apiKey: DEMO_PAGOS360_API_KEY, accountName: "Enchufá Demo" });
  await login(page, undefined, undefined, "/payment/reconciliation");
  await expect(page).toHaveURL(/\/payment\/reconciliation$/);
  await expect(page.getByText(EMPTY_TEXT)).toBeVisible();
  await expect(page.getByTestId("reconciliation-row")).toHaveCount(0);
  await expect(page.getByTestId("reconciliation-totals")).toBeVisible();
  await expect(page.getByText(/no está conectado|No pudimos consultar/)).toHaveCount(0);
});

test("changes made at the provider without a notification each show in Conciliación", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const { op, paymentId, close } = await paidAndCharging(page, tagOf(testInfo.project.name), "recon-dif");
  try {
    const state = await emulatorState();
    const mp = state.payments.find((p) => p.external_reference === paymentId)!;
    const preference = state.preferences.find((p) => p.external_reference === paymentId)!;
    // Refunded from Mercado Pago's panel, and paid a second time, neither notified to Enchufá.
    await emulatorPost(`/_emulator/mercadopago/payments/${mp.id}/status`, { status: "refunded", delivery: "none" });
    const second = await emulatorPost<{ payment: { id: number } }>(`/_emulator/mercadopago/preferences/${preference.id}/pay`, { delivery: "none" });

    await login(page, op.email, op.password, "/payment/reconciliation");
    await expect(page).toHaveURL(/\/payment\/reconciliation$/);
    const rows = page.getByTestId("reconciliation-row");
    await expect(rows.filter({ hasText: "Estado distinto" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Devolución distinta" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Pago desconocido" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Pago desconocido" })).toContainText(String(second.payment.id));
    await expect(page.getByText(EMPTY_TEXT)).toHaveCount(0);
  } finally {
    await close();
  }
});

test("a payment Mercado Pago approves after the checkout's validity is refunded in full by itself", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const tag = tagOf(testInfo.project.name);
  const op = await qrOperator(BASE, { tag, prefix: "recon-tarde", rate: { sessionFeeCents: 50_000, pricePerKwhCents: 20_000 }, qr: { enabled: true } });
  await apiCall(BASE, op.token, "PUT", "/MercadoPago/BusinessUser", { publicKey: "TEST-late-public-key-0001", accessToken: `TEST-late-access-${tag}`, webhookSecret: EMULATOR_WEBHOOK_SECRET });
  const charger = await startSimCharger({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity: op.identity, password: op.ocppPassword, powerW: 22_000, meterEverySeconds: 1 });
  try {
    await expect(async () => {
      await page.goto(`/cargar/${encodeURIComponent(op.identity)}/1`);
      await expect(page.getByTestId("connector-state")).toHaveText("Disponible", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    // The driver opens the checkout and leaves without paying.
    await page.getByLabel("Correo para el comprobante").fill("tarde@example.com");
    await page.getByLabel(/Acepto los/).check();
    await page.getByRole("button", { name: "Pagar con Mercado Pago" }).click();
    await expect(page).toHaveURL(new RegExp(`^${PAYMENTS_EMULATOR}/mercadopago/checkout/`));
    const preferenceId = /\/mercadopago\/checkout\/([^/?#]+)/.exec(page.url())![1];
    // Mercado Pago approves it after the preference's expiry (date_approved past it).
    const late = await emulatorPost<{ payment: { id: number; date_approved: string } }>(`/_emulator/mercadopago/preferences/${preferenceId}/pay`, { late: true });
    // Refunded in full at the provider, never started at the charger.
    await expect
      .poll(async () => (await emulatorState()).refunds.filter((r) => r.payment_id === late.payment.id).map((r) => r.status), { timeout: 15_000 })
      .toEqual(["approved"]);
  } finally {
    await charger.close();
  }
  await login(page, op.email, op.password, "/payment");
  await expect(page).toHaveURL(/\/payment$/);
  const row = page.getByTestId("payment-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Devuelto");
  await page.goto("/notification");
  await expect(page.getByText("Pago tardío devuelto")).toBeVisible();
});

test("after a chargeback the operator blocks the driver with one button; the QR page refuses that e-mail on its field", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const { op, paymentId, close } = await paidAndCharging(page, tagOf(testInfo.project.name), "recon-bloqueo");
  try {
    // The driver stops the charge (the connector is free again for the next payment).
    await page.getByRole("button", { name: "Detener carga" }).click();
    await expect(page.getByTestId("step")).not.toHaveAttribute("data-step", "CHARGING", { timeout: 20_000 });
    const mp = (await emulatorState()).payments.find((p) => p.external_reference === paymentId)!;
    await emulatorPost(`/_emulator/mercadopago/payments/${mp.id}/status`, { status: "charged_back" });

    await login(page, op.email, op.password, "/payment");
    await expect(page).toHaveURL(/\/payment$/);
    const row = page.getByTestId("payment-row");
    await expect(row).toContainText("Contracargo", { timeout: 15_000 });
    await expect(row.getByTestId("payment-at-risk")).toContainText("Perdido");
    await row.getByTestId("block-driver").click();
    await expect(page.getByTestId("toast")).toContainText("Bloqueamos al conductor");
    await expect(row.getByTestId("driver-blocked")).toHaveText("Conductor bloqueado");
    await expect(row.getByTestId("unblock-driver")).toBeVisible();

    // The same driver, at the QR page again: refused on the e-mail field, no checkout opened.
    await expect(async () => {
      await page.goto(`/cargar/${encodeURIComponent(op.identity)}/1`);
      await expect(page.getByTestId("connector-state")).toHaveText("Disponible", { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await page.getByLabel("Correo para el comprobante").fill("Conductora@Example.com");
    await page.getByLabel(/Acepto los/).check();
    await page.getByRole("button", { name: "Pagar con Mercado Pago" }).click();
    await expect(page.locator("#email-error")).toContainText("no acepta pagos con este correo");
    await expect(page).toHaveURL(new RegExp(`/cargar/${encodeURIComponent(op.identity)}/1`));
  } finally {
    await close();
  }
});
