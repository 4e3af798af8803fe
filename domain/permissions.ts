// Who may do what in a company: the members' roles and the one table of permissions
// that the Business API enforces (api/access.ts maps every endpoint to one of these) and the
// dashboard consults to guard its routes and hide what a role cannot do (app/lib/access.ts).
// Pure: no I/O, importable from the browser.

export const ROLES = ["OWNER", "ADMIN", "TECHNICIAN", "BILLING", "READER"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  OWNER: "Dueño",
  ADMIN: "Administrador",
  TECHNICIAN: "Técnico",
  BILLING: "Facturación",
  READER: "Lectura",
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  OWNER: "Todo, incluidos el equipo y el perfil de la empresa. Hay uno solo; puede transferir la propiedad.",
  ADMIN: "Todo, salvo la propiedad de la empresa.",
  TECHNICIAN: "Estaciones, cargadores, sus comandos y las vistas en vivo. Sin tarifas, pagos ni equipo.",
  BILLING: "Actividad, pagos, exportaciones, tarifas (solo lectura) y la facturación electrónica.",
  READER: "Ve todo lo que un miembro puede ver y no cambia nada.",
};

/** Roles an invitation or a role change may give (ownership only moves by a transfer). */
export const ASSIGNABLE_ROLES = ["ADMIN", "TECHNICIAN", "BILLING", "READER"] as const satisfies readonly Role[];
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

const ALL: readonly Role[] = ROLES;
const MANAGERS: readonly Role[] = ["OWNER", "ADMIN"];
const FIELD: readonly Role[] = ["OWNER", "ADMIN", "TECHNICIAN"];
const MONEY_READERS: readonly Role[] = ["OWNER", "ADMIN", "BILLING", "READER"];

/**
 * Every permission: the roles that hold it, and what it lets them do (the end of the Spanish
 * sentence "Tu rol no permite …" that a refusal answers with).
 */
export const PERMISSIONS = {
  "dashboard.read": { roles: ALL, label: "ver el inicio" },
  "catalog.read": { roles: ALL, label: "ver los catálogos" },
  "station.read": { roles: ALL, label: "ver las estaciones" },
  "station.write": { roles: FIELD, label: "crear, modificar o eliminar estaciones" },
  "charger.read": { roles: ALL, label: "ver los cargadores" },
  "charger.write": { roles: FIELD, label: "crear, modificar o eliminar cargadores" },
  "charger.command": { roles: FIELD, label: "enviar comandos a los cargadores" },
  "live.read": { roles: ALL, label: "ver el estado en vivo" },
  // Who may charge where. Every role reads them (the field and the money side both need
  // them); the field roles change them. A group's rate is also a price: changing it needs rate.write.
  "tag.read": { roles: ALL, label: "ver las tarjetas RFID y los grupos de acceso" },
  "tag.write": { roles: FIELD, label: "crear, modificar, importar o eliminar tarjetas RFID y grupos de acceso" },
  "rate.read": { roles: MONEY_READERS, label: "ver las tarifas" },
  "rate.write": { roles: MANAGERS, label: "crear, modificar o eliminar tarifas" },
  "activity.read": { roles: MONEY_READERS, label: "ver la actividad" },
  "activity.export": { roles: MONEY_READERS, label: "exportar la actividad" },
  // Closing a session the charger never stopped prices it: a money decision, the managers'.
  "session.close": { roles: MANAGERS, label: "cerrar cargas que el cargador no cerró" },
  "payment.read": { roles: MONEY_READERS, label: "ver los pagos" },
  "payment.write": { roles: MANAGERS, label: "conectar o desconectar cuentas de pago" },
  // Recording a refund made by hand (Pagos360) closes a driver's payment: a money decision, the managers'.
  "payment.refund": { roles: MANAGERS, label: "registrar devoluciones de pagos" },
  // Refusing a driver's next payments after their chargeback or dispute: the managers' decision.
  "payment.block": { roles: MANAGERS, label: "bloquear o desbloquear a los conductores de los pagos con QR" },
  // Reconciling now asks the providers and notifies the differences not told yet: the money
  // roles that act (Lectura only reads what the daily run found).
  "payment.reconcile": { roles: ["OWNER", "ADMIN", "BILLING"], label: "conciliar los pagos con los proveedores" },
  "invoice.read": { roles: MONEY_READERS, label: "ver los comprobantes" },
  // Asking ARCA again for a rejected or waiting voucher: Facturación's job, and the managers'.
  "invoice.retry": { roles: ["OWNER", "ADMIN", "BILLING"], label: "reintentar comprobantes" },
  // The company's fiscal settings for ARCA (certificate, point of sale): whoever invoices sets them up.
  "fiscal.read": { roles: MONEY_READERS, label: "ver la configuración de facturación electrónica" },
  "fiscal.write": { roles: ["OWNER", "ADMIN", "BILLING"], label: "configurar la facturación electrónica" },
  "notification.read": { roles: ALL, label: "ver las notificaciones" },
  "notification.write": { roles: ["OWNER", "ADMIN", "TECHNICIAN", "BILLING"], label: "marcar notificaciones como leídas" },
  "push.register": { roles: ALL, label: "recibir notificaciones en este navegador" },
  "profile.read": { roles: ALL, label: "ver el perfil de la empresa" },
  "profile.write": { roles: MANAGERS, label: "modificar el perfil de la empresa" },
  "member.read": { roles: MANAGERS, label: "ver el equipo" },
  "member.write": { roles: MANAGERS, label: "invitar, cambiar el rol o quitar miembros" },
  "member.transfer": { roles: ["OWNER"], label: "transferir la propiedad de la empresa" },
  "audit.read": { roles: MANAGERS, label: "ver la auditoría" },
  // Roaming partners see the company's stations and prices and bill its drivers' sessions:
  // the managers decide who they are; the money side reads them.
  "roaming.read": { roles: MONEY_READERS, label: "ver el roaming" },
  "roaming.write": { roles: MANAGERS, label: "configurar el roaming, sus socios y las estaciones publicadas" },
} as const satisfies Record<string, { roles: readonly Role[]; label: string }>;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` holds `permission`. An unknown role or permission holds nothing. */
export function can(role: Role | null | undefined, permission: Permission): boolean {
  if (!role) return false;
  const entry = PERMISSIONS[permission] as { roles: readonly Role[] } | undefined;
  return entry ? entry.roles.includes(role) : false;
}

/** The Spanish refusal for a role without a permission (API 403 title, dashboard 403 page). */
export function refusalMessage(role: Role | null | undefined, permission: Permission): string {
  const what = PERMISSIONS[permission]?.label ?? "hacer esto";
  return role ? `Tu rol (${ROLE_LABELS[role]}) no permite ${what}.` : `Tu cuenta no permite ${what}.`;
}

/**
 * Who may change whom (on top of member.write): nobody changes or removes the owner (ownership
 * moves only by a transfer, which only the owner starts), and nobody changes their own role.
 */
export function canManageMember(actor: { role: Role; memberId: string }, target: { role: Role; id: string }): boolean {
  if (!can(actor.role, "member.write")) return false;
  if (target.role === "OWNER") return false;
  return actor.memberId !== target.id;
}
