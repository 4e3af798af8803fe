// Inicio's charts: energy and revenue by day, sessions by hour, connector statuses and the top
// stations, each with its table for screen readers; a series the API did not answer says so.
import { Badge, Card, Flex, Text } from "@radix-ui/themes";
import { Link } from "react-router";
import { BiError } from "~/icons";
import type { ReactNode } from "react";
import type { DashboardDto } from "#contract/dto";
import { CHARGE_POINT_STATUSES, CHARGE_POINT_STATUS_LABELS } from "#domain/ocpp-status";
import { STATUS_BUCKETS, STATUS_BUCKET_LABELS } from "#domain/ocpp-status-summary";
import { BarChart, CHART_COLORS, ChartFigure, ChartTable, DonutChart, HBarChart, LineChart } from "~/components/charts/Charts";
import { formatArs, formatCompact, formatDay, formatDayShort, formatInt, formatKwh } from "~/components/charts/format";

// Amounts come only for the roles that may see payments (the API leaves them out for Técnico).
export type DayPoint = { date: string; energyKwh: number; revenueCents?: number; idleRevenueCents?: number; sessions: number };
export type HourPoint = { hour: number; sessions: number; energyKwh: number };
export type StationPoint = { stationId: string; stationName: string; sessions: number; energyKwh: number; revenueCents?: number };

const BUCKET_COLORS = { available: CHART_COLORS.green, charging: CHART_COLORS.primary, faulted: CHART_COLORS.red, offline: CHART_COLORS.gray } as const;

export function ChartCard({ children }: { children: ReactNode }) {
  return (
    <Card size="2" className="chart-card">
      {children}
    </Card>
  );
}

export function ChartUnavailable({ title }: { title: string }) {
  return (
    <ChartCard>
      <Text as="p" weight="bold">
        {title}
      </Text>
      <Text as="p" color="gray" mt="2">
        No pudimos cargar este gráfico. Probá de nuevo en unos minutos.
      </Text>
    </ChartCard>
  );
}

export function DailyCharts({ points }: { points: DayPoint[] }) {
  const money = points.some((p) => p.revenueCents !== undefined);
  const totalKwh = points.reduce((a, p) => a + p.energyKwh, 0);
  const totalRevenue = points.reduce((a, p) => a + (p.revenueCents ?? 0), 0);
  const best = points.reduce<DayPoint | null>((a, p) => (!a || p.energyKwh > a.energyKwh ? p : a), null);
  const table = (
    <ChartTable
      caption={money ? "Energía, cargas y facturación por día" : "Energía y cargas por día"}
      rows={points}
      columns={[
        { header: "Día", cell: (p) => formatDay(p.date) },
        { header: "Cargas", cell: (p) => formatInt(p.sessions), numeric: true },
        { header: "Energía", cell: (p) => formatKwh(p.energyKwh), numeric: true },
        ...(money
          ? [
              { header: "Facturación", cell: (p: DayPoint) => formatArs(p.revenueCents ?? 0), numeric: true },
              { header: "Penalidades", cell: (p: DayPoint) => formatArs(p.idleRevenueCents ?? 0), numeric: true },
            ]
          : []),
      ]}
    />
  );
  const days = points.map((p) => ({ label: formatDayShort(p.date), fullLabel: formatDay(p.date) }));
  return (
    <ChartCard>
      <ChartFigure
        testId="chart-energy-day"
        title="Energía entregada por día"
        summary={`${formatKwh(totalKwh)} en ${points.length} días${best && best.energyKwh > 0 ? `; el día con más energía fue el ${formatDay(best.date)} (${formatKwh(best.energyKwh)})` : ""}.`}
        table={money ? undefined : table}
      >
        {(ids) => <BarChart {...ids} data={points.map((p, i) => ({ ...days[i], value: p.energyKwh }))} format={formatKwh} axisFormat={formatCompact} />}
      </ChartFigure>
      {money ? (
        <ChartFigure testId="chart-revenue-day" title="Facturación por día" summary={`${formatArs(totalRevenue)} facturados en ${points.length} días.`} table={table}>
          {(ids) => (
            <LineChart
              {...ids}
              data={points.map((p, i) => ({ ...days[i], value: p.revenueCents ?? 0 }))}
              format={formatArs}
              axisFormat={(v) => `$ ${formatCompact(v / 100)}`}
            />
          )}
        </ChartFigure>
      ) : null}
    </ChartCard>
  );
}

