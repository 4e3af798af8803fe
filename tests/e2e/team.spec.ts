// The team in the browser, JavaScript on and off: invitations by e-mail from the Equipo
// screen (a new person registers through the normal flow and lands in the company; a person with
// an account accepts and joins), the header's company switcher, removing a member ending their
// session at once, the ownership transfer, what each role sees, and the audit log.
import type { Browser, Page } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { activeOperator, createAccount, expect, idToken, login, oobCodes, test, uniqueEmail } from "./fixtures";

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const PASSWORD = "Equipo1234!";

/** The invitation link the local inbox (/_local/inbox.json) holds for an address, newest first. */
async function invitationLink(email: string): Promise<string> {
  let link = "";
  await expect
    .poll(async () => {
      const res = await fetch(`${BASE}/_local/inbox.json`);
      const { messages } = (await res.json()) as { messages: { to: string; text: string; kind: string }[] };
      const mail = messages.find((m) => m.to === email.toLowerCase() && m.kind === "invitation");
      link = /https?:\/\/\S+\/auth\/invitation\?token=[A-Za-z0-9_-]+/.exec(mail?.text ?? "")?.[0] ?? "";
      return link;
    })
    .not.toBe("");
  return new URL(link).pathname + new URL(link).search;
}

/** A fresh operator with an active company, signed in on `page`. */
async function owner(page: Page, prefix: string, businessName: string) {
  const op = await activeOperator(BASE, { prefix, password: PASSWORD, businessName });
  await login(page, op.email, PASSWORD);
  await expect(page).toHaveURL(/\/home$/);
  return op;
}

async function invite(page: Page, email: string, role: string) {
  await page.goto("/team");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Rol", { exact: true }).selectOption({ label: role });
  await page.getByRole("button", { name: "Enviar invitación" }).click();
  await expect(page.getByTestId("invitation-row").filter({ hasText: email.toLowerCase() })).toBeVisible();
}

/** Joins through the Business API with the e-mailed token (for the tests that are about something else). */
async function joinByApi(email: string, path: string) {
  const token = new URLSearchParams(path.split("?")[1]).get("token");
  const res = await fetch(`${BASE}/api/Business/Member`, {
    method: "POST",
    headers: { authorization: `Bearer ${await idToken(email, PASSWORD)}`, "content-type": "application/json" },
    body: JSON.stringify({ token }),
  });
  expect(res.status).toBe(201);
}

async function freshPage(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled, locale: "es-AR", timezoneId: "America/Argentina/Buenos_Aires", baseURL: BASE });
  return { context, page: await context.newPage() };
}

test("a new person: the link, the normal registration and verification, and the sign-in lands in the company with its role", async ({ page, browser, javaScriptEnabled }) => {
  await owner(page, "equipo-nuevo", "Equipo Nuevo S.A.");
  const email = uniqueEmail("tecnica");
  await invite(page, email, "Técnico");
  const link = await invitationLink(email);

  const guest = await freshPage(browser, javaScriptEnabled ?? true);
  try {
    const p = guest.page;
    await p.goto(link);
    await expect(p).toHaveTitle("Invitación - Enchufá");
    await expect(p.getByRole("heading", { name: "Invitación" })).toBeVisible();
    await expect(p.getByText("Te invitaron a unirte a «Equipo Nuevo S.A.» con el rol Técnico.")).toBeVisible();
    await p.getByRole("link", { name: "Creá tu cuenta" }).click();
    await expect(p).toHaveURL(/\/auth\/register$/);
    await expect(p.getByTestId("register-invitation")).toContainText("Equipo Nuevo S.A.");
    await expect(p.getByLabel("Correo electrónico")).toHaveValue(email.toLowerCase());
    await p.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
    await p.getByLabel("Repetir contraseña").fill(PASSWORD);
    await p.getByLabel("Acepto los términos y condiciones").check();
    await p.getByRole("button", { name: "Crear cuenta" }).click();
    await expect(p).toHaveURL(/\/auth\/email-send$/);

    const [verify] = (await oobCodes(email)).filter((c) => c.requestType === "VERIFY_EMAIL");
    await p.goto(`/auth?mode=verifyEmail&oobCode=${verify.oobCode}`);
    await expect(p.getByTestId("verify-result")).toHaveText("¡Listo! Tu correo quedó verificado. Ya podés ingresar.");
    await p.getByRole("link", { name: "Ingresar" }).click();
    await login(p, email, PASSWORD);

    await expect(p).toHaveURL(/\/home$/);
    await expect(p.getByText("Te uniste a «Equipo Nuevo S.A.» como Técnico.")).toBeVisible();
    await expect(p.getByTestId("header-business-name")).toHaveText("Equipo Nuevo S.A.");
    await expect(p.getByTestId("header-role")).toHaveText("Técnico");
    // A technician's menu: stations and chargers, no rates, payments, team or audit.
    const nav = p.getByRole("navigation", { name: "Menú principal" });
    await expect(nav.getByRole("link", { name: "Mis cargadores" })).toHaveCount(1);
    for (const hidden of ["Tarifas", "Pagos", "Actividad", "Equipo", "Auditoría"]) await expect(nav.getByRole("link", { name: hidden })).toHaveCount(0);
    await p.goto("/rate");
    await expect(p.getByRole("heading", { name: "No tenés acceso a esta página" })).toBeVisible();
    await expect(p.getByText("Tu rol (Técnico) no permite ver las tarifas.")).toBeVisible();
  } finally {
    await guest.context.close();
  }
  // The owner sees the new member with the role, and no pending invitation.
  await page.goto("/team");
  await expect(page.getByTestId("member-row").filter({ hasText: email.toLowerCase() }).getByRole("combobox")).toHaveValue("TECHNICIAN");
  await expect(page.getByTestId("invitation-row")).toHaveCount(0);
});

