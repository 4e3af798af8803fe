// The Express app of server.ts (server/http.ts) on a real socket, without a React Router build: the
// headers every response carries (production and development), and the guards in front of the
// embedded API — cross-site refusal, body cap, per-IP API limit.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get as httpGet, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../../server/env";
import { createHttpApp, encodeWhole, listPublicFiles } from "../../../server/http";
import { createLogger } from "../../../server/logger";
import { MemoryRateLimitStore, setRateLimitStore } from "#infra/rate-limit";

/** Enough of a build for the app to be created; these tests never reach React Router. */
const build = { routes: {}, entry: { module: {} }, assets: { routes: {}, url: "/x.js", version: "1", entry: { module: "/x.js", imports: [] } }, future: {}, publicPath: "/", assetsBuildDirectory: "/tmp", isSpaMode: false, mode: "production" } as unknown as ServerBuild;

async function start(envOverrides: Record<string, string>, clientDir = "/nonexistent", options: { build?: ServerBuild; logger?: ReturnType<typeof createLogger> } = {}) {
  const env = parseEnv({ FIREBASE_PROJECT_ID: "demo-x", PORT: "3999", ...envOverrides });
  const api = {
    fetch: async (req: Request) =>
      Response.json({ path: new URL(req.url).pathname, bytes: req.body ? (await req.arrayBuffer()).byteLength : 0 }),
  };
  const ocpi = {
    fetch: async (req: Request) =>
      Response.json({ path: new URL(req.url).pathname, bytes: req.body ? (await req.arrayBuffer()).byteLength : 0 }),
  };
  const app = createHttpApp({
    env,
    logger: options.logger ?? createLogger("silent"),
    api,
    ocpi,
    health: async () => ({ database: "ok", identity: "down" }),
    dashboard: { build: options.build ?? build, clientDir },
    verifyIdToken: async () => ({ uid: "x" }),
  });
  const server: Server = await new Promise((r) => {
    const s = app.listen(0, "127.0.0.1", () => r(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const PROD = { NODE_ENV: "production", SESSION_SECRET: "47f6b6c79e8d6f63958b73b18afa3052a5e3e5df3e5383cf25c475dd639891ee", ENCRYPTION_KEY: "49b7ef468a53217b4616715d8b5200b618915d8381462d85b5265909b730dde0", FIREBASE_API_KEY: "k", HOST: "127.0.0.1" };

describe("security headers", () => {
  let prod: Awaited<ReturnType<typeof start>>;
  let dev: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    prod = await start(PROD);
    dev = await start({ NODE_ENV: "development" });
  });
  afterAll(async () => {
    await prod.close();
    await dev.close();
  });

  it("production: HSTS, enforced nonce CSP, nosniff, frame-ancestors none, referrer and permissions policies", async () => {
    for (const path of ["/healthz", "/api/openapi.json"]) {
      const res = await fetch(`${prod.url}${path}`);
      const h = res.headers;
      expect(h.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
      const csp = h.get("content-security-policy")!;
      expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("upgrade-insecure-requests");
      expect(h.get("content-security-policy-report-only")).toBeNull();
      expect(h.get("x-content-type-options")).toBe("nosniff");
      expect(h.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(h.get("permissions-policy")).toContain("camera=()");
      expect(h.get("x-powered-by")).toBeNull();
    }
  });

  it("development (plain http): no HSTS, the rest the same", async () => {
    const res = await fetch(`${dev.url}/healthz`);
    expect(res.headers.get("strict-transport-security")).toBeNull();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("/healthz is 200 while only the identity provider is down (reported, not fatal)", async () => {
    const res = await fetch(`${prod.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "ok", identity: "down" });
  });
});

describe("guards in front of the API", () => {
  let app: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    setRateLimitStore(new MemoryRateLimitStore());
    app = await start({ ...PROD, API_REQUESTS_PER_IP_MINUTE: "5" });
  });
  afterAll(() => app.close());

  it("a cross-site write to the API is refused before it runs", async () => {
    const res = await fetch(`${app.url}/api/Business/Fees`, { method: "POST", headers: { Origin: "https://evil.example", "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(403);
    expect((await res.json()).title).toContain("otro sitio");
  });

  it("per client address: past the limit, 429 with Retry-After in Spanish; the contract stays public", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${app.url}/api/Business/Fees`)).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    const refused = await fetch(`${app.url}/api/Business/Fees`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).title).toMatch(/^Demasiados intentos/);
    expect((await fetch(`${app.url}/api/openapi.json`)).status).toBe(200);
  });
});

describe("the OCPI interface at /ocpi", () => {
  let app: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    setRateLimitStore(new MemoryRateLimitStore());
    app = await start({ ...PROD, OCPI_REQUESTS_PER_IP_MINUTE: "3" });
  });
  afterAll(() => app.close());

  it("a partner's server (no Origin, no Sec-Fetch-Site) reaches it with its body; a browser's cross-site write does not; its own per-IP limit answers an OCPI envelope", async () => {
    const body = JSON.stringify({ token: "x".repeat(100) });
    const res = await fetch(`${app.url}/ocpi/2.2.1/credentials`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: "/ocpi/2.2.1/credentials", bytes: body.length });
    const crossSite = await fetch(`${app.url}/ocpi/2.2.1/credentials`, { method: "POST", headers: { Origin: "https://evil.example", "content-type": "application/json" }, body });
    expect(crossSite.status).toBe(403);
    const tooLarge = await fetch(`${app.url}/ocpi/2.2.1/credentials`, { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(1024 * 1024 + 1) });
    expect(tooLarge.status).toBe(413);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${app.url}/ocpi/versions`)).status);
    expect(statuses).toContain(429);
    const refused = await fetch(`${app.url}/ocpi/versions`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ status_code: 2000 });
  });
});

describe("public files", () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-client-"));
    mkdirSync(path.join(dir, "images"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "robots.txt"), "User-agent: *\n");
    writeFileSync(path.join(dir, "images", "blank.png"), "png");
    writeFileSync(path.join(dir, "assets", "root-abc.css"), "body{}");
    app = await start(PROD, dir);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the files outside assets/ by URL path, once, when the server starts", () => {
    expect([...listPublicFiles(dir)].sort()).toEqual(["/images/blank.png", "/robots.txt"]);
    expect(listPublicFiles(path.join(dir, "missing")).size).toBe(0);
  });

  it("serves them from the root with a one-hour cache", async () => {
    const robots = await fetch(`${app.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(await robots.text()).toBe("User-agent: *\n");
    expect(robots.headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await fetch(`${app.url}/images/blank.png`)).status).toBe(200);
  });
});

describe("whole pages, compressed in one call", () => {
  const page = Buffer.from("<!DOCTYPE html><html><body>" + "<p>Estación Palermo, cargador 1</p>".repeat(200) + "</body></html>");
  let url: string;
  let server: Server;
  beforeAll(async () => {
    const app = express();
    app.get("/page", (req, res) => res.type("html").end(encodeWhole(req, res, page)));
    app.get("/small", (req, res) => res.type("html").end(encodeWhole(req, res, Buffer.from("<p>hola</p>"))));
    server = await new Promise<Server>((r) => {
      const s = app.listen(0, "127.0.0.1", () => r(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** The bytes as sent (node:http does not decode them). */
  const raw = (path: string, acceptEncoding?: string) =>
    new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      httpGet(`${url}${path}`, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      }).on("error", reject);
    });

  it("brotli when the browser accepts it (listed after gzip, as Chrome does), else gzip, else as is; with its length", async () => {
    for (const [accept, encoding, decode] of [
      ["gzip, deflate, br, zstd", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
      [undefined, undefined, (b: Buffer) => b],
      ["identity", undefined, (b: Buffer) => b],
    ] as const) {
      const { headers, body } = await raw("/page", accept);
      expect(headers["content-encoding"], accept).toBe(encoding);
      expect(headers.vary).toContain("Accept-Encoding");
      expect(Number(headers["content-length"])).toBe(body.length);
      expect(decode(body).equals(page), accept).toBe(true);
      if (encoding) expect(body.length).toBeLessThan(page.length / 5);
    }
  });

  it("a body under 1 KB goes as is", async () => {
    const { headers, body } = await raw("/small", "gzip, deflate, br");
    expect(headers["content-encoding"]).toBeUndefined();
    expect(body.toString()).toBe("<p>hola</p>");
  });
});

describe("a client that goes away in the middle of a stream", () => {
  // A build with one resource route: the live events' stream (text/event-stream), which never ends by itself.
  const streaming = {
    ...build,
    ssr: true,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
    entry: { module: { createRequestContext: (context: unknown) => context } },
    routes: {
      root: { id: "root", path: "", module: { default: () => null } },
      "routes/live": {
        id: "routes/live",
        parentId: "root",
        path: "live",
        module: {
          loader: () => {
            let timer: NodeJS.Timeout;
            const body = new ReadableStream({
              start(controller) {
                controller.enqueue(new TextEncoder().encode("event: change\ndata: {}\n\n"));
                timer = setInterval(() => controller.enqueue(new TextEncoder().encode(": ping\n\n")), 20);
              },
              cancel: () => clearInterval(timer),
            });
            return new Response(body, { headers: { "Content-Type": "text/event-stream; charset=utf-8" } });
          },
        },
      },
    },
  } as unknown as ServerBuild;
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger("debug", { write: (line: string) => void lines.push(JSON.parse(line)) });
  let app: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    app = await start(PROD, "/nonexistent", { build: streaming, logger });
  });
  afterAll(() => app.close());

  it("is logged at debug level, not as a server error", async () => {
    await new Promise<void>((resolve, reject) => {
      const req = httpGet(`${app.url}/live`, (res) => {
        expect(res.headers["content-type"]).toContain("text/event-stream");
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
    });
    // The server notices the closed socket on its next write.
    await new Promise((r) => setTimeout(r, 300));
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.some((l) => l.level === 20 && /cliente/.test(l.msg))).toBe(true);
  });
});
