// Request guards of the HTTP server: cross-site requests that change state are
// refused, and request bodies are capped before anything parses them.
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { redirectWithError } from "remix-toast";
import { IMAGE_MESSAGES } from "../app/lib/profile";

/** Methods that never change state; everything else must come from this site. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const MAX_BODY_BYTES = 1024 * 1024; // JSON, urlencoded and multipart: 1 MB
/**
 * A page body over the cap is still read (and dropped) up to this size before answering: a browser
 * whose upload is cut short by a closed connection shows a network error instead of the answer.
 */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

export const messages = {
  crossSite: "Solicitud rechazada: se envió desde otro sitio. Volvé a la página y probá de nuevo.",
  tooLarge: "El contenido enviado es demasiado grande (máximo 1 MB).",
} as const;

const isApi = (req: ExpressRequest) => req.path === "/api" || req.path.startsWith("/api/");
/** The OCPI interface (ocpi/app.ts): read and capped by its own Hono app, like the API. */
const isOcpi = (req: ExpressRequest) => req.path === "/ocpi" || req.path.startsWith("/ocpi/");

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
 * Caps every request body at `max` bytes before it is parsed. For the API (`/api`, which reads
 * its own stream under Hono's limit) a declared Content-Length over the cap is answered 413 at
 * once. A page's body is counted as it arrives and buffered here (at most `max`), then handed to
 * React Router in `res.locals.body`; one over the cap is read to its end and dropped, and the
 * browser is sent back to the page with an error toast (pageTooLarge) — never an error page.
 */
export function bodyLimit(max = MAX_BODY_BYTES) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const declared = req.headers["content-length"];
    const declaredTooLarge = declared !== undefined && !(Number(declared) <= max);
    // A charger's diagnostics upload is capped by its own route (DIAGNOSTICS_MAX_BYTES).
    if (req.path.startsWith("/api/ChargerUpload/")) return next();
    if (isApi(req) || isOcpi(req)) return declaredTooLarge ? tooLarge(req, res) : next();
    if (declaredTooLarge && !(Number(declared) <= DRAIN_MAX_BYTES)) return tooLarge(req, res);
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    let overflow = declaredTooLarge;
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      total += chunk.length;
      if (total > DRAIN_MAX_BYTES) {
        settled = true;
        chunks.length = 0;
        tooLarge(req, res);
        return;
      }
      if (total > max) overflow = true;
      if (overflow) chunks.length = 0;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (settled) return;
      settled = true;
      if (overflow) {
        void pageTooLarge(req, res).catch(next);
        return;
      }
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

/** The page a request was posted to, as the browser shows it (single-fetch `.data` and its parameters removed). */
export function pagePath(req: ExpressRequest): string {
  const url = new URL(req.originalUrl, "http://x");
  url.searchParams.delete("_routes");
  url.searchParams.delete("index");
  const pathname = url.pathname.replace(/\.data$/, "").replace(/\/_$/, "/") || "/";
  const search = url.searchParams.toString();
  return pathname + (search ? `?${search}` : "");
}

/**
 * A page post over the cap, read to its end: back to the page with an error toast (the spec's
 * image size message for an upload), as React Router understands it — a redirect for a document,
 * the single-fetch redirect (204 + X-Remix-Redirect) for a `.data` request. Clients that want
 * JSON get the 413 problem.
 */
async function pageTooLarge(req: ExpressRequest, res: ExpressResponse) {
  const dataRequest = req.path.endsWith(".data");
  if (!dataRequest && req.accepts(["html", "json"]) === "json") return refuse(req, res, 413, messages.tooLarge, "payload-too-large");
  const upload = /^multipart\/form-data/i.test(req.get("content-type") ?? "");
  const target = pagePath(req);
  const flash = await redirectWithError(target, upload ? IMAGE_MESSAGES.size : messages.tooLarge, { status: 303 });
  res.set("Cache-Control", "no-store");
  for (const cookie of flash.headers.getSetCookie()) res.append("Set-Cookie", cookie);
  if (dataRequest) {
    res.set({ "X-Remix-Redirect": target, "X-Remix-Status": "303" }).status(204).end();
    return;
  }
  res.redirect(303, target);
}

function tooLarge(req: ExpressRequest, res: ExpressResponse) {
  // Stop reading: the connection closes once the answer is out.
  res.set("Connection", "close");
  res.on("finish", () => req.destroy());
  refuse(req, res, 413, messages.tooLarge, "payload-too-large");
}

/** Whether the method carries no body and changes nothing. */
export const isSafeMethod = (method: string) => SAFE_METHODS.has(method.toUpperCase());
