// CSRF guard and body limits of the HTTP server (server/security.ts), on a real socket.
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getToast } from "remix-toast";
import { bodyLimit, crossSiteGuard, messages } from "../../../server/security";

let server: http.Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.use(crossSiteGuard({ allowedOrigins: ["https://enchufa.example.com"] }));
  app.use(bodyLimit(1024 * 1024));
  app.all("*", (req, res) => {
    const body = res.locals.body as Buffer | undefined;
    res.json({ method: req.method, path: req.path, bytes: body?.length ?? null });
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((r) => server.close(r)));

interface Sent {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | Buffer[]): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (Array.isArray(body)) {
      // Chunked: no Content-Length.
      const write = (i: number) => {
        if (i >= body.length) return req.end();
        if (req.destroyed) return;
        req.write(body[i], () => write(i + 1));
      };
      write(0);
    } else req.end(body);
  });
}

const self = () => `http://127.0.0.1:${port}`;

/** The flash toast an answer set, read back as the next request would. */
async function toastOf(res: Sent) {
  const cookies = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
  const flash = cookies.find((c) => c.startsWith("toast-session="));
  if (!flash) return undefined;
  return (await getToast(new Request("http://x/", { headers: { Cookie: flash.split(";")[0] } }))).toast;
}
const form = Buffer.from("email=a%40b.com&password=x");
const urlencoded = { "content-type": "application/x-www-form-urlencoded" };

describe("cross-site requests (CSRF)", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE"])("%s from another origin is refused with 403 in Spanish", async (method) => {
    for (const path of ["/auth/login", "/station/new", "/api/Business/Fees"]) {
      const res = await send(method, path, { ...urlencoded, origin: "https://evil.example", "content-length": String(form.length) }, form);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toContain("otro sitio");
    }
  });

  it("the API and data requests get problem+json, documents an HTML page", async () => {
    const api = await send("POST", "/api/Business/Fees", { origin: "https://evil.example", "content-type": "application/json" }, Buffer.from("{}"));
    expect(api.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(api.body)).toMatchObject({ status: 403, title: messages.crossSite });
    const page = await send("POST", "/auth/login", { ...urlencoded, origin: "https://evil.example", accept: "text/html" }, form);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toContain("<html lang=\"es-AR\">");
  });

  it("Sec-Fetch-Site cross-site or same-site is refused even without Origin", async () => {
    for (const site of ["cross-site", "same-site"]) {
      const res = await send("POST", "/auth/login", { ...urlencoded, "sec-fetch-site": site }, form);
      expect(res.status, site).toBe(403);
    }
  });

  it("Origin: null (sandboxed frame) and garbage origins are refused", async () => {
    expect((await send("POST", "/auth/login", { ...urlencoded, origin: "null" }, form)).status).toBe(403);
    expect((await send("POST", "/auth/login", { ...urlencoded, origin: "::::" }, form)).status).toBe(403);
  });

  it("a look-alike host is refused (host compared exactly, port included)", async () => {
    expect((await send("POST", "/auth/login", { ...urlencoded, origin: `http://127.0.0.1.evil.example:${port}` }, form)).status).toBe(403);
    expect((await send("POST", "/auth/login", { ...urlencoded, origin: `http://127.0.0.1:${port + 1}` }, form)).status).toBe(403);
  });

  it("same origin, PUBLIC_URL, Sec-Fetch-Site same-origin/none and header-less clients pass", async () => {
    const ok: Record<string, string>[] = [
      { origin: self() },
      { origin: self(), "sec-fetch-site": "same-origin" },
      { origin: "https://enchufa.example.com" },
      { "sec-fetch-site": "none" },
      {},
    ];
    for (const headers of ok) {
      const res = await send("POST", "/auth/login", { ...urlencoded, ...headers }, form);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(JSON.parse(res.body).bytes).toBe(form.length);
    }
  });

  it("GET, HEAD and OPTIONS are never refused (links from other sites keep working)", async () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      const res = await send(method, "/home", { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
      expect(res.status, method).toBe(200);
    }
  });
});

