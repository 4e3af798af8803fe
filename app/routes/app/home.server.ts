// Inicio's data: the period's indicators and its three chart series, read in parallel. A series
// the API does not answer leaves its chart's "no pudimos cargar" card; without the indicators
// the page says the data is unavailable.
import { endpoints } from "#contract/endpoints";
import { resolvePeriod } from "~/components/charts/period";
import { UNAVAILABLE } from "~/components/activity/labels";
import type { DayPoint, HourPoint, StationPoint } from "~/components/home/HomeCharts";
import { createApiClient } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import type { RequestContext } from "~/lib/context";

export async function loadHome(request: Request, context: RequestContext, url: URL) {
  const user = await requireUser(request, context);
  const period = resolvePeriod(url.searchParams);
  const api = createApiClient(context, user.idToken);
  const range = { from: period.from, to: period.to };
  const graphic = (series: "energyRevenueByDay" | "sessionsByHour" | "topStations") => api.call(endpoints.graphicGet, { query: { ...range, series } });
  const [dashboard, byDay, byHour, top] = await Promise.all([
    api.call(endpoints.dashboardGet, { query: range }),
    graphic("energyRevenueByDay"),
    graphic("sessionsByHour"),
    graphic("topStations"),
  ]);
  return {
    period,
    dashboard: dashboard.ok ? dashboard.data : null,
    byDay: byDay.ok ? (byDay.data.points as DayPoint[]) : null,
    byHour: byHour.ok ? (byHour.data.points as HourPoint[]) : null,
    topStations: top.ok ? (top.data.points as StationPoint[]) : null,
    error: dashboard.ok ? null : UNAVAILABLE,
  };
}
