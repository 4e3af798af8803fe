// Server side of the charger screens: the catalogs and lists the form offers, the OCPP base URL,
// and turning Business API answers into conform replies and toasts.
import type { Submission } from "@conform-to/react";
import { API_UNAVAILABLE_MESSAGE, UNREACHABLE_PROBLEM, type ApiClient, type ApiProblem, type ApiResult } from "~/lib/api.server";
import { problemReply } from "~/lib/problem-reply";
import { endpoints } from "#contract/endpoints";
import { unavailable } from "~/lib/responses.server";
import type { Page, PowerType, RateDto, ReportSummaryDto, StationOptionDto } from "#contract/dto";
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

export const SERVICE_UNAVAILABLE = API_UNAVAILABLE_MESSAGE;

export function serviceUnavailable(): never {
  unavailable(SERVICE_UNAVAILABLE);
}

/** An answer the screen cannot do without: its data, or the 503 screen. */
async function required<T>(pending: Promise<ApiResult<T>>): Promise<T> {
  const result = await pending;
  if (!result.ok) serviceUnavailable();
  return result.data;
}

/** Every item of a paged list, `pageSize` at a time, bounded (by default 10 pages of 100: 1,000 rates). */
export async function listAll<T>(readPage: (page: number, pageSize: number) => Promise<ApiResult<Page<T>>>, { pageSize = MAX_PAGE_SIZE, maxPages = 10 } = {}): Promise<T[]> {
  const first = await required(readPage(1, pageSize));
  const pages = Math.min(maxPages, Math.ceil(first.total / pageSize));
  if (pages <= 1) return first.items;
  const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, i) => required(readPage(i + 2, pageSize))));
  return [first, ...rest].flatMap((p) => p.items);
}

/** The company's stations as choices: id, name and city, by name (one request up to 500 stations). */
export function listStationOptions(api: ApiClient): Promise<StationOptionDto[]> {
  return listAll((page, pageSize) => api.call(endpoints.stationOptions, { query: { pageSize, page } }), { pageSize: OPTIONS_MAX_PAGE_SIZE });
}

export async function loadStationOptions(api: ApiClient): Promise<Option[]> {
  const stations = await listStationOptions(api);
  return stations.map((s) => ({ value: s.id, label: s.city ? `${s.name} (${s.city})` : s.name }));
}

/**
 * The form's choices. `rates: false` for a role that may not read the rates:
 * then the only rates offered are the ones the charger's connectors already have, which stay as
 * they are (the API refuses a change of a connector's rate from that role).
 */
export async function loadFormOptions(api: ApiClient, opts: { rates?: boolean; current?: { rateId: string | null; rateName: string | null }[] } = {}): Promise<FormOptions> {
  const readRates = opts.rates ?? true;
  const [brands, types, stations, rates] = await Promise.all([
    required(api.call(endpoints.chargerBrandList)),
    required(api.call(endpoints.connectorTypeList)),
    loadStationOptions(api),
    readRates
      ? listAll((page, pageSize) => api.call(endpoints.rateList, { query: { sort: "name", pageSize, page } }))
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

/**
 * The charger form's answer to a refused save: the API's field errors on their fields, else its
 * message; when the API never answered, the form says the service could not be reached.
 */
export function chargerSaveFailure(submission: Submission<unknown>, result: { status: number; problem: ApiProblem }, fallback: string) {
  return problemReply(submission, result, { fallback: result.problem.type === UNREACHABLE_PROBLEM ? SERVICE_UNAVAILABLE : fallback });
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

/** What the charger screen says about the local authorization list the charger holds. */
export function localListLine(charger: { localListVersion: number | null; localListAt: string | null }): string {
  const v = charger.localListVersion;
  const when = charger.localListAt ? ` (al ${LIST_WHEN.format(new Date(charger.localListAt))})` : "";
  if (v === null) return "Todavía no sabemos qué lista tiene: consultá su versión o enviale las tarjetas, con la respuesta que da cada una en esta estación, para que decida sin conexión.";
  if (v === -1) return `El cargador informó que no admite listas locales${when}.`;
  if (v === 0) return `El cargador no tiene lista local${when}.`;
  return `El cargador tiene la lista local versión ${v}${when}.`;
}
