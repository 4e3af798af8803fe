// Server side of the station screens: reading a station and the services catalog, and the
// create/update action shared by 'Nueva estación' and 'Editar estación'.
import { data } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ServiceDto, StationAllocationDto, StationDto } from "#contract/dto";
import { UUID_RE } from "#contract/schemas/constants";
import { endpoints } from "#contract/endpoints";
import { createApiClient, UNREACHABLE_PROBLEM, type ApiClient } from "~/lib/api.server";
import { problemReply } from "~/lib/problem-reply";
import { requireUser } from "~/lib/auth.server";
import { idempotencyInit } from "~/lib/form-token";
import { isInArgentina } from "~/lib/maps";
import { imageFormData, readForm, readImageUpload } from "~/lib/profile.server";
import { dataWithError, redirectWithSuccess, redirectWithWarning } from "~/lib/toast.server";
import { stationApiField, stationFormSchema, toStationInput } from "~/components/station/schema";

import { LOAD_FAILED_MESSAGE, SAVE_FAILED_MESSAGE } from "~/components/station/messages";
import { type RequestContext } from "~/lib/context";
import { doneMessage } from "~/lib/done-message";

export { LOAD_FAILED_MESSAGE, SAVE_FAILED_MESSAGE };

export function notFound(): never {
  throw new Response(null, { status: 404, statusText: "Not Found" });
}

export function unavailable(): never {
  throw new Response(LOAD_FAILED_MESSAGE, { status: 503 });
}

export async function apiFor(request: Request, context: RequestContext): Promise<ApiClient> {
  const user = await requireUser(request, context);
  return createApiClient(context, user.idToken);
}

/** The services catalog; an empty list when it cannot be read (the form still works). */
export async function loadServices(api: ApiClient): Promise<ServiceDto[]> {
  const result = await api.call(endpoints.serviceList).catch(() => undefined);
  return result?.ok ? result.data : [];
}

/** The caller's station, or the 404 screen for an unknown id or another company's station. */
export async function loadStation(api: ApiClient, id: string | undefined): Promise<StationDto> {
  if (!id || !UUID_RE.test(id)) notFound();
  const result = await api.call(endpoints.stationGet, { params: { id } });
  if (result.ok) return result.data;
  if (result.status === 404 || result.status === 403) notFound();
  unavailable();
}

/** The photo field of the form: a data-URL (JavaScript) or a file (multipart, no JavaScript). */
export const PHOTO_FIELD = "photo";
const HIDE = [PHOTO_FIELD];

/** The posted form: multipart when it carries a photo file, url-encoded otherwise. */
export const readStationForm = readForm;

/**
 * A new photo in the form is uploaded first (endpoints.imageUpload); its URL becomes photoUrl.
 * Returns the URL, null (no new photo) or the Spanish message of a refused image.
 */
async function uploadPhoto(api: ApiClient, formData: FormData): Promise<{ url: string | null } | { error: string }> {
  const upload = await readImageUpload(formData.getAll(PHOTO_FIELD));
  if (upload.kind === "none") return { url: null };
  if (upload.kind === "error") return { error: upload.message };
  const result = await api.call(endpoints.imageUpload, { body: imageFormData(upload.image) });
  if (result.ok) return { url: result.data.url };
  if (result.problem.type === UNREACHABLE_PROBLEM) return { error: "No pudimos subir la foto. Probá de nuevo." };
  return { error: result.problem.errors?.Image?.[0] ?? result.problem.title ?? "No pudimos subir la foto. Probá de nuevo." };
}

/** POST (new) or PUT (edit) the form; field errors come back on their fields, nothing typed is lost. */
export async function saveStation(request: Request, context: RequestContext, formData: FormData, id?: string) {
  const api = await apiFor(request, context);
  const submission = parseWithZod(formData, { schema: stationFormSchema });
  if (submission.status !== "success") {
    // Conform's list buttons (add/remove a period) also land here without JavaScript.
    return data({ result: submission.reply({ hideFields: HIDE }) }, { status: submission.status === "error" ? 400 : 200 });
  }
  const photo = await uploadPhoto(api, formData);
  if ("error" in photo) {
    return dataWithError(context, { result: submission.reply({ fieldErrors: { [PHOTO_FIELD]: [photo.error] }, hideFields: HIDE }) }, photo.error, { status: 422 });
  }
  const input = toStationInput(submission.value);
  if (photo.url) input.photoUrl = photo.url;
  else if (formData.get("removePhoto") === "on") input.photoUrl = null;
  const result = id
    ? await api.call(endpoints.stationUpdate, { params: { id }, body: input })
    : await api.call(endpoints.stationCreate, { body: input, headers: idempotencyInit(formData)?.headers });
  if (!result.ok) {
    if (result.status === 404) notFound();
    const { reply, status, message } = problemReply(submission, result, { fallback: SAVE_FAILED_MESSAGE, field: stationApiField, hideFields: HIDE, failureOnForm: false });
    return dataWithError(context, { result: reply }, message, { status });
  }
  const saved = result.data;
  const name = saved.name ?? input.name;
  const done = doneMessage(id ? "saved" : "created", "la estación", name);
  const to = "/station";
  if (!isInArgentina({ lat: input.latitude, lng: input.longitude })) {
    return redirectWithWarning(to, `${done} Atención: sus coordenadas quedan fuera de Argentina; revisalas.`);
  }
  return redirectWithSuccess(to, done);
}

const kw = (n: number) => `${n.toLocaleString("es-AR", { maximumFractionDigits: 2 })} kW`;

/**
 * The station screen's load-balancing card, written here so the page ships
 * no formatting code: a summary and one line per connector charging. Null: no capacity set and
 * nothing to show.
 */
export function allocationLines(a: StationAllocationDto | undefined): string[] | null {
  if (!a || a.gridCapacityKw === null) return null;
  const summary =
    a.connectors.length === 0
      ? `Capacidad de la red: ${kw(a.gridCapacityKw)}. Ningún conector está cargando ahora.`
      : a.connectors.length === 1
        ? `Capacidad de la red: ${kw(a.gridCapacityKw)}; asignados ${kw(a.allocatedKw)} al único conector que carga.`
        : `Capacidad de la red: ${kw(a.gridCapacityKw)}; repartidos ${kw(a.allocatedKw)} entre ${a.connectors.length} conectores que cargan.`;
  const lines = a.connectors.map((c) => {
    const who = `${c.chargerName} · conector ${c.connectorNumber}`;
    if (c.allocatedKw !== null) return `${who}: ${kw(c.allocatedKw)} (de ${kw(c.maxPowerKw)})`;
    const why = c.status === "timeout" ? "no respondió al límite" : c.status === "offline" ? "sin conexión" : c.status ? `no acepta límites (${c.status})` : "sin límite todavía";
    return `${who}: ${why}, se cuenta a su máximo de ${kw(c.maxPowerKw)}`;
  });
  return [summary, ...lines];
}
