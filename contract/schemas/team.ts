// The team: invitations, role changes, joining with an invitation, the audit log's
// filters. Pure: the Equipo and Auditoría forms use them too.
import { z } from "zod";
import { ASSIGNABLE_ROLES, ROLES } from "#domain/permissions";
import { AUDIT_RESOURCES } from "#domain/audit";
import { isoDate, isoDateEnd, pageQuery } from "./common";
import { MSG } from "./messages";

export const INVITE_EMAIL_MESSAGE = "Ingresá el correo electrónico de la persona a invitar.";

const email = z
  .string({ error: INVITE_EMAIL_MESSAGE })
  .trim()
  .toLowerCase()
  .min(1, { error: INVITE_EMAIL_MESSAGE })
  .max(254, { error: MSG.email })
  .pipe(z.email({ error: MSG.email }));

export const ROLE_CHOICE_MESSAGE = "Elegí un rol de la lista.";

/** POST /Business/Invitation */
export const invitationInputSchema = z.object({
  email,
  role: z.enum(ASSIGNABLE_ROLES, { error: ROLE_CHOICE_MESSAGE }),
});

/** PATCH /Business/Member/:id — OWNER transfers the ownership (only the owner may). */
export const memberPatchSchema = z.object({
  role: z.enum(ROLES, { error: ROLE_CHOICE_MESSAGE }),
});

/** The invitation link's token: 43 base64url characters (32 random bytes). */
export const invitationTokenSchema = z.object({
  token: z.string({ error: "Falta el código de la invitación." }).trim().regex(/^[A-Za-z0-9_-]{20,128}$/, { error: "El enlace de la invitación no es válido." }),
});

export const auditQuery = z
  .object({
    resource: z.enum(AUDIT_RESOURCES, { error: MSG.invalidOption }).optional(),
    /** The actor's e-mail. */
    actor: z.string().trim().toLowerCase().max(254, { error: MSG.tooLong(254) }).optional(),
    from: isoDate.optional(),
    to: isoDateEnd.optional(),
    ...pageQuery,
  })
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.from >= v.to) ctx.addIssue({ code: "custom", path: ["to"], message: "La fecha 'hasta' debe ser posterior a 'desde'." });
  });
export const auditExportQuery = auditQuery;
