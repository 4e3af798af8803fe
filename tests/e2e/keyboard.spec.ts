import type { Locator, Page } from "@playwright/test";
import { DEMO, expect, login, test, flashToastCookie } from "./fixtures";

// Keyboard only: log in and create a station with Tab, typing, arrows, Space and Enter — no
// clicks — with JavaScript on and off; the skip link, the phone menu as a dialog, the focus after
// a failed submit and visible focus on every control passed on the way.

const uid = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * Whether the focused element shows a focus indicator: its outline, or the outline Radix draws
 * on a text field's root. Reads styles, so only where scripts run (the js project).
 */
async function focusIsVisible(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return false;
    const shows = (node: Element | null) => {
      if (!node) return false;
      const style = getComputedStyle(node);
      return style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    };
    if (shows(el)) return true;
    // Radix TextField: the ring is drawn on the root around the input.
    const root = el.closest(".rt-TextFieldRoot");
    if (root && getComputedStyle(root).outlineStyle !== "none") return true;
    // The phone menu's toggle is visually hidden; its ring is drawn on the menu button.
    if (el.id === "nav-toggle") return shows(document.querySelector(".menu-button"));
    return false;
  });
}

/** Press Tab until `target` has the focus, checking each stop shows its focus. */
async function tabTo(page: Page, target: Locator, { javaScriptEnabled, max = 80 }: { javaScriptEnabled: boolean; max?: number }) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (javaScriptEnabled) {
      const described = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el ? `${el.tagName.toLowerCase()}#${el.id} ${el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? ""}` : "nothing";
      });
      expect(await focusIsVisible(page), `visible focus on ${described}`).toBe(true);
    }
    if (javaScriptEnabled) {
      if (await target.evaluate((el) => el === document.activeElement)) return;
      continue;
    }
    // Without JavaScript locator.evaluate cannot run; toBeFocused reads the focus another way.
    try {
      await expect(target).toBeFocused({ timeout: 50 });
      return;
    } catch {
      /* not yet */
    }
  }
  throw new Error(`Tab never reached ${target}`);
}

