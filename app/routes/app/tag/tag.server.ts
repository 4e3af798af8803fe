// Loader/action helpers of the RFID tag and access group screens (issue 25): every call goes to
// the Business API (/Business/Tag, /Business/AccessGroup) with the signed-in user's token.
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { createApiClient, readJson, type ApiProblem } from "~/lib/api.server";
import { dataWithError, redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { SessionUser } from "~/lib/session.server";
import { idempotencyInit } from "~/lib/form-token";
import { doneMessage, type DoneItem } from "~/lib/done-message";
import type { RequestContext } from "~/lib/context";
import { UUID_RE } from "#contract/schemas/constants";
import type { AccessGroupDto, Page, StationOptionDto, TagDto } from "#contract/dto";
import { toastStatus, UNAVAILABLE } from "../rate/rate.server";

export { UNAVAILABLE };

export interface Resource {
  /** API path of the collection. */
  api: "/Business/Tag" | "/Business/AccessGroup";
  /** The screen's list. */
  list: "/tag" | "/group";
  item: DoneItem;
  gone: string;
  saveFailed: string;
  deleteFailed: string;
  fields: ReadonlySet<string>;
}

export const TAGS: Resource = {
  api: "/Business/Tag",
  list: "/tag",
  item: "la tarjeta",
  gone: "La tarjeta ya no existe.",
  saveFailed: "No pudimos guardar la tarjeta. Revisá los datos e intentá de nuevo.",
  deleteFailed: "No pudimos eliminar la tarjeta. Probá de nuevo en unos minutos.",
  fields: new Set(["idTag", "holderName", "email", "expiresOn", "blocked", "groupId"]),
};

export const GROUPS: Resource = {
  api: "/Business/AccessGroup",
  list: "/group",
  item: "el grupo",
  gone: "El grupo ya no existe.",
  saveFailed: "No pudimos guardar el grupo. Revisá los datos e intentá de nuevo.",
  deleteFailed: "No pudimos eliminar el grupo. Probá de nuevo en unos minutos.",
  fields: new Set(["name", "allStations", "stationIds", "rateId"]),
};

const notFound = () => new Response(null, { status: 404, statusText: "Not Found" });

/** The `:id` of a tag or group, or the 404 screen. */
export function idParam(id: string | undefined): string {
  if (!id || !UUID_RE.test(id)) throw notFound();
  return id;
}

/** One of the company's rows; unknown or another company's → the 404 screen. */
export async function fetchOne<T>(context: RequestContext, user: SessionUser, r: Resource, id: string): Promise<T> {
  let response: Response;
  try {
    response = await createApiClient(context, user.idToken).get(`${r.api}/${encodeURIComponent(id)}`);
  } catch {
    throw new Response(UNAVAILABLE, { status: 503 });
  }
  if (response.status === 404 || response.status === 400) throw notFound();
  const body = response.ok ? await readJson<T>(response) : undefined;
  if (!body) throw new Response(UNAVAILABLE, { status: 502 });
  return body;
}

/** A page of a list (or the 503/502 screen). */
export async function fetchPage<T>(context: RequestContext, user: SessionUser, path: string): Promise<Page<T>> {
  let response: Response;
  try {
    response = await createApiClient(context, user.idToken).get(path);
  } catch {
    throw new Response(UNAVAILABLE, { status: 503 });
  }
  const body = response.ok ? await readJson<Page<T>>(response) : undefined;
  if (!body) throw new Response(UNAVAILABLE, { status: 502 });
  return body;
}

/** The company's groups as choices (a company has few; the first 100 by name). */
export async function groupOptions(context: RequestContext, user: SessionUser): Promise<{ id: string; name: string }[]> {
  const page = await fetchPage<AccessGroupDto>(context, user, "/Business/AccessGroup?pageSize=100&sort=name");
  return page.items.map(({ id, name }) => ({ id, name }));
}

export async function stationOptions(context: RequestContext, user: SessionUser): Promise<StationOptionDto[]> {
  return (await fetchPage<StationOptionDto>(context, user, "/Business/ChargingStation/Options?pageSize=500")).items;
}

/** The company's rates as choices, or null when the role may not see them (the API says 403). */
export async function rateOptions(context: RequestContext, user: SessionUser): Promise<{ id: string; name: string }[] | null> {
  const response = await createApiClient(context, user.idToken)
    .get("/Business/Fees?pageSize=100&sort=name")
    .catch(() => undefined);
  if (!response?.ok) return null;
  const body = await readJson<Page<{ id: string; name: string }>>(response);
  return body?.items.map(({ id, name }) => ({ id, name })) ?? null;
}

/**
 * Create or update: validate with the form schema, send to the API; its per-field errors land on
 * the fields, anything else becomes a toast; nothing typed is lost.
 */
export async function saveResource<S extends z.ZodType>(
  formData: FormData,
  context: RequestContext,
  user: SessionUser,
  r: Resource,
  schema: S,
  target: { method: "post" | "put"; path: string; success: "created" | "saved"; nameOf: (value: z.output<S>) => string },
) {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  let response: Response;
  try {
    const api = createApiClient(context, user.idToken);
    response = target.method === "post" ? await api.post(target.path, submission.value, idempotencyInit(formData)) : await api.put(target.path, submission.value);
  } catch {
    return dataWithError(context, { result: submission.reply({ formErrors: [UNAVAILABLE] }) }, UNAVAILABLE, { status: toastStatus(context, 503) });
  }
  if (response.ok) return redirectWithSuccess(r.list, doneMessage(target.success, r.item, target.nameOf(submission.value)));
  if (response.status === 404) return redirectWithError(r.list, r.gone);
  const problem = await readJson<ApiProblem>(response);
  const message = problem?.title || r.saveFailed;
  const fieldErrors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(problem?.errors ?? {})) {
    if (r.fields.has(field) && messages.length > 0) fieldErrors[field] = messages.slice(0, 1);
  }
  const reply = submission.reply(Object.keys(fieldErrors).length > 0 ? { fieldErrors } : { formErrors: [message] });
  return dataWithError(context, { result: reply }, message, { status: toastStatus(context, response.status >= 500 ? 502 : response.status) });
}

