// Roaming: the operator's OCPI party id, its partners and which stations it offers.
// Pure: shared with the forms of the Roaming screen.
import { z } from "zod";
import { pageQuery } from "./common";
import { MSG } from "./messages";

export const ROAMING_MESSAGES = {
  partyId: "Ingresá 3 letras o números (por ejemplo ENC).",
  versionsUrl: "Ingresá la URL de versiones del socio (https://…).",
  token: "Ingresá el token que te dio el socio (sin espacios, hasta 64 caracteres).",
  both: "Para registrarte con un socio completá su URL de versiones y su token; para invitarlo dejá los dos vacíos.",
  partyIdFirst: "Configurá tu party id antes de agregar socios.",
} as const;

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const roamingSettingsSchema = z.object({
  partyId: z
    .string({ error: MSG.required })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{3}$/, { error: ROAMING_MESSAGES.partyId }),
});
export type RoamingSettingsInput = z.input<typeof roamingSettingsSchema>;

/** Both empty: an invitation (token A for the partner). Both given: we register with the partner. */
export const roamingPartnerInputSchema = z
  .object({
    versionsUrl: z.preprocess(
      blankToUndefined,
      z
        .string({ error: ROAMING_MESSAGES.versionsUrl })
        .trim()
        .max(255, { error: MSG.tooLong(255) })
        .regex(/^https?:\/\/\S+$/i, { error: ROAMING_MESSAGES.versionsUrl })
        .optional(),
    ),
    token: z.preprocess(blankToUndefined, z.string({ error: ROAMING_MESSAGES.token }).trim().regex(/^[\x21-\x7E]{1,64}$/, { error: ROAMING_MESSAGES.token }).optional()),
  })
  .superRefine((v, ctx) => {
    if ((v.versionsUrl === undefined) !== (v.token === undefined)) {
      ctx.addIssue({ code: "custom", path: [v.versionsUrl === undefined ? "versionsUrl" : "token"], message: ROAMING_MESSAGES.both });
    }
  });
export type RoamingPartnerInput = z.input<typeof roamingPartnerInputSchema>;

export const roamingStationSchema = z.object({ roamingPublished: z.boolean({ error: MSG.invalid }) });

export const roamingPartnerListQuery = z.object({ ...pageQuery });
export const roamingStationListQuery = z.object({ ...pageQuery });
