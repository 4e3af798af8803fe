// Reservation states and their labels (ADR 0018), without zod, in a module of their own
// so the pages that import ./constants do not carry them (JS budget).
export { RESERVATION_STATUSES, RESERVATION_STATUS_LABELS } from "../../domain/reservation-status";

/** How far ahead a reservation may end (chargers hold them in memory; a day is plenty). */
export const RESERVATION_MAX_HOURS = 24;

/** The Reservas screen's subtitle: a reservation lasts until the time chosen, at most RESERVATION_MAX_HOURS. */
export const RESERVATIONS_DESCRIPTION = `Conectores guardados para una tarjeta hasta la hora que elijas, como máximo ${RESERVATION_MAX_HOURS} horas. Una reserva que vence sin uso se cobra con el cargo por no presentarse de la tarifa.`;
