// Reservation states and their labels (issue 25, ADR 0018), without zod, in a module of their own
// so the pages that import ./constants do not carry them (JS budget).
export { RESERVATION_STATUSES, RESERVATION_STATUS_LABELS } from "../../domain/reservation-status";
