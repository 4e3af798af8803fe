// What the signed-in member may do, in the browser: the app layout's loader sends the
// role and the permissions it holds (app/lib/access.server.ts memberAccess), so the screens hide
// what the role cannot do without shipping the permission tables. The server checks every loader
// and action itself: hiding is never the control.
import { useRouteLoaderData } from "react-router";
import type { Permission, Role } from "#domain/permissions";

export interface MemberAccess {
  role: Role | null;
  /** The role's Spanish name ("Técnico"). */
  roleLabel: string | null;
  permissions: Permission[];
}

/** The signed-in member's role, from the app layout's data: `can("rate.write")` to show or hide an action. */
export function useAccess() {
  const layout = useRouteLoaderData("routes/app/layout") as { access?: MemberAccess } | undefined;
  const access = layout?.access;
  return { role: access?.role ?? null, can: (permission: Permission) => access?.permissions.includes(permission) ?? false };
}
