// A closed charging session as an OCPI 2.2.1 CDR (mod_cdrs.asciidoc §CDR object), ADR 0020. The
// amounts are the session's own breakdown (domain/pricing, priced with the rate snapshot taken at
// its start), so the CDR and the operator's Actividad always agree. Idle time is PARKING_TIME:
//
//   period 1  start → end of charging        ENERGY (kWh), TIME (h)        tariff_id = the rate
//   period 2  end of charging → + grace      PARKING_TIME (h)              no tariff: free
//   period 3  end of grace → unplug/stop     PARKING_TIME (h)              tariff_id = the rate
//
// and total_parking_cost is the idle penalty — minutes after the grace at the idle price (within
// its hours and under its cap) — never minutes at the charging-time price; total_time_cost is
// charging time only. A period without tariff_id has no tariff relevant (§ChargingPeriod).
import type { RateSnapshot } from "../domain/pricing";
import type { ConnectorFormat, PowerType } from "../contract/dto";
import { OCPI_DECIMALS, ocpiDateTime } from "./envelope";
import type { Cdr, CdrToken } from "./schemas";
import type { Party } from "./mapping";

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
}

export interface CdrPlace {
  station: { id: string; name: string; address: string; city: string; postalCode: string | null; country: string; latitude: number; longitude: number };
  chargerId: string;
  connector: { connectorId: number; standard: string; format: ConnectorFormat; powerType: PowerType };
}

const HOUR_MS = 3_600_000;
/** Hours with the 4 decimals of types.asciidoc §number; totals are sums of these rounded periods, so they add up. */
const hours = (from: Date, to: Date) => round(Math.max(0, to.getTime() - from.getTime()) / HOUR_MS, OCPI_DECIMALS);
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** An amount in centavos as priced (with VAT when the rate includes it) → OCPI Price (types.asciidoc §Price). */
export function priceOf(cents: number, rate: Pick<RateSnapshot, "vatIncluded" | "vatRateBp"> | null): { excl_vat: number; incl_vat: number } {
  const r = (rate?.vatRateBp ?? 0) / 10_000;
  const included = rate?.vatIncluded ?? true;
  const excl = included ? cents / (1 + r) : cents;
  const incl = included ? cents : cents * (1 + r);
  return { excl_vat: round(excl / 100, 2), incl_vat: round(incl / 100, 2) };
}

/** eMI3 EVSE ID (mod_cdrs §CdrLocation.evse_id): country*party*E + the charger's id without dashes. */
export function evseId(party: Pick<Party, "countryCode" | "partyId">, chargerId: string): string {
  return `${party.countryCode}*${party.partyId}*E${chargerId.replace(/-/g, "").slice(0, 30).toUpperCase()}`;
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
  const chargingEnd = session.chargingEndedAt && session.chargingEndedAt < end ? session.chargingEndedAt : end;
  const tariffId = session.rateId ?? undefined;
  const periods: Cdr["charging_periods"] = [
    {
      start_date_time: ocpiDateTime(session.startedAt),
      dimensions: [
        { type: "ENERGY", volume: round(session.energyWh / 1000, 3) },
        { type: "TIME", volume: hours(session.startedAt, chargingEnd) },
      ],
      ...(tariffId ? { tariff_id: tariffId } : {}),
    },
  ];
  if (end > chargingEnd) {
    const graceEnd = new Date(Math.min(end.getTime(), chargingEnd.getTime() + (rate?.idleGraceMinutes ?? 0) * 60_000));
    if (graceEnd > chargingEnd) periods.push({ start_date_time: ocpiDateTime(chargingEnd), dimensions: [{ type: "PARKING_TIME", volume: hours(chargingEnd, graceEnd) }] });
    if (end > graceEnd) {
      periods.push({
        start_date_time: ocpiDateTime(graceEnd),
        dimensions: [{ type: "PARKING_TIME", volume: hours(graceEnd, end) }],
        ...(tariffId && (rate?.idlePricePerMinuteCents ?? 0) > 0 ? { tariff_id: tariffId } : {}),
      });
    }
  }
  const s = place.station;
  const volumeOf = (type: string) => round(periods.flatMap((p) => p.dimensions).reduce((sum, d) => sum + (d.type === type ? d.volume : 0), 0), OCPI_DECIMALS);
  const parkingHours = volumeOf("PARKING_TIME");
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
    // The session's total carries VAT either way (domain/pricing: contained, or added on top).
    total_cost: { excl_vat: round((session.totalCents - session.vatCents) / 100, 2), incl_vat: round(session.totalCents / 100, 2) },
    ...(session.sessionFeeCents > 0 ? { total_fixed_cost: priceOf(session.sessionFeeCents, rate) } : {}),
    total_energy: round(session.energyWh / 1000, 3),
    total_energy_cost: priceOf(session.energyCents, rate),
    total_time: round(volumeOf("TIME") + parkingHours, OCPI_DECIMALS),
    total_time_cost: priceOf(session.timeCents, rate),
    total_parking_time: parkingHours,
    total_parking_cost: priceOf(session.idleCents, rate),
    ...(session.stopReason ? { remark: session.stopReason.slice(0, 255) } : {}),
    last_updated: ocpiDateTime(session.updatedAt),
  };
}
