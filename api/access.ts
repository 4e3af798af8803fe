// Who may call what (issue 26): every Business API endpoint, by method and path, and the rule
// that lets a caller through. One table, one guard, in front of every route:
//
// - an endpoint that is not in the table is refused (403) — a new endpoint is closed until it
//   is given a rule, and tests/api/access-matrix.test.ts fails until then;
// - `public`: no token (the contract, images, an invitation's preview);
// - `account`: a verified Firebase account, whatever its companies (registering one, joining one);
// - a permission of domain/permissions.ts: a member of the company the request acts for whose
//   role holds it. The company's status (pending, suspended…) is still checked by the mounts
//   in api/app.ts (requireBusiness / requireActive), after this.
//
// Writes name what they change (`audit`, see api/audit.ts): a resource and a verb the guard
// records before → after, "handler" when the handler records it itself, or false.
//
// Adding an endpoint: one line here, e.g.
//   "POST /Business/Charger/:id/Reserve": { permission: "charger.command", audit: { resource: "charger", action: "command", details: {} } },
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { can, refusalMessage, type Permission } from "../domain/permissions";
import { afterWrite, identify } from "./auth";
import { auditedAtomically, auditRequest, type AuditSpec } from "./audit";
import { inTransaction } from "../db/ambient";
import type { ApiServices, AppEnv, Ctx, VerifyToken } from "./env";
import { ApiError } from "./problem";

export type EndpointRule =
  | { permission: "public" }
  | { permission: "account"; audit?: "handler" | false }
  | { permission: Permission; audit?: AuditSpec | "handler" | false };

const read = (permission: Permission): EndpointRule => ({ permission });

