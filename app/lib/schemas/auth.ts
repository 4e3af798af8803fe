// The auth forms' schemas: one zod schema per form, shared by the browser
// (conform validates on blur/change) and the server (the action parses the same FormData).
// Pure and browser-safe: no server imports. Messages are es-AR; each rule has its own message
// and the UI shows only the first failing one.
import { z } from "zod";
import { formatCuit, parseCuit } from "#domain/cuit";
import { messages, PASSWORD_MAX, PASSWORD_MIN } from "../auth-messages";

export { messages, PASSWORD_HINT, PASSWORD_MAX, PASSWORD_MIN } from "../auth-messages";

const email = z
  .string({ error: messages.emailRequired })
  .trim()
  .max(254, { error: messages.emailInvalid, abort: true })
  .pipe(z.email({ error: messages.emailInvalid }))
  .transform((value) => value.toLowerCase());

/** The password being typed to sign in: any non-empty value (the old rules may have been shorter). */
const currentPassword = z.string({ error: messages.passwordRequired }).max(PASSWORD_MAX, { error: messages.passwordTooLong });

/** A new password: the rule the user sees before submitting. */
const newPassword = z
  .string({ error: messages.newPasswordRequired })
  .min(PASSWORD_MIN, { error: messages.passwordTooShort, abort: true })
  .max(PASSWORD_MAX, { error: messages.passwordTooLong });

const confirmPassword = z.string({ error: messages.confirmRequired });

/** Both new-password fields present: compare them even if another field still fails. */
function passwordsMatch<S extends z.ZodObject<{ password: z.ZodType<string>; confirmPassword: z.ZodType<string> }>>(schema: S) {
  return schema.refine((value) => value.password === value.confirmPassword, {
    error: messages.passwordsDiffer,
    path: ["confirmPassword"],
    when: (payload) => {
      const v = payload.value as Partial<Record<string, unknown>> | undefined;
      return typeof v?.password === "string" && typeof v?.confirmPassword === "string";
    },
  });
}

const redirectTo = z.string().optional();

export const loginSchema = z.object({
  email,
  password: currentPassword,
  redirectTo,
});
export type LoginInput = z.output<typeof loginSchema>;

export const registerSchema = passwordsMatch(
  z.object({
    email,
    password: newPassword,
    confirmPassword,
    terms: z.boolean({ error: messages.termsRequired }).refine((v) => v, { error: messages.termsRequired }),
  }),
);
export type RegisterInput = z.output<typeof registerSchema>;

export const resetPasswordSchema = z.object({ email });
export type ResetPasswordInput = z.output<typeof resetPasswordSchema>;

export const confirmPasswordSchema = passwordsMatch(
  z.object({
    oobCode: z.string({ error: messages.oobCodeMissing }).min(1, { error: messages.oobCodeMissing }),
    password: newPassword,
    confirmPassword,
  }),
);
export type ConfirmPasswordInput = z.output<typeof confirmPasswordSchema>;

/** CUIT: `20-12345678-3` or 11 plain digits; prefix and check digit verified (domain/cuit.ts). Output: 11 digits. */
export const cuitField = z
  .string({ error: messages.cuitRequired })
  .trim()
  .superRefine((value, ctx) => {
    const parsed = parseCuit(value);
    if (parsed.ok) return;
    const message = parsed.problem === "format" ? messages.cuitFormat : parsed.problem === "prefix" ? messages.cuitPrefix : messages.cuitCheckDigit;
    ctx.addIssue({ code: "custom", message });
  })
  .transform((value) => {
    const parsed = parseCuit(value);
    return parsed.ok ? parsed.cuit : value;
  });

const PHONE_CHARS = /^\+?[\d\s().-]+$/;

export const companySchema = z.object({
  businessName: z
    .string({ error: messages.businessNameRequired })
    .trim()
    .min(2, { error: messages.businessNameShort, abort: true })
    .max(120, { error: messages.businessNameLong }),
  cuit: cuitField,
  businessAddress: z
    .string({ error: messages.addressRequired })
    .trim()
    .min(5, { error: messages.addressShort, abort: true })
    .max(200, { error: messages.addressLong }),
  phoneNumber: z
    .string({ error: messages.phoneRequired })
    .trim()
    .regex(PHONE_CHARS, { error: messages.phoneInvalid, abort: true })
    .refine(
      (value) => {
        const digits = value.replace(/\D/g, "").length;
        return digits >= 8 && digits <= 15;
      },
      { error: messages.phoneInvalid },
    ),
  redirectTo,
});
export type CompanyInput = z.output<typeof companySchema>;

/** How a normalized CUIT is shown back to the user. */
export { formatCuit };
