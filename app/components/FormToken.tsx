import { FORM_TOKEN_FIELD } from "~/lib/form-token";

/** The create form's one-time token (see app/lib/form-token.ts). */
export function FormToken({ value }: { value?: string }) {
  return value ? <input type="hidden" name={FORM_TOKEN_FIELD} value={value} /> : null;
}
