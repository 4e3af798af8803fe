// Our domain as OCPI 2.2.1 objects (ADR 0020): a station published to roaming is a Location, each
// of its chargers an EVSE, their connectors Connectors; a rate is a Tariff with its idle penalty as
// PARKING_TIME. Pure functions: the /ocpi modules and the pushes use them alike.
import type { ChargePointStatus } from "../domain/ocpp-status";
import type { RateRow } from "../domain/pricing";
import type { RateChanges } from "../domain/rate-schedule";
import type { BandDays } from "../domain/tariff-bands";
import type { OpeningHours } from "../db/schema";
import type { ConnectorFormat, PowerType } from "../contract/dto";
import { ocpiDateTime } from "./envelope";
import type { Connector, Evse, Location, PriceComponent, Tariff, TariffElement } from "./schemas";

export interface StationForOcpi {
  id: string;
  name: string;
  address: string;
  city: string;
  postalCode: string | null;
  country: string;
  latitude: number;
  longitude: number;
  parkingType: Location["parking_type"] | null;
  openingHours: OpeningHours;
  timeZone: string;
  lastUpdated: Date;
  facilities: string[];
  chargers: ChargerForOcpi[];
  /** Chargers that left the station lately (pulls only): EVSEs with status REMOVED. */
  removedEvses?: RemovedEvse[];
}

export interface RemovedEvse {
  chargerId: string;
  removedAt: Date;
  connectors: ConnectorForOcpi[];
}

export interface ChargerForOcpi {
  id: string;
  enabled: boolean;
  online: boolean;
  updatedAt: Date;
  connectors: ConnectorForOcpi[];
}

export interface ConnectorForOcpi {
  connectorId: number;
  standard: string;
  format: ConnectorFormat;
  powerType: PowerType;
  maxPowerKw: number;
  rateId: string | null;
  /** The ids of the rate's scheduled versions not yet in force (rateTariffs), listed after the rate's. */
  pendingTariffIds?: string[];
  status: ChargePointStatus;
  updatedAt: Date;
}

export interface Party {
  countryCode: string;
  partyId: string;
  operatorName: string;
}

const latest = (...dates: Date[]) => new Date(Math.max(...dates.map((d) => d.getTime())));

/** OCPP 1.6 ChargePointStatus → mod_locations.asciidoc §Status. */
export function evseStatusOf(status: ChargePointStatus): Evse["status"] {
  switch (status) {
    case "Available":
      return "AVAILABLE";
    case "Preparing":
    case "Charging":
    case "SuspendedEV":
    case "SuspendedEVSE":
    case "Finishing":
      return "CHARGING";
    case "Reserved":
      return "RESERVED";
    case "Faulted":
      return "OUTOFORDER";
    case "Unavailable":
      return "INOPERATIVE";
  }
}

/** One status for the charger: offline → UNKNOWN, disabled → INOPERATIVE, else the "best" of its connectors. */
function chargerStatus(charger: ChargerForOcpi): Evse["status"] {
  if (!charger.enabled) return "INOPERATIVE";
  if (!charger.online) return "UNKNOWN";
  const statuses = charger.connectors.map((c) => evseStatusOf(c.status));
  for (const s of ["AVAILABLE", "CHARGING", "RESERVED", "OUTOFORDER"] as const) if (statuses.includes(s)) return s;
  return "INOPERATIVE";
}

/**
 * mod_locations.asciidoc §Connector: max_voltage is line to neutral for AC_3_PHASE. Our connectors
 * record power only: 230 V for AC (the Argentine grid), 400 V assumed for DC; the amperage is
 * what that power needs at that voltage (all phases), and max_electric_power the power itself.
 */
export function connectorToOcpi(c: ConnectorForOcpi): Connector {
  const watts = Math.round(c.maxPowerKw * 1000);
  const voltage = c.powerType === "DC" ? 400 : 230;
  const phases = c.powerType === "AC_3_PHASE" ? 3 : 1;
  return {
    id: String(c.connectorId),
    standard: c.standard as Connector["standard"],
    format: c.format,
    power_type: c.powerType,
    max_voltage: voltage,
    max_amperage: Math.ceil(watts / (voltage * phases)),
    max_electric_power: watts,
    ...(c.rateId ? { tariff_ids: [c.rateId, ...(c.pendingTariffIds ?? [])] } : {}),
    last_updated: ocpiDateTime(c.updatedAt),
  };
}

