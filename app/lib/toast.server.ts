import { data } from "react-router";
import { dataWithToast as flashToast, type ToastMessage } from "remix-toast";
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

export { redirectWithError, redirectWithInfo, redirectWithSuccess, redirectWithWarning, getToast } from "remix-toast";
