// Reservations (ADR 0018). Pure: shared with the form.
import { z } from "zod";
import { UUID_RE } from "./constants";
import { RESERVATION_MAX_HOURS, RESERVATION_STATUSES } from "./reservation-constants";
import { id, isoDate, pageQuery } from "./common";
import { MSG } from "./messages";
import { idTag } from "./tag";

export { RESERVATION_MAX_HOURS };

export const RESERVATION_MESSAGES = {
  connector: "Elegí un conector de la lista.",
  expiresAt: "Ingresá hasta cuándo vale la reserva (fecha y hora).",
  past: "La reserva tiene que terminar en el futuro.",
  tooFar: `La reserva puede durar como máximo ${RESERVATION_MAX_HOURS} horas.`,
} as const;

export const reservationInputSchema = z.object({
  connectorId: z.string({ error: RESERVATION_MESSAGES.connector }).regex(UUID_RE, { error: RESERVATION_MESSAGES.connector }).transform((v) => v.toLowerCase()),
  idTag,
  /** ISO date-time; without an offset it is Buenos Aires local time (a datetime-local input). */
  expiresAt: z.string({ error: RESERVATION_MESSAGES.expiresAt }).min(1, { error: RESERVATION_MESSAGES.expiresAt, abort: true }).pipe(isoDate),
});
export type ReservationInput = z.input<typeof reservationInputSchema>;

/** GET /Business/Reservation: newest first, by station, charger or state. */
export const reservationListQuery = z.object({
  stationId: id.optional(),
  chargerId: id.optional(),
  status: z.enum(RESERVATION_STATUSES, { error: MSG.invalidOption }).optional(),
  ...pageQuery,
});
