// OCPP 2.0.1 Reservation: the charger reports that a reservation expired or was removed on its
// side. Making and cancelling reservations are commands (ocpp/reservations.ts).
import type { ChargerLink, HandlerContext } from "../handler-context";
import { reservationStatusUpdate } from "../reservations";

export function registerReservations(ctx: HandlerContext, { ref, handle, seen }: ChargerLink) {
  handle("ReservationStatusUpdate", async ({ params }) => {
    const created = await reservationStatusUpdate(ctx.db, ref, params as { reservationId: number; reservationUpdateStatus: string }, ctx.now());
    await seen();
    ctx.announce(ref.businessId, "session", ref.id, created);
    return {};
  });
}
