// A closed charging session as an OCPI 2.2.1 CDR (mod_cdrs.asciidoc §CDR object), ADR 0020, 0045.
// The amounts are the session's own breakdown (domain/pricing, priced with the rate snapshot taken
// at its start), so the CDR and the operator's Actividad always agree. Idle time is PARKING_TIME:
//
//   period 1  start → end of charging        ENERGY (kWh), TIME (h)        tariff_id = the rate
//   period 2  end of charging → + grace      PARKING_TIME (h)              no tariff: free
//   period 3  end of grace → unplug/stop     PARKING_TIME (h)              tariff_id = the rate
//
// and total_parking_cost is the idle penalty — seconds after the grace at the idle price (within
// its hours and under its cap) — never time at the charging-time price; total_time_cost is
// charging time only. A period without tariff_id has no tariff relevant (§ChargingPeriod): that is
// how the grace is published, since no tariff restriction counts from the end of charging.
//
// Pricing the periods with the published tariff gives the CDR's costs to the cent: time volumes
// are the billed seconds (domain/pricing billedSeconds, the tariff's step_size 1), and each
// cost's excl_vat is its billed volume × the tariff's price excl. VAT (mod_tariffs §PriceComponent)
// rounded to the cent, its incl_vat what the driver was billed.
import { billedSeconds, roundCents, type BandLine, type RateSnapshot, type SessionBands } from "../domain/pricing";
import { isArgentineHoliday } from "../domain/holidays.server";
import { bandSegments } from "../domain/tariff-bands";
import { DEFAULT_TIME_ZONE } from "../domain/time-zone";
import type { ConnectorFormat, PowerType } from "../contract/dto";
import { ocpiDateTime } from "./envelope";
import type { Cdr, CdrToken } from "./schemas";
import { evseId, netPrice, type Party } from "./mapping";

export interface SessionForCdr {
  id: string;
  startedAt: Date;
  chargingEndedAt: Date | null;
  unpluggedAt: Date | null;
  stoppedAt: Date | null;
  energyWh: number;
  rateId: string | null;
  rateSnapshot: RateSnapshot | null;
  energyCents: number;
  timeCents: number;
  sessionFeeCents: number;
  idleCents: number;
  vatCents: number;
  totalCents: number;
  updatedAt: Date;
  stopReason?: string | null;
  /** The energy and minutes per time-of-use band the session was priced with (charging_sessions.price_bands). */
  priceBands?: SessionBands | null;
}

