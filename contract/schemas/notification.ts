// Push registration record. Pure: shared with the browser code that registers.
import { z } from "zod";
import { MSG } from "./messages";

const optionalString = (max: number) => z.string({ error: MSG.invalid }).max(max, { error: MSG.tooLong(max) }).nullable().optional();

/** POST /Business/Notification/PushRegistration — upsert by token. */
export const pushRegistrationSchema = z.object({
  token: z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true }).max(4096, { error: MSG.tooLong(4096) }),
  /** ISO date-time or epoch milliseconds; defaults to now. */
  createTime: z
    .union([z.iso.datetime({ offset: true, error: MSG.date }), z.number({ error: MSG.date }).int().positive()], { error: MSG.date })
    .optional(),
  auth: optionalString(512),
  p256dh: optionalString(512),
  endpoint: z
    .string({ error: MSG.invalid })
    .max(2048, { error: MSG.tooLong(2048) })
    .refine((v) => /^https:\/\/\S+$/.test(v), { error: "El endpoint debe ser una dirección https." })
    .nullable()
    .optional(),
  swScope: optionalString(2048),
  vapidKey: optionalString(512),
});
export type PushRegistrationInput = z.input<typeof pushRegistrationSchema>;
