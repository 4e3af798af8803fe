// Payment-provider accounts (Mercado Pago, Pagos360). Pure: shared with the forms.
import { z } from "zod";
import { text } from "./common";
import { MSG } from "./messages";

export const MP_CREDENTIAL_RE = /^(APP_USR|TEST)-[A-Za-z0-9-]{8,200}$/;
export const MP_CREDENTIAL_MESSAGE = "Debe empezar con APP_USR- o TEST- (copiala de tu panel de Mercado Pago).";

const mpCredential = z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true }).regex(MP_CREDENTIAL_RE, { error: MP_CREDENTIAL_MESSAGE });

/** PUT /MercadoPago/BusinessUser */
export const mercadoPagoConnectSchema = z
  .object({
    publicKey: mpCredential,
    accessToken: mpCredential,
    accountLabel: text(80).optional(),
    /** The webhook "secret signature" of the Mercado Pago application (verifies x-signature). */
    webhookSecret: z
      .string()
      .trim()
      .max(200, { error: MSG.tooLong(200) })
      .regex(/^[A-Za-z0-9._-]*$/, { error: "La clave secreta solo tiene letras, números, puntos y guiones." })
      .optional(),
  })
  .superRefine((v, ctx) => {
    const ok = MP_CREDENTIAL_RE.test(v.publicKey) && MP_CREDENTIAL_RE.test(v.accessToken);
    if (ok && v.publicKey.split("-")[0] !== v.accessToken.split("-")[0]) {
      ctx.addIssue({
        code: "custom",
        path: ["accessToken"],
        message: "La clave pública y el access token deben ser del mismo entorno (ambos TEST- o ambos APP_USR-).",
      });
    }
  });
export type MercadoPagoConnectInput = z.input<typeof mercadoPagoConnectSchema>;

/** PUT /Pagos360/BusinessUser */
export const pagos360ConnectSchema = z.object({
  apiKey: z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required, abort: true })
    .min(16, { error: "La API key de Pagos360 tiene al menos 16 caracteres." })
    .max(200, { error: MSG.tooLong(200) })
    .regex(/^[A-Za-z0-9._-]+$/, { error: "La API key solo tiene letras, números, puntos y guiones." }),
  accountName: text(80),
});
export type Pagos360ConnectInput = z.input<typeof pagos360ConnectSchema>;

export const REFUND_AMOUNT_MESSAGE = "Ingresá el monto que devolviste: tiene que ser mayor que cero.";

/**
 * POST /Business/Payments/{id}/Refund (ADR 0017): a refund the company made by hand
 * (Pagos360 has no refund call), in centavos; without it, all that is owed. The API checks it
 * against what is owed.
 */
export const paymentRefundSchema = z.object({
  amountCents: z
    .number({ error: REFUND_AMOUNT_MESSAGE })
    .int({ error: REFUND_AMOUNT_MESSAGE })
    .positive({ error: REFUND_AMOUNT_MESSAGE })
    .max(100_000_000, { error: "El monto es demasiado grande." })
    .optional(),
});
export type PaymentRefundInput = z.input<typeof paymentRefundSchema>;
