import { E2E_PAYMENTS_EMULATOR_PORT, E2E_PORT } from "../../playwright.config";
import { EMULATOR_WEBHOOK_SECRET } from "../../scripts/payments-emulator";
import { startSimCharger } from "../../scripts/sim-charger";
import { expect, login, test } from "./fixtures";
import { apiCall, arsToCents, qrOperator } from "./qr-setup";

// What Mercado Pago does after it approved a driver's payment, played on the providers' emulator
// the local server uses, in the browser with JavaScript on and off: the driver pays the same
// checkout a second time (two tabs), and later disputes the first payment with the card issuer,
// who charges it back. The second payment goes back to the driver in full by itself; the operator
// sees both payments in Pagos with their states and is notified of each.

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const PAYMENTS_EMULATOR = `http://127.0.0.1:${E2E_PAYMENTS_EMULATOR_PORT}`;

type EmulatorState = {
  preferences: { id: string; external_reference: string }[];
  payments: { id: number; external_reference: string; status: string }[];
  refunds: { payment_id: number; amount: number; status?: string }[];
};

const emulatorState = async () => (await (await fetch(`${PAYMENTS_EMULATOR}/_emulator/state`)).json()) as EmulatorState;

async function emulatorPost<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${PAYMENTS_EMULATOR}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.ok, `${path}: ${res.status} ${await res.clone().text()}`).toBe(true);
  return (await res.json()) as T;
}

test("paid twice: the second payment goes back by itself; a chargeback of the first reaches the operator", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const tag = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const op = await qrOperator(BASE, { tag, prefix: "qr-despues", rate: { sessionFeeCents: 50_000, pricePerKwhCents: 20_000 }, qr: { enabled: true } });
  await apiCall(BASE, op.token, "PUT", "/MercadoPago/BusinessUser", { publicKey: "TEST-despues-public-key-0001", accessToken: `TEST-despues-access-${tag}`, webhookSecret: EMULATOR_WEBHOOK_SECRET });
  const connector = `/cargar/${encodeURIComponent(op.identity)}/1`;

  const charger = await startSimCharger({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity: op.identity, password: op.ocppPassword, powerW: 22_000, meterEverySeconds: 1 });
  try {
    await expect(async () => {
      await page.goto(connector);
      await expect(page.getByTestId("connector-state")).toHaveText("Disponible", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });

    // The driver prepays $ 2.000 and approves at the provider's checkout: the charge starts.
    await page.getByLabel("Correo para el comprobante").fill("conductora@example.com");
    await page.getByLabel(/Acepto los/).check();
    await page.getByRole("button", { name: "Pagar con Mercado Pago" }).click();
    await expect(page).toHaveURL(new RegExp(`^${PAYMENTS_EMULATOR}/mercadopago/checkout/`));
    await page.getByRole("button", { name: "Aprobar pago" }).click();
    await expect(page).toHaveURL(/\/cargar\/pago\/[0-9a-f-]{36}\?t=/);
    const paymentId = /\/cargar\/pago\/([0-9a-f-]{36})/.exec(page.url())![1];
    await expect(page.getByTestId("step")).toHaveAttribute("data-step", "CHARGING", { timeout: 20_000 });

    // The same checkout paid again from another tab: a second approved payment, same reference.
    const preference = (await emulatorState()).preferences.find((p) => p.external_reference === paymentId);
    expect(preference, "the checkout of this payment").toBeTruthy();
    const second = await emulatorPost<{ payment: { id: number } }>(`/_emulator/mercadopago/preferences/${preference!.id}/pay`, {});
    // Refunded in full at the provider, without anyone asking.
    await expect
      .poll(async () => (await emulatorState()).refunds.filter((r) => r.payment_id === second.payment.id).map((r) => Math.round(r.amount * 100)), { timeout: 15_000 })
      .toEqual([200_000]);

    // The issuer charges the first payment back.
    const first = (await emulatorState()).payments.find((p) => p.external_reference === paymentId && p.id !== second.payment.id);
    await emulatorPost(`/_emulator/mercadopago/payments/${first!.id}/status`, { status: "charged_back" });
  } finally {
    await charger.close();
  }

  // The operator: both payments in Pagos with their states, and a notification of each.
  await login(page, op.email, op.password, "/payment");
  await expect(page).toHaveURL(/\/payment$/);
  const rows = page.getByTestId("payment-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "Contracargo" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Devuelto" })).toHaveCount(1);
  await page.goto("/notification");
  await expect(page.getByText("Pago doble devuelto")).toBeVisible();
  await expect(page.getByText("Contracargo", { exact: true })).toBeVisible();
});