/**
 * mod_locations.asciidoc §EVSE: `evse_id` is the eMI3 id the CDRs of its sessions carry
 * (cdr_location.evse_id, made by the same function), so a partner matches a CDR to its EVSE.
 */
export function chargerToEvse(party: Pick<Party, "countryCode" | "partyId">, charger: ChargerForOcpi): Evse {
  const connectors = [...charger.connectors].sort((a, b) => a.connectorId - b.connectorId);
  return {
    uid: charger.id,
    ...(party.partyId ? { evse_id: evseId(party, charger.id) } : {}),
    status: chargerStatus(charger),
    capabilities: ["REMOTE_START_STOP_CAPABLE", "RFID_READER", "UNLOCK_CAPABLE"],
    connectors: connectors.map(connectorToOcpi),
    last_updated: ocpiDateTime(latest(charger.updatedAt, ...connectors.map((c) => c.updatedAt))),
  };
}

/** mod_locations.asciidoc §GeoLocation: 5 to 7 decimals. */
const coordinate = (value: number) => value.toFixed(6);

export function stationToLocation(party: Party, s: StationForOcpi): Location {
  const evses = s.chargers.filter((c) => c.connectors.length > 0).map((c) => chargerToEvse(party, c));
  for (const r of s.removedEvses ?? []) {
    const at = ocpiDateTime(r.removedAt);
    const evse = chargerToEvse(party, { id: r.chargerId, enabled: false, online: false, updatedAt: r.removedAt, connectors: r.connectors });
    evses.push({ ...evse, status: "REMOVED", last_updated: at });
  }
  return {
    country_code: party.countryCode,
    party_id: party.partyId,
    id: s.id,
    publish: true,
    name: s.name.slice(0, 255),
    address: s.address.slice(0, 45),
    city: s.city.slice(0, 45),
    ...(s.postalCode ? { postal_code: s.postalCode.slice(0, 10) } : {}),
    country: s.country,
    coordinates: { latitude: coordinate(s.latitude), longitude: coordinate(s.longitude) },
    ...(s.parkingType ? { parking_type: s.parkingType } : {}),
    evses,
    operator: { name: party.operatorName.slice(0, 100) },
    ...(s.facilities.length ? { facilities: s.facilities } : {}),
    time_zone: s.timeZone,
    opening_times: s.openingHours.twentyFourSeven
      ? { twentyfourseven: true }
      : {
          twentyfourseven: false,
          regular_hours: s.openingHours.periods.map((p) => ({ weekday: p.weekday, period_begin: p.begin, period_end: p.end })),
        },
    last_updated: ocpiDateTime(s.lastUpdated),
  };
}

// Tariffs ----------------------------------------------------------------------------------------

/** A rate as priced (domain/pricing's row, less the no-show fee OCPI has no element for), with its last change. */
export type RateForOcpi = Omit<RateRow, "noShowFeeCents"> & { updatedAt: Date };

/**
 * mod_tariffs.asciidoc §PriceComponent: `price` is excl. VAT and `vat` the percentage. Our rates
 * carry prices with or without VAT (rates.vat_included); with it, the net is price / (1 + rate).
 * Rounded to 4 decimals (types.asciidoc §number allows them).
 */
export function netPrice(rate: Pick<RateForOcpi, "vatIncluded" | "vatRateBp">, cents: number): number {
  const net = rate.vatIncluded ? cents / (1 + rate.vatRateBp / 10_000) : cents;
  return Math.round((net / 100) * 10_000) / 10_000;
}

const money = (cents: number) => (cents / 100).toFixed(2);

/** mod_tariffs §DayOfWeek of each of our day types. Holidays are not a day of the week (see bandElements). */
const OCPI_DAYS: Record<BandDays, NonNullable<NonNullable<TariffElement["restrictions"]>["day_of_week"]>> = {
  WEEKDAY: ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY"],
  SATURDAY: ["SATURDAY"],
  SUNDAY_HOLIDAY: ["SUNDAY"],
};