/** Delete: 204 → back to the list with a toast; 409 (a group with tags) → the API's message. */
export async function deleteResource(context: RequestContext, user: SessionUser, r: Resource, id: string) {
  let response: Response;
  let name: string | undefined;
  try {
    const api = createApiClient(context, user.idToken);
    const path = `${r.api}/${encodeURIComponent(id)}`;
    name = await api
      .get(path)
      .then((x) => (x.ok ? readJson<TagDto | AccessGroupDto>(x) : undefined))
      .then((x) => (x ? ("idTag" in x ? x.idTag : x.name) : undefined), () => undefined);
    response = await api.delete(path);
  } catch {
    return dataWithError(context, { deleteError: UNAVAILABLE }, UNAVAILABLE, { status: toastStatus(context, 503) });
  }
  if (response.ok) return redirectWithSuccess(r.list, doneMessage("deleted", r.item, name));
  if (response.status === 404 || response.status === 400) return redirectWithError(r.list, r.gone);
  const problem = await readJson<ApiProblem>(response);
  const message = problem?.title || r.deleteFailed;
  return dataWithError(context, { deleteError: message }, message, { status: toastStatus(context, response.status >= 500 ? 502 : response.status) });
}

/** The list actions: only `intent=delete` with an id. */
export async function listAction(request: Request, context: RequestContext, user: SessionUser, r: Resource) {
  const formData = await request.formData();
  const id = String(formData.get("id") ?? "");
  if (formData.get("intent") !== "delete" || !UUID_RE.test(id)) {
    return data({ deleteError: "No entendimos qué querías hacer. Probá de nuevo." }, { status: 400 });
  }
  return deleteResource(context, user, r, id);
}
