import { data, Form, Link } from "react-router";
import { Badge, Button, Card, Flex, Grid, Text } from "@radix-ui/themes";
import { BiBattery, BiCalendar, BiError, BiLineChart, BiMoney, BiPlug, BiTachometer, BiTimeFive, BiWifi, BiWifiOff } from "~/icons";
import type { ReactNode } from "react";
import type { DashboardDto, GraphicDto } from "#contract/dto";
import { CHARGE_POINT_STATUSES, CHARGE_POINT_STATUS_LABELS, STATUS_BUCKETS, STATUS_BUCKET_LABELS } from "#domain/ocpp-status";
import { EmptyState, PageHeader } from "~/components/Page";
import { withAutoFocus } from "~/lib/autofocus";
import { InfoMessage } from "~/components/messages";
import { BarChart, CHART_COLORS, ChartFigure, ChartTable, DonutChart, HBarChart, LineChart } from "~/components/charts/Charts";
import { formatArs, formatCompact, formatDay, formatDayShort, formatInt, formatKwh, formatPct } from "~/components/charts/format";
import { PERIOD_KEYS, PERIOD_LABELS, resolvePeriod, type Period } from "~/components/charts/period";
import { fetchJson, createApiClient } from "~/lib/api.server";
import { UNAVAILABLE } from "~/components/activity/labels";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { useLiveRevalidation } from "~/components/LiveRevalidation";
import type { Route } from "./+types/home";

export const meta = pageMeta("Inicio");

// Amounts come only for the roles that may see payments (the API leaves them out for Técnico).
type DayPoint = { date: string; energyKwh: number; revenueCents?: number; idleRevenueCents?: number; sessions: number };
type HourPoint = { hour: number; sessions: number; energyKwh: number };
type StationPoint = { stationId: string; stationName: string; sessions: number; energyKwh: number; revenueCents?: number };

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const period = resolvePeriod(url.searchParams);
  const api = createApiClient(context, user.idToken);
  const range = new URLSearchParams({ from: period.from, to: period.to });
  const graphic = (series: string) => fetchJson<GraphicDto>(api, `/Business/Graphic?${range}&series=${series}`);
  const [dashboard, byDay, byHour, top] = await Promise.all([
    fetchJson<DashboardDto>(api, `/Business/Dashboard?${range}`),
    graphic("energyRevenueByDay"),
    graphic("sessionsByHour"),
    graphic("topStations"),
  ]);
  return data({
    period,
    dashboard: dashboard.ok ? dashboard.data : null,
    byDay: byDay.ok ? (byDay.data.points as DayPoint[]) : null,
    byHour: byHour.ok ? (byHour.data.points as HourPoint[]) : null,
    topStations: top.ok ? (top.data.points as StationPoint[]) : null,
    error: dashboard.ok ? null : UNAVAILABLE,
  });
}

const BUCKET_COLORS = { available: CHART_COLORS.green, charging: CHART_COLORS.primary, faulted: CHART_COLORS.red, offline: CHART_COLORS.gray } as const;

function periodText(p: Period): string {
  return p.from === p.to ? formatDay(p.from) : `del ${formatDay(p.from)} al ${formatDay(p.to)}`;
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { period, dashboard: d, byDay, byHour, topStations, error } = loaderData;
  // Live: statuses follow the chargers while the page is open (server-sent events).
  useLiveRevalidation();
  const activityHref = `/activity?${new URLSearchParams({ from: period.from, to: period.to })}`;
  // Issue 26: Técnico does not see the activity.
  const canSeeActivity = useAccess().can("activity.read");
  return (
    <>
      <PageHeader
        title="Inicio"
        description={`Resumen de tu red ${periodText(period)}.`}
        actions={
          canSeeActivity ? (
            <Button asChild size="3" variant="soft">
              <Link to={activityHref}>
                <BiLineChart aria-hidden="true" /> Ver las cargas del período
              </Link>
            </Button>
          ) : undefined
        }
      />
      <PeriodPicker period={period} />
      {error || !d ? (
        <InfoMessage color="red" testId="home-error">
          {error ?? UNAVAILABLE}
        </InfoMessage>
      ) : d.chargersTotal === 0 && d.sessions === 0 ? (
        <FirstSteps />
      ) : (
        <>
          <section aria-labelledby="kpi-title" className="kpi-section">
            <h2 id="kpi-title" className="visually-hidden">
              Indicadores del período
            </h2>
            <Grid columns={{ initial: "1", xs: "2", md: "4" }} gap="3">
              <Kpi testId="kpi-energy" icon={<BiBattery />} label="Energía entregada" value={formatKwh(d.energyKwh)} />
              <Kpi
                testId="kpi-sessions"
                icon={<BiPlug />}
                label="Cargas"
                value={formatInt(d.sessions)}
                note={`Inicio exitoso: ${formatPct(d.startSuccessRate)}`}
              />
              {d.revenueCents !== undefined ? (
                <>
                  <Kpi testId="kpi-revenue" icon={<BiMoney />} label="Facturación" value={formatArs(d.revenueCents)} note="Cargas completadas, IVA incluido" />
                  <Kpi testId="kpi-idle" icon={<BiTimeFive />} label="Penalidades por inactividad" value={formatArs(d.idleRevenueCents ?? 0)} />
                </>
              ) : null}
              <Kpi testId="kpi-utilization" icon={<BiTachometer />} label="Utilización" value={formatPct(d.utilizationPct)} note="Tiempo con un vehículo conectado" />
              <Kpi testId="kpi-availability" icon={<BiCalendar />} label="Disponibilidad" value={formatPct(d.availabilityPct)} note="Tiempo sin fallas ni fuera de servicio" />
              <Kpi
                testId="kpi-chargers"
                icon={d.chargersOffline ? <BiWifiOff /> : <BiWifi />}
                label="Cargadores en línea"
                value={`${formatInt(d.chargersOnline)} de ${formatInt(d.chargersTotal)}`}
                note={d.chargersTotal === 0 ? "Todavía no hay cargadores" : d.chargersOffline ? `${formatInt(d.chargersOffline)} sin conexión` : "Todos conectados"}
                warn={d.chargersOffline > 0}
              />
              <Kpi testId="kpi-active" icon={<BiPlug />} label="Cargas en curso ahora" value={formatInt(d.activeSessions)} />
            </Grid>
          </section>
          <Grid columns={{ initial: "1", md: "2" }} gap="4" mt="5">
            {byDay ? <DailyCharts points={byDay} /> : <ChartUnavailable title={d.revenueCents !== undefined ? "Energía y facturación por día" : "Energía por día"} />}
            {byHour ? <HourChart points={byHour} /> : <ChartUnavailable title="Cargas por hora del día" />}
            <StatusChart d={d} />
            {topStations ? (
              <TopStations points={topStations} money={d.revenueCents !== undefined} />
            ) : (
              <ChartUnavailable title={d.revenueCents !== undefined ? "Estaciones con más facturación" : "Estaciones con más energía"} />
            )}
          </Grid>
        </>
      )}
    </>
  );
}

