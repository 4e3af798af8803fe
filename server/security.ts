// Request guards of the HTTP server (issue 10): cross-site requests that change state are
// refused, and request bodies are capped before anything parses them.
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";

/** Methods that never change state; everything else must come from this site. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const MAX_BODY_BYTES = 1024 * 1024; // JSON, urlencoded and multipart: 1 MB

export const messages = {
  crossSite: "Solicitud rechazada: se envió desde otro sitio. Volvé a la página y probá de nuevo.",
  tooLarge: "El contenido enviado es demasiado grande (máximo 1 MB).",
} as const;

const isApi = (req: ExpressRequest) => req.path === "/api" || req.path.startsWith("/api/");

/**
 * Answers a refusal in Spanish: problem+json for the API and single-fetch data requests, a
 * small HTML page for a document (a form posted without JavaScript lands on it).
 */
export function refuse(req: ExpressRequest, res: ExpressResponse, status: number, title: string, type: string) {
  if (res.headersSent) return;
  res.status(status).set("Cache-Control", "no-store");
  if (isApi(req) || req.path.endsWith(".data") || req.accepts(["html", "json"]) === "json") {
    res.type("application/problem+json").send(JSON.stringify({ type: `urn:enchufa:problem:${type}`, title, status }));
    return;
  }
  res
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="es-AR"><head><meta charset="utf-8"><title>${status}</title></head>` +
        `<body><h1>${escapeHtml(title)}</h1><p><a href="/">Volver al inicio</a></p></body></html>`,
    );
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface CrossSiteOptions {
  /** Origins besides the request's own host that may post (PUBLIC_URL). */
  allowedOrigins?: string[];
  /** Behind a proxy: the forwarded host is the public one. */
  trustProxy?: boolean;
}

/**
 * CSRF defence on top of SameSite=Lax cookies: a state-changing request (POST, PUT, PATCH,
 * DELETE…) to a page or to the API is refused when the browser says it comes from elsewhere:
 * `Sec-Fetch-Site` other than same-origin/none, or an `Origin` whose host is not this
 * server's (nor PUBLIC_URL's). Clients that send neither header (servers, curl, chargers)
 * carry no ambient credentials and are let through.
 */
export function crossSiteGuard(opts: CrossSiteOptions = {}) {
  const allowed = new Set((opts.allowedOrigins ?? []).map((o) => new URL(o).host.toLowerCase()));
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (isCrossSite(req, allowed, opts.trustProxy ?? false)) {
      res.locals.refusedReason = "cross-site";
      return refuse(req, res, 403, messages.crossSite, "cross-site");
    }
    next();
  };
}

function isCrossSite(req: ExpressRequest, allowed: Set<string>, trustProxy: boolean): boolean {
  const site = req.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = req.get("origin");
  if (origin === undefined) return false;
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return true; // "null" (sandboxed frames, privacy redirects) or garbage
  }
  if (!host) return true;
  if (allowed.has(host)) return false;
  const own = [req.get("host")];
  if (trustProxy) own.push(...(req.get("x-forwarded-host")?.split(",").map((h) => h.trim()) ?? []));
  return !own.some((h) => h && h.toLowerCase() === host);
}

/**
 * Caps every request body at `max` bytes before it is parsed. A declared Content-Length over
 * the cap is answered 413 at once; a chunked body is counted as it arrives. For the pages the
 * body is buffered here (at most `max`) and handed to React Router in `res.locals.body`; the API
 * (`/api`) reads its own stream under Hono's limit, so only the declared length is checked.
 */
export function bodyLimit(max = MAX_BODY_BYTES) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const declared = req.headers["content-length"];
    if (declared !== undefined && !(Number(declared) <= max)) return tooLarge(req, res);
    if (isApi(req)) return next();
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      total += chunk.length;
      if (total > max) {
        settled = true;
        chunks.length = 0;
        tooLarge(req, res);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (settled) return;
      settled = true;
      res.locals.body = Buffer.concat(chunks);
      next();
    });
    req.on("error", (err) => {
      if (settled) return;
      settled = true;
      next(err);
    });
  };
}

function tooLarge(req: ExpressRequest, res: ExpressResponse) {
  // Stop reading: the connection closes once the answer is out.
  res.set("Connection", "close");
  res.on("finish", () => req.destroy());
  refuse(req, res, 413, messages.tooLarge, "payload-too-large");
}

/** Whether the method carries no body and changes nothing. */
export const isSafeMethod = (method: string) => SAFE_METHODS.has(method.toUpperCase());