describe("body limits", () => {
  const big = Buffer.alloc(1024 * 1024 + 1, "a");

  it("the API: a declared Content-Length over 1 MB is refused with 413 before reading", async () => {
    const res = await send("POST", "/api/Business/Fees", { "content-type": "application/json", "content-length": String(big.length) }, big).catch((err: Error) => ({ status: -1, body: err.message, headers: {} }));
    expect(res.status).toBe(413);
    expect(res.body).toContain("demasiado grande");
  });

  it("a page post over 1 MB goes back to the page with an error toast, not an error page", async () => {
    for (const [path, type, message] of [
      ["/auth/register", "application/x-www-form-urlencoded", messages.tooLarge],
      ["/user", "multipart/form-data; boundary=x", "La imagen excede el tamaño máximo permitido de 800KB."],
    ]) {
      const res = await send("POST", path, { "content-type": type, "content-length": String(big.length), accept: "text/html" }, big);
      expect(res.status, path).toBe(303);
      expect(res.headers.location, path).toBe(path);
      expect(await toastOf(res), path).toEqual({ type: "error", message });
    }
  });

  it("with JavaScript (a single-fetch .data post) the same, as React Router's redirect", async () => {
    const res = await send("POST", "/station/edit/abc.data?index", { "content-type": "multipart/form-data; boundary=x", "content-length": String(big.length) }, big);
    expect(res.status).toBe(204);
    expect(res.headers["x-remix-redirect"]).toBe("/station/edit/abc");
    expect(res.headers["x-remix-status"]).toBe("303");
    expect(await toastOf(res)).toEqual({ type: "error", message: "La imagen excede el tamaño máximo permitido de 800KB." });
  });

  it("a chunked page body is counted as it arrives: past 1 MB, back to the page with the toast", async () => {
    const chunks = Array.from({ length: 20 }, () => Buffer.alloc(64 * 1024, "b")); // 1.25 MB
    const res = await send("POST", "/user", { "content-type": "multipart/form-data; boundary=x", "transfer-encoding": "chunked", accept: "text/html" }, chunks);
    expect(res.status).toBe(303);
    expect(await toastOf(res)).toEqual({ type: "error", message: "La imagen excede el tamaño máximo permitido de 800KB." });
  });

  it("a client asking for JSON gets the 413 problem; past 16 MB the connection is cut with a 413", async () => {
    const json = await send("POST", "/user", { "content-type": "application/json", "content-length": String(big.length), accept: "application/json" }, big);
    expect(json.status).toBe(413);
    expect(json.body).toContain("demasiado grande");
    const huge = Buffer.alloc(16 * 1024 * 1024 + 1, "h");
    const res = await send("POST", "/user", { "content-type": "multipart/form-data; boundary=x", "content-length": String(huge.length), accept: "text/html" }, huge).catch((err: Error) => ({ status: -1, body: err.message, headers: {} }));
    expect([413, -1]).toContain(res.status);
  });

  it("a chunked page body under the cap is buffered whole and handed on", async () => {
    const chunks = Array.from({ length: 4 }, () => Buffer.alloc(64 * 1024, "c"));
    const res = await send("POST", "/user", { "content-type": "application/octet-stream", "transfer-encoding": "chunked" }, chunks);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).bytes).toBe(4 * 64 * 1024);
  });

  it("exactly 1 MB passes", async () => {
    const body = Buffer.alloc(1024 * 1024, "d");
    const res = await send("POST", "/user", { "content-type": "application/octet-stream", "content-length": String(body.length) }, body);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).bytes).toBe(body.length);
  });

  it("a bad Content-Length is refused, not a 500", async () => {
    const res = await new Promise<number>((resolve) => {
      const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/user", headers: { "content-length": "abc" } }, (r) => resolve(r.statusCode ?? 0));
      req.on("error", () => resolve(400)); // Node's parser refuses it first
      req.end();
    });
    expect(res).toBeGreaterThanOrEqual(400);
    expect(res).toBeLessThan(500);
  });
});
