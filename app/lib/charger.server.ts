// Server side of the charger screens: the catalogs and lists the form offers, the OCPP base URL,
// and turning Business API answers into conform replies and toasts.
import { data } from "react-router";
import type { Submission } from "@conform-to/react";
import { readJson, type ApiClient, type ApiProblem } from "~/lib/api.server";
import type { ChargerBrandDto, ConnectorTypeDto, Page, PowerType, RateDto, ReportSummaryDto, StationOptionDto } from "#contract/dto";
import { formatDateTime } from "~/components/charger/format";
import type { Option } from "~/components/charger/inputs";
import { MAX_PAGE_SIZE, OPTIONS_MAX_PAGE_SIZE } from "#contract/schemas/common";

export interface ConnectorTypeOption extends Option {
  defaultPowerType: PowerType;
}

export interface FormOptions {
  brands: Option[];
  connectorTypes: ConnectorTypeOption[];
  stations: Option[];
  rates: Option[];
}

export const SERVICE_UNAVAILABLE = "No pudimos comunicarnos con el servicio. Probá de nuevo en unos minutos.";

export function serviceUnavailable(): never {
  throw data({ message: SERVICE_UNAVAILABLE }, { status: 503 });
}

async function getJson<T>(api: ApiClient, path: string): Promise<T> {
  let response: Response;
  try {
    response = await api.get(path);
  } catch {
    serviceUnavailable();
  }
  const body = response.ok ? await readJson<T>(response) : undefined;
  if (body === undefined) serviceUnavailable();
  return body;
}

/** Every item of a paged list, `pageSize` at a time, bounded (by default 10 pages of 100: 1,000 rates). */
export async function listAll<T>(api: ApiClient, path: string, { pageSize = MAX_PAGE_SIZE, maxPages = 10 } = {}): Promise<T[]> {
  const sep = path.includes("?") ? "&" : "?";
  const first = await getJson<Page<T>>(api, `${path}${sep}pageSize=${pageSize}&page=1`);
  const pages = Math.min(maxPages, Math.ceil(first.total / pageSize));
  if (pages <= 1) return first.items;
  const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, i) => getJson<Page<T>>(api, `${path}${sep}pageSize=${pageSize}&page=${i + 2}`)));
  return [first, ...rest].flatMap((p) => p.items);
}

/** The company's stations as choices: id, name and city, by name (one request up to 500 stations). */
export function listStationOptions(api: ApiClient): Promise<StationOptionDto[]> {
  return listAll<StationOptionDto>(api, "/Business/ChargingStation/Options", { pageSize: OPTIONS_MAX_PAGE_SIZE });
}

export async function loadStationOptions(api: ApiClient): Promise<Option[]> {
  const stations = await listStationOptions(api);
  return stations.map((s) => ({ value: s.id, label: s.city ? `${s.name} (${s.city})` : s.name }));
}

/**
 * The form's choices. `rates: false` for a role that may not read the rates (issue 26, Técnico):
 * then the only rates offered are the ones the charger's connectors already have, which stay as
 * they are (the API refuses a change of a connector's rate from that role).
 */
export async function loadFormOptions(api: ApiClient, opts: { rates?: boolean; current?: { rateId: string | null; rateName: string | null }[] } = {}): Promise<FormOptions> {
  const readRates = opts.rates ?? true;
  const [brands, types, stations, rates] = await Promise.all([
    getJson<ChargerBrandDto[]>(api, "/Business/ChargerBrand"),
    getJson<ConnectorTypeDto[]>(api, "/Driver/ConnectorType"),
    loadStationOptions(api),
    readRates
      ? listAll<RateDto>(api, "/Business/Fees?sort=name")
      : Promise.resolve(
          [...new Map((opts.current ?? []).filter((k) => k.rateId).map((k) => [k.rateId!, { id: k.rateId!, name: k.rateName ?? "Tarifa asignada" }])).values()] as Pick<RateDto, "id" | "name">[],
        ),
  ]);
  return {
    brands: brands.map((b) => ({ value: String(b.id), label: b.name })),
    connectorTypes: types.map((t) => ({ value: t.code, label: t.label, defaultPowerType: t.defaultPowerType })),
    stations,
    rates: rates.map((r) => ({ value: r.id, label: r.name })),
  };
}

