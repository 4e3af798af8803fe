// The QR page of a connector: where it is, its rate, its state and whether a driver may pay now.
import { and, eq, sql } from "drizzle-orm";
import { businessUsers, chargers, connectorTypes, connectors, rates, stations } from "../db/schema";
import { presetAmounts } from "../domain/driver-payment";
import type { ChargePointStatus } from "../domain/ocpp-status";
import { DEFAULT_TIME_ZONE, pricesNow, rateSnapshotFromRow, type RateSnapshot } from "../domain/pricing";
import { isArgentineHoliday } from "../domain/holidays.server";
import { localMoment } from "../domain/tariff-bands";
import { dueRateChanges, nextRateChange, withChanges } from "../db/rate-schedules";
import type { PaymentsContext } from "./deps";
import { CONNECTOR_STATE_LABELS } from "./labels";
import { connectedProviders } from "./providers";
import type { ChargePointInfo, ConnectorState } from "./types";

/** A connector by its charger's OCPP identity and number, with what the page and the checkout need. */
export async function locateConnector(ctx: PaymentsContext, identity: string, connectorNumber: number) {
  const [row] = await ctx.db
    .select({
      businessId: chargers.businessId,
      businessStatus: businessUsers.status,
      companyHolidays: businessUsers.localHolidays,
      chargerId: chargers.id,
      chargerName: chargers.name,
      ocppIdentity: chargers.ocppIdentity,
      enabled: chargers.enabled,
      online: chargers.online,
      station: stations,
      connectorId: connectors.id,
      connectorStatus: connectors.status,
      maxPowerKw: connectors.maxPowerKw,
      connectorType: connectorTypes.label,
      rate: rates,
      // The prices in force now: the rate with its scheduled changes already due.
      due: dueRateChanges(rates.id, ctx.now()),
      next: nextRateChange(rates.id, ctx.now(), UPCOMING_WITHIN_MS),
      openSession: sql<boolean>`exists (select 1 from charging_sessions s where s.connector_id = ${connectors.id} and s.status in ('ACTIVE', 'IDLE'))`.mapWith(Boolean),
      inFlight: sql<boolean>`exists (select 1 from payments p where p.charger_id = ${chargers.id} and p.connector_number = ${connectorNumber} and p.step in ('STARTING', 'CHARGING'))`.mapWith(Boolean),
    })
    .from(chargers)
    .innerJoin(businessUsers, eq(businessUsers.id, chargers.businessId))
    .innerJoin(stations, and(eq(stations.id, chargers.stationId), eq(stations.businessId, chargers.businessId)))
    .innerJoin(connectors, and(eq(connectors.chargerId, chargers.id), eq(connectors.connectorId, connectorNumber)))
    .innerJoin(connectorTypes, eq(connectorTypes.id, connectors.connectorTypeId))
    .leftJoin(rates, and(eq(rates.id, connectors.rateId), eq(rates.businessId, chargers.businessId)))
    .where(eq(chargers.ocppIdentity, identity))
    .limit(1);
  return row ? { ...row, rate: row.rate ? withChanges(row.rate, row.due) : null } : row;
}

/** How soon a scheduled change must be for the page to announce it. */
const UPCOMING_WITHIN_MS = 24 * 3_600_000;

/** The next change within UPCOMING_WITHIN_MS, as the page shows it: its instant, its day and the prices from then. */
function upcomingChange(row: LocatedConnector, now: Date): ChargePointInfo["upcoming"] {
  if (!row.rate || !row.next) return null;
  const at = new Date(row.next.effectiveFrom);
  const after = withChanges(row.rate, [row.next.changes]);
  return {
    effectiveFrom: at.toISOString(),
    day: argentineDay(at) === argentineDay(now) ? "TODAY" : "TOMORROW",
    pricePerKwhCents: after.pricePerKwhCents,
    pricePerMinuteCents: after.pricePerMinuteCents,
    sessionFeeCents: after.sessionFeeCents,
  };
}