test.describe("keyboard only", () => {
  test.describe.configure({ timeout: 120_000 });

  test("log in, after a failed attempt that focuses the first invalid field", async ({ page, javaScriptEnabled }) => {
    await page.goto("/auth/login");
    const email = page.getByLabel("Correo electrónico");
    const password = page.getByLabel("Contraseña", { exact: true });
    await tabTo(page, email, { javaScriptEnabled });
    await page.keyboard.type("no-es-un-correo");
    await tabTo(page, password, { javaScriptEnabled });
    await page.keyboard.type("x");
    await page.keyboard.press("Enter");
    const error = page.getByTestId("email-error");
    await expect(error).toBeVisible();
    await expect(email).toBeFocused();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    const describedBy = (await email.getAttribute("aria-describedby")) ?? "";
    expect(describedBy.split(" ")).toContain(await error.getAttribute("id"));

    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type(DEMO.email);
    await tabTo(page, password, { javaScriptEnabled });
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type(DEMO.password);
    await tabTo(page, page.getByRole("button", { name: "Ingresar" }), { javaScriptEnabled });
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 }); // the first login of a run is slow on a busy machine
  });

  test("the skip link leads to the main content", async ({ page, javaScriptEnabled }) => {
    await login(page);
    await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 }); // the first login of a run is slow on a busy machine
    // After a client-side navigation the focus starts again from the top, as after a page load.
    if (javaScriptEnabled) await expect(page.locator("#page-top")).toBeFocused();
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Saltar al contenido" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#main$/);
    if (javaScriptEnabled) await expect(page.locator("main#main")).toBeFocused();
    // The next Tab lands inside the main content, past the menu.
    await page.keyboard.press("Tab");
    await expect(page.locator("main#main :focus")).toHaveCount(1);
  });

  test("on a phone the menu opens from the keyboard; with JavaScript it keeps and returns the focus", async ({ page, javaScriptEnabled }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await login(page);
    await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 }); // the first login of a run is slow on a busy machine
    const nav = page.getByRole("navigation", { name: "Menú principal" });
    const toggle = page.getByRole("checkbox", { name: "Mostrar u ocultar el menú" });
    await expect(nav).toBeHidden();
    await tabTo(page, toggle, { javaScriptEnabled });
    await page.keyboard.press("Space");
    await expect(nav.getByRole("link", { name: "Inicio" })).toBeVisible();
    if (javaScriptEnabled) {
      // Focus moves into the menu and Tab cycles inside it.
      await expect(nav.getByRole("link").first()).toBeFocused();
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => !!document.activeElement?.closest("#app-nav") || document.activeElement?.id === "nav-toggle")).toBe(true);
      }
      await page.keyboard.press("Escape");
      await expect(nav).toBeHidden();
      await expect(toggle).toBeFocused();
    } else {
      // Without JavaScript the menu's links follow the toggle in the tab order.
      await page.keyboard.press("Tab");
      await expect(nav.getByRole("link").first()).toBeFocused();
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Space");
      await expect(nav).toBeHidden();
    }
    // Open again from the toggle, which has the focus, and follow a link.
    await expect(toggle).toBeFocused();
    await page.keyboard.press("Space");
    await tabTo(page, nav.getByRole("link", { name: "Mis cargadores" }), { javaScriptEnabled });
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/charger$/);
    await expect(nav).toBeHidden();
  });

  test("create a station", async ({ page, javaScriptEnabled }) => {
    const name = `Estación Teclado ${uid()}`;
    await login(page);
    await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 }); // the first login of a run is slow on a busy machine
    const nav = page.getByRole("navigation", { name: "Menú principal" });
    await tabTo(page, nav.getByRole("link", { name: "Mis estaciones" }), { javaScriptEnabled });
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/station$/);
    await tabTo(page, page.getByRole("link", { name: "Nueva estación" }).first(), { javaScriptEnabled });
    await page.keyboard.press("Enter");
    await expect(page).toHaveTitle("Nueva estación - Enchufá");

    // A failed submit first: the focus goes to the first invalid field.
    const submit = page.getByRole("button", { name: "Crear estación" });
    // The form has grown (capacity, QR payment): many stops without JavaScript (the hours, the map fallback).
    await tabTo(page, submit, { javaScriptEnabled, max: 200 });
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("name-error")).toBeVisible();
    await expect(page.getByLabel("Nombre")).toBeFocused();

    await page.keyboard.type(name);
    await tabTo(page, page.getByLabel("Dirección"), { javaScriptEnabled });
    await page.keyboard.type("Av. Rivadavia 5000");
    await tabTo(page, page.getByLabel("Localidad"), { javaScriptEnabled });
    await page.keyboard.type("Buenos Aires");
    const province = page.getByLabel("Provincia");
    await tabTo(page, province, { javaScriptEnabled });
    for (let i = 0; i < 30 && (await province.inputValue()) !== "AR-C"; i++) await page.keyboard.press("ArrowDown");
    await expect(province).toHaveValue("AR-C");
    // The plain coordinate fields: the map's alternative, always there.
    await tabTo(page, page.getByLabel("Latitud"), { javaScriptEnabled });
    await page.keyboard.type("-34,6186");
    await tabTo(page, page.getByLabel("Longitud"), { javaScriptEnabled });
    await page.keyboard.type("-58,4367");
    await tabTo(page, page.getByLabel("Wi-Fi"), { javaScriptEnabled });
    await page.keyboard.press("Space");
    await expect(page.getByLabel("Wi-Fi")).toBeChecked();
    await tabTo(page, submit, { javaScriptEnabled, max: 200 });
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/station$/);
    await expect(page.getByTestId("toast")).toContainText(`Creamos la estación «${name}».`);

    // Clean up (the demo account is shared by parallel tests).
    await page.goto(`/station?q=${encodeURIComponent(name)}`);
    await page.getByTestId("station-row").filter({ hasText: name }).getByRole("link", { name: `Eliminar ${name}` }).click();
    await page.getByTestId("confirm-delete").getByRole("button", { name: "Sí, eliminar" }).click();
    await expect(page.getByTestId("toast")).toContainText(`Eliminamos la estación «${name}».`);
  });
});

test.describe("toasts from the keyboard", () => {
  // remix-toast's flash cookie, as an action would set it.
  const flash = flashToastCookie;

  test("a toast is announced, stays while focused and closes with its button or Escape", async ({ page, context, baseURL, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "without JavaScript a toast leaves by itself after 2 s (paused while focused), there is no script to close it earlier");
    const status = page.getByRole("status").filter({ has: page.getByTestId("toast") });
    await context.addCookies([{ name: "toast-session", value: await flash("Guardamos los cambios."), url: baseURL! }]);
    await page.goto("/auth/login");
    await expect(status).toHaveAttribute("aria-live", "polite");
    const close = page.getByRole("button", { name: "Cerrar aviso" });
    await tabTo(page, close, { javaScriptEnabled });
    await page.waitForTimeout(2600); // past the 2 s: focused, it stays
    await expect(page.getByTestId("toast")).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("toast")).toHaveCount(0);

    await context.addCookies([{ name: "toast-session", value: await flash("Algo salió mal.", "error"), url: baseURL! }]);
    await page.goto("/auth/register");
    await tabTo(page, close, { javaScriptEnabled });
    await page.waitForTimeout(2600);
    await expect(page.getByTestId("toast")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("toast")).toHaveCount(0);
  });
});
