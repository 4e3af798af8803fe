// Every form post of the dashboard, before any action reads it: the actions read forms
// (request.formData()), so a body of another type (JSON, text/plain) or a multipart body that does
// not parse is refused here, in Spanish, instead of failing inside an action as a 500. The texts
// and dates in a form that parses are each form's schema's and the Business API's to judge (a
// NUL or a date out of range is a field error there).
import { data, type MiddlewareFunction } from "react-router";

export const FORM_TYPE_MESSAGE = "El formulario tiene que enviarse desde la página (como formulario, no como JSON ni texto).";
export const FORM_BROKEN_MESSAGE = "El formulario llegó incompleto o dañado. Volvé a cargar la página y probá de nuevo.";
const FORM_TYPE_RE = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/** Throws a 415/400 (rendered by the root error boundary) for a post that is not a readable form. */
export async function checkFormPost(request: Request): Promise<void> {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method) || request.body === null) return;
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPE_RE.test(type)) throw data({ message: FORM_TYPE_MESSAGE }, { status: 415 });
  // A urlencoded body always parses (any bytes are a form); only a multipart one can be broken,
  // so only that one is read here, ahead of the action that reads it again.
  if (!/^\s*multipart\/form-data\b/i.test(type)) return;
  try {
    await request.clone().formData();
  } catch {
    throw data({ message: FORM_BROKEN_MESSAGE }, { status: 400 });
  }
}

export const formGuard: MiddlewareFunction<Response> = async ({ request }, next) => {
  await checkFormPost(request);
  return next();
};
