// The new reservation form: the API's own schema (contract/schemas/reservation.ts), so the
// browser, the action and the API give the same Spanish messages on the same fields. Loaded lazily.
import { parseWithZod } from "@conform-to/zod/v4";
import { reservationInputSchema } from "#contract/schemas/reservation";

export const reservationFormSchema = reservationInputSchema;
export const validateReservationForm = (formData: FormData) => parseWithZod(formData, { schema: reservationFormSchema });
