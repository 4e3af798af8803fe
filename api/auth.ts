// Bearer authentication (Firebase ID token) and the business context of every request.
import { eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { businessUsers } from "../db/schema";
import type { ApiServices, AppEnv, VerifyToken } from "./env";
import { pageScopeOf } from "./page-scope";
import { ApiError } from "./problem";

export const UNVERIFIED_EMAIL_MESSAGE = "Por favor, verifique su casilla para validar su correo";

/**
 * 401 for a missing/bad token; 403 for an unverified e-mail; loads the caller's business.
 * Within one dashboard request (a PageScope bound by the server) the token is verified and the
 * company read once; a write reads it afresh and makes the page's later calls read it again.
 */
export function authenticate(verifyToken: VerifyToken, services: ApiServices): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthenticated();
    const scope = pageScopeOf(c.env);
    const reading = c.req.method === "GET" || c.req.method === "HEAD";
    if (scope && !reading) scope.forgetBusinesses();
    let claims;
    try {
      claims = await (scope ? scope.verify(match[1], verifyToken) : verifyToken(match[1]));
    } catch (err) {
      // Never log the token; the reason (expired, revoked, malformed…) is enough.
      services.logger.info({ requestId: c.get("requestId"), reason: errorCode(err) }, "token rechazado");
      throw unauthenticated();
    }
    if (!claims?.uid) throw unauthenticated();
    if (claims.email_verified !== true) throw new ApiError(403, "email-not-verified", UNVERIFIED_EMAIL_MESSAGE);
    c.set("claims", claims);
    const uid = claims.uid;
    const load = async () => (await services.db.select().from(businessUsers).where(eq(businessUsers.firebaseUid, uid)).limit(1))[0] ?? null;
    c.set("business", await (scope && reading ? scope.business(uid, load) : load()));
    try {
      await next();
    } finally {
      if (scope && !reading) scope.forgetBusinesses();
    }
  };
}

/** The caller must have registered a company (any status): their own profile. */
export const requireBusiness: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get("business")) throw new ApiError(403, "business-required", "Primero registrá tu empresa.");
  await next();
};

const NOT_ACTIVE_MESSAGES = {
  PENDING: "Tu empresa todavía no fue aprobada.",
  REJECTED: "La solicitud de alta de tu empresa fue rechazada.",
  SUSPENDED: "Tu empresa está suspendida. Comunicate con soporte.",
} as const;

/** The caller's company must be ACTIVE: stations, chargers, rates, activity, payments… */
export const requireActive: MiddlewareHandler<AppEnv> = async (c, next) => {
  const business = c.get("business");
  if (!business) throw new ApiError(403, "business-required", "Primero registrá tu empresa.");
  if (business.status !== "ACTIVE") throw new ApiError(403, "business-not-active", NOT_ACTIVE_MESSAGES[business.status]);
  await next();
};

function unauthenticated() {
  return new ApiError(401, "unauthenticated", "Sesión inválida o vencida.", { headers: { "WWW-Authenticate": 'Bearer realm="enchufa"' } });
}

function errorCode(err: unknown): string {
  if (err && typeof err === "object" && "code" in err && typeof (err as { code: unknown }).code === "string") return (err as { code: string }).code;
  return err instanceof Error ? err.name : "unknown";
}
