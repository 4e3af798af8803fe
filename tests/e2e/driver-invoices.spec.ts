// A driver's payment ends with an ARCA voucher, in the browser with JavaScript on and off, against
// the server under test in local mode and the emulators it starts (payments and ARCA: nothing
// leaves this machine). The operator invoices as a Responsable Inscripto from point of sale 3: its
// certificate is registered with the ARCA emulator for its CUIT and uploaded with PUT
// /Business/Fiscal. A driver pays at the QR, charges and stops; the receipt names the Factura B
// with the emulator's CAE and opens its PDF (the right number and CAE in it), and the receipt
// e-mail in the local inbox carries the same PDF. The operator then refunds the charge from
// Mercado Pago's panel: a Nota de crédito B follows, listed in «Comprobantes» with its PDF. A
// driver who gives a company's CUIT and razón social gets a Factura A. (A monotributista's Factura
// C is covered by tests/api/invoicing-service.test.ts.)
import { inflateSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { E2E_PAYMENTS_EMULATOR_PORT, E2E_PORT } from "../../playwright.config";
import { makeArcaCertificate } from "../../scripts/arca-test-certificates";
import { EMULATOR_WEBHOOK_SECRET } from "../../scripts/payments-emulator";
import { startSimCharger } from "../../scripts/sim-charger";
import { expect, login, test } from "./fixtures";
import { apiCall, arsToCents, qrOperator, type QrOperator } from "./qr-setup";

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const PAYMENTS_EMULATOR = `http://127.0.0.1:${E2E_PAYMENTS_EMULATOR_PORT}`;

type InboxMessage = { to: string; kind: string; subject: string; text: string; attachments?: { filename: string; contentType: string; contentBase64: string }[] };
type EmulatorState = { payments: { id: number; external_reference: string }[] };

/** The text a pdfkit PDF shows: its (deflated) content streams' strings, one drawn line each. Standard fonts write WinAnsi bytes, read here as Latin-1. */
function pdfText(bytes: Buffer): string {
  expect(bytes.subarray(0, 5).toString("latin1"), "a PDF").toBe("%PDF-");
  const raw = bytes.toString("latin1");
  const lines: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1], "latin1")).toString("latin1");
    } catch {
      continue; // an image
    }
    for (const tj of content.matchAll(/\[(.*?)\]\s*TJ/g)) {
      lines.push([...tj[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1], "hex").toString("latin1")).join(""));
    }
  }
  return lines.join("\n");
}

