import { test, expect, login } from "./fixtures";

// Notificaciones: newest first, unread marked, mark one and all read with plain POST forms.
// Both browser projects share the demo business: assertions hold whichever runs first.

test.beforeEach(async ({ page }) => {
  await login(page, undefined, undefined, "/notification");
  await expect(page).toHaveURL(/\/notification$/);
  await expect(page.getByRole("heading", { name: "Notificaciones", level: 1 })).toBeVisible();
});

test("newest first, with dates", async ({ page }) => {
  await expect(page.getByTestId("notification").first()).toBeVisible();
  const times = await page.getByTestId("notification").locator("time").evaluateAll((els) => els.map((e) => e.getAttribute("datetime") ?? ""));
  expect(times.length).toBeGreaterThan(5);
  expect(times).toEqual([...times].sort().reverse());
});

test("mark one, then all, as read; the header badge follows", async ({ page }) => {
  const unread = page.locator('[data-testid="notification"][data-unread="true"]');
  // The unread badge lives in the app layout's header (a bell linking here).
  const withBell = (await page.getByTestId("header-bell").count()) > 0;
  if (withBell && (await unread.count()) > 0) {
    const n = Number((await page.getByTestId("unread-badge").innerText()).replace(/\D/g, ""));
    expect(n).toBeGreaterThan(0);
  }
  if ((await unread.count()) > 0) {
    const first = unread.first();
    const id = await first.getAttribute("data-id");
    await first.getByRole("button", { name: /Marcar como leída/ }).click();
    await expect(page.getByTestId("toast").first()).toBeVisible();
    await expect(page.locator(`[data-testid="notification"][data-id="${id}"]`)).toHaveAttribute("data-unread", "false");
    await expect(page.locator(`[data-testid="notification"][data-id="${id}"]`).getByTestId("notification-unread")).toHaveCount(0);
  }
  const markAll = page.getByRole("button", { name: "Marcar todas como leídas" });
  if (await markAll.isVisible()) {
    await markAll.click();
    await expect(page.getByTestId("toast").first()).toBeVisible();
  }
  await expect(page.getByText(/no tenés notificaciones sin leer/)).toBeVisible();
  await expect(page.locator('[data-testid="notification"][data-unread="true"]')).toHaveCount(0);
  await expect(page.getByTestId("unread-badge")).toHaveCount(0);
  if (withBell) await expect(page.getByTestId("header-bell")).toHaveAccessibleName("Notificaciones");
  await page.getByRole("link", { name: /^Sin leer/ }).click();
  await expect(page).toHaveURL(/unread=1/);
  await expect(page.getByRole("heading", { name: "No tenés notificaciones sin leer" })).toBeVisible();
});