/** A company without chargers yet: what to do first, instead of charts of zeros. */
function FirstSteps() {
  const access = useAccess();
  return (
    <Card size="3" data-testid="home-empty">
      <EmptyState icon={<BiPlug size={40} />} title="Todavía no hay cargadores en tu red">
        Primero creá una estación (el lugar donde están los cargadores) y después agregá un cargador y conectalo. Apenas se conecte, acá vas a ver su estado, las cargas y la energía entregada.
      </EmptyState>
      {access.can("station.write") ? (
        <Flex gap="3" justify="center" wrap="wrap" mt="4">
          <Button asChild size="3">
            <Link to="/station/new">Crear una estación</Link>
          </Button>
          <Button asChild size="3" variant="soft">
            <Link to="/charger/new">Agregar un cargador</Link>
          </Button>
        </Flex>
      ) : null}
    </Card>
  );
}

function PeriodPicker({ period }: { period: Period }) {
  const presets = PERIOD_KEYS.filter((k) => k !== "custom");
  return (
    <Card size="2" mb="5" className="period-card">
      <Flex gap="4" wrap="wrap" align="end" justify="between">
        <nav aria-label="Período" className="period-presets">
          {presets.map((k) => (
            <Link key={k} to={`?period=${k}`} className="period-chip" aria-current={period.key === k ? "page" : undefined} preventScrollReset>
              {PERIOD_LABELS[k]}
            </Link>
          ))}
        </nav>
        <Form method="get" className="period-form" aria-label="Período personalizado" preventScrollReset>
          <input type="hidden" name="period" value="custom" />
          <DateField name="from" label="Desde" value={period.input.from} error={period.errors.from} />
          <DateField name="to" label="Hasta" value={period.input.to} error={period.errors.to} />
          <Button type="submit" size="3" variant={period.key === "custom" ? "solid" : "soft"}>
            Aplicar
          </Button>
        </Form>
      </Flex>
    </Card>
  );
}

function DateField({ name, label, value, error }: { name: string; label: string; value: string; error?: string }) {
  const id = `period-${name}`;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <input
        key={value}
        id={id}
        name={name}
        type="date"
        lang="es-AR"
        placeholder="mm/dd/yyyy"
        defaultValue={value}
        className="native-input"
        aria-invalid={error ? true : undefined}
        {...withAutoFocus({ errors: error ? [error] : [] }, {})}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <Text id={`${id}-error`} size="2" color="red" data-testid={`${name}-error`}>
          {error}
        </Text>
      ) : null}
    </Flex>
  );
}

function Kpi({ icon, label, value, note, testId, warn }: { icon: ReactNode; label: string; value: string; note?: string; testId: string; warn?: boolean }) {
  return (
    <Card size="2" className="kpi" data-testid={testId}>
      <Flex gap="3" align="start">
        <span className={`kpi-icon${warn ? " kpi-warn" : ""}`} aria-hidden="true">
          {icon}
        </span>
        <Flex direction="column" gap="1" minWidth="0">
          <Text size="2" color="gray">
            {label}
          </Text>
          <Text size="5" weight="bold" className="kpi-value" data-testid={`${testId}-value`}>
            {value}
          </Text>
          {note ? (
            <Text size="1" color={warn ? "red" : "gray"}>
              {note}
            </Text>
          ) : null}
        </Flex>
      </Flex>
    </Card>
  );
}

function ChartCard({ children }: { children: ReactNode }) {
  return (
    <Card size="2" className="chart-card">
      {children}
    </Card>
  );
}

function ChartUnavailable({ title }: { title: string }) {
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

function DailyCharts({ points }: { points: DayPoint[] }) {
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

function HourChart({ points }: { points: HourPoint[] }) {
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

function StatusChart({ d }: { d: DashboardDto }) {
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
function TopStations({ points, money }: { points: StationPoint[]; money: boolean }) {
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