/** An operator that takes QR payments with Mercado Pago and invoices as a Responsable Inscripto (point of sale 3) against the ARCA emulator. */
async function invoicingOperator(tag: string, prefix: string): Promise<QrOperator & { cuit: string }> {
  const op = await qrOperator(BASE, { tag, prefix, rate: { sessionFeeCents: 50_000, pricePerKwhCents: 20_000 }, qr: { enabled: true } });
  await apiCall(BASE, op.token, "PUT", "/MercadoPago/BusinessUser", { publicKey: `TEST-${prefix}-public-key-0001`, accessToken: `TEST-${prefix}-access-${tag}`, webhookSecret: EMULATOR_WEBHOOK_SECRET });
  const { cuit } = await apiCall<{ cuit: string }>(BASE, op.token, "GET", "/Business/BusinessUser");
  const plainCuit = cuit.replace(/-/g, "");
  const cert = makeArcaCertificate(plainCuit);
  const registered = await fetch(`${PAYMENTS_EMULATOR}/_emulator/arca/taxpayers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ cuit: plainCuit, certificate: cert.certPem, pointsOfSale: [3] }),
  });
  expect(registered.status).toBe(200);
  await apiCall(BASE, op.token, "PUT", "/Business/Fiscal", { taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: 3, environment: "HOMOLOGACION", certificate: cert.certPem, privateKey: cert.keyPem });
  return { ...op, cuit: plainCuit };
}

/** The driver pays $ 2.000 at the connector's page (optionally asking for a Factura A), charges a little and stops; answers the status page's address. */
async function payChargeAndStop(page: Page, op: QrOperator, email: string, buyer?: { cuit: string; name: string }): Promise<string> {
  const charger = await startSimCharger({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity: op.identity, password: op.ocppPassword, powerW: 50_000, meterEverySeconds: 1 });
  try {
    await expect(async () => {
      await page.goto(`${BASE}/cargar/${encodeURIComponent(op.identity)}/1`);
      await expect(page.getByTestId("connector-state")).toHaveText("Disponible", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await page.getByLabel("Correo para el comprobante").fill(email);
    if (buyer) {
      await page.getByText("¿Necesitás factura A?").click();
      await page.getByLabel("CUIT de la empresa").fill(buyer.cuit);
      await page.getByLabel("Razón social").fill(buyer.name);
    }
    await page.getByLabel(/Acepto los/).check();
    await page.getByRole("button", { name: "Pagar con Mercado Pago" }).click();
    await expect(page).toHaveURL(new RegExp(`^${PAYMENTS_EMULATOR}/mercadopago/checkout/`));
    await page.getByRole("button", { name: "Aprobar pago" }).click();
    await expect(page).toHaveURL(/\/cargar\/pago\/[0-9a-f-]{36}\?t=/);
    const statusUrl = page.url();
    const step = page.getByTestId("step");
    await expect(step).toHaveAttribute("data-step", "CHARGING", { timeout: 20_000 });
    await expect(page.getByTestId("energy")).not.toHaveText("0,00 kWh", { timeout: 15_000 });
    await page.getByRole("button", { name: "Detener carga" }).click();
    await expect(step).toHaveAttribute("data-step", "FINISHED", { timeout: 20_000 });
    return statusUrl;
  } finally {
    await charger.close();
  }
}

/** The receipt's voucher line once ARCA authorised it (the page is final: it is reloaded while the voucher is on its way). */
async function receiptInvoice(page: Page, statusUrl: string, label: RegExp): Promise<string> {
  await expect(async () => {
    await page.goto(statusUrl);
    await expect(page.getByTestId("receipt-invoice")).toHaveText(label, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  return (await page.getByTestId("receipt-invoice").locator("strong").innerText()).trim();
}

const uniqueTag = (project: string) => `${project}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

test("a QR payment ends with an authorised Factura B: its PDF opens from the receipt and comes by e-mail; a refund afterwards gives the Nota de crédito B", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const tag = uniqueTag(testInfo.project.name);
  const op = await invoicingOperator(tag, "factura-b");
  const email = `conductora-${tag.toLowerCase()}@example.com`;
  const statusUrl = await payChargeAndStop(page, op, email);
  const paymentId = /\/cargar\/pago\/([0-9a-f-]{36})/.exec(statusUrl)![1];
  const charged = arsToCents(await page.getByTestId("charged").innerText());

  // The receipt names the voucher: Factura B, point of sale 3, the series' first number, the emulator's CAE.
  const line = await receiptInvoice(page, statusUrl, /^Factura B N° 0003-00000001 · CAE \d{14}/);
  const cae = /CAE (\d{14})/.exec(line)![1];
  const arca = (await (await fetch(`${PAYMENTS_EMULATOR}/_emulator/arca/state`)).json()) as { vouchers: { cuit: string; type: number; number: number; cae: string; total: string }[] };
  expect(arca.vouchers.filter((v) => v.cuit === op.cuit).map((v) => [v.type, v.number, v.cae, Math.round(Number(v.total) * 100)])).toEqual([[6, 1, cae, charged]]);

  // Its PDF, from the receipt's link (the link's own secret; no sign-in): the number, the CAE, the total.
  const pdfLink = page.getByRole("link", { name: "Descargar la factura (PDF)" });
  const href = (await pdfLink.getAttribute("href"))!;
  expect(href).toBe(`/cargar/pago/${paymentId}/factura?t=${new URL(statusUrl).searchParams.get("t")}`);
  const pdf = await page.request.get(`${BASE}${href}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  const text = pdfText(await pdf.body());
  expect(text).toContain("Factura B");
  expect(text).toContain("N° 0003-00000001");
  expect(text).toContain(`CAE N°: ${cae}`);
  expect(text).toContain(`Consumidor Final`);
  expect(text).toContain("Régimen de Transparencia Fiscal al Consumidor");
  // Without the link's secret there is nothing to download.
  expect((await page.request.get(`${BASE}/cargar/pago/${paymentId}/factura?t=otro-secreto`)).status()).toBe(404);

  // The e-mail: the receipt (or, if the voucher came after it, its own message) with the same PDF attached.
  await expect
    .poll(
      async () => {
        const { messages } = (await (await fetch(`${BASE}/_local/inbox.json`)).json()) as { messages: InboxMessage[] };
        return messages.filter((m) => m.to === email).flatMap((m) => m.attachments ?? []).map((a) => a.filename);
      },
      { timeout: 15_000 },
    )
    .toEqual(["Factura-B-0003-00000001.pdf"]);
  const { messages } = (await (await fetch(`${BASE}/_local/inbox.json`)).json()) as { messages: InboxMessage[] };
  const mailed = messages.find((m) => m.to === email && m.attachments?.length)!;
  expect(mailed.text).toContain(line);
  expect(mailed.attachments![0].contentType).toBe("application/pdf");
  const mailedText = pdfText(Buffer.from(mailed.attachments![0].contentBase64, "base64"));
  expect(mailedText).toContain("N° 0003-00000001");
  expect(mailedText).toContain(`CAE N°: ${cae}`);

  // The operator refunds the charge from Mercado Pago's panel: the invoice is credited in full.
  const mp = ((await (await fetch(`${PAYMENTS_EMULATOR}/_emulator/state`)).json()) as EmulatorState).payments.find((p) => p.external_reference === paymentId)!;
  const refund = await fetch(`${PAYMENTS_EMULATOR}/_emulator/mercadopago/payments/${mp.id}/status`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ status: "refunded", amountCents: charged }),
  });
  expect(refund.status, await refund.clone().text()).toBe(200);

  await login(page, op.email, op.password, "/payment/invoice");
  await expect(page).toHaveURL(/\/payment\/invoice$/);
  const note = page.getByTestId("invoice-row").filter({ hasText: "Nota de crédito B" });
  await expect(async () => {
    await page.goto("/payment/invoice");
    await expect(note.getByTestId("invoice-status")).toHaveText("Autorizado", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(note).toContainText("N° 0003-00000001");
  // Its total (after Comprobante, a row header: Receptor, Neto, IVA, Total) is what was charged.
  expect(arsToCents(await note.getByRole("cell").nth(3).innerText())).toBe(charged);
  const invoiceRow = page.getByTestId("invoice-row").filter({ hasText: "Factura B N° 0003-00000001" });
  await expect(invoiceRow.getByTestId("invoice-status")).toHaveText("Autorizado");
  const notePdf = await page.request.get(`${BASE}${await note.getByTestId("invoice-pdf").getAttribute("href")}`);
  expect(notePdf.status()).toBe(200);
  const noteText = pdfText(await notePdf.body());
  expect(noteText).toContain("Nota de crédito B");
  expect(noteText).toContain("Comprobante asociado: Factura B N° 0003-00000001");
});

test("a driver who gives a company's CUIT and razón social gets a Factura A", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const tag = uniqueTag(testInfo.project.name);
  const op = await invoicingOperator(tag, "factura-a");
  const email = `flota-${tag.toLowerCase()}@example.com`;
  const statusUrl = await payChargeAndStop(page, op, email, { cuit: "30500010912", name: "Flota del Sur S.A." });
  await receiptInvoice(page, statusUrl, /^Factura A N° 0003-00000001 · CAE \d{14}/);
  const pdf = await page.request.get(`${BASE}${await page.getByRole("link", { name: "Descargar la factura (PDF)" }).getAttribute("href")}`);
  expect(pdf.status()).toBe(200);
  const text = pdfText(await pdf.body());
  expect(text).toContain("Factura A");
  expect(text).toContain("Flota del Sur S.A. · CUIT 30-50001091-2");
  expect(text).toContain("Importe neto gravado");
});
