// One-time form tokens: a create form carries a random token that its action sends
// to the Business API as `Idempotency-Key`, so the same form submitted twice (double click, back
// and resubmit, a retry) creates one record.
export const FORM_TOKEN_FIELD = "formToken";
const TOKEN_RE = /^[A-Za-z0-9_-]{8,128}$/;

/** A new token for a create form's loader. */
export function newFormToken(): string {
  return crypto.randomUUID();
}

/** The request options carrying the form's token to the API (none when the form has none). */
export function idempotencyInit(formData: FormData): { headers: Record<string, string> } | undefined {
  const token = formData.get(FORM_TOKEN_FIELD);
  return typeof token === "string" && TOKEN_RE.test(token) ? { headers: { "Idempotency-Key": token } } : undefined;
}