test("a person with an account accepts, joins, and switches between companies from the header", async ({ page, browser, javaScriptEnabled }) => {
  await owner(page, "equipo-a", "Equipo A S.A.");
  const other = await activeOperator(BASE, { prefix: "equipo-b", password: PASSWORD, businessName: "Equipo B S.R.L." });
  await invite(page, other.email, "Lectura");
  const link = await invitationLink(other.email);

  const guest = await freshPage(browser, javaScriptEnabled ?? true);
  try {
    const p = guest.page;
    await login(p, other.email, PASSWORD);
    await expect(p.getByTestId("header-business-name")).toHaveText("Equipo B S.R.L.");
    await expect(p.getByTestId("company-switcher")).toHaveCount(0);
    await p.goto(link);
    await p.getByRole("button", { name: "Aceptar la invitación" }).click();
    await expect(p).toHaveURL(/\/home$/);
    await expect(p.getByText("Te uniste a «Equipo A S.A.» como Lectura.")).toBeVisible();
    await expect(p.getByTestId("header-business-name")).toHaveText("Equipo A S.A.");
    await expect(p.getByTestId("header-role")).toHaveText("Lectura");
    // Lectura changes nothing: no way to create a station.
    await p.goto("/station");
    await expect(p.getByRole("heading", { name: "Mis estaciones" })).toBeVisible();
    await expect(p.getByRole("link", { name: "Nueva estación" })).toHaveCount(0);

    // The switcher: back to their own company, and again.
    const switcher = p.getByTestId("company-switcher");
    await switcher.getByLabel("Empresa").selectOption({ label: "Equipo B S.R.L. · Dueño" });
    if (!javaScriptEnabled) await switcher.getByRole("button", { name: "Cambiar" }).click();
    await expect(p).toHaveURL(/\/home$/);
    await expect(p.getByTestId("header-business-name")).toHaveText("Equipo B S.R.L.");
    await expect(p.getByTestId("header-role")).toHaveText("Dueño");
    await expect(p.getByText("Ahora estás en «Equipo B S.R.L.».")).toBeVisible();
    await p.getByTestId("company-switcher").getByLabel("Empresa").selectOption({ label: "Equipo A S.A. · Lectura" });
    if (!javaScriptEnabled) await p.getByTestId("company-switcher").getByRole("button", { name: "Cambiar" }).click();
    await expect(p.getByTestId("header-business-name")).toHaveText("Equipo A S.A.");
  } finally {
    await guest.context.close();
  }
});

test("removing a member ends their session at once", async ({ page, browser, javaScriptEnabled }) => {
  await owner(page, "equipo-quitar", "Equipo Quitar S.A.");
  const email = uniqueEmail("saliente");
  await createAccount(email, PASSWORD);
  await invite(page, email, "Técnico");
  await joinByApi(email, await invitationLink(email));

  const guest = await freshPage(browser, javaScriptEnabled ?? true);
  try {
    const p = guest.page;
    await login(p, email, PASSWORD);
    await expect(p.getByTestId("header-business-name")).toHaveText("Equipo Quitar S.A.");
    await p.goto("/station");
    await expect(p.getByRole("heading", { name: "Mis estaciones" })).toBeVisible();

    await page.goto("/team");
    const row = page.getByTestId("member-row").filter({ hasText: email.toLowerCase() });
    await row.getByText("Quitar", { exact: true }).click();
    await row.getByRole("button", { name: "Sí, quitar" }).click();
    await expect(page.getByText(`Quitamos a ${email.toLowerCase()} de la empresa.`)).toBeVisible();
    await expect(page.getByTestId("member-row").filter({ hasText: email.toLowerCase() })).toHaveCount(0);

    // Their very next page: signed out.
    await p.goto("/charger");
    await expect(p).toHaveURL(/\/auth\/login\?redirectTo=%2Fcharger$/);
    await p.goto("/home");
    await expect(p).toHaveURL(/\/auth\/login$/);
  } finally {
    await guest.context.close();
  }
});

