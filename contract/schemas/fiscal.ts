// A company's fiscal settings for ARCA electronic invoices. Pure: shared with the form.
import { z } from "zod";
import { ARCA_ENVIRONMENTS, TAX_CONDITIONS } from "./constants";
import { MSG } from "./messages";

/** A PEM file's text is a few KB; anything much larger is not a certificate or a key. */
export const PEM_MAX_CHARS = 16_000;

const pem = (what: string, marker: RegExp) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z
      .string({ error: MSG.invalid })
      .trim()
      .max(PEM_MAX_CHARS, { error: `El archivo es demasiado grande para ser ${what}.` })
      .regex(marker, { error: `No parece ${what} en formato PEM.` })
      .optional(),
  );

/** PUT /Business/Fiscal. The certificate and key go together; absent, the stored ones stay. */
export const fiscalSettingsSchema = z
  .object({
    taxCondition: z.enum(TAX_CONDITIONS, { error: "Elegí la condición frente al IVA." }),
    pointOfSale: z.coerce
      .number({ error: "Ingresá el número del punto de venta." })
      .int({ error: "El punto de venta es un número entero." })
      .min(1, { error: "El punto de venta va de 1 a 99999." })
      .max(99_999, { error: "El punto de venta va de 1 a 99999." }),
    environment: z.enum(ARCA_ENVIRONMENTS, { error: "Elegí el entorno de ARCA." }),
    certificate: pem("un certificado", /-----BEGIN CERTIFICATE-----/),
    privateKey: pem("una clave privada", /-----BEGIN (RSA |EC |)PRIVATE KEY-----/),
  })
  .superRefine((v, ctx) => {
    if (v.certificate && !v.privateKey) ctx.addIssue({ code: "custom", path: ["privateKey"], message: "Subí la clave privada del certificado (van juntos)." });
    if (v.privateKey && !v.certificate) ctx.addIssue({ code: "custom", path: ["certificate"], message: "Subí el certificado de esa clave privada (van juntos)." });
  });
export type FiscalSettingsInput = z.input<typeof fiscalSettingsSchema>;
