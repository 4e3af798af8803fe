import { data, Link } from "react-router";
import { Button, Grid } from "@radix-ui/themes";
import { BiBattery, BiCalendar, BiLineChart, BiMoney, BiPlug, BiTachometer, BiTimeFive, BiWifi, BiWifiOff } from "~/icons";
import { PageHeader } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { formatArs, formatDay, formatInt, formatKwh, formatPct } from "~/components/charts/format";
import type { Period } from "~/components/charts/period";
import { UNAVAILABLE } from "~/components/activity/labels";
import { ChartUnavailable, DailyCharts, HourChart, StatusChart, TopStations } from "~/components/home/HomeCharts";
import { FirstSteps, Kpi, PeriodPicker } from "~/components/home/HomeParts";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { useLiveRevalidation } from "~/components/LiveRevalidation";
import { loadHome } from "./home.server";
import type { Route } from "./+types/home";

export const meta = pageMeta("Inicio");

export async function loader({ request, context, url }: Route.LoaderArgs) {
  return data(await loadHome(request, context, url));
}

function periodText(p: Period): string {
  return p.from === p.to ? formatDay(p.from) : `del ${formatDay(p.from)} al ${formatDay(p.to)}`;
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { period, dashboard: d, byDay, byHour, topStations, error } = loaderData;
  // Live: statuses follow the chargers while the page is open (server-sent events).
  useLiveRevalidation();
  const activityHref = `/activity?${new URLSearchParams({ from: period.from, to: period.to })}`;
  // Técnico does not see the activity.
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