export function HourChart({ points }: { points: HourPoint[] }) {
  const peak = points.reduce<HourPoint | null>((a, p) => (!a || p.sessions > a.sessions ? p : a), null);
  const hh = (h: number) => `${String(h).padStart(2, "0")} h`;
  return (
    <ChartCard>
      <ChartFigure
        testId="chart-hours"
        title="Cargas por hora del día"
        summary={peak && peak.sessions > 0 ? `La hora con más inicios de carga es las ${hh(peak.hour)} (${formatInt(peak.sessions)} cargas).` : "No hubo cargas en el período."}
        table={
          <ChartTable
            caption="Cargas y energía por hora de inicio"
            rows={points}
            columns={[
              { header: "Hora", cell: (p) => `${hh(p.hour)} a ${hh((p.hour + 1) % 24)}` },
              { header: "Cargas", cell: (p) => formatInt(p.sessions), numeric: true },
              { header: "Energía", cell: (p) => formatKwh(p.energyKwh), numeric: true },
            ]}
          />
        }
      >
        {(ids) => (
          <BarChart
            {...ids}
            data={points.map((p) => ({ label: String(p.hour), fullLabel: hh(p.hour), value: p.sessions }))}
            format={(v) => `${formatInt(v)} cargas`}
            axisFormat={formatInt}
            integer
            color={CHART_COLORS.secondary}
          />
        )}
      </ChartFigure>
    </ChartCard>
  );
}

export function StatusChart({ d }: { d: DashboardDto }) {
  const slices = STATUS_BUCKETS.map((b) => ({ label: STATUS_BUCKET_LABELS[b], value: d.statusSummary[b] ?? 0, color: BUCKET_COLORS[b] }));
  return (
    <ChartCard>
      <ChartFigure
        testId="chart-status"
        title="Estado de los conectores ahora"
        summary={`${formatInt(d.connectorsTotal)} conectores: ${slices.map((s) => `${s.value} ${s.label.toLowerCase()}`).join(", ")}.`}
        table={
          <ChartTable
            caption="Conectores por estado OCPP"
            rows={CHARGE_POINT_STATUSES.map((st) => ({ st, n: d.connectorStatus[st] ?? 0 }))}
            columns={[
              { header: "Estado", cell: (r) => CHARGE_POINT_STATUS_LABELS[r.st] },
              { header: "Conectores", cell: (r) => formatInt(r.n), numeric: true },
            ]}
          />
        }
      >
        {(ids) => <DonutChart {...ids} data={slices} centerValue={formatInt(d.connectorsTotal)} centerLabel="conectores" />}
      </ChartFigure>
      {d.statusSummary.faulted > 0 ? (
        <Flex mt="3" gap="2" align="center">
          <BiError color={CHART_COLORS.red} aria-hidden="true" />
          <Text size="2">
            <Link to="/charger?status=faulted">Ver los cargadores en falla</Link>
          </Text>
        </Flex>
      ) : null}
    </ChartCard>
  );
}

/** Ranked by revenue for the roles that may see money, by energy for the others (as the API ranks them). */
export function TopStations({ points, money }: { points: StationPoint[]; money: boolean }) {
  const value = (p: StationPoint) => (money ? (p.revenueCents ?? 0) : p.energyKwh);
  const format = money ? formatArs : formatKwh;
  const what = money ? "facturación" : "energía";
  return (
    <ChartCard>
      <ChartFigure
        testId="chart-top-stations"
        title={`Estaciones con más ${what}`}
        summary={points.length ? `La estación con más ${what} es ${points[0].stationName} (${format(value(points[0]))}).` : "No hubo cargas en el período."}
        table={
          <ChartTable
            caption={money ? "Facturación, cargas y energía por estación" : "Energía y cargas por estación"}
            rows={points}
            columns={[
              { header: "Estación", cell: (p) => p.stationName },
              { header: "Cargas", cell: (p) => formatInt(p.sessions), numeric: true },
              { header: "Energía", cell: (p) => formatKwh(p.energyKwh), numeric: true },
              ...(money ? [{ header: "Facturación", cell: (p: StationPoint) => formatArs(p.revenueCents ?? 0), numeric: true }] : []),
            ]}
          />
        }
      >
        {(ids) =>
          points.length ? (
            <HBarChart {...ids} data={points.map((p) => ({ label: p.stationName, value: value(p) }))} format={format} />
          ) : (
            <Flex direction="column" gap="2" py="4">
              <Text color="gray">No hubo cargas en el período.</Text>
              <Badge color="gray" style={{ alignSelf: "start" }}>
                Sin datos
              </Badge>
            </Flex>
          )
        }
      </ChartFigure>
    </ChartCard>
  );
}