export interface CdrPlace {
  station: { id: string; name: string; address: string; city: string; postalCode: string | null; country: string; latitude: number; longitude: number; timeZone?: string };
  chargerId: string;
  connector: { connectorId: number; standard: string; format: ConnectorFormat; powerType: PowerType };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
/**
 * Billed seconds as hours with 4 decimals (types.asciidoc §number), cut rather than rounded: the
 * cut is under 0.36 s, so an eMSP rounding volume × 3600 up to the tariff's step of 1 s gets the
 * billed seconds back exactly, where rounding to nearest could add a second.
 */
export const hoursOf = (seconds: number) => Math.floor((seconds / 3600) * 10_000 + 1e-6) / 10_000;

/** An amount in centavos as priced (with VAT when the rate includes it) → OCPI Price (types.asciidoc §Price). */
export function priceOf(cents: number, rate: Pick<RateSnapshot, "vatIncluded" | "vatRateBp"> | null): { excl_vat: number; incl_vat: number } {
  const r = (rate?.vatRateBp ?? 0) / 10_000;
  const included = rate?.vatIncluded ?? true;
  const excl = included ? cents / (1 + r) : cents;
  const incl = included ? cents : cents * (1 + r);
  return { excl_vat: round(excl / 100, 2), incl_vat: round(incl / 100, 2) };
}

/**
 * The cost of one dimension as the tariff prices it: excl_vat is `volume` (billed units) × the
 * published price excl. VAT of `unitCents`, rounded to the cent; incl_vat is what the driver was
 * billed (`cents`) when the rate includes VAT, else that net with the VAT on top. When the session
 * billed something else than the tariff gives for that volume (the idle cap or its hours, a
 * prepaid session cut to what was paid), the billed amount is split as it stands.
 */
export function dimensionCost(cents: number, volume: number, unitCents: number, rate: RateSnapshot | null): { excl_vat: number; incl_vat: number } {
  if (!rate || roundCents(unitCents * volume) !== cents) return priceOf(cents, rate);
  const net = volume * netPrice(rate, unitCents);
  return {
    excl_vat: roundCents(net * 100) / 100,
    incl_vat: rate.vatIncluded ? cents / 100 : roundCents(net * (10_000 + rate.vatRateBp) / 100) / 100,
  };
}

/**
 * The charging periods of a session priced by time-of-use bands (ADR 0045, amendment of
 * 2026-11-29): one per stretch of one band, cut where the Tariff's band elements change
 * (domain/tariff-bands bandSegments, in the station's time zone, holidays as Sundays as the
 * session was priced), so an eMSP evaluating the restrictions at each period's start picks the
 * band the session was priced by. Each period carries that stretch's billed seconds and its band's
 * energy (a band used in two stretches has its energy split by their time, in whole Wh, the last
 * stretch taking the rest). Null when the session has no band lines to split by.
 */
function bandPeriods(
  session: Pick<SessionForCdr, "startedAt" | "rateSnapshot" | "priceBands">,
  chargingSeconds: number,
  timeZone: string,
  tariffId: string | undefined,
): Cdr["charging_periods"] | null {
  const bands = session.rateSnapshot?.bands ?? [];
  const lines = session.priceBands?.lines ?? [];
  if (bands.length === 0 || lines.length === 0) return null;
  const start = session.startedAt.getTime();
  const segments = bandSegments(bands, start, start + chargingSeconds * 1000, { timeZone, isHoliday: isArgentineHoliday, localHolidays: session.rateSnapshot?.localHolidays });
  if (segments.length === 0 || segments.some((seg) => !lines.some((l) => l.band === seg.band))) return null;
  const energyLeft = new Map(lines.map((l) => [l.band, l.energyWh]));
  const timeLeft = new Map<number, number>();
  for (const seg of segments) timeLeft.set(seg.band, (timeLeft.get(seg.band) ?? 0) + (seg.end - seg.start));
  return segments.map((seg) => {
    const line = lines.find((l) => l.band === seg.band) as BandLine;
    const ms = seg.end - seg.start;
    const remainingMs = timeLeft.get(seg.band) ?? ms;
    const remainingWh = energyLeft.get(seg.band) ?? 0;
    const wh = ms >= remainingMs ? remainingWh : Math.round((line.energyWh * ms) / (line.minutes * 60_000 || ms));
    timeLeft.set(seg.band, remainingMs - ms);
    energyLeft.set(seg.band, remainingWh - wh);
    return {
      start_date_time: ocpiDateTime(new Date(seg.start)),
      dimensions: [
        { type: "ENERGY" as const, volume: round(wh / 1000, 3) },
        { type: "TIME" as const, volume: hoursOf(ms / 1000) },
      ],
      ...(tariffId ? { tariff_id: tariffId } : {}),
    };
  });
}

/**
 * The charging periods of a session up to `end` (its end, or the instant a running session was
 * last updated): charging with its energy and time — one period per band stretch when it was
 * priced by bands — then the grace and the billed idle time as PARKING_TIME (see the top of this
 * file). Also the billed seconds the costs are priced on.
 */
export function chargingPeriodsOf(
  session: Pick<SessionForCdr, "startedAt" | "chargingEndedAt" | "energyWh" | "rateId" | "rateSnapshot" | "priceBands">,
  end: Date,
  timeZone: string = DEFAULT_TIME_ZONE,
): { periods: Cdr["charging_periods"]; banded: boolean; chargingEnd: Date; chargingSeconds: number; billedIdleSeconds: number } {
  const rate = session.rateSnapshot;
  const chargingEnd = session.chargingEndedAt && session.chargingEndedAt < end ? session.chargingEndedAt : end;
  const tariffId = session.rateId ?? undefined;
  const chargingSeconds = billedSeconds(session.startedAt, chargingEnd);
  const byBand = bandPeriods(session, chargingSeconds, timeZone, tariffId);
  const periods: Cdr["charging_periods"] = byBand ?? [
    {
      start_date_time: ocpiDateTime(session.startedAt),
      dimensions: [
        { type: "ENERGY", volume: round(session.energyWh / 1000, 3) },
        { type: "TIME", volume: hoursOf(chargingSeconds) },
      ],
      ...(tariffId ? { tariff_id: tariffId } : {}),
    },
  ];
  let billedIdleSeconds = 0;
  if (end > chargingEnd) {
    const graceEnd = new Date(Math.min(end.getTime(), chargingEnd.getTime() + (rate?.idleGraceMinutes ?? 0) * 60_000));
    if (graceEnd > chargingEnd) periods.push({ start_date_time: ocpiDateTime(chargingEnd), dimensions: [{ type: "PARKING_TIME", volume: hoursOf(billedSeconds(chargingEnd, graceEnd)) }] });
    if (end > graceEnd) {
      billedIdleSeconds = billedSeconds(graceEnd, end);
      periods.push({
        start_date_time: ocpiDateTime(graceEnd),
        dimensions: [{ type: "PARKING_TIME", volume: hoursOf(billedIdleSeconds) }],
        ...(tariffId && (rate?.idlePricePerMinuteCents ?? 0) > 0 ? { tariff_id: tariffId } : {}),
      });
    }
  }
  return { periods, banded: byBand !== null, chargingEnd, chargingSeconds, billedIdleSeconds };
}

/**
 * The energy or time cost of a session priced by bands, as the Tariff's band elements price it:
 * excl_vat is Σ band volume × the band's price excl. VAT, rounded to the cent once (an eMSP adds
 * up a dimension before rounding); incl_vat is what the driver was billed (VAT included) or that
 * net with the VAT on top. When a band's billed amount is not its volume × its price (energy
 * interpolated to a fraction of a Wh, a prepaid session cut to what was paid), the billed amount
 * is split as it stands. Null without band lines.
 */
function bandedCost(kind: "energy" | "time", cents: number, lines: readonly BandLine[], rate: RateSnapshot | null): { excl_vat: number; incl_vat: number } | null {
  if (!rate || lines.length === 0) return null;
  const parts = lines.map((l) =>
    kind === "energy"
      ? { volume: Math.round(l.energyWh) / 1000, unit: l.pricePerKwhCents, billed: l.energyCents }
      : { volume: (l.minutes * 60) / 3600, unit: l.pricePerMinuteCents * 60, billed: l.timeCents },
  );
  const exact = parts.every((p) => roundCents(p.unit * p.volume) === p.billed) && parts.reduce((a, p) => a + p.billed, 0) === cents;
  if (!exact) return priceOf(cents, rate);
  const net = parts.reduce((a, p) => a + p.volume * netPrice(rate, p.unit), 0);
  return {
    excl_vat: roundCents(net * 100) / 100,
    incl_vat: rate.vatIncluded ? cents / 100 : roundCents((net * (10_000 + rate.vatRateBp)) / 100) / 100,
  };
}

export function sessionToCdr(
  party: Party,
  session: SessionForCdr,
  place: CdrPlace,
  token: CdrToken,
  opts: { authMethod: Cdr["auth_method"]; authorizationReference?: string },
): Cdr {
  const rate = session.rateSnapshot;
  const end = session.unpluggedAt ?? session.stoppedAt ?? session.chargingEndedAt ?? session.startedAt;
  const { periods, banded, chargingEnd, chargingSeconds, billedIdleSeconds } = chargingPeriodsOf(session, end, place.station.timeZone);
  const lines = banded ? (session.priceBands?.lines ?? []) : [];
  const costs = {
    energy: bandedCost("energy", session.energyCents, lines, rate) ?? dimensionCost(session.energyCents, session.energyWh / 1000, rate?.pricePerKwhCents ?? 0, rate),
    time: bandedCost("time", session.timeCents, lines, rate) ?? dimensionCost(session.timeCents, chargingSeconds / 3600, (rate?.pricePerMinuteCents ?? 0) * 60, rate),
    fixed: dimensionCost(session.sessionFeeCents, 1, rate?.sessionFeeCents ?? 0, rate),
    parking: dimensionCost(session.idleCents, billedIdleSeconds / 3600, (rate?.idlePricePerMinuteCents ?? 0) * 60, rate),
  };
  const exclTotal = roundCents((costs.energy.excl_vat + costs.time.excl_vat + costs.fixed.excl_vat + costs.parking.excl_vat) * 100) / 100;
  const s = place.station;
  return {
    country_code: party.countryCode,
    party_id: party.partyId,
    id: session.id,
    start_date_time: ocpiDateTime(session.startedAt),
    end_date_time: ocpiDateTime(end),
    session_id: session.id,
    cdr_token: token,
    auth_method: opts.authMethod,
    ...(opts.authorizationReference ? { authorization_reference: opts.authorizationReference } : {}),
    cdr_location: {
      id: s.id,
      name: s.name.slice(0, 255),
      address: s.address.slice(0, 45),
      city: s.city.slice(0, 45),
      ...(s.postalCode ? { postal_code: s.postalCode.slice(0, 10) } : {}),
      country: s.country,
      coordinates: { latitude: s.latitude.toFixed(6), longitude: s.longitude.toFixed(6) },
      evse_uid: place.chargerId,
      evse_id: evseId(party, place.chargerId),
      connector_id: String(place.connector.connectorId),
      connector_standard: place.connector.standard as Cdr["cdr_location"]["connector_standard"],
      connector_format: place.connector.format,
      connector_power_type: place.connector.powerType,
    },
    currency: rate?.currency ?? "ARS",
    charging_periods: periods,
    // The session's total carries VAT either way (domain/pricing: contained, or added on top);
    // excl. VAT it is the sum of the dimensions' costs as the tariff prices them.
    total_cost: { excl_vat: exclTotal, incl_vat: round(session.totalCents / 100, 2) },
    ...(session.sessionFeeCents > 0 ? { total_fixed_cost: costs.fixed } : {}),
    total_energy: round(session.energyWh / 1000, 3),
    total_energy_cost: costs.energy,
    // Totals are the whole span's billed seconds, cut to 4 decimals like each period: a sum of
    // cut periods could fall short of the total by a fraction of a second per period.
    total_time: hoursOf(billedSeconds(session.startedAt, end)),
    total_time_cost: costs.time,
    total_parking_time: hoursOf(billedSeconds(chargingEnd, end)),
    total_parking_cost: costs.parking,
    ...(session.stopReason ? { remark: session.stopReason.slice(0, 255) } : {}),
    last_updated: ocpiDateTime(session.updatedAt),
  };
}
