// The public driver pages' calls: a checkout at a connector and the stop. Pure: the
// page's form uses the same rules.
import { z } from "zod";
import { parseCuit } from "#domain/cuit";
import { PAYMENT_PROVIDERS } from "./constants";

export const DRIVER_EMAIL_MESSAGE = "Ingresá un correo válido para recibir el comprobante.";
export const DRIVER_TERMS_MESSAGE = "Para pagar tenés que aceptar los términos.";
export const DRIVER_CUIT_MESSAGE = "Revisá el CUIT: tiene que tener 11 dígitos y un dígito verificador válido.";

/** POST /Driver/Charge/{identity}/{connector} */
export const driverCheckoutSchema = z.object({
  amountCents: z.coerce.number({ error: "Elegí un monto." }).int({ error: "Elegí un monto." }).positive({ error: "Elegí un monto." }),
  email: z.email({ error: DRIVER_EMAIL_MESSAGE }).max(254, { error: DRIVER_EMAIL_MESSAGE }),
  provider: z.enum(PAYMENT_PROVIDERS, { error: "Elegí un medio de pago." }),
  acceptTerms: z.literal(true, { error: DRIVER_TERMS_MESSAGE }),
  requestKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, { error: "Volvé a cargar la página y probá de nuevo." }),
  /** Optional: a driver who wants a Factura A gives their company's CUIT (check digit verified) and name. */
  buyerCuit: z
    .string()
    .trim()
    .max(20, { error: DRIVER_CUIT_MESSAGE })
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const parsed = parseCuit(v);
      if (!parsed.ok) {
        ctx.addIssue({ code: "custom", message: DRIVER_CUIT_MESSAGE });
        return z.NEVER;
      }
      return parsed.cuit;
    }),
  buyerName: z.string().trim().max(120, { error: "La razón social puede tener hasta 120 caracteres." }).optional().transform((v) => v || undefined),
}).superRefine((v, ctx) => {
  if (v.buyerCuit && !v.buyerName) ctx.addIssue({ code: "custom", path: ["buyerName"], message: "Ingresá la razón social para la factura A." });
});
export type DriverCheckoutInput = z.input<typeof driverCheckoutSchema>;

/** POST /Driver/Payment/{id}/Stop, and GET /Driver/Payment/{id}?t= */
export const driverTokenSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, { error: "El enlace no es válido." }) });

/** GET /Driver/Payment/{id}?t=: the link's secret; a missing or wrong one is the payment's 404. */
export const driverPaymentQuery = z.object({ t: z.string().optional() });
