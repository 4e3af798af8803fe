// The server side every "one row of the company" screen shares (rates, RFID tags, access groups,
// reservations): reading one row or a page, saving the form, deleting with a toast, and the
// choices the forms offer, all through the typed client. A screen describes its resource once
// (its endpoints, list, words and form fields) and its route modules call these helpers.
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { EndpointDef, Output } from "#contract/endpoints";
import { endpoints } from "#contract/endpoints";
import { UUID_RE } from "#contract/schemas/constants";
import type { StationOptionDto } from "#contract/dto";
import { createApiClient, UNREACHABLE_PROBLEM, type ApiClient, type ApiProblem, type ApiResult } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { appContext, type RequestContext } from "~/lib/context";
import { doneMessage, type DoneItem } from "~/lib/done-message";
import { idempotencyInit } from "~/lib/form-token";
import { problemReply } from "~/lib/problem-reply";
import { notFound, unavailable } from "~/lib/responses.server";
import { dataWithError, redirectWithError, redirectWithSuccess } from "~/lib/toast.server";

/** What these screens say when the API could not be reached. */
export const UNAVAILABLE = "No pudimos comunicarnos con el servidor. Probá de nuevo en unos minutos.";

/** The client for this request, acting as the signed-in user (the guard checks the screen's permission). */
export async function apiFor(request: Request, context: RequestContext): Promise<ApiClient> {
  const user = await requireUser(request, context);
  return createApiClient(context, user.idToken);
}

/**
 * The status of an answer that carries a toast. With JavaScript, React Router (single fetch) skips
 * revalidating loaders after a 4xx/5xx action, so the root loader would not read the toast's
 * flash cookie until some later navigation; such answers go out as 200 on data requests. A
 * document request (no JavaScript) keeps the real status: the toast travels in the same HTML.
 */
export function toastStatus(context: RequestContext, status: number): number {
  return appContext(context).isDataRequest ? 200 : status;
}

/** The `:id` of a row, or the 404 screen (an id that cannot exist is simply not found). */
export function idParam(id: string | undefined): string {
  if (!id || !UUID_RE.test(id)) notFound();
  return id;
}

const unreachable = (result: { status: number; problem: { type?: string } }) => result.problem.type === UNREACHABLE_PROBLEM && result.status === 503;

/** What a page needs to show: the answer's data, the 503 screen when the API never answered, else 502. */
export function ensureLoaded<T>(result: ApiResult<T>): T {
  if (result.ok) return result.data;
  if (unreachable(result)) unavailable(UNAVAILABLE);
  throw data({ message: UNAVAILABLE }, { status: 502 });
}

/**
 * The refusal with only the messages of the form's own fields: a message about a field the form
 * does not show is left out, so the form says the problem's title instead.
 */
export function onlyFields<R extends { status: number; problem: ApiProblem }>(result: R, fields: ReadonlySet<string>): R {
  const errors = Object.fromEntries(Object.entries(result.problem.errors ?? {}).filter(([field]) => fields.has(field)));
  return { ...result, problem: { ...result.problem, errors } };
}

/** A resource's endpoints (one row by `:id`, its output T) and how its screens word it. */
export interface Resource<T> {
  get: EndpointDef & { output: Output<T> };
  create: EndpointDef;
  update: EndpointDef;
  remove: EndpointDef;
  /** The screen's list, where a save or delete goes back to. */
  list: string;
  item: DoneItem;
  /** The row's name in the toasts. */
  nameOf: (row: T) => string;
  gone: string;
  saveFailed: string;
  deleteFailed: string;
  /** The form's fields: the API's messages on these go on the field, the rest on the form. */
  fields: ReadonlySet<string>;
}

/** The untyped view of `api.call`, for an endpoint only known as part of a Resource. */
type AnyCall = (endpoint: EndpointDef, input?: { params?: Record<string, string>; body?: unknown; headers?: HeadersInit }) => Promise<ApiResult<unknown>>;
const callOf = (api: ApiClient) => api.call.bind(api) as unknown as AnyCall;

/** One of the company's rows; unknown or another company's → the 404 screen. */
export async function loadOne<T>(api: ApiClient, r: Resource<T>, id: string): Promise<T> {
  const result = (await callOf(api)(r.get, { params: { id } })) as ApiResult<T>;
  if (!result.ok && (result.status === 404 || result.status === 400)) notFound();
  return ensureLoaded(result);
}