test("the owner transfers the ownership and stays as administrator; the audit log tells it", async ({ page }) => {
  await owner(page, "equipo-duenio", "Equipo Dueño S.A.");
  const email = uniqueEmail("nuevo-duenio");
  await createAccount(email, PASSWORD);
  await invite(page, email, "Administrador");
  await joinByApi(email, await invitationLink(email));

  await page.goto("/team");
  const row = page.getByTestId("member-row").filter({ hasText: email.toLowerCase() });
  await row.getByText("Transferir la propiedad").click();
  await row.getByRole("button", { name: "Sí, transferir" }).click();
  await expect(page.getByText(`Transferimos la propiedad de la empresa a ${email.toLowerCase()}. Ahora sos administrador.`)).toBeVisible();
  await expect(page.getByTestId("header-role")).toHaveText("Administrador");
  await expect(page.getByTestId("member-row").filter({ hasText: email.toLowerCase() }).getByTestId("member-role")).toHaveText("Dueño");
  // No longer the owner: nobody's ownership can be moved from here.
  await expect(page.getByTestId("member-transfer")).toHaveCount(0);

  await page.getByRole("navigation", { name: "Menú principal" }).getByRole("link", { name: "Auditoría" }).click();
  await expect(page).toHaveTitle("Auditoría - Enchufá");
  const transfer = page.getByTestId("audit-row").filter({ hasText: "Transfirió la propiedad de la empresa" });
  await expect(transfer).toContainText(email.toLowerCase());
  await expect(transfer).toContainText("Rol: Administrador → Dueño");
  await expect(page.getByTestId("audit-row").filter({ hasText: "Invitó a" })).toHaveCount(1);
  // Filter by section, then the CSV of what is shown.
  await page.getByLabel("Sección").selectOption({ label: "Miembro" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page.getByTestId("audit-row").filter({ hasText: "Invitó a" })).toHaveCount(0);
  const href = await page.getByTestId("audit-export").getAttribute("href");
  expect(href).toBe("/audit/export.csv?resource=member");
  const csv = await page.request.get(href!);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(await csv.text()).toContain("Transfirió la propiedad de la empresa");
});

test("the team screens at 1280 and 360 px", async ({ page, browser, javaScriptEnabled }, testInfo) => {
  test.skip(!javaScriptEnabled, "one set of screenshots is enough");
  test.setTimeout(90_000);
  const op = await owner(page, "equipo-fotos", "Equipo Fotos S.A.");
  const member = uniqueEmail("foto-admin");
  await createAccount(member, PASSWORD);
  await invite(page, member, "Administrador");
  await joinByApi(member, await invitationLink(member));
  const pending = uniqueEmail("foto");
  await invite(page, pending, "Facturación");
  // The owner also belongs to another company (the header's switcher).
  const other = await activeOperator(BASE, { prefix: "equipo-fotos-b", password: PASSWORD, businessName: "Otra Empresa de Carga S.R.L." });
  const otherPage = await freshPage(browser, true);
  await login(otherPage.page, other.email, PASSWORD);
  await expect(otherPage.page).toHaveURL(/\/home$/);
  await invite(otherPage.page, op.email, "Lectura");
  const link = await invitationLink(op.email);
  await otherPage.context.close();
  await page.goto(link);
  await page.screenshot({ path: testInfo.outputPath("invitation-1280.png") });
  await page.getByRole("button", { name: "Aceptar la invitación" }).click();
  await expect(page.getByTestId("header-role")).toHaveText("Lectura");
  await page.goto("/station");
  await page.screenshot({ path: testInfo.outputPath("reader-station-1280.png") });
  await page.getByTestId("company-switcher").getByLabel("Empresa").selectOption({ label: "Equipo Fotos S.A. · Dueño" });
  await expect(page.getByTestId("header-role")).toHaveText("Dueño");
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/team");
    await page.screenshot({ path: testInfo.outputPath(`team-${width}.png`), fullPage: true });
    await page.goto("/audit");
    await page.screenshot({ path: testInfo.outputPath(`audit-${width}.png`), fullPage: true });
  }
  await page.goto(link);
  await page.screenshot({ path: testInfo.outputPath("invitation-used-360.png") });
});
