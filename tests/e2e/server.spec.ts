import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
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

  test("a page is sent whole, with its length (not streamed in pieces)", async ({ request }) => {
    const res = await request.get("/auth/login", { headers: { "accept-encoding": "identity" } });
    expect(res.status()).toBe(200);
    expect(res.headers()["transfer-encoding"]).toBeUndefined();
    const body = await res.body();
    expect(Number(res.headers()["content-length"])).toBe(body.length);
    // The loader data stream is complete in this one body (React Router closes it last; React may still
    // append the boundaries it resolved after the shell).
    expect(body.toString("utf8")).toContain("window.__reactRouterContext.streamController.close();</script>");
  });

  test("hashed assets are cached for a year, and sent compressed at build time", async ({ request }) => {
    const html = await (await request.get("/auth/login")).text();
    const asset = /\/assets\/framework-[^"]+\.js/.exec(html)![0];
    const plain = await request.get(asset, { headers: { "accept-encoding": "identity" } });
    expect(plain.status()).toBe(200);
    expect(plain.headers()["cache-control"]).toContain("max-age=31536000");
    expect(plain.headers()["cache-control"]).toContain("immutable");
    expect(plain.headers()["content-encoding"]).toBeUndefined();
    const source = await plain.body();
    // The files the build compressed: same bytes once decoded, the right type, cached as long.
    for (const [accept, encoding, decode] of [
      ["gzip, deflate, br", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
    ] as const) {
      // node:http, which hands over the bytes as sent (fetch would decode them).
      const { headers, raw } = await new Promise<{ headers: IncomingHttpHeaders; raw: Buffer }>((resolve, reject) => {
        httpGet(new URL(asset, plain.url()), { headers: { "accept-encoding": accept } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ headers: res.headers, raw: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
      expect(headers["content-encoding"], accept).toBe(encoding);
      expect(headers["content-type"]).toMatch(/javascript/);
      expect(headers.vary).toMatch(/accept-encoding/i);
      expect(headers["cache-control"]).toContain("immutable");
      expect(raw.length).toBeLessThan(source.length / 2);
      expect(decode(raw).equals(source)).toBe(true);
    }
  });

  test("the modules a page hydrates with are preloaded at low priority first, and each is fetched once", async ({ page, request, javaScriptEnabled }) => {
    const html = await (await request.get("/auth/login")).text();
    const links = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"([^>]*)>/g)].map((m) => ({ href: m[1], low: m[2].includes('fetchpriority="low"') }));
    const framework = links.filter((l) => !l.low);
    expect(framework.length).toBeGreaterThan(5);
    // Every preload React Router writes was already started, at low priority, by an earlier link.
    for (const { href } of framework) {
      const low = links.findIndex((l) => l.low && l.href === href);
      expect(low, href).toBeGreaterThanOrEqual(0);
      expect(low).toBeLessThan(links.findIndex((l) => !l.low && l.href === href));
    }
    test.skip(!javaScriptEnabled, "the fetch count needs the browser's module loader");
    const fetched = new Map<string, number>();
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith(".js")) fetched.set(url.pathname, (fetched.get(url.pathname) ?? 0) + 1);
    });
    await page.goto("/auth/login");
    await page.waitForLoadState("networkidle");
    for (const { href } of framework) expect(fetched.get(href), href).toBe(1);
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

  test("a form posted from another site is refused (403, Spanish); the same form from here works", async ({ request, baseURL }) => {
    const form = { email: "demo@enchufa.local", password: "incorrecta-1" };
    const evil = await request.post("/auth/login", { form, headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }, maxRedirects: 0 });
    expect(evil.status()).toBe(403);
    expect(await evil.text()).toContain("otro sitio");
    const api = await request.post("/api/Business/Fees", { data: {}, headers: { Origin: "https://evil.example" } });
    expect(api.status()).toBe(403);
    expect(api.headers()["content-type"]).toContain("application/problem+json");
    const own = await request.post("/auth/login", { form, headers: { Origin: baseURL!, "Sec-Fetch-Site": "same-origin" }, maxRedirects: 0 });
    expect(own.status()).toBe(401);
  });

  test("bodies over 1 MB: pages go back with a Spanish toast, the API answers 413; never a 500", async ({ request }) => {
    const big = "x".repeat(1024 * 1024 + 10);
    const page = await request.post("/auth/register", { data: `email=${big}`, headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" }, maxRedirects: 0 });
    expect(page.status()).toBe(303);
    expect(page.headers()["location"]).toBe("/auth/register");
    const multipart = await request.post("/user", {
      multipart: { photo: { name: "a.png", mimeType: "image/png", buffer: Buffer.alloc(1024 * 1024 + 10) } },
      headers: { Accept: "text/html" },
      maxRedirects: 0,
    });
    expect(multipart.status()).toBe(303);
    expect(multipart.headers()["set-cookie"]).toContain("toast-session=");
    const api = await request.post("/api/Business/Fees", { data: { name: big }, headers: { Authorization: "Bearer x" } });
    expect(api.status()).toBe(413);
    expect((await api.json()).title).toContain("demasiado grande");
  });

  test("an unsigned or forged token is refused by the API", async ({ request }) => {
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: "https://securetoken.google.com/other-project", aud: "other-project", sub: "x", user_id: "x", iat: now, exp: now + 3600, email_verified: true };
    for (const token of ["garbage", `${enc({ alg: "RS256", kid: "x" })}.${enc(claims)}.c2lnbmF0dXJl`]) {
      const res = await request.get("/api/Business/BusinessUser", { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status(), token.slice(0, 10)).toBe(401);
    }
  });
});
