// The public driver pages' calls: a checkout at a connector and the stop. Pure: the
// page's form uses the same rules.
import { z } from "zod";
import { PAYMENT_PROVIDERS } from "./constants";

export const DRIVER_EMAIL_MESSAGE = "Ingresá un correo válido para recibir el comprobante.";
export const DRIVER_TERMS_MESSAGE = "Para pagar tenés que aceptar los términos.";

/** POST /Driver/Charge/{identity}/{connector} */
export const driverCheckoutSchema = z.object({
  amountCents: z.coerce.number({ error: "Elegí un monto." }).int({ error: "Elegí un monto." }).positive({ error: "Elegí un monto." }),
  email: z.email({ error: DRIVER_EMAIL_MESSAGE }).max(254, { error: DRIVER_EMAIL_MESSAGE }),
  provider: z.enum(PAYMENT_PROVIDERS, { error: "Elegí un medio de pago." }),
  acceptTerms: z.literal(true, { error: DRIVER_TERMS_MESSAGE }),
  requestKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, { error: "Volvé a cargar la página y probá de nuevo." }),
});
export type DriverCheckoutInput = z.input<typeof driverCheckoutSchema>;

/** POST /Driver/Payment/{id}/Stop, and GET /Driver/Payment/{id}?t= */
export const driverTokenSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, { error: "El enlace no es válido." }) });

/** GET /Driver/Payment/{id}?t=: the link's secret; a missing or wrong one is the payment's 404. */
export const driverPaymentQuery = z.object({ t: z.string().optional() });
