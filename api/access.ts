// Who may call what: every Business API endpoint, by method and path, and the rule that lets a
// caller through. The rules come from the endpoint registry (contract/endpoints.ts); one guard
// applies them in front of every route:
//
// - an endpoint that is not in the registry is refused (403) — a new endpoint is closed until it
//   is given an entry, and tests/api/access-matrix.test.ts fails until then;
// - `public`: no token (the contract, images, an invitation's preview);
// - `account`: a verified Firebase account, whatever its companies (registering one, joining one);
// - a permission of domain/permissions.ts: a member of the company the request acts for whose
//   role holds it, and a company that is ACTIVE unless the entry says `company: "any"` (its
//   profile, which a pending or suspended company still reads and fixes). The back office's
//   creates are idempotent by key (api/idempotency.ts).
//
// Writes name what they change (`audit`, see api/audit.ts): a resource and a verb the guard
// records before → after, "handler" when the handler records it itself, or false.
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { can, refusalMessage } from "../domain/permissions";
import { afterWrite, ensureActiveCompany, identify } from "./auth";
import { idempotent } from "./idempotency";
import { auditedAtomically, auditRequest } from "./audit";
import { inTransaction } from "../db/ambient";
import { endpointKey, endpoints, type EndpointDef, type EndpointRule } from "#contract/endpoints";
import type { ApiServices, AppEnv, Ctx, VerifyToken } from "./env";
import { ApiError } from "./problem";

// The rule type lives with the registry; tests and the guard's callers name it from here.
export type { EndpointRule };

/** The rule of one registry entry: its permission, its audit and the company status it needs, when it says them. */
function ruleOf(e: EndpointDef): EndpointRule {
  const rule: Record<string, unknown> = { permission: e.permission };
  if ("audit" in e && e.audit !== undefined) rule.audit = e.audit;
  if ("company" in e && e.company !== undefined) rule.company = e.company;
  return rule as EndpointRule;
}

/** `METHOD /path` (as registered, without /api; `:id` for parameters) → rule, from contract/endpoints.ts. */
export const ENDPOINT_RULES: Record<string, EndpointRule> = Object.fromEntries(Object.values(endpoints as Record<string, EndpointDef>).map((e) => [endpointKey(e), ruleOf(e)]));

/** The endpoints whose body is a multipart upload. */
const UPLOADS = new Set(Object.values(endpoints as Record<string, EndpointDef>).filter((e) => e.multipart).map(endpointKey));

/**
 * Whether the caller may see money (revenue, penalties, amounts, fees): the roles that may see the
 * payments. Endpoints every role reads (the home, reservations, notifications) leave their money
 * fields out for the others (Técnico), so a figure the role's screens do not show is not in the
 * answer either.
 */
export function seesMoney(c: Ctx): boolean {
  return can(c.get("member")?.role, "payment.read");
}

export const FORBIDDEN_ENDPOINT_MESSAGE = "Esta operación no está habilitada.";

/** The endpoint serving this request (`METHOD /path` without /api), or undefined when none matches (404). */
export function endpointOf(c: Ctx): { key: string; path: string } | undefined {
  // Middlewares (app.use) are method ALL; the first method route is the handler that answers
  // (handlers never call next), e.g. /Options before /:id.
  const route = matchedRoutes(c).find((r) => r.method !== "ALL");
  if (!route) return undefined;
  const path = route.path.replace(/^\/api(?=\/)/, "");
  return { key: `${route.method} ${path}`, path: route.path };
}

/**
 * The access guard, in front of every route: finds the endpoint's rule (none: 403), then for
 * anything not public authenticates the caller, counts the per-account limit, checks the role's
 * permission (403 in Spanish: "Tu rol (Técnico) no permite ver las tarifas.") and audits writes.
 */
export function accessGuard(
  services: ApiServices,
  verifyToken: VerifyToken,
  limitAccount: (c: Ctx) => Promise<void>,
  rules: Record<string, EndpointRule> = ENDPOINT_RULES,
): MiddlewareHandler<AppEnv> {
  const once = idempotent(services);
  return async (c, next) => {
    const endpoint = endpointOf(c);
    if (!endpoint) return next(); // no such route: the app's 404
    const rule = rules[endpoint.key];
    if (!rule) {
      services.logger.error({ endpoint: endpoint.key }, "endpoint sin regla de acceso: rechazado");
      throw new ApiError(403, "forbidden", FORBIDDEN_ENDPOINT_MESSAGE);
    }
    c.set("rule", rule);
    if (rule.permission === "public") return next();

    await identify(c, verifyToken, services);
    await limitAccount(c);
    let handle = next;
    if (rule.permission !== "account") {
      if (!c.get("business")) throw new ApiError(403, "business-required", "Primero registrá tu empresa.");
      const role = c.get("member")?.role;
      if (!can(role, rule.permission)) throw new ApiError(403, "forbidden", refusalMessage(role, rule.permission));
      if (rule.company !== "any") {
        ensureActiveCompany(c);
        // The back office's creates are done once per key; an upload's body is a file, not a form.
        if (!UPLOADS.has(endpoint.key)) handle = () => replayable(c, once, next);
      }
    }

    const audit = "audit" in rule ? rule.audit : undefined;
    const writing = !["GET", "HEAD", "OPTIONS"].includes(c.req.method);
    await afterWrite(c, async () => {
      if (!writing || !audit || typeof audit !== "object") return handle();
      // A command's entry is written before it goes out, and a write that waits for a charger or
      // a partner cannot hold a transaction that long (api/audit.ts); any other audited write
      // commits with its entry or not at all.
      if (!auditedAtomically(audit)) return auditRequest(services, c, audit, endpoint.path, handle);
      await withItsEntry(services, c, () => auditRequest(services, c, audit, endpoint.path, handle));
    });
    // A write that says its handler audits, answered 2xx without an entry: a bug to see at once.
    if (writing && audit === "handler" && c.res.status < 300 && !c.get("audited") && !c.res.headers.get("Idempotent-Replayed")) {
      services.logger.error({ endpoint: endpoint.key }, "auditoría: escritura sin registro");
    }
  };
}

/** Runs a middleware that may answer in the handler's place (an idempotent replay) and keeps its answer. */
async function replayable(c: Ctx, middleware: MiddlewareHandler<AppEnv>, next: () => Promise<void>): Promise<void> {
  const answer = await middleware(c, next);
  if (answer instanceof Response) c.res = answer;
}

const ROLLED_BACK = Symbol("rolled back");

/**
 * One transaction for an audited write, its entry and everything the handler writes on the way
 * (every handle of the database joins it: db/ambient.ts). It commits only with a 2xx answer and
 * its entry; a refusal or failure (the handler's error is already its answer here) leaves nothing
 * behind, and an entry that cannot be written fails the request.
 */
async function withItsEntry(services: ApiServices, c: Ctx, audited: () => Promise<void>): Promise<void> {
  try {
    await inTransaction(services.db, async () => {
      await audited();
      if (c.res.status < 200 || c.res.status >= 300) throw ROLLED_BACK;
    });
  } catch (err) {
    if (err !== ROLLED_BACK) throw err;
  }
}
