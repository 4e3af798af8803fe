import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { E2E_PORT } from "../../playwright.config";
import { EMULATOR_WEBHOOK_SECRET } from "../../scripts/payments-emulator";
import { startSimCharger } from "../../scripts/sim-charger";
import { expect, login, test } from "./fixtures";
import { apiCall, qrOperator } from "./qr-setup";

// WCAG 2.2 A/AA with axe-core on every route, as the demo operator and anonymously, at a
// desktop width and on a 360 px phone, with JavaScript; without it, the forms the server answers
// with their errors. Also a few states that only exist after an action (a failed form, an open
// session detail).

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const VIEWPORTS = [
  { name: "1280", width: 1280, height: 800 },
  { name: "360", width: 360, height: 740 },
];

// Without JavaScript a page is the server's HTML, the markup the JavaScript project hydrates and
// audits; the few controls that differ (a submit button where a script would act on change) are
// in the forms the no-js project still audits: the forms the server answers with their errors,
// and, in the harness check, the script-free copy axe runs on.
const SAME_HTML = "the same server-rendered HTML is audited with JavaScript";

const APP_ROUTES = [
  "/home",
  "/station",
  "/station/new",
  "/charger",
  "/charger/new",
  "/charger/add",
  "/activity",
  "/rate",
  "/rate/new",
  "/rate/reprice",
  "/rate/holidays",
  "/notification",
  "/user",
  "/payment",
  "/payment/payments/mercadoPago",
  "/payment/payments/pagos360",
  "/payment/reconciliation",
  "/payment/invoice",
  "/team",
  "/audit",
  "/roaming",
  "/fiscal",
  "/tag",
  "/tag/new",
  "/tag/import",
  "/group",
  "/group/new",
  "/reservation",
  "/reservation/new",
  "/404",
];

const AUTH_ROUTES = [
  "/auth/login",
  "/auth/register",
  "/auth/email-send",
  "/auth/confirm-password",
  "/auth/reset-password",
  "/auth/terms-conditions",
  "/auth/verify-email",
  "/auth/login-company",
  "/auth/verify-company",
  "/auth/invitation?token=an-invitation-that-does-not-exist",
  "/404",
  "/station", // anonymous: lands on the login screen with redirectTo
];

type Found = { url: string; viewport: string; id: string; impact: string | null | undefined; help: string; targets: string[] };

/**
 * axe runs as a script in the page, which a JavaScript-disabled page cannot do. In the no-js
 * project the page the browser really rendered (the server's HTML, as parsed, without any of its
 * scripts having run) is copied into a scratch page of a JavaScript-enabled context with the same
 * viewport, every <script> removed, so axe sees exactly what a no-JS visitor sees.
 */
class Auditor {
  private scratch?: BrowserContext;
  constructor(
    private readonly browser: Browser,
    private readonly javaScriptEnabled: boolean,
  ) {}

  async audit(page: Page, viewport: string): Promise<Found[]> {
    await page.waitForLoadState("load");
    const where = new URL(page.url());
    let target = page;
    if (!this.javaScriptEnabled) {
      const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "").replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, "");
      expect(html, "the no-JS page carries no script any more").not.toMatch(/<script/i);
      this.scratch ??= await this.browser.newContext({ javaScriptEnabled: true, locale: "es-AR" });
      target = await this.scratch.newPage();
      await target.setViewportSize(page.viewportSize()!);
      await target.route(where.href, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
      await target.goto(where.href);
      // No script may have run: hydration would change what is audited.
      expect(await target.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    }
    const results = await new AxeBuilder({ page: target }).withTags(TAGS).analyze();
    if (target !== page) await target.close();
    return results.violations.map((v) => ({
      url: where.pathname + where.search,
      viewport,
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
    }));
  }

  async routes(page: Page, routes: string[], viewports = VIEWPORTS): Promise<Found[]> {
    const found: Found[] = [];
    for (const vp of viewports) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      for (const route of routes) {
        const response = await page.goto(route);
        expect(response?.status(), route).toBeLessThan(500);
        found.push(...(await this.audit(page, vp.name)));
        if (this.javaScriptEnabled && vp.width === 1280) found.push(...(await sideways(page, vp.name)));
      }
    }
    return found;
  }

  async close() {
    await this.scratch?.close();
  }
}

/**
 * A desktop page never scrolls sideways: nothing may stick out past the window's right edge (a
 * header button that runs past the content did). Reported like a violation, with what sticks out.
 */
