import { data, type AppLoadContext } from "@remix-run/node";
import { jsonWithToast, type ToastMessage } from "remix-toast";

export type ToastType = ToastMessage["type"];

/**
 * Answer an action with data and a toast, in both worlds:
 * - JavaScript on (single-fetch data request): remix-toast's flash cookie, read by the root
 *   loader when Remix revalidates right after.
 * - JavaScript off (document POST): the root loader runs in this same response, so the toast
 *   travels through the request context instead of a cookie the browser has not sent yet.
 */
export async function dataWithToast<T>(
  context: AppLoadContext,
  payload: T,
  toast: ToastMessage,
  init?: ResponseInit,
) {
  if (context.isDataRequest) {
    const response = await jsonWithToast(payload, toast, init);
    return data(payload, { status: init?.status ?? 200, headers: response.headers });
  }
  context.pendingToast = toast;
  return data(payload, init);
}

export const dataWithError = <T,>(context: AppLoadContext, payload: T, message: string, init?: ResponseInit) =>
  dataWithToast(context, payload, { type: "error", message }, init);
export const dataWithSuccess = <T,>(context: AppLoadContext, payload: T, message: string, init?: ResponseInit) =>
  dataWithToast(context, payload, { type: "success", message }, init);

export { redirectWithError, redirectWithInfo, redirectWithSuccess, redirectWithWarning, getToast } from "remix-toast";
