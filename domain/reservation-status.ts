// Reservation states and their labels (ADR 0018): pure, so the reservations screen and the
// audit log name them alike.
/** Reservation states: REFUSED when the charger did not take it. */
export const RESERVATION_STATUSES = ["ACTIVE", "USED", "EXPIRED", "CANCELLED", "REFUSED"] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];
export const RESERVATION_STATUS_LABELS: Record<ReservationStatus, string> = {
  ACTIVE: "Activa",
  USED: "Usada",
  EXPIRED: "Vencida sin uso",
  CANCELLED: "Cancelada",
  REFUSED: "Rechazada por el cargador",
};