async function sideways(page: Page, viewport: string): Promise<Found[]> {
  const out = await page.evaluate(() => {
    const root = document.documentElement;
    const overflow = root.scrollWidth - root.clientWidth;
    if (overflow <= 0) return null;
    const describe = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}${e.classList.length ? `.${[...e.classList].slice(0, 2).join(".")}` : ""}`;
    const culprits = [...document.body.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5).slice(-5).map(describe);
    return { overflow, culprits };
  });
  if (!out) return [];
  const where = new URL(page.url());
  return [{ url: where.pathname + where.search, viewport, id: "horizontal-scroll", impact: "serious", help: `la página se desplaza ${out.overflow} px hacia el costado`, targets: out.culprits }];
}

function report(found: Found[]) {
  return found.map((f) => `${f.viewport}px ${f.url} [${f.impact}] ${f.id}: ${f.help}\n    ${f.targets.join("\n    ")}`).join("\n");
}

/** The first link on a list page that opens an edit screen (the demo data has some of each). */
async function firstEditHref(page: Page, list: string, prefix: string) {
  await page.goto(list);
  const href = await page.locator(`a[href^="${prefix}"]`).first().getAttribute("href");
  expect(href, `${list} lists something to edit`).toBeTruthy();
  return href!;
}

/** The edit screen of the demo's rate with time-of-use bands (Pico and Valle): the band editor with rows. */
async function bandedRateHref(page: Page) {
  await page.goto("/rate?q=Carga%20r%C3%A1pida%20DC");
  const href = await page.getByRole("link", { name: "Carga rápida DC", exact: true }).first().getAttribute("href");
  expect(href, "the demo has its rate with bands").toMatch(/^\/rate\/edit\//);
  return href!;
}

const axeTest = test.extend<{ auditor: Auditor }>({
  auditor: async ({ browser, javaScriptEnabled }, provide) => {
    const auditor = new Auditor(browser, javaScriptEnabled);
    await provide(auditor);
    await auditor.close();
  },
});

axeTest.describe("axe: WCAG 2.2 A/AA", () => {
  axeTest.describe.configure({ timeout: 240_000 });

  axeTest("every auth screen, anonymously", async ({ page, auditor, javaScriptEnabled }) => {
    axeTest.skip(!javaScriptEnabled, SAME_HTML);
    const found = await auditor.routes(page, AUTH_ROUTES);
    expect(found, report(found)).toEqual([]);
  });

  // Split by width and in two halves, so each test stays short on a busy 2-core machine.
  const half = Math.ceil(APP_ROUTES.length / 2);
  for (const vp of VIEWPORTS) {
    axeTest(`every app screen, as the demo operator, ${vp.name} px (first half)`, async ({ page, auditor, javaScriptEnabled }) => {
      axeTest.skip(!javaScriptEnabled, SAME_HTML);
      await login(page);
      await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 }); // the first login of a run is slow on a busy machine
      const found = await auditor.routes(page, APP_ROUTES.slice(0, half), [vp]);
      expect(found, report(found)).toEqual([]);
    });

    axeTest(`every app screen, as the demo operator, ${vp.name} px (second half, edit screens, a session)`, async ({ page, auditor, javaScriptEnabled }) => {
      axeTest.skip(!javaScriptEnabled, SAME_HTML);
      await login(page);
      await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 }); // the first login of a run is slow on a busy machine
      const edits = [
        await firstEditHref(page, "/station", "/station/edit/"),
        await firstEditHref(page, "/charger", "/charger/edit/"),
        await firstEditHref(page, "/rate", "/rate/edit/"),
        // The band editor with rows: the demo's rate with time-of-use bands.
        await bandedRateHref(page),
      ];
      await page.goto("/activity");
      const session = await page.getByTestId("session-row").first().getByRole("link").getAttribute("href");
      expect(session).toMatch(/session=/);
      // One voucher's page (the demo's payments have theirs), not its PDF or the sales book.
      await page.goto("/payment/invoice");
      const invoice = await page.locator('a[href^="/payment/invoice/"]:not([href*="export.csv"]):not([href$="/pdf"])').first().getAttribute("href");
      expect(invoice, "the demo has vouchers").toMatch(/^\/payment\/invoice\/[0-9a-f-]{36}$/);
      // A charger's maintenance screens: firmware and diagnostics, its OCPP messages.
      const charger = edits[1];
      const routes = [...APP_ROUTES.slice(half), ...edits, `${charger}/maintenance`, `${charger}/messages`, session!, invoice!, "/activity?status=COMPLETED&sort=-energyWh&page=2"];
      const found = await auditor.routes(page, routes, [vp]);
      expect(found, report(found)).toEqual([]);
    });
  }

  axeTest("the auth screens reached while signed in", async ({ page, auditor, javaScriptEnabled }) => {
    axeTest.skip(!javaScriptEnabled, SAME_HTML);
    await login(page);
    await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 }); // the first login of a run is slow on a busy machine
    const found = await auditor.routes(page, ["/auth/login", "/auth/terms-conditions", "/auth/register"]);
    expect(found, report(found)).toEqual([]);
  });

  axeTest("the phone menu, open", async ({ page, auditor, javaScriptEnabled }) => {
    // The open state lives in a checkbox's checked property, which the no-JS copy cannot carry;
    // the drawer's markup and CSS are the same in both projects.
    axeTest.skip(!javaScriptEnabled, "audited with JavaScript on");
    await page.setViewportSize({ width: 360, height: 740 });
    await login(page);
    await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 }); // the first login of a run is slow on a busy machine
    await page.locator("label.menu-button").click();
    await expect(page.getByRole("navigation", { name: "Menú principal" }).getByRole("link", { name: "Inicio" })).toBeVisible();
    const found = await auditor.audit(page, "360");
    expect(found, report(found)).toEqual([]);
  });

  // The driver's public pages (a connector offline and online, its form with errors, a
  // payment's status page, the short-code page) and the operator's printable QR sticker sheets.
  axeTest("the driver's pages at a charger's QR, and the QR sticker sheets", async ({ page, auditor, javaScriptEnabled }, testInfo) => {
    axeTest.skip(!javaScriptEnabled, SAME_HTML);
    const base = `http://127.0.0.1:${E2E_PORT}`;
    const tag = `A11Y-${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
    // A rate with time-of-use bands, so the page says the band in force now and the next change.
    const bands = (["WEEKDAY", "SATURDAY", "SUNDAY_HOLIDAY"] as const).map((days) => ({ name: "Pico", days, from: "18:00", to: "23:00", pricePerKwhCents: 42_000, pricePerMinuteCents: 0 }));
    const op = await qrOperator(base, { tag, prefix: "a11y-qr", rate: { sessionFeeCents: 50_000, pricePerKwhCents: 20_000, bands }, qr: { enabled: true } });
    await apiCall(base, op.token, "PUT", "/MercadoPago/BusinessUser", { publicKey: "TEST-a11y-public-key-0001", accessToken: `TEST-a11y-access-${tag}`, webhookSecret: EMULATOR_WEBHOOK_SECRET });
    const connector = `/cargar/${encodeURIComponent(op.identity)}/1`;
    const offline = await auditor.routes(page, ["/cargar", "/cargar?codigo=no-es-un-codigo", connector, "/cargar/pago/00000000-0000-4000-8000-000000000000?t=x"]);

    const charger = await startSimCharger({ endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`, identity: op.identity, password: op.ocppPassword });
    try {
      await expect(async () => {
        await page.goto(connector);
        await expect(page.getByTestId("connector-state")).toHaveText("Disponible", { timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      // A payment waiting at the provider: its status page, as the driver's link opens it.
      const created = await apiCall<{ paymentId: string; token: string }>(base, "", "POST", `/Driver/Charge/${encodeURIComponent(op.identity)}/1`, {
        amountCents: 200_000,
        email: "conductora@example.com",
        provider: "MERCADOPAGO",
        acceptTerms: true,
        requestKey: randomUUID().replace(/-/g, ""),
      });
      const online = await auditor.routes(page, [connector, `/cargar/pago/${created.paymentId}?t=${created.token}`]);

      // The form after a failed submit (no e-mail, terms not accepted).
      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto(connector);
      await page.getByRole("button", { name: "Pagar con Mercado Pago" }).click();
      await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
      const failed = await auditor.audit(page, "360");

      await login(page, op.email, op.password);
      await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 });
      const sheets = await auditor.routes(page, [`/charger/stickers/${op.chargerId}`, `/station/stickers/${op.stationId}`]);
      const found = [...offline, ...online, ...failed, ...sheets];
      expect(found, report(found)).toEqual([]);
    } finally {
      await charger.close();
    }
  });

  axeTest("forms showing their errors after a failed submit", async ({ page, auditor }) => {
    const found: Found[] = [];
    await page.goto("/auth/login");
    await page.getByLabel("Correo electrónico").fill("no-es-un-correo");
    await page.getByRole("button", { name: "Ingresar" }).click();
    await expect(page.getByTestId("email-error")).toBeVisible();
    found.push(...(await auditor.audit(page, "1280")));

    await login(page);
    await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 }); // the first login of a run is slow on a busy machine
    for (const [route, button] of [
      ["/station/new", "Crear estación"],
      ["/charger/new", "Crear cargador"],
      ["/rate/new", "Crear tarifa"],
      ["/rate/holidays", "Guardar feriados"],
    ] as const) {
      await page.goto(route);
      // «Feriados locales» with a row left blank: the error sits on the row (nothing is saved).
      // The row must be there before saving: a click that lands before hydration is a plain post, answered with the longer list.
      if (route === "/rate/holidays") {
        await page.getByRole("button", { name: "Agregar feriado" }).click();
        await expect(page.getByTestId("holiday-row")).toHaveCount(1);
      }
      await page.getByRole("button", { name: button }).click();
      await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
      found.push(...(await auditor.audit(page, "1280")));
    }
    expect(found, report(found)).toEqual([]);
  });
});

// The harness itself can fail: a page with a known violation is reported, in both projects.
axeTest("the audit reports a known violation", async ({ page, auditor }) => {
  await page.route("**/a11y-harness-check", (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: '<!doctype html><html lang="es-AR"><head><title>Prueba</title></head><body><main><p style="color:#bbb;background:#fff">Texto con poco contraste</p><img src="/favicon.svg"></main></body></html>',
    }),
  );
  await page.goto("/a11y-harness-check");
  const found = await auditor.audit(page, "1280");
  expect(found.map((f) => f.id).sort()).toEqual(["color-contrast", "image-alt"]);
});
