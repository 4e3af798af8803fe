// Sign-out ends the sign-in on the server (ADR 0027), with JavaScript on and off: a copy of the
// session cookie in another browser opens nothing afterwards. Each test has its own operator, so
// the shared demo operator is never signed out everywhere.
import type { Browser, BrowserContext } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { activeOperator, expect, login, test } from "./fixtures";

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const PASSWORD = "Clave-Segura-1";

/** A second browser holding a copy of the first one's cookies (a copied session). */
async function copyOf(context: BrowserContext, browser: Browser, javaScriptEnabled: boolean) {
  const copy = await browser.newContext({ baseURL: BASE, javaScriptEnabled });
  await copy.addCookies(await context.cookies());
  return copy;
}

test("«Salir» ends the sign-in: a copied cookie is signed out too", async ({ page, context, browser }, testInfo) => {
  test.setTimeout(90_000); // an operator of its own, two browsers
  const { email } = await activeOperator(BASE, { prefix: "salir", password: PASSWORD, businessName: "Salida Segura S.A." });
  await login(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/home$/);
  const copy = await copyOf(context, browser, testInfo.project.name === "js");
  const stolen = await copy.newPage();
  await stolen.goto("/home");
  await expect(stolen).toHaveURL(/\/home$/);

  await page.getByRole("button", { name: "Salir" }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await stolen.goto("/home");
  await expect(stolen).toHaveURL(/\/auth\/login$/);
  await copy.close();
});

test("Mi perfil → «Cerrar sesión en todos los dispositivos» signs every browser out, with a toast", async ({ page, context, browser }, testInfo) => {
  test.setTimeout(90_000); // an operator of its own, three browsers
  const { email } = await activeOperator(BASE, { prefix: "todos", password: PASSWORD, businessName: "Todos Afuera S.A." });
  await login(page, email, PASSWORD, "/user");
  await expect(page).toHaveURL(/\/user$/);
  // Another device signed in on its own.
  const other = await browser.newContext({ baseURL: BASE, javaScriptEnabled: testInfo.project.name === "js" });
  const phone = await other.newPage();
  await login(phone, email, PASSWORD);
  await expect(phone).toHaveURL(/\/home$/);
  const copy = await copyOf(context, browser, testInfo.project.name === "js");

  await page.getByRole("button", { name: "Cerrar sesión en todos los dispositivos" }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByTestId("toast").filter({ hasText: "Cerraste sesión en todos los dispositivos." })).toBeAttached();

  await phone.goto("/station");
  await expect(phone).toHaveURL(/\/auth\/login\?redirectTo=%2Fstation$/);
  const stolen = await copy.newPage();
  await stolen.goto("/home");
  await expect(stolen).toHaveURL(/\/auth\/login$/);
  // Signing in again works as usual.
  await login(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/home$/);
  await other.close();
  await copy.close();
});