test("a refund Mercado Pago rejected stays owed; refunded later from Mercado Pago's panel, the payment closes by itself", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const tag = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const op = await qrOperator(BASE, { tag, prefix: "qr-panel", rate: { sessionFeeCents: 50_000, pricePerKwhCents: 20_000 }, qr: { enabled: true } });
  await apiCall(BASE, op.token, "PUT", "/MercadoPago/BusinessUser", { publicKey: "TEST-panel-public-key-0001", accessToken: `TEST-panel-access-${tag}`, webhookSecret: EMULATOR_WEBHOOK_SECRET });
  const connector = `/cargar/${encodeURIComponent(op.identity)}/1`;

  const charger = await startSimCharger({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity: op.identity, password: op.ocppPassword, powerW: 22_000, meterEverySeconds: 1 });
  let paymentId = "";
  try {
    await expect(async () => {
      await page.goto(connector);
      await expect(page.getByTestId("connector-state")).toHaveText("Disponible", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await page.getByLabel("Correo para el comprobante").fill("conductor@example.com");
    await page.getByLabel(/Acepto los/).check();
    await page.getByRole("button", { name: "Pagar con Mercado Pago" }).click();
    await expect(page).toHaveURL(new RegExp(`^${PAYMENTS_EMULATOR}/mercadopago/checkout/`));
    await page.getByRole("button", { name: "Aprobar pago" }).click();
    await expect(page).toHaveURL(/\/cargar\/pago\/[0-9a-f-]{36}\?t=/);
    paymentId = /\/cargar\/pago\/([0-9a-f-]{36})/.exec(page.url())![1];
    const step = page.getByTestId("step");
    await expect(step).toHaveAttribute("data-step", "CHARGING", { timeout: 20_000 });

    // Mercado Pago will reject the refund of the unused balance.
    await emulatorPost("/_emulator/mercadopago/next-refund", { status: "rejected" });
    await page.getByRole("button", { name: "Detener carga" }).click();
    await expect(step).toHaveAttribute("data-step", "REFUND_PENDING", { timeout: 20_000 });
  } finally {
    await charger.close();
  }

  // The operator sees what is owed.
  await login(page, op.email, op.password, "/payment");
  await expect(page).toHaveURL(/\/payment$/);
  const row = page.getByTestId("payment-row");
  await expect(row.getByTestId("payment-step")).toHaveText("Devolución pendiente");
  const owed = arsToCents(await row.getByTestId("refund-owed").innerText());
  expect(owed).toBeGreaterThan(0);

  // Someone refunds it from Mercado Pago's panel: the notification closes the payment.
  const mp = (await emulatorState()).payments.find((p) => p.external_reference === paymentId);
  await emulatorPost(`/_emulator/mercadopago/payments/${mp!.id}/status`, { status: "refunded", amountCents: owed });
  await expect(async () => {
    await page.goto("/payment");
    await expect(row.getByTestId("payment-step")).toHaveText("Terminada", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(row.getByTestId("refund-owed")).toHaveCount(0);
  expect(arsToCents(await row.getByRole("cell").nth(3).innerText()), "refunded: the unused balance").toBe(owed);
});