/** The band in force now and the next change of price, in the station's time zone (the rate preview's rule). */
function bandNowOf(rate: RateSnapshot | null, timeZone: string, now: Date): ChargePointInfo["bandNow"] {
  const p = rate ? pricesNow(rate, now, { timeZone, isHoliday: isArgentineHoliday }) : null;
  if (!p) return null;
  const today = localMoment(now.getTime(), timeZone).date;
  const tomorrow = localMoment(now.getTime() + 86_400_000, timeZone).date;
  const next = p.next;
  const day = next ? localMoment(next.at.getTime(), timeZone).date : null;
  return {
    name: p.name,
    pricePerKwhCents: p.pricePerKwhCents,
    pricePerMinuteCents: p.pricePerMinuteCents,
    next: next
      ? { at: next.at.toISOString(), day: day === today ? "TODAY" : day === tomorrow ? "TOMORROW" : "LATER", name: next.name, pricePerKwhCents: next.pricePerKwhCents, pricePerMinuteCents: next.pricePerMinuteCents }
      : null,
  };
}

/** The calendar day of an instant in Argentina (UTC−3, no DST). */
function argentineDay(t: Date): string {
  return new Date(t.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
}

type LocatedConnector = NonNullable<Awaited<ReturnType<typeof locateConnector>>>;

/**
 * What a driver sees of the connector: offline, out of service (disabled, faulted, unavailable),
 * busy (a session or a paid start under way, or any other status), else available.
 */
function connectorState(row: LocatedConnector): ConnectorState {
  const status = row.connectorStatus as ChargePointStatus;
  if (!row.online) return "OFFLINE";
  if (!row.enabled || status === "Faulted" || status === "Unavailable") return "OUT_OF_SERVICE";
  if (status === "Available" || (status === "Preparing" && !row.openSession)) return row.openSession || row.inFlight ? "BUSY" : "AVAILABLE";
  return "BUSY";
}

/** Why a driver cannot pay at the connector now (Spanish), or null when they may. */
function unavailableReason(row: LocatedConnector, rate: RateSnapshot | null, providers: unknown[], state: ConnectorState): string | null {
  if (!row.station.qrPaymentEnabled) return "Este cargador no acepta pagos con QR. Consultá en la estación cómo cargar.";
  if (!rate) return "Este conector todavía no tiene una tarifa: no podemos cobrarte la carga.";
  if (providers.length === 0) return "La estación todavía no tiene un medio de pago conectado.";
  if (state === "OFFLINE") return "El cargador está sin conexión: no podría iniciar la carga. Probá en unos minutos.";
  if (state === "OUT_OF_SERVICE") return "El conector está fuera de servicio.";
  if (state === "BUSY") return "El conector está ocupado. Esperá a que se libere.";
  return null;
}

export async function chargePoint(ctx: PaymentsContext, identity: string, connectorNumber: number): Promise<ChargePointInfo | null> {
  const row = await locateConnector(ctx, identity, connectorNumber);
  // A company that is not active, or a station it has not published, has no public page.
  if (!row || row.businessStatus !== "ACTIVE" || !row.station.published) return null;
  const providers = await connectedProviders(ctx, row.businessId);
  const state = connectorState(row);
  const snapshot = row.rate ? rateSnapshotFromRow(row.rate, row.companyHolidays) : null;
  return {
    stationName: row.station.name,
    address: row.station.address,
    city: row.station.city,
    chargerName: row.chargerName,
    connectorNumber,
    connectorType: row.connectorType,
    maxPowerKw: row.maxPowerKw,
    state,
    stateLabel: CONNECTOR_STATE_LABELS[state],
    rate: snapshot
      ? {
          pricePerKwhCents: snapshot.pricePerKwhCents,
          pricePerMinuteCents: snapshot.pricePerMinuteCents,
          sessionFeeCents: snapshot.sessionFeeCents,
          idleGraceMinutes: snapshot.idleGraceMinutes,
          idlePricePerMinuteCents: snapshot.idlePricePerMinuteCents,
          idleMaxCents: snapshot.idleMaxCents,
          vatIncluded: snapshot.vatIncluded,
          vatRateBp: snapshot.vatRateBp,
        }
      : null,
    providers,
    minCents: row.station.qrMinCents,
    maxCents: row.station.qrMaxCents,
    presets: presetAmounts(row.station.qrMinCents, row.station.qrMaxCents),
    bandNow: bandNowOf(snapshot, row.station.timeZone || DEFAULT_TIME_ZONE, ctx.now()),
    upcoming: upcomingChange(row, ctx.now()),
    unavailable: unavailableReason(row, snapshot, providers, state),
  };
}
