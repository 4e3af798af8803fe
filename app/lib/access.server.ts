// The dashboard's side of the permission table: which permission each screen needs
// to be seen (GET) and to act (POST, by intent when a screen does several things). The guard
// (app/lib/auth.server.ts requireUser) checks it on the server for every loader and action; the
// app layout's loader hands the screens what the role holds (`memberAccess`), and they use
// `useAccess()` (./access.ts) to hide what it cannot do — without the tables in the browser. The
// Business API checks the same permissions again (api/access.ts): hiding is never the control.
//
// A screen missing here is refused (403) to every role: tests/routes/access-matrix.test.ts lists
// every route of app/routes.ts and fails until it has a rule.
import { can, isRole, PERMISSION_NAMES, ROLE_LABELS, type Permission, type Role } from "#domain/permissions";
import type { MemberAccess } from "./access";

/** "member": any member of the company (e.g. changing one's own password). */
export type Need = Permission | "member";

export interface ScreenRule {
  pattern: string;
  read: Need;
  /** What a POST needs: one permission, or one per `intent` field (`*`: any other intent). */
  write?: Need | Record<string, Need>;
}

export const SCREEN_RULES: ScreenRule[] = [
  { pattern: "/home", read: "dashboard.read" },
  { pattern: "/station", read: "station.read", write: "station.write" },
  { pattern: "/station/new", read: "station.write", write: "station.write" },
  { pattern: "/station/edit/:id", read: "station.read", write: "station.write" },
  { pattern: "/station/stickers/:id", read: "station.read" },
  { pattern: "/charger", read: "charger.read", write: "charger.write" },
  { pattern: "/charger/new", read: "charger.write", write: "charger.write" },
  { pattern: "/charger/edit/:id", read: "charger.read", write: { command: "charger.command", "local-list": "charger.command", "local-list-version": "charger.command", "*": "charger.write" } },
  { pattern: "/charger/edit/:id/maintenance", read: "charger.read", write: "charger.command" },
  { pattern: "/charger/edit/:id/messages", read: "charger.read" },
  { pattern: "/charger/edit/:id/messages.csv", read: "charger.read" },
  { pattern: "/charger/edit/:id/diagnostics/:diagnosticsId", read: "charger.read" },
  { pattern: "/charger/add", read: "charger.write", write: "charger.write" },
  { pattern: "/charger/qr/:id", read: "charger.read" },
  { pattern: "/charger/stickers/:id", read: "charger.read" },
  { pattern: "/activity", read: "activity.read", write: { close: "session.close" } },
  { pattern: "/activity/export.csv", read: "activity.export" },
  { pattern: "/rate", read: "rate.read", write: "rate.write" },
  { pattern: "/rate/new", read: "rate.write", write: "rate.write" },
  { pattern: "/rate/reprice", read: "rate.write", write: "rate.write" },
  { pattern: "/rate/holidays", read: "rate.read", write: "rate.write" },
  { pattern: "/rate/edit/:id", read: "rate.read", write: { preview: "rate.read", "*": "rate.write" } },
  { pattern: "/tag", read: "tag.read", write: "tag.write" },
  { pattern: "/tag/new", read: "tag.write", write: "tag.write" },
  { pattern: "/tag/edit/:id", read: "tag.read", write: "tag.write" },
  { pattern: "/tag/import", read: "tag.write", write: "tag.write" },
  { pattern: "/tag/export.csv", read: "tag.read" },
  { pattern: "/group", read: "tag.read", write: "tag.write" },
  { pattern: "/group/new", read: "tag.write", write: "tag.write" },
  { pattern: "/group/edit/:id", read: "tag.read", write: "tag.write" },
  // Reservations are commands to a charger (ReserveNow / CancelReservation): who sends commands makes them.
  { pattern: "/reservation", read: "charger.read", write: "charger.command" },
  { pattern: "/reservation/new", read: "charger.command", write: "charger.command" },
  { pattern: "/notification", read: "notification.read", write: { "push-register": "push.register", "*": "notification.write" } },
  { pattern: "/user", read: "profile.read", write: { password: "member", "*": "profile.write" } },
  // Recording a refund made by hand (Pagos360) is the one action of the overview.
  { pattern: "/payment", read: "payment.read", write: { refund: "payment.refund", block: "payment.block", unblock: "payment.block" } },
  { pattern: "/payment/payments/:provider", read: "payment.read", write: "payment.write" },
  // «Conciliar ahora» asks the providers and notifies: the money roles that act, not Lectura.
  { pattern: "/payment/reconciliation", read: "payment.read", write: "payment.reconcile" },
  { pattern: "/payment/reconciliation/export.csv", read: "payment.read" },
  { pattern: "/payment/invoice", read: "invoice.read", write: { retry: "invoice.retry" } },
  { pattern: "/payment/invoice/export.csv", read: "invoice.read" },
  { pattern: "/payment/invoice/:id", read: "invoice.read" },
  { pattern: "/payment/invoice/:id/pdf", read: "invoice.read" },
  { pattern: "/team", read: "member.read", write: { transfer: "member.transfer", "*": "member.write" } },
  { pattern: "/audit", read: "audit.read" },
  { pattern: "/audit/export.csv", read: "audit.read" },
  { pattern: "/roaming", read: "roaming.read", write: "roaming.write" },
  { pattern: "/fiscal", read: "fiscal.read", write: "fiscal.write" },
];

const compiled = SCREEN_RULES.map((rule) => ({
  rule,
  re: new RegExp(`^${rule.pattern.replace(/[.]/g, "\\.").replace(/:\w+/g, "[^/]+")}/?$`),
}));

/** The rule of a path (`/station/edit/<id>`), or undefined for a path no screen serves. */
export function screenRuleFor(pathname: string): ScreenRule | undefined {
  return compiled.find(({ re }) => re.test(pathname))?.rule;
}

export function holds(role: Role | null | undefined, need: Need): boolean {
  return need === "member" ? isRole(role) : can(role, need);
}

/** What a request to `pathname` needs: GET/HEAD the screen's `read`, anything else its `write` (by intent). */
export function needFor(pathname: string, method: string, intent?: string | null): Need | undefined {
  const rule = screenRuleFor(pathname);
  if (!rule) return undefined;
  if (method === "GET" || method === "HEAD") return rule.read;
  const write = rule.write;
  if (!write) return undefined;
  if (typeof write === "string") return write;
  return write[intent ?? ""] ?? write["*"];
}

/** Whether the navigation shows a link to `path` for this role. */
export function canVisit(role: Role | null | undefined, path: string): boolean {
  const need = needFor(path, "GET");
  return need !== undefined && holds(role, need);
}

/** A notification's in-app link, if it is one and the role may open its screen; else null. */
export function visibleLink(role: Role | null | undefined, link: string | null | undefined): string | null {
  if (!link || !link.startsWith("/") || link.startsWith("//")) return null;
  return canVisit(role, new URL(link, "http://x").pathname) ? link : null;
}

/** What the app layout's loader tells every screen about the signed-in member (see useAccess). */
export function memberAccess(role: Role | null | undefined): MemberAccess {
  return {
    role: role ?? null,
    roleLabel: role ? ROLE_LABELS[role] : null,
    permissions: PERMISSION_NAMES.filter((permission) => can(role, permission)),
  };
}