/** The row a list asks to confirm deleting (`?delete=<id>`): on this page, or read; null otherwise. */
export async function rowToDelete<T extends { id: string }>(api: ApiClient, r: Resource<T>, items: T[], deleteId: string | null): Promise<T | null> {
  if (!deleteId || !UUID_RE.test(deleteId)) return null;
  const here = items.find((row) => row.id === deleteId);
  if (here) return here;
  const result = await callOf(api)(r.get, { params: { id: deleteId } }).catch(() => undefined);
  return result?.ok ? (result.data as T) : null;
}

/**
 * Create (no `id`) or update: validate with the form schema, send to the API; its per-field
 * errors land on the fields, anything else becomes a toast; nothing typed is lost. `extra` goes
 * with every answer that re-renders the form.
 */
export async function saveResource<T, S extends z.ZodType, X extends object = object>(
  context: RequestContext,
  api: ApiClient,
  formData: FormData,
  r: Resource<T>,
  schema: S,
  opts: { id?: string; nameOf: (value: z.output<S>) => string; extra?: X },
) {
  const extra = (opts.extra ?? {}) as X;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ result: submission.reply(), ...extra }, { status: 400 });
  const call = callOf(api);
  const result = opts.id
    ? await call(r.update, { params: { id: opts.id }, body: submission.value })
    : await call(r.create, { body: submission.value, headers: idempotencyInit(formData)?.headers });
  if (result.ok) return redirectWithSuccess(r.list, doneMessage(opts.id ? "saved" : "created", r.item, opts.nameOf(submission.value)));
  if (result.status === 404) return redirectWithError(r.list, r.gone);
  const fallback = unreachable(result) ? UNAVAILABLE : r.saveFailed;
  const { reply, status, message } = problemReply(submission, onlyFields(result, r.fields), { fallback, firstOnly: true });
  return dataWithError(context, { result: reply, ...extra }, message, { status: toastStatus(context, status) });
}

/** Delete: back to the list with a toast; a refusal (409: still in use) → the API's message. */
export async function deleteResource<T>(context: RequestContext, api: ApiClient, r: Resource<T>, id: string) {
  const call = callOf(api);
  // Its name, for the toast (a missing one only shortens the message).
  const current = await call(r.get, { params: { id } }).catch(() => undefined);
  const name = current?.ok ? r.nameOf(current.data as T) : undefined;
  const result = await call(r.remove, { params: { id } });
  if (result.ok) return redirectWithSuccess(r.list, doneMessage("deleted", r.item, name));
  if (result.status === 404 || result.status === 400) return redirectWithError(r.list, r.gone);
  if (unreachable(result)) return dataWithError(context, { deleteError: UNAVAILABLE }, UNAVAILABLE, { status: toastStatus(context, 503) });
  const message = (result.problem.type !== UNREACHABLE_PROBLEM && result.problem.title) || r.deleteFailed;
  return dataWithError(context, { deleteError: message }, message, { status: toastStatus(context, result.status >= 500 ? 502 : result.status) });
}

/** A list's action: only `intent=delete` with an id. */
export async function listDeleteAction<T>(request: Request, context: RequestContext, r: Resource<T>) {
  const api = await apiFor(request, context);
  const formData = await request.formData();
  const id = String(formData.get("id") ?? "");
  if (formData.get("intent") !== "delete" || !UUID_RE.test(id)) {
    return data({ deleteError: "No entendimos qué querías hacer. Probá de nuevo." }, { status: 400 });
  }
  return deleteResource(context, api, r, id);
}

// The choices the forms offer: a company has few of each, so the first page by name is all of them.

/** The company's access groups as choices (the first 100 by name). */
export async function groupOptions(api: ApiClient): Promise<{ id: string; name: string }[]> {
  const page = ensureLoaded(await api.call(endpoints.accessGroupList, { query: new URLSearchParams({ pageSize: "100", sort: "name" }) }));
  return page.items.map(({ id, name }) => ({ id, name }));
}

/** The company's stations as choices. */
export async function stationOptions(api: ApiClient): Promise<StationOptionDto[]> {
  return ensureLoaded(await api.call(endpoints.stationOptions, { query: new URLSearchParams({ pageSize: "500" }) })).items;
}

/** The company's rates as choices, or null when the role may not see them (the API says 403). */
export async function rateOptions(api: ApiClient): Promise<{ id: string; name: string }[] | null> {
  const result = await api.call(endpoints.rateList, { query: new URLSearchParams({ pageSize: "100", sort: "name" }) }).catch(() => undefined);
  return result?.ok ? result.data.items.map(({ id, name }) => ({ id, name })) : null;
}
