import { test, expect, login, flashToastCookie } from "./fixtures";

// The route table, the redirects, the titles and the shared page chrome.

const APP_TITLES: [string, string][] = [
  ["/home", "Inicio"],
  ["/station", "Mis estaciones"],
  ["/station/new", "Nueva estación"],
  ["/charger", "Mis cargadores"],
  ["/charger/new", "Nuevo cargador"],
  ["/charger/add", "Anadir cargador"],
  ["/activity", "Actividad"],
  ["/rate", "Tarifas"],
  ["/rate/new", "Nueva tarifa"],
  ["/notification", "Notificaciones"],
  ["/user", "Mi perfil"],
  ["/payment", "Pagos"],
  ["/payment/payments/mercadoPago", "Mercado Pago"],
  ["/payment/payments/pagos360", "Pagos360"],
  // New screens, not in the spec's table.
  ["/team", "Equipo"],
  ["/audit", "Auditoría"],
];

const AUTH_TITLES: [string, string][] = [
  ["/auth/login", "Ingresá"],
  ["/auth/register", "Creá tu cuenta"],
  ["/auth/email-send", "Correo enviado"],
  ["/auth/confirm-password", "Confirmar contraseña"],
  ["/auth/reset-password", "Reestablecer contraseña"],
  ["/auth/terms-conditions", "Términos y condiciones"],
  ["/auth/verify-email", "Verificar email"],
];

test.describe("redirects", () => {
  test("/ goes to /home", async ({ request }) => {
    const res = await request.get("/", { maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers()["location"]).toBe("/home");
  });

  test("/auth goes to login, keeping nothing", async ({ page }) => {
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/auth\/login$/);
  });

  test("/auth with mode=resetPassword goes to confirm-password with the oobCode", async ({ request }) => {
    const res = await request.get("/auth?mode=resetPassword&oobCode=abc123&apiKey=k", { maxRedirects: 0 });
    expect(res.headers()["location"]).toBe("/auth/confirm-password?mode=resetPassword&oobCode=abc123&apiKey=k");
  });

  test("/auth with mode=verifyEmail goes to verify-email with the oobCode", async ({ request }) => {
    const res = await request.get("/auth?mode=verifyEmail&oobCode=xyz", { maxRedirects: 0 });
    expect(res.headers()["location"]).toBe("/auth/verify-email?mode=verifyEmail&oobCode=xyz");
  });

  test("an unknown path redirects to /404, which shows Error 404", async ({ page }) => {
    await page.goto("/no/existe/esta-pagina");
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole("heading", { name: "Error 404" })).toBeVisible();
    await expect(page).toHaveTitle("Error 404 - Enchufá");
  });

  test("anonymous visitors of an app screen go to the login screen", async ({ page }) => {
    await page.goto("/station");
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fstation$/);
  });
});

test.describe("titles", () => {
  for (const [path, title] of AUTH_TITLES) {
    test(`${path} is titled '${title} - Enchufá'`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveTitle(`${title} - Enchufá`);
    });
  }

  test("every app screen has its title once signed in", async ({ page }) => {
    test.setTimeout(90_000); // ~40 screens, one after another, beside another browser
    await login(page);
    await expect(page).toHaveURL(/\/home$/);
    for (const [path, title] of APP_TITLES) {
      await page.goto(path);
      await expect(page, path).toHaveTitle(`${title} - Enchufá`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    }
  });
});

test.describe("layout", () => {
  test("the sidebar lists every area and the header shows the business", async ({ page }) => {
    await login(page);
    const nav = page.getByRole("navigation", { name: "Menú principal" });
    for (const label of ["Inicio", "Mis estaciones", "Mis cargadores", "Actividad", "Tarifas", "Notificaciones", "Pagos", "Mi perfil"]) {
      await expect(nav.getByRole("link", { name: label })).toBeVisible();
    }
    await expect(page.getByTestId("header-business-name")).toHaveText(/\S/);
    await expect(page.getByTestId("header-photo")).toBeVisible();
    await expect(nav.getByRole("link", { name: "Inicio" })).toHaveAttribute("aria-current", "page");
  });

  test("on a phone the sidebar opens from the menu button, without JavaScript too", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await login(page);
    const nav = page.getByRole("navigation", { name: "Menú principal" });
    await expect(nav).toBeHidden();
    await page.locator("label.menu-button").click();
    await expect(nav.getByRole("link", { name: "Mis cargadores" })).toBeVisible();
    await nav.getByRole("link", { name: "Mis cargadores" }).click();
    await expect(page).toHaveURL(/\/charger$/);
  });
});

test.describe("toasts", () => {
  // remix-toast's flash cookie, as an action would set it.
  const flash = flashToastCookie;

  test("a flashed toast is in the server HTML, top right, and leaves after 2 s", async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: "toast-session", value: await flash("Guardamos los cambios."), url: baseURL! }]);
    await page.goto("/auth/login");
    const toast = page.getByTestId("toast");
    await expect(toast).toHaveText(/Guardamos los cambios\./);
    const box = await toast.boundingBox();
    const viewport = page.viewportSize()!;
    expect(box!.x + box!.width).toBeGreaterThan(viewport.width - 40);
    expect(box!.y).toBeLessThan(60);
    await expect(toast).toBeHidden({ timeout: 4000 });
    // Shown once: the flash is gone on the next page.
    await page.goto("/auth/register");
    await expect(page.getByTestId("toast")).toHaveCount(0);
  });

  test("a toast cookie this server did not sign is not shown", async ({ page, context, baseURL }) => {
    // Signed with remix-toast's public default secret, as anyone could forge it.
    await context.addCookies([{ name: "toast-session", value: await flash("Tu cuenta fue suspendida: llamá al 0800…", "error", "s3Cr3t"), url: baseURL! }]);
    await page.goto("/auth/login");
    await expect(page.getByRole("heading", { name: "Ingresá" })).toBeVisible();
    await expect(page.getByTestId("toast")).toHaveCount(0);
  });

  test("a toast closes on click", async ({ page, context, baseURL, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "closing on click needs JavaScript; without it the toast leaves by itself after 2 s");
    await context.addCookies([{ name: "toast-session", value: await flash("Algo salió mal.", "error"), url: baseURL! }]);
    await page.goto("/auth/login");
    const toast = page.getByTestId("toast");
    await expect(toast).toBeVisible();
    await toast.click();
    await expect(toast).toHaveCount(0);
  });
});

test("'Cargando...' shows while a navigation is pending", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "without JavaScript the browser's own progress indicator is used");
  await page.goto("/auth/login");
  await page.waitForLoadState("networkidle");
  // Hold the next single-fetch data request so the navigation stays pending.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\.data(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await page.locator('a[href="/auth/register"]').first().click();
  await expect(page.getByText("Cargando...")).toBeVisible();
  release();
  await expect(page).toHaveURL(/\/auth\/register/);
  await expect(page.getByText("Cargando...")).toHaveCount(0);
});
