// Reservation states and their labels (issue 25, ADR 0018), without zod, in a module of their own
// so the pages that import ./constants do not carry them (JS budget).
/** Reservation states (issue 25, ADR 0018; db/schema RESERVATION_STATUSES spelled the same). */
export const RESERVATION_STATUSES = ["ACTIVE", "USED", "EXPIRED", "CANCELLED", "REFUSED"] as const;
export const RESERVATION_STATUS_LABELS: Record<(typeof RESERVATION_STATUSES)[number], string> = {
  ACTIVE: "Activa",
  USED: "Usada",
  EXPIRED: "Vencida sin uso",
  CANCELLED: "Cancelada",
  REFUSED: "Rechazada por el cargador",
};
