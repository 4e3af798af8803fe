import { test, expect } from "./fixtures";

test.describe("server", () => {
  test("/healthz reports the database and the identity provider", async ({ request }) => {
    const res = await request.get("/healthz");
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "ok", identity: "ok" });
  });

  test("pages carry an enforced nonce CSP and the security headers", async ({ request }) => {
    const res = await request.get("/auth/login");
    const headers = res.headers();
    const csp = headers["content-security-policy"];
    expect(csp).toBeTruthy();
    const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src "))!;
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy-report-only"]).toBeUndefined();
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"]).toContain("camera=()");
    // The nonce in the header is the one on the page's scripts, and it changes per response.
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc)![1];
    expect(await res.text()).toContain(`nonce="${nonce}"`);
    const again = (await request.get("/auth/login")).headers()["content-security-policy"];
    expect(again).not.toContain(nonce);
  });

  test("hashed assets are cached for a year", async ({ request }) => {
    const html = await (await request.get("/auth/login")).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)![0];
    const res = await request.get(asset);
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toContain("max-age=31536000");
    expect(res.headers()["cache-control"]).toContain("immutable");
  });

  test("the page runs under the CSP without violations", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "only scripts can violate a script CSP");
    const violations: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error" && /Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });
    await page.goto("/auth/login");
    await page.waitForLoadState("networkidle");
    // Hydrated: client-side navigation works.
    await page.locator('a[href="/auth/register"]').first().click();
    await expect(page).toHaveURL(/\/auth\/register/);
    expect(violations).toEqual([]);
  });
});
