import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { E2E_PAYMENTS_EMULATOR_PORT, E2E_PORT } from "../../playwright.config";
import { startSimCharger, type SimCharger } from "../../scripts/sim-charger";
import { test, expect, login } from "./fixtures";
import { arsToCents, qrOperator } from "./qr-setup";

// Drivers pay at the charger with Pagos360 (ADR 0017), in the browser with JavaScript on and off, against the
// server under test in local mode, the providers' emulator and a simulated OCPP 1.6 charger.
// The operator connects Pagos360 and sets its webhook URL (shown on the Pagos360 screen) in the
// emulator's panel, as in Pagos360's; the driver is told before paying that Pagos360 balances are
// refunded by the station, pays, approves at the emulator's checkout — whose notification
// starts the charge — stops, and sees what the station owes; the operator sees the refund owed in
// Pagos, records it (a wrong amount first), and the driver's page and e-mail show it.

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const PAYMENTS_EMULATOR = `http://127.0.0.1:${E2E_PAYMENTS_EMULATOR_PORT}`;

/** WCAG 2.2 A/AA on this state of the page (axe needs scripts: the js project; a11y.spec.ts audits the routes both ways). */
async function expectAccessible(page: Page, testInfo: TestInfo) {
  if (testInfo.project.name !== "js") return;
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

type EmulatorState = {
  pagos360: { id: number; external_reference: string; state: string }[];
  deliveries: { provider: string; url: string; status: number | "error"; entityId?: number }[];
};

test("a driver pays with Pagos360, the station owes the unused balance, the operator records the refund", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const tag = `${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  // $ 500 per charge plus $ 200 per kWh, VAT included: a short charge costs a little over $ 500.
  const op = await qrOperator(BASE, { tag, prefix: "p360", rate: { sessionFeeCents: 50_000, pricePerKwhCents: 20_000 }, qr: { enabled: true } });
  const driverPage = `/cargar/${encodeURIComponent(op.identity)}/1`;
  const apiKey = `p360-e2e-${tag.toLowerCase()}-key`;
  const email = `conductor-${tag.toLowerCase()}@example.com`;

  // The operator connects Pagos360; its screen shows the webhook URL to set in Pagos360.
  await login(page, op.email, op.password, "/payment/payments/pagos360");
  await expect(page).toHaveURL(/\/payment\/payments\/pagos360$/);
  await page.getByLabel("Nombre de la cuenta").fill("Cobros QR");
  await page.getByLabel("API key").fill(apiKey);
  await page.getByRole("button", { name: "Conectar Pagos360" }).click();
  await expect(page).toHaveURL(/\/payment$/);
  await page.goto("/payment/payments/pagos360");
  const webhookUrl = (await page.getByTestId("pagos360-webhook-url").locator("code").innerText()).trim();
  expect(webhookUrl).toMatch(new RegExp(`^${BASE}/api/Webhook/Pagos360/[0-9a-f-]{36}$`));

  // …in the emulator's panel, like Pagos360's (a plain form).
  await page.goto(`${PAYMENTS_EMULATOR}/pagos360/panel`);
  await page.getByLabel("API key de la cuenta").fill(apiKey);
  await page.getByLabel(/URL del webhook/).fill(webhookUrl);
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByRole("status")).toHaveText("Guardado.");

  let charger: SimCharger | undefined;
  try {
    charger = await startSimCharger({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity: op.identity, password: op.ocppPassword, powerW: 50_000, meterEverySeconds: 1 });
    await expect(async () => {
      await page.goto(`${BASE}${driverPage}`);
      await expect(page.getByTestId("connector-state")).toHaveText("Disponible", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });

    // Before paying: Pagos360 balances come back from the station, not by themselves.
    await expect(page.getByRole("button", { name: "Pagar con Mercado Pago" })).toHaveCount(0);
    const pay = page.getByRole("button", { name: "Pagar con Pagos360" });
    await expect(pay).toBeVisible();
    await expect(page.getByTestId("pagos360-refund-note")).toHaveText(
      "Con Pagos360, lo que no uses no vuelve automáticamente: te lo devuelve la estación por Pagos360 dentro de unos días hábiles.",
    );

    const prepaid = 200_000;
    await expect(page.getByRole("radio", { name: "$ 2.000,00" })).toBeChecked();
    await page.getByLabel("Correo para el comprobante").fill(email);
    await page.getByLabel(/Acepto los/).check();
    await pay.click();

    await expect(page).toHaveURL(new RegExp(`^${PAYMENTS_EMULATOR}/pagos360/checkout/`));
    await expect(page.getByText("$ 2.000,00")).toBeVisible();
    await page.getByRole("button", { name: "Aprobar pago" }).click();
    await expect(page).toHaveURL(/\/cargar\/pago\/[0-9a-f-]{36}\?t=/);
    const statusUrl = page.url();
    const paymentId = /\/cargar\/pago\/([0-9a-f-]{36})/.exec(statusUrl)![1];

    // Pagos360's notification reached Enchufá (answered 200) before the driver came back.
    const state = (await (await fetch(`${PAYMENTS_EMULATOR}/_emulator/state`)).json()) as EmulatorState;
    const request = state.pagos360.find((r) => r.external_reference === paymentId)!;
    expect(request.state).toBe("paid");
    expect(state.deliveries.filter((d) => d.provider === "PAGOS360" && d.entityId === request.id).map((d) => [d.url, d.status])).toEqual([[webhookUrl, 200]]);

    const step = page.getByTestId("step");
    await expect(step).toHaveAttribute("data-step", "CHARGING", { timeout: 20_000 });
    await expect(page.getByTestId("energy")).not.toHaveText("0,00 kWh", { timeout: 15_000 });
    await page.getByRole("button", { name: "Detener carga" }).click();

    // Settled: charged, and the rest owed by the station — said plainly, receipt included.
    await expect(step).toHaveAttribute("data-step", "REFUND_PENDING", { timeout: 20_000 });
    await expect(step).toHaveText("Carga terminada: la estación te debe una devolución");
    const charged = arsToCents(await page.getByTestId("charged").innerText());
    const owed = prepaid - charged;
    expect(charged).toBeGreaterThan(50_000);
    expect(arsToCents(await page.getByTestId("refunded").innerText())).toBe(0);
    expect(arsToCents(await page.getByTestId("pending-refund").innerText())).toBe(owed);
    await expect(page.getByTestId("pending-refund")).toContainText("la estación te lo devuelve por Pagos360");
    await expect(page.getByText(/Pagos360 no hace devoluciones automáticas: la estación te devuelve \$\s[\d.,]+ por Pagos360 en unos días hábiles/)).toBeVisible();
    await expect(page.getByText("Esta página se actualiza sola.")).toHaveCount(0);
    await expectAccessible(page, testInfo);

    // The operator: the refund owed in Pagos, recorded after a wrong amount.
    await page.goto("/payment");
    await expect(page.getByTestId("refunds-owed")).toContainText("Tenés 1 devolución pendiente");
    const row = page.getByTestId("payment-row");
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("payment-step")).toHaveText("Devolución pendiente");
    expect(arsToCents(await row.getByTestId("refund-owed").innerText())).toBe(owed);
    await row.getByRole("link", { name: "Registrar devolución" }).click();
    const confirm = page.getByTestId("refund-confirm");
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText(`operación ${request.id}`);
    const amount = page.getByLabel("Monto devuelto (en pesos)");
    expect(arsToCents(await amount.inputValue())).toBe(owed);

    await amount.fill("mil pesos");
    await confirm.getByRole("button", { name: "Confirmar devolución" }).click();
    await expect(page.getByTestId("refund-amount-error")).toHaveText("Ingresá un monto en pesos, por ejemplo 3.800 o 3800,50.");
    await expect(page.getByLabel("Monto devuelto (en pesos)")).toHaveValue("mil pesos");
    await expect(page.getByLabel("Monto devuelto (en pesos)")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, testInfo);

    // More than is owed: the server says how much is.
    await page.getByLabel("Monto devuelto (en pesos)").fill("2.000");
    await page.getByTestId("refund-confirm").getByRole("button", { name: "Confirmar devolución" }).click();
    await expect(page.getByTestId("refund-amount-error")).toHaveText(/^No podés registrar más de lo que se debe: \$\s[\d.,]+\.$/);

    await page.getByLabel("Monto devuelto (en pesos)").fill((owed / 100).toFixed(2).replace(".", ","));
    await page.getByTestId("refund-confirm").getByRole("button", { name: "Confirmar devolución" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Registramos la devolución de" })).toBeAttached();
    await expect(page.getByTestId("refund-confirm")).toHaveCount(0);
    await expect(page.getByTestId("refunds-owed")).toHaveCount(0);
    await page.goto("/payment");
    await expect(page.getByTestId("payment-row").getByTestId("payment-step")).toHaveText("Terminada");
    expect(arsToCents(await page.getByTestId("payment-row").getByRole("cell").nth(3).innerText())).toBe(owed);

    // The driver: the page shows the refund, and the e-mail says it.
    await page.goto(statusUrl);
    await expect(step).toHaveAttribute("data-step", "FINISHED");
    expect(arsToCents(await page.getByTestId("refunded").innerText())).toBe(owed);
    await expect(page.getByTestId("pending-refund")).toHaveCount(0);
    await expect
      .poll(async () => {
        const { messages } = (await (await fetch(`${BASE}/_local/inbox.json`)).json()) as { messages: { to: string; subject: string; kind: string }[] };
        return messages.filter((m) => m.to === email && m.kind === "refund").map((m) => m.subject.replace(/\s/g, " "));
      })
      .toEqual([expect.stringMatching(/^Te devolvimos \$ [\d.,]+: tu carga en /)]);
  } finally {
    await charger?.close();
  }
});
