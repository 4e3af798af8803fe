// Reservation states and their labels (ADR 0018): pure, so the reservations screen and the
// audit log name them alike.
/** Reservation states (db/schema RESERVATION_STATUSES spelled the same). */
export const RESERVATION_STATUSES = ["ACTIVE", "USED", "EXPIRED", "CANCELLED", "REFUSED"] as const;
export const RESERVATION_STATUS_LABELS: Record<(typeof RESERVATION_STATUSES)[number], string> = {
  ACTIVE: "Activa",
  USED: "Usada",
  EXPIRED: "Vencida sin uso",
  CANCELLED: "Cancelada",
  REFUSED: "Rechazada por el cargador",
};
