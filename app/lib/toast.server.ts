import { data } from "react-router";
import { dataWithToast as flashToast, getToast, type ToastMessage } from "remix-toast";
import { appContext, setPendingToast, type RequestContext } from "~/lib/context";

export type ToastType = ToastMessage["type"];

/**
 * Answer an action with data and a toast, in both worlds:
 * - JavaScript on (single-fetch data request): remix-toast's flash cookie, read by the root
 *   loader when React Router revalidates right after.
 * - JavaScript off (document POST): the root loader runs in this same response, so the toast
 *   travels through the request context instead of a cookie the browser has not sent yet.
 */
export async function dataWithToast<T>(
  context: RequestContext,
  payload: T,
  toast: ToastMessage,
  init?: ResponseInit,
) {
  if (appContext(context).isDataRequest) return flashToast(payload, toast, init);
  setPendingToast(context, toast);
  return data(payload, init);
}

export const dataWithError = <T,>(context: RequestContext, payload: T, message: string, init?: ResponseInit) =>
  dataWithToast(context, payload, { type: "error", message }, init);
export const dataWithSuccess = <T,>(context: RequestContext, payload: T, message: string, init?: ResponseInit) =>
  dataWithToast(context, payload, { type: "success", message }, init);

export { redirectWithError, redirectWithInfo, redirectWithSuccess, redirectWithWarning } from "remix-toast";

/** remix-toast's flash cookie (its default name: the app does not rename it). */
const TOAST_COOKIE = /(?:^|;\s*)toast-session=/;

/**
 * The flash toast the request's cookie carries, and the Set-Cookie that clears it. remix-toast
 * signs a new cookie (HMAC through WebCrypto) each time it looks, toast or not; a request that
 * carries no toast cookie — nearly every page — has nothing to read and nothing to clear.
 */
export async function readToast(request: Request): Promise<{ toast?: ToastMessage; headers?: Headers }> {
  if (!TOAST_COOKIE.test(request.headers.get("Cookie") ?? "")) return {};
  const { toast, headers } = await getToast(request);
  return { toast, headers };
}
