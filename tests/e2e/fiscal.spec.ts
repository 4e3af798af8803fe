// Facturación, JavaScript on and off: an operator uploads its ARCA certificate and key (PEM
// files), sees the certificate's CUIT, and «Probar conexión» succeeds against the local ARCA
// emulator, which trusts that certificate for the company's CUIT. Each run has its own operator.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test, expect, activeOperator, login } from "./fixtures";
import { E2E_PAYMENTS_EMULATOR_PORT, E2E_PORT } from "./ports";
import { makeArcaCertificate } from "../../scripts/arca-test-certificates";

const password = "Factura1234!";

test("certificate and key uploaded, then Probar conexión against the ARCA emulator", async ({ page }) => {
  const base = `http://127.0.0.1:${E2E_PORT}`;
  const { email, token } = await activeOperator(base, { prefix: "fiscal", password, businessName: "Factura S.A." });
  const profile = (await (await fetch(`${base}/api/Business/BusinessUser`, { headers: { authorization: `Bearer ${token}` } })).json()) as { cuit: string };
  const cuit = profile.cuit.replace(/-/g, "");
  const cert = makeArcaCertificate(cuit);
  const dir = mkdtempSync(path.join(tmpdir(), "fiscal-e2e-"));
  writeFileSync(path.join(dir, "enchufa.crt"), cert.certPem);
  writeFileSync(path.join(dir, "enchufa.key"), cert.keyPem);
  const registered = await fetch(`http://127.0.0.1:${E2E_PAYMENTS_EMULATOR_PORT}/_emulator/arca/taxpayers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ cuit, certificate: cert.certPem, pointsOfSale: [3] }),
  });
  expect(registered.status).toBe(200);

  await login(page, email, password, "/fiscal");
  await expect(page).toHaveTitle("Facturación - Enchufá");
  await expect(page.getByText("Todavía no subiste el certificado de ARCA")).toBeVisible();
  await page.getByLabel("Condición frente al IVA").selectOption("RESPONSABLE_INSCRIPTO");
  await page.getByLabel("Punto de venta").fill("3");
  await page.getByLabel("Entorno de ARCA").selectOption("HOMOLOGACION");
  await page.getByLabel("Certificado (.crt o .pem)").setInputFiles(path.join(dir, "enchufa.crt"));
  await page.getByLabel("Clave privada (.key)").setInputFiles(path.join(dir, "enchufa.key"));
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByTestId("fiscal-certificate")).toContainText(`${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`);
  await expect(page.locator("body")).not.toContainText("BEGIN");

  await page.getByRole("button", { name: "Probar conexión" }).click();
  await expect(page.getByTestId("fiscal-test-steps")).toContainText("El punto de venta 3 está habilitado para web services.");
});
