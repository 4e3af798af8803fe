// Server side of Roaming: reading the OCPI identity, the partners and a page of stations, and one
// handler per form intent. The token A of a new invitation is only in the action's answer.
import { data } from "react-router";
import { UUID_RE } from "#contract/schemas/constants";
import { endpoints } from "#contract/endpoints";
import { createApiClient, UNREACHABLE_PROBLEM, type ApiClient, type ApiProblem } from "~/lib/api.server";
import { dataWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { RequestContext } from "~/lib/context";
import type { SessionUser } from "~/lib/session.server";
import { STATION_PAGE, type ActionData, type Intent } from "~/components/roaming/types";

const UNAVAILABLE = "No pudimos cargar el roaming. Probá de nuevo en unos minutos.";
const FAILED = "No pudimos guardar el cambio. Probá de nuevo en unos minutos.";
const UNKNOWN_INTENT = "No entendimos qué querías hacer. Probá de nuevo.";

/** The OCPI identity, the partners (up to 100) and the page of stations asked for in `?page=`. */
export async function loadRoaming(request: Request, context: RequestContext, user: SessionUser) {
  const api = createApiClient(context, user.idToken);
  const page = Math.max(1, Math.min(1000, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1));
  const [settings, partners, stations] = await Promise.all([
    api.call(endpoints.roamingGet),
    api.call(endpoints.roamingPartnerList, { query: { pageSize: 100 } }),
    api.call(endpoints.roamingStationList, { query: { pageSize: STATION_PAGE, page } }),
  ]);
  return {
    settings: settings.ok ? settings.data : null,
    partners: partners.ok ? partners.data.items : [],
    partnerTotal: partners.ok ? partners.data.total : 0,
    stations: stations.ok ? stations.data : null,
    error: settings.ok && partners.ok && stations.ok ? null : UNAVAILABLE,
  };
}

const field = (form: FormData, name: string, max = 300) => String(form.get(name) ?? "").slice(0, max);

/** The API's refusal as the page's answer: its errors by field, the first of them (else its title) as the toast; a server failure is a 503. */
function fail(context: RequestContext, result: { status: number; problem: ApiProblem }, payload: ActionData) {
  const { problem } = result;
  if (problem.type === UNREACHABLE_PROBLEM) return dataWithError(context, payload, FAILED, { status: 503 });
  const errors = problem.errors;
  const message = errors ? (Object.values(errors)[0]?.[0] ?? problem.title ?? FAILED) : (problem.title ?? FAILED);
  return dataWithError(context, { ...payload, errors }, message, { status: result.status >= 500 ? 503 : result.status });
}

/** "Guardar party id". */
async function saveParty(context: RequestContext, api: ApiClient, form: FormData) {
  const partyId = field(form, "partyId", 10);
  const result = await api.call(endpoints.roamingUpdate, { body: { partyId } });
  if (!result.ok) return fail(context, result, { intent: "party", values: { partyId } });
  return redirectWithSuccess("/roaming", "Guardamos tu party id.");
}

/** "Generar invitación" (no data) or "Registrarme con el socio" (its versions URL and token). */
async function addPartner(context: RequestContext, api: ApiClient, intent: "invite" | "register", form: FormData) {
  const values = intent === "register" ? { versionsUrl: field(form, "versionsUrl"), token: field(form, "token", 100) } : {};
  if (intent === "register" && (!values.versionsUrl || !values.token)) {
    const errors: Record<string, string[]> = {};
    if (!values.versionsUrl) errors.versionsUrl = ["Ingresá la URL de versiones del socio (https://…)."];
    if (!values.token) errors.token = ["Ingresá el token que te dio el socio."];
    return dataWithError(context, { intent, errors, values: { versionsUrl: values.versionsUrl ?? "" } } satisfies ActionData, Object.values(errors)[0][0], { status: 400 });
  }
  const result = await api.call(endpoints.roamingPartnerCreate, { body: values });
  if (!result.ok) return fail(context, result, { intent, values: { versionsUrl: values.versionsUrl ?? "" } });
  const created = result.data;
  if (intent === "register") return redirectWithSuccess("/roaming", `Nos registramos con ${created.partner.name ?? "el socio"}.`);
  // The token A is shown once, in this answer: no redirect (it would be lost), no toast (it would linger).
  return data({ intent, created } satisfies ActionData);
}

/** "Dar de baja" a partner, or publish / stop publishing a station. */
async function changeRow(context: RequestContext, api: ApiClient, intent: "remove" | "station", form: FormData) {
  const id = field(form, "id", 40);
  if (!UUID_RE.test(id)) return dataWithError(context, { intent } satisfies ActionData, UNKNOWN_INTENT, { status: 400 });
  const name = field(form, "name", 120);
  if (intent === "remove") {
    const result = await api.call(endpoints.roamingPartnerDelete, { params: { id } });
    if (!result.ok) return fail(context, result, { intent });
    return redirectWithSuccess("/roaming", name ? `Dimos de baja al socio «${name}».` : "Dimos de baja al socio.");
  }
  const publish = field(form, "roamingPublished", 5) === "true";
  const result = await api.call(endpoints.roamingStationUpdate, { params: { id }, body: { roamingPublished: publish } });
  if (!result.ok) return fail(context, result, { intent });
  const label = name ? `«${name}»` : "la estación";
  return redirectWithSuccess("/roaming", publish ? `Publicamos ${label} en roaming.` : `Dejamos de publicar ${label} en roaming.`);
}

export async function roamingAction(context: RequestContext, user: SessionUser, form: FormData) {
  const intent = field(form, "intent", 20) as Intent;
  const api = createApiClient(context, user.idToken);
  switch (intent) {
    case "party":
      return saveParty(context, api, form);
    case "invite":
    case "register":
      return addPartner(context, api, intent, form);
    case "remove":
    case "station":
      return changeRow(context, api, intent, form);
    default:
      return dataWithError(context, { intent } satisfies ActionData, UNKNOWN_INTENT, { status: 400 });
  }
}
