// Idempotent creates: a POST carrying `Idempotency-Key` (the dashboard sends the
// form's one-time token) is done once per company and key. A second request with the same key —
// a double click, a resubmitted form, a retry after a timeout — gets the first answer again
// (`Idempotent-Replayed: true`) instead of creating a second record; while the first one is
// still running, the second waits for it. Failed attempts (4xx/5xx) are forgotten, so the
// corrected form can be sent with the same token. Keys are kept for a day; one-time secrets in
// the answer (a new charger's password) are not: a replay answers without them.
import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { idempotencyKeys } from "../db/schema";
import type { ApiServices, AppEnv } from "./env";
import { ApiError } from "./problem";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const KEY_RE = /^[A-Za-z0-9_-]{8,128}$/;
const KEEP_MS = 24 * 60 * 60 * 1000;
const WAIT_MS = 10_000;

export function idempotent(services: ApiServices): MiddlewareHandler<AppEnv> {
  const { db } = services;
  let claims = 0;
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    const business = c.get("business");
    if (c.req.method !== "POST" || !key || !business || c.get("idempotencyChecked")) return next();
    c.set("idempotencyChecked", true);
    if (!KEY_RE.test(key)) throw new ApiError(400, "validation", "La clave de idempotencia no es válida (8 a 128 letras, números, - o _).");
    const path = new URL(c.req.url).pathname;
    const where = and(eq(idempotencyKeys.businessId, business.id), eq(idempotencyKeys.key, key));
    // The body's fingerprint: a key sent again with another body is a client's bug (or a reused
    // form token with other data), refused rather than answered with the first request's result.
    const fingerprint = createHash("sha256").update(await c.req.text()).digest("hex");

    const claimed = await db
      .insert(idempotencyKeys)
      .values({ businessId: business.id, key, method: c.req.method, path, fingerprint })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });

    if (claimed.length === 0) {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const [row] = await db.select().from(idempotencyKeys).where(where).limit(1);
        if (!row) return next(); // the first attempt failed and let go of the key: this one is new
        if (row.path !== path || row.method !== c.req.method) {
          throw new ApiError(422, "validation", "Esa clave de idempotencia ya se usó para otra operación.");
        }
        if (row.fingerprint && row.fingerprint !== fingerprint) {
          throw new ApiError(422, "validation", "Esa clave de idempotencia ya se usó con otros datos. Usá una clave nueva para esta solicitud.");
        }
        if (row.status != null) {
          return new Response(row.body, {
            status: row.status,
            headers: { "Content-Type": row.contentType ?? "application/json", "Idempotent-Replayed": "true", "Cache-Control": "no-store" },
          });
        }
        if (Date.now() > deadline) throw new ApiError(409, "conflict", "Esta operación todavía se está procesando. Esperá un momento y actualizá la página.");
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    if (++claims % 100 === 0) await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(Date.now() - KEEP_MS))).catch(() => {});
    try {
      await next();
    } catch (err) {
      await db.delete(idempotencyKeys).where(where).catch(() => {});
      throw err;
    }
    const res = c.res;
    if (res.status >= 200 && res.status < 300) {
      const body = withoutSecrets(await res.clone().text());
      await db.update(idempotencyKeys).set({ status: res.status, body, contentType: res.headers.get("content-type") }).where(where);
    } else {
      await db.delete(idempotencyKeys).where(where);
    }
  };
}

/** One-time secrets (a new charger's OCPP password) are never kept: a replay answers without them. */
const SECRET_FIELDS = new Set(["ocppPassword", "password", "accessToken", "apiKey", "token"]);
function withoutSecrets(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), (k, v) => (SECRET_FIELDS.has(k) ? undefined : v));
  } catch {
    return body;
  }
}