/**
 * The time-of-use bands as TariffElements (mod_tariffs §TariffRestrictions), before the rate's own
 * prices: a partner takes, per dimension, the first element whose restrictions hold, so inside a
 * band its element prices ENERGY and TIME, and outside every band the unrestricted element does.
 * Each band element carries both ENERGY and TIME (a price of 0 included), so a band never falls
 * through to the rate's own prices for one of them. `start_time`/`end_time` are the band's hours
 * in the Location's time zone; a band that ends at 24:00 has `end_time` 00:00 ("to stop at end of
 * the day use 00:00"). Sundays and holidays are published as SUNDAY: OCPI 2.2.1 has no holiday
 * restriction, so a holiday on another day is published as that weekday's prices and the CDR,
 * priced by the holiday, stays what is billed (ADR 0045, amendment of 2026-11-29).
 */
function bandElements(rate: RateForOcpi, vat: number): TariffElement[] {
  return (rate.bands ?? []).map((b) => ({
    price_components: [
      { type: "ENERGY", price: netPrice(rate, b.pricePerKwhCents), vat, step_size: 1 },
      { type: "TIME", price: netPrice(rate, b.pricePerMinuteCents * 60), vat, step_size: 1 },
    ],
    restrictions: {
      ...(b.from === "00:00" && b.to === "24:00" ? {} : { start_time: b.from, end_time: b.to === "24:00" ? "00:00" : b.to }),
      day_of_week: OCPI_DAYS[b.days],
    },
  }));
}

/** A version of a rate's Tariff: its own id and the span it is valid in (mod_tariffs §Tariff start_date_time, end_date_time). */
export interface TariffVersion {
  id: string;
  startDateTime?: Date;
  endDateTime?: Date;
  lastUpdated?: Date;
}

/**
 * A rate as a Tariff (ADR 0020, 0045):
 * - first, one element per time-of-use band, with its hours and days as restrictions (bandElements);
 * - then the rate's own prices, without restrictions: ENERGY per kWh (step 1 Wh), TIME per hour of
 *   charging (step 1 s: a started second is billed whole, domain/pricing billedSeconds), FLAT for
 *   the session fee; a free rate is ENERGY at 0 (price_components is 1..*).
 * - last, only with an idle penalty: PARKING_TIME at the idle price per hour (step 1 s) —
 *   never at the charging-time price. PARKING_TIME is "time not charging"
 *   (§TariffDimensionType), which is our idle time. The grace after charging is not a
 *   restriction: `min_duration` counts the whole session (§TariffRestrictions), and OCPI has no
 *   restriction counted from the end of charging. The CDR carries it instead: the grace is a
 *   charging period without tariff_id, which mod_cdrs §ChargingPeriod says has no tariff
 *   relevant, and the billed idle time starts a period with the tariff. The penalty's hours are
 *   start_time/end_time. Elements are read in order and PARKING_TIME only appears in this one,
 *   so outside its restrictions parking is free.
 * - the idle cap (our rates.idle_max_cents) has no OCPI field per dimension: it is stated in
 *   tariff_alt_text, with the grace, in Spanish and English.
 * `version` names a scheduled version (its own id and span, ratesToTariffs); by default the
 * rate's id, valid without bounds.
 */
