// Bearer authentication (Firebase ID token) and the business context of every request.
import { and, asc, eq, sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { Db } from "../db/client";
import { businessMembers, businessUsers, registrationRequests, type BusinessMember, type BusinessUser } from "../db/schema";
import type { ApiServices, AppEnv, Ctx, VerifyToken } from "./env";
import { pageScopeOf } from "./page-scope";
import { ApiError } from "./problem";

export const UNVERIFIED_EMAIL_MESSAGE = "Por favor, verifique su casilla para validar su correo";

/** The company a request acts for, by id; validated against the caller's memberships every time. */
export const BUSINESS_HEADER = "X-Enchufa-Business";
export const NOT_A_MEMBER_MESSAGE = "No sos miembro de esa empresa (o te quitaron de ella).";

type MembershipRow = { member: BusinessMember; business: BusinessUser };

/** What an account's memberships are read from (a trigger on the companies writes the owners' rows). */
const MEMBERSHIP_TABLES = ["business_members", "business_users"] as const;

/** The account's companies: the one signed into last first, then the oldest membership. */
export async function loadMemberships(db: Db, uid: string): Promise<MembershipRow[]> {
  return db
    .select({ member: businessMembers, business: businessUsers })
    .from(businessMembers)
    .innerJoin(businessUsers, eq(businessUsers.id, businessMembers.businessId))
    .where(eq(businessMembers.firebaseUid, uid))
    .orderBy(sql`${businessMembers.lastSignInAt} desc nulls last`, asc(businessMembers.createdAt), asc(businessMembers.id));
}

/**
 * Whether `id` is the account's registration held without a company (its CUIT is another
 * company's, api/routes/cuit-claims.ts). The account's answer gives it where a pending company's
 * id goes, so acting for it is allowed like acting for one's own company: it acts for none.
 */
async function holdsRegistration(db: Db, uid: string, id: string): Promise<boolean> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) return false;
  const [row] = await db.select({ id: registrationRequests.id }).from(registrationRequests).where(and(eq(registrationRequests.id, id), eq(registrationRequests.firebaseUid, uid))).limit(1);
  return !!row;
}

/**
 * Who the caller is: 401 for a missing/bad token; 403 for an unverified e-mail;
 * then the caller's companies, and the one this request acts for: the X-Enchufa-Business header
 * when present (403 when the caller is not, or no longer, a member of it), else the default
 * (the company signed into last). Sets `claims`, `business`, `member` and `memberships`.
 * Within one dashboard request (a PageScope bound by the server) the token is verified and the
 * memberships read once; a write reads them afresh and makes the page's later calls read them again.
 */
export async function identify(c: Ctx, verifyToken: VerifyToken, services: ApiServices): Promise<void> {
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
  // A reading keeps the account's companies until a statement writes a membership or a company
  // (the embedded database: a changed role or company name shows on the next request); a write
  // reads them afresh.
  const remembered = () => services.stableReads.get(MEMBERSHIP_TABLES, `memberships:${uid}`, () => loadMemberships(services.db, uid));
  const load = reading ? remembered : () => loadMemberships(services.db, uid);
  const rows = await (scope && reading ? scope.business(`memberships:${uid}`, load) : load());
  const wanted = c.req.header(BUSINESS_HEADER)?.trim().toLowerCase();
  const chosen = wanted ? rows.find((r) => r.business.id === wanted) : rows[0];
  if (wanted && !chosen && !(await holdsRegistration(services.db, uid, wanted))) throw new ApiError(403, "not-a-member", NOT_A_MEMBER_MESSAGE);
  c.set("business", chosen?.business ?? null);
  c.set("member", chosen ? { id: chosen.member.id, role: chosen.member.role, email: chosen.member.email } : null);
  c.set(
    "memberships",
    rows.map((r) => ({ memberId: r.member.id, businessId: r.business.id, businessName: r.business.businessName, status: r.business.status, role: r.member.role })),
  );
}

/** `identify` as a middleware (the API's access guard calls it; kept for tests and tools). */
export function authenticate(verifyToken: VerifyToken, services: ApiServices): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await identify(c, verifyToken, services);
    await afterWrite(c, next);
  };
}

/** Runs the rest of a write with the PageScope's company reads forgotten afterwards. */
export async function afterWrite(c: Ctx, next: () => Promise<void>): Promise<void> {
  const scope = pageScopeOf(c.env);
  const reading = c.req.method === "GET" || c.req.method === "HEAD";
  try {
    await next();
  } finally {
    if (scope && !reading) scope.forgetBusinesses();
  }
}

const NOT_ACTIVE_MESSAGES = {
  PENDING: "Tu empresa todavía no fue aprobada.",
  REJECTED: "La solicitud de alta de tu empresa fue rechazada.",
  SUSPENDED: "Tu empresa está suspendida. Comunicate con soporte.",
} as const;

/** The caller's company must be ACTIVE for the back office: stations, chargers, rates, activity, payments… */
export function ensureActiveCompany(c: Ctx): void {
  const business = c.get("business");
  if (!business) throw new ApiError(403, "business-required", "Primero registrá tu empresa.");
  if (business.status !== "ACTIVE") throw new ApiError(403, "business-not-active", NOT_ACTIVE_MESSAGES[business.status]);
}

function unauthenticated() {
  return new ApiError(401, "unauthenticated", "Sesión inválida o vencida.", { headers: { "WWW-Authenticate": 'Bearer realm="enchufa"' } });
}

function errorCode(err: unknown): string {
  if (err && typeof err === "object" && "code" in err && typeof (err as { code: unknown }).code === "string") return (err as { code: string }).code;
  return err instanceof Error ? err.name : "unknown";
}
