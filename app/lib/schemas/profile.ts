// "Mi perfil" forms' schemas (browser and server): the registration rules for the company
// profile, and the password change. The screen loads this module lazily (docs/benchmarks.md §1).
import { z } from "zod";
import { profileMessages } from "../profile";
import { companySchema, cuitField, messages as authMessages, PASSWORD_MAX, PASSWORD_MIN } from "./auth";

const base = companySchema.omit({ redirectTo: true, cuit: true, businessName: true }).extend({
  businessName: z
    .string({ error: profileMessages.nameRequired })
    .trim()
    .min(2, { error: profileMessages.nameShort, abort: true })
    .max(120, { error: profileMessages.nameLong }),
});

/** The profile form: the registration rules; the CUIT only while the company is not approved. */
export function profileSchema(cuitEditable: boolean) {
  // Not editable: the field is not on the form and the server drops it; nothing to check.
  return base.extend({ cuit: cuitEditable ? cuitField : cuitField.optional() });
}
export type ProfileInput = z.output<ReturnType<typeof profileSchema>>;

/** "Cambiar contraseña": the current one, the new one twice. */
export const passwordChangeSchema = z
  .object({
    currentPassword: z
      .string({ error: profileMessages.currentPasswordRequired })
      .max(PASSWORD_MAX, { error: authMessages.passwordTooLong }),
    newPassword: z
      .string({ error: authMessages.newPasswordRequired })
      .min(PASSWORD_MIN, { error: authMessages.passwordTooShort, abort: true })
      .max(PASSWORD_MAX, { error: authMessages.passwordTooLong }),
    confirmPassword: z.string({ error: authMessages.confirmRequired }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: authMessages.passwordsDiffer,
    path: ["confirmPassword"],
    when: (payload) => {
      const v = payload.value as Partial<Record<string, unknown>> | undefined;
      return typeof v?.newPassword === "string" && typeof v?.confirmPassword === "string";
    },
  })
  .refine((v) => v.newPassword !== v.currentPassword, {
    error: profileMessages.samePassword,
    path: ["newPassword"],
    when: (payload) => {
      const v = payload.value as Partial<Record<string, unknown>> | undefined;
      return typeof v?.newPassword === "string" && typeof v?.currentPassword === "string" && v.newPassword.length >= PASSWORD_MIN;
    },
  });
export type PasswordChangeInput = z.output<typeof passwordChangeSchema>;