export function rateToTariff(party: Party, rate: RateForOcpi, version?: TariffVersion): Tariff {
  const vat = rate.vatRateBp / 100;
  const base: PriceComponent[] = [];
  if (rate.pricePerKwhCents > 0) base.push({ type: "ENERGY", price: netPrice(rate, rate.pricePerKwhCents), vat, step_size: 1 });
  if (rate.pricePerMinuteCents > 0) base.push({ type: "TIME", price: netPrice(rate, rate.pricePerMinuteCents * 60), vat, step_size: 1 });
  if (rate.sessionFeeCents > 0) base.push({ type: "FLAT", price: netPrice(rate, rate.sessionFeeCents), vat, step_size: 1 });
  if (base.length === 0) base.push({ type: "ENERGY", price: 0, vat, step_size: 1 });
  const elements: TariffElement[] = [...bandElements(rate, vat), { price_components: base }];
  const altText: { language: string; text: string }[] = [];
  if (rate.idlePricePerMinuteCents > 0) {
    const restrictions: TariffElement["restrictions"] = {};
    if (rate.idleActiveFrom && rate.idleActiveTo) {
      restrictions.start_time = rate.idleActiveFrom;
      restrictions.end_time = rate.idleActiveTo;
    }
    elements.push({
      price_components: [{ type: "PARKING_TIME", price: netPrice(rate, rate.idlePricePerMinuteCents * 60), vat, step_size: 1 }],
      ...(Object.keys(restrictions).length ? { restrictions } : {}),
    });
    const cap = rate.idleMaxCents != null ? `, hasta ${rate.currency} ${money(rate.idleMaxCents)}` : "";
    const capEn = rate.idleMaxCents != null ? `, up to ${rate.currency} ${money(rate.idleMaxCents)}` : "";
    const hours = rate.idleActiveFrom && rate.idleActiveTo ? ` entre las ${rate.idleActiveFrom} y las ${rate.idleActiveTo}` : "";
    const hoursEn = rate.idleActiveFrom && rate.idleActiveTo ? ` between ${rate.idleActiveFrom} and ${rate.idleActiveTo}` : "";
    altText.push(
      {
        language: "es",
        text: `Penalidad por inactividad: ${rate.currency} ${money(rate.idlePricePerMinuteCents)} por minuto${hours} después de ${rate.idleGraceMinutes} minutos de terminada la carga${cap}.`,
      },
      {
        language: "en",
        text: `Idle fee: ${rate.currency} ${money(rate.idlePricePerMinuteCents)} per minute${hoursEn} after ${rate.idleGraceMinutes} minutes from the end of charging${capEn}.`,
      },
    );
  }
  if (rate.bands?.some((b) => b.days === "SUNDAY_HOLIDAY")) {
    altText.push(
      { language: "es", text: "Los precios de los domingos rigen también los feriados nacionales y los feriados locales de la tarifa." },
      { language: "en", text: "Sunday prices also apply on Argentine national holidays and on the rate's local holidays." },
    );
  }
  return {
    country_code: party.countryCode,
    party_id: party.partyId,
    id: version?.id ?? rate.id,
    currency: rate.currency,
    ...(altText.length ? { tariff_alt_text: altText } : {}),
    elements,
    ...(version?.startDateTime ? { start_date_time: ocpiDateTime(version.startDateTime) } : {}),
    ...(version?.endDateTime ? { end_date_time: ocpiDateTime(version.endDateTime) } : {}),
    last_updated: ocpiDateTime(version?.lastUpdated ?? rate.updatedAt),
  };
}

/** A change of a rate scheduled and not yet written into it (rate_schedules, ADR 0043). */
export interface PendingVersion {
  id: string;
  effectiveFrom: Date;
  changes: RateChanges;
  updatedAt: Date;
}

/**
 * A rate and its pending scheduled changes as Tariffs, one per version (mod_tariffs §Tariff
 * start_date_time/end_date_time; mod_locations §Connector tariff_ids: tariffs of the same type
 * are allowed together when their spans do not overlap, and a connector lists the old and the new
 * ids so the new one "automatically replaces" the old). The rate's own id carries the prices in
 * force now, ending where the first change starts; each change is a Tariff with the change's id,
 * the rate as it will be then (every earlier change laid over it), from its instant to the next
 * change's. When the sweep writes a change into the rate, the rate's id carries its prices and
 * the change's id is gone (the push DELETEs it). `last_updated` is the latest edit of the rate
 * or of a change that bounds the version.
 */
export function rateTariffs(party: Party, rate: RateForOcpi, pending: readonly PendingVersion[]): Tariff[] {
  const sorted = [...pending].sort((a, b) => a.effectiveFrom.getTime() - b.effectiveFrom.getTime());
  const latest = (...ds: (Date | undefined)[]) => new Date(Math.max(...ds.filter((d): d is Date => !!d).map((d) => d.getTime())));
  const out: Tariff[] = [rateToTariff(party, rate, { id: rate.id, endDateTime: sorted[0]?.effectiveFrom, lastUpdated: latest(rate.updatedAt, sorted[0]?.updatedAt) })];
  let asOf: RateForOcpi = rate;
  sorted.forEach((v, i) => {
    asOf = { ...asOf, ...v.changes, id: rate.id, updatedAt: rate.updatedAt };
    const next = sorted[i + 1];
    out.push(rateToTariff(party, asOf, { id: v.id, startDateTime: v.effectiveFrom, endDateTime: next?.effectiveFrom, lastUpdated: latest(rate.updatedAt, v.updatedAt, next?.updatedAt) }));
  });
  return out;
}

/** eMI3 EVSE ID (mod_cdrs §CdrLocation.evse_id): country*party*E + the charger's id without dashes. */
export function evseId(party: Pick<Party, "countryCode" | "partyId">, chargerId: string): string {
  return `${party.countryCode}*${party.partyId}*E${chargerId.replace(/-/g, "").slice(0, 30).toUpperCase()}`;
}
