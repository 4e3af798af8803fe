// Company registration and profile (the API's field names). Pure: shared with the forms.
import { z } from "zod";
import { cuit, phoneNumber, text } from "./common";
import { MSG } from "./messages";

export { BUSINESS_STATUSES, BUSINESS_STATUS_LABELS, type BusinessStatus } from "./constants";

export const registerBusinessSchema = z.object({
  businessName: text(120, 2),
  cuit,
  businessAddress: text(200, 3),
  phoneNumber,
});
export type RegisterBusinessInput = z.input<typeof registerBusinessSchema>;

/** The spec's placeholder for "no photo" (never stored). */
export const BLANK_PHOTO = "/images/blank.png";

/**
 * An absolute https URL that parses and carries no character a URL never needs raw (quotes,
 * angle brackets, backticks, spaces): such text is only ever an attempt to break out of an
 * attribute, and refusing it keeps it out of the database in the first place.
 */
function isPlainHttpsUrl(v: string): boolean {
  if (!/^https:\/\/[^\s"'<>`\\]+$/.test(v)) return false;
  try {
    return new URL(v).protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * A profile photo URL: one of ours (`/api/images/<sha256>.<ext>`), an https URL (e.g. the
 * identity provider's photo), or empty/null/the blank placeholder for none.
 */
export const photoUrl = z.preprocess(
  (v) => (v === "" || v === BLANK_PHOTO ? null : v),
  z
    .string({ error: MSG.invalid })
    .trim()
    .max(2048, { error: MSG.tooLong(2048) })
    .refine((v) => /^\/api\/images\/[0-9a-f]{64}\.(jpg|png|gif)$/.test(v) || isPlainHttpsUrl(v), {
      error: "La foto debe ser una imagen subida o una dirección https.",
    })
    .nullable(),
);

/** PATCH /Business/BusinessUser/Update: any subset of the profile fields. */
export const updateBusinessUserSchema = z.object({
  businessName: text(120, 2).optional(),
  cuit: cuit.optional(),
  businessAddress: text(200, 3).optional(),
  phoneNumber: phoneNumber.optional(),
  photoUrl: photoUrl.optional(),
});
export type UpdateBusinessUserInput = z.input<typeof updateBusinessUserSchema>;

/** DELETE /Business/Images/ProfilePicture */
export const deleteProfilePictureSchema = z.object({
  imageUrl: z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true }).max(2048, { error: MSG.tooLong(2048) }),
});