/**
 * Where chargers connect: `ws(s)://<host>/ocpp/`, from PUBLIC_URL when the server has one
 * (the same origin the API uses for `ocppUrl`), else from the request's own origin.
 */
export function ocppBase(request: Request): string {
  const origin = (process.env.PUBLIC_URL || new URL(request.url).origin).replace(/\/+$/, "");
  return `${origin.replace(/^http/i, "ws")}/ocpp/`;
}

/** Answer the form after a failed API call: field errors from the API, or a form error + toast. */
export async function replyFromApi(
  response: Response | undefined,
  submission: Submission<unknown>,
  fallback: string,
): Promise<{ reply: ReturnType<Submission<unknown>["reply"]>; status: number; toast: string }> {
  if (!response) {
    return { reply: submission.reply({ formErrors: [SERVICE_UNAVAILABLE] }), status: 503, toast: SERVICE_UNAVAILABLE };
  }
  const problem = await readJson<ApiProblem>(response);
  const status = response.status >= 500 ? 503 : response.status;
  if (response.status >= 500 || !problem) {
    return { reply: submission.reply({ formErrors: [fallback] }), status, toast: fallback };
  }
  const fieldErrors = problem.errors && Object.keys(problem.errors).length > 0 ? problem.errors : undefined;
  if (fieldErrors) {
    return { reply: submission.reply({ fieldErrors }), status, toast: problem.errors?.ocppIdentity?.[0] ?? problem.title ?? "Revisá los datos ingresados." };
  }
  return { reply: submission.reply({ formErrors: [problem.title || fallback] }), status, toast: problem.title || fallback };
}

/** A call to the API that may time out or fail at the network level. */
export async function tryApi(call: () => Promise<Response>): Promise<Response | undefined> {
  try {
    return await call();
  } catch {
    return undefined;
  }
}

/**
 * When the latest device report (GetBaseReport's NotifyReport parts) arrived, for the charger
 * screen: written here, on the server, to keep the route's JavaScript small.
 */
export function reportLine(report: ReportSummaryDto | null | undefined): string {
  if (!report) return "Todavía no llegó ningún informe.";
  const parts = `${report.parts} ${report.parts === 1 ? "parte" : "partes"}, ${report.variables.toLocaleString("es-AR")} ${report.variables === 1 ? "variable" : "variables"}`;
  return report.complete
    ? `Último informe (n.º ${report.requestId}): llegó completo el ${formatDateTime(report.lastAt)} (${parts}).`
    : `Informe n.º ${report.requestId} llegando: ${parts} hasta ahora, la última el ${formatDateTime(report.lastAt)}.`;
}

const LIST_WHEN = new Intl.DateTimeFormat("es-AR", { timeZone: "America/Argentina/Buenos_Aires", dateStyle: "short", timeStyle: "short" });

/** Issue 25: what the charger screen says about the local authorization list the charger holds. */
export function localListLine(charger: { localListVersion: number | null; localListAt: string | null }): string {
  const v = charger.localListVersion;
  const when = charger.localListAt ? ` (al ${LIST_WHEN.format(new Date(charger.localListAt))})` : "";
  if (v === null) return "Todavía no sabemos qué lista tiene: consultá su versión o enviale las tarjetas, con la respuesta que da cada una en esta estación, para que decida sin conexión.";
  if (v === -1) return `El cargador informó que no admite listas locales${when}.`;
  if (v === 0) return `El cargador no tiene lista local${when}.`;
  return `El cargador tiene la lista local versión ${v}${when}.`;
}