/** `METHOD /path` (as registered, without /api; `:id` for parameters) → rule. */
export const ENDPOINT_RULES: Record<string, EndpointRule> = {
  // Public
  "GET /openapi.json": { permission: "public" },
  "GET /images/:file": { permission: "public" },
  "POST /Invitation/Lookup": { permission: "public" },
  // Issue 23: drivers at a connector's QR (no account; the status page and the stop need the
  // link's secret) and the payment providers' notifications (signed, or read back from the provider).
  "GET /Driver/Charge/:identity/:connector": { permission: "public" },
  "POST /Driver/Charge/:identity/:connector": { permission: "public" },
  "GET /Driver/Payment/:id": { permission: "public" },
  "POST /Driver/Payment/:id/Stop": { permission: "public" },
  "POST /Webhook/MercadoPago/:businessId": { permission: "public" },
  "POST /Webhook/Pagos360/:businessId": { permission: "public" },

  // The account itself: before (or without) a company
  "GET /Account/Business": { permission: "account" },
  "POST /Account/Business": { permission: "account", audit: "handler" },
  "POST /Account/SignIn": { permission: "account", audit: false },
  "POST /Business/Member": { permission: "account", audit: "handler" },

  // Company profile
  "GET /Business/BusinessUser": read("profile.read"),
  "PATCH /Business/BusinessUser/Update": { permission: "profile.write", audit: { resource: "profile", action: "update", id: "company" } },
  "PATCH /Business/Images/ProfilePicture": { permission: "profile.write", audit: { resource: "profile", action: "photo", id: "company" } },
  "DELETE /Business/Images/ProfilePicture": { permission: "profile.write", audit: { resource: "profile", action: "photo", id: "company" } },
  // A station photo before the station is saved: the station's own audit records its photoUrl.
  "POST /Business/Images": { permission: "station.write", audit: false },

  // Catalogs
  "GET /Business/Service": read("catalog.read"),
  "GET /Business/ChargerBrand": read("catalog.read"),
  "GET /Driver/ConnectorType": read("catalog.read"),

  // Stations
  "GET /Business/ChargingStation": read("station.read"),
  "GET /Business/ChargingStation/Options": read("station.read"),
  "GET /Business/ChargingStation/:id": read("station.read"),
  "GET /Business/ChargingStation/:id/Allocation": read("station.read"),
  "POST /Business/ChargingStation": { permission: "station.write", audit: { resource: "station", action: "create", id: "response" } },
  "PUT /Business/ChargingStation/:id": { permission: "station.write", audit: { resource: "station", action: "update" } },
  "DELETE /Business/ChargingStation/:id": { permission: "station.write", audit: { resource: "station", action: "delete" } },

  // Chargers
  "GET /Business/Charger": read("charger.read"),
  "GET /Business/Charger/Options": read("charger.read"),
  "GET /Business/Charger/:id": read("charger.read"),
  "GET /Business/Charger/:id/Event": read("charger.read"),
  "POST /Business/Charger": { permission: "charger.write", audit: { resource: "charger", action: "create", id: "response" } },
  "PUT /Business/Charger/:id": { permission: "charger.write", audit: { resource: "charger", action: "update" } },
  "DELETE /Business/Charger/:id": { permission: "charger.write", audit: { resource: "charger", action: "delete" } },
  "POST /Business/Charger/Assign": { permission: "charger.write", audit: { resource: "charger", action: "assign", id: { bodyList: "chargerIds" } } },
  "POST /Business/Charger/:id/RotatePassword": { permission: "charger.write", audit: { resource: "charger", action: "password" } },
  "POST /Business/Charger/:id/Command": {
    permission: "charger.command",
    audit: { resource: "charger", action: "command", details: { response: ["outcome", "message"] } },
  },
  // A charger's maintenance (issue 25): its recent OCPP messages, firmware, diagnostics.
  "GET /Business/Charger/:id/Message": read("charger.read"),
  "GET /Business/Charger/:id/Message/Export.csv": read("charger.read"),
  "GET /Business/Charger/:id/Firmware": read("charger.read"),
  "POST /Business/Charger/:id/Firmware": {
    permission: "charger.command",
    audit: { resource: "charger", action: "firmware", details: { response: ["outcome", "message"] } },
  },
  "GET /Business/Charger/:id/Diagnostics": read("charger.read"),
  "POST /Business/Charger/:id/Diagnostics": {
    permission: "charger.command",
    audit: { resource: "charger", action: "diagnostics", details: { response: ["outcome", "message"] } },
  },
  "GET /Business/Charger/:id/Diagnostics/:diagnosticsId/File": read("charger.read"),
  // The charger's upload: authorised by the one-time token in the URL it was given (no account).
  "PUT /ChargerUpload/:id/:token": { permission: "public" },
  "POST /ChargerUpload/:id/:token": { permission: "public" },
  "PUT /ChargerUpload/:id/:token/:fileName": { permission: "public" },
  "POST /ChargerUpload/:id/:token/:fileName": { permission: "public" },
  // Issue 25 (ADR 0018): the tags as the charger's local authorization list, and the version it holds.
  "POST /Business/Charger/:id/LocalList": { permission: "charger.command", audit: { resource: "charger", action: "local_list", details: { response: ["outcome", "status", "version", "entries"] } } },
  "POST /Business/Charger/:id/LocalList/Version": { permission: "charger.command", audit: { resource: "charger", action: "local_list_version", details: { response: ["outcome", "version"] } } },
  "GET /Business/Live": read("live.read"),

  // Reservations (issue 25, ADR 0018): commands to a charger, answered in the response; the
  // request and the charger's answer are what the log keeps.
  "GET /Business/Reservation": read("charger.read"),
  "GET /Business/Reservation/:id": read("charger.read"),
  "POST /Business/Reservation": {
    permission: "charger.command",
    audit: { resource: "reservation", action: "create", id: "response", details: { response: ["status", "chargerStatus", "message"] } },
  },
  "DELETE /Business/Reservation/:id": { permission: "charger.command", audit: { resource: "reservation", action: "cancel", details: { response: ["status", "message"] } } },

  // Rates
  "GET /Business/Fees": read("rate.read"),
  "GET /Business/Fees/:id": read("rate.read"),
  "POST /Business/Fees/Preview": { permission: "rate.read", audit: false },
  "POST /Business/Fees": { permission: "rate.write", audit: { resource: "rate", action: "create", id: "response" } },
  "PUT /Business/Fees/:id": { permission: "rate.write", audit: { resource: "rate", action: "update" } },
  "DELETE /Business/Fees/:id": { permission: "rate.write", audit: { resource: "rate", action: "delete" } },

  // RFID tags and access groups (issue 25). An import writes its own entry (counts, not every tag).
  "GET /Business/Tag": read("tag.read"),
  "GET /Business/Tag/Export.csv": read("tag.read"),
  "GET /Business/Tag/:id": read("tag.read"),
  "POST /Business/Tag": { permission: "tag.write", audit: { resource: "tag", action: "create", id: "response" } },
  "POST /Business/Tag/Import": { permission: "tag.write", audit: "handler" },
  "PUT /Business/Tag/:id": { permission: "tag.write", audit: { resource: "tag", action: "update" } },
  "DELETE /Business/Tag/:id": { permission: "tag.write", audit: { resource: "tag", action: "delete" } },

  // Roaming (issue 27): the party id, OCPI partners and the stations offered to them.
  "GET /Business/Roaming": read("roaming.read"),
  "PUT /Business/Roaming": { permission: "roaming.write", audit: { resource: "profile", action: "update", id: "company" } },
  "GET /Business/Roaming/Partner": read("roaming.read"),
  "POST /Business/Roaming/Partner": { permission: "roaming.write", audit: { resource: "roaming_partner", action: "create", id: "response" } },
  "DELETE /Business/Roaming/Partner/:id": { permission: "roaming.write", audit: { resource: "roaming_partner", action: "delete" } },
  "GET /Business/Roaming/Station": read("roaming.read"),
  "PUT /Business/Roaming/Station/:id": { permission: "roaming.write", audit: { resource: "station", action: "roaming" } },
  "GET /Business/AccessGroup": read("tag.read"),
  "GET /Business/AccessGroup/:id": read("tag.read"),
  "POST /Business/AccessGroup": { permission: "tag.write", audit: { resource: "access_group", action: "create", id: "response" } },
  "PUT /Business/AccessGroup/:id": { permission: "tag.write", audit: { resource: "access_group", action: "update" } },
  "DELETE /Business/AccessGroup/:id": { permission: "tag.write", audit: { resource: "access_group", action: "delete" } },

  // Activity and the home
  "GET /Business/Activity": read("activity.read"),
  "GET /Business/Activity/:id": read("activity.read"),
  "GET /Business/Activity/Export.csv": read("activity.export"),
  "POST /Business/Activity/:id/Close": {
    permission: "session.close",
    audit: { resource: "session", action: "close", details: { response: ["closedBy", "remoteStop", "status", "energyWh", "totalCents"] } },
  },
  "GET /Business/Dashboard": read("dashboard.read"),
  "GET /Business/Graphic": read("dashboard.read"),

  // Notifications (the read marks are the company's, not a change the log keeps)
  "GET /Business/Notification": read("notification.read"),
  "GET /Business/Notification/UnreadCount": read("notification.read"),
  "POST /Business/Notification/:id/Read": { permission: "notification.write", audit: false },
  "POST /Business/Notification/ReadAll": { permission: "notification.write", audit: false },
  "POST /Business/Notification/PushRegistration": { permission: "push.register", audit: false },

  // Payments (credentials are never recorded: only provider, label, last 4 and status)
  "GET /Business/Payments": read("payment.read"),
  // Issue 23 (ADR 0017): a refund made by hand (Pagos360) recorded; the log keeps the amounts and step before → after.
  "POST /Business/Payments/:id/Refund": { permission: "payment.refund", audit: { resource: "payment", action: "refund" } },
  "GET /MercadoPago/BusinessUser": read("payment.read"),
  "PUT /MercadoPago/BusinessUser": { permission: "payment.write", audit: { resource: "payment_account", action: "connect", id: { fixed: "MERCADOPAGO" } } },
  "DELETE /MercadoPago/BusinessUser": { permission: "payment.write", audit: { resource: "payment_account", action: "disconnect", id: { fixed: "MERCADOPAGO" } } },
  "GET /Pagos360/BusinessUser": read("payment.read"),
  "PUT /Pagos360/BusinessUser": { permission: "payment.write", audit: { resource: "payment_account", action: "connect", id: { fixed: "PAGOS360" } } },
  "DELETE /Pagos360/BusinessUser": { permission: "payment.write", audit: { resource: "payment_account", action: "disconnect", id: { fixed: "PAGOS360" } } },

  // The team (ownership transfers are PATCH … { role: "OWNER" }, member.transfer, checked in the handler)
  "GET /Business/Member": read("member.read"),
  "PATCH /Business/Member/:id": { permission: "member.write", audit: { resource: "member", action: "update" } },
  "DELETE /Business/Member/:id": { permission: "member.write", audit: { resource: "member", action: "remove" } },
  "GET /Business/Invitation": read("member.read"),
  "POST /Business/Invitation": { permission: "member.write", audit: { resource: "invitation", action: "create", id: "response" } },
  "POST /Business/Invitation/:id/Resend": { permission: "member.write", audit: { resource: "invitation", action: "resend" } },
  "DELETE /Business/Invitation/:id": { permission: "member.write", audit: { resource: "invitation", action: "revoke" } },

  // The audit log itself
  "GET /Business/Audit": read("audit.read"),
  "GET /Business/Audit/Export.csv": read("audit.read"),
};

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
    if (rule.permission !== "account") {
      if (!c.get("business")) throw new ApiError(403, "business-required", "Primero registrá tu empresa.");
      const role = c.get("member")?.role;
      if (!can(role, rule.permission)) throw new ApiError(403, "forbidden", refusalMessage(role, rule.permission));
    }

    const audit = "audit" in rule ? rule.audit : undefined;
    const writing = !["GET", "HEAD", "OPTIONS"].includes(c.req.method);
    await afterWrite(c, async () => {
      if (!writing || !audit || typeof audit !== "object") return next();
      // A command's entry is written before it goes out, and a write that waits for a charger or
      // a partner cannot hold a transaction that long (api/audit.ts); any other audited write
      // commits with its entry or not at all.
      if (!auditedAtomically(audit)) return auditRequest(services, c, audit, endpoint.path, next);
      await withItsEntry(services, c, () => auditRequest(services, c, audit, endpoint.path, next));
    });
    // A write that says its handler audits, answered 2xx without an entry: a bug to see at once.
    if (writing && audit === "handler" && c.res.status < 300 && !c.get("audited") && !c.res.headers.get("Idempotent-Replayed")) {
      services.logger.error({ endpoint: endpoint.key }, "auditoría: escritura sin registro");
    }
  };
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
