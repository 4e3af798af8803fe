// The two refusals a screen's loader or action throws for the app layout's error boundary to show
// inside the app: "not found" (404) and "could not be read now" (503). Every screen throws them
// through these helpers, so the boundary always gets the same shape (`{ message }` and a status).
import { data } from "react-router";

/** What a screen says when the data it needs cannot be read right now, and when to retry. */
export const UNAVAILABLE_MESSAGE = "No pudimos cargar los datos en este momento. Probá de nuevo en unos minutos.";

/**
 * The 404 screen. A row that never existed, belongs to another company or has a malformed id looks
 * the same, so nobody learns which ids exist elsewhere.
 */
export function notFound(message = "No encontramos lo que buscás."): never {
  throw data({ message }, { status: 404, statusText: "Not Found" });
}

/** `value`, or the 404 screen when it is missing (null, undefined or false). */
export function ensureFound<T>(value: T | null | undefined | false, message?: string): T {
  if (value === null || value === undefined || value === false) notFound(message);
  return value;
}

/** The 503 screen: the API failed or could not be reached; `message` says what could not be read. */
export function unavailable(message: string = UNAVAILABLE_MESSAGE): never {
  throw data({ message }, { status: 503 });
}

/**
 * A voucher's PDF from the API, passed on to the browser: opened in place, never cached (it names
 * a company and a buyer), and with `noReferrer` when the page's address carries a secret.
 */
export function pdfResponse(upstream: Response, fallbackFilename: string, { noReferrer = false } = {}): Response {
  return new Response(upstream.body, {
    status: 200,
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": upstream.headers.get("Content-Disposition") ?? `inline; filename="${fallbackFilename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      ...(noReferrer ? { "Referrer-Policy": "no-referrer" } : {}),
    },
  });
}
