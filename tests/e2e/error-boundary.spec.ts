// A screen inside the app that cannot be shown keeps the app around it: a missing charger's page
// (404) and a screen the member's role may not open (403) say why in Spanish, with the navigation
// and the header still there.
import crypto from "node:crypto";
import { E2E_PORT } from "../../playwright.config";
import { activeOperator, createAccount, expect, idToken, login, test, uniqueEmail } from "./fixtures";

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const PASSWORD = "Errores1234!";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the same server-rendered page with JavaScript off; checked with it on");

/** The invitation token the local inbox (/_local/inbox.json) holds for an address. */
async function invitationToken(email: string): Promise<string> {
  let token = "";
  await expect
    .poll(async () => {
      const res = await fetch(`${BASE}/_local/inbox.json`);
      const { messages } = (await res.json()) as { messages: { to: string; text: string; kind: string }[] };
      const mail = messages.find((m) => m.to === email.toLowerCase() && m.kind === "invitation");
      token = /\/auth\/invitation\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1] ?? "";
      return token;
    })
    .not.toBe("");
  return token;
}

/** Calls the Business API as `token` and expects `status`. */
async function api(path: string, token: string, body: unknown, status: number) {
  const res = await fetch(`${BASE}/api${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(status);
}

test("a missing charger's page is the 404 message inside the app, with the navigation", async ({ page }) => {
  // A sign-in, a page and a navigation: more than the default 30 s on a busy machine.
  test.slow();
  await login(page);
  await expect(page).toHaveURL(/\/home$/, { timeout: 20_000 });
  const res = await page.goto(`/charger/edit/${crypto.randomUUID()}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "No encontramos esta página", level: 1 })).toBeVisible();
  await expect(page.getByText("La dirección no existe o ya no está disponible.")).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Menú principal" });
  await expect(nav.getByRole("link", { name: "Mis cargadores" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Salir" })).toBeVisible();
  // The navigation works from the error: the list opens in place of the message.
  await nav.getByRole("link", { name: "Mis cargadores" }).click();
  await expect(page).toHaveURL(/\/charger$/);
  await expect(page.getByRole("heading", { name: "Mis cargadores", level: 1 })).toBeVisible();
});

test("a screen the role may not open is the 403 message inside the app, with the role's navigation", async ({ page }) => {
  // A company, a member by invitation, a sign-in and a page: more than the default 30 s on a busy machine.
  test.slow();
  const owner = await activeOperator(BASE, { prefix: "errores-dueno", password: PASSWORD, businessName: "Errores S.A." });
  const email = uniqueEmail("errores-tecnico");
  await createAccount(email, PASSWORD);
  await api("/Business/Invitation", owner.token, { email, role: "TECHNICIAN" }, 201);
  await api("/Business/Member", await idToken(email, PASSWORD), { token: await invitationToken(email) }, 201);

  await login(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/home$/, { timeout: 20_000 });
  await expect(page.getByTestId("header-role")).toHaveText("Técnico");
  const res = await page.goto("/payment");
  expect(res?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "No tenés acceso a esta página", level: 1 })).toBeVisible();
  await expect(page.getByText("Tu rol (Técnico) no permite ver los pagos.")).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Menú principal" });
  await expect(nav.getByRole("link", { name: "Mis cargadores" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Pagos" })).toHaveCount(0);
  await expect(page.getByTestId("header-business-name")).toHaveText("Errores S.A.");
});
