// The station form's starting values and limits, without zod: what the pages bundle (the zod
// schema in ./schema.ts loads lazily in the browser; docs/benchmarks.md §1).
import { WEEKDAY_LABELS } from "#contract/schemas/station-constants";
import type { OpeningHoursDto, StationDto } from "#contract/dto";
import { DEFAULT_TIME_ZONE } from "#domain/time-zone";
import { DEFAULT_QR_MAX_CENTS, DEFAULT_QR_MIN_CENTS } from "#domain/driver-payment";

export const MAX_PERIODS_PER_DAY = 3;
export const OPENING_MODES = ["ALWAYS", "WEEKLY"] as const;
export type OpeningMode = (typeof OPENING_MODES)[number];

export const HOURS_MESSAGES = {
  none: "Indicá al menos una franja horaria o elegí «Abierta las 24 horas».",
  begin: "Ingresá la hora de apertura.",
  end: "Ingresá la hora de cierre.",
  same: "El horario de cierre debe ser distinto del de apertura.",
} as const;

export interface DayDefault {
  periods: { begin: string; end: string }[];
}

/** Seven day rows; a day without periods gets one empty row to fill in (empty = closed). */
export function daysFromOpeningHours(oh: OpeningHoursDto | undefined): DayDefault[] {
  return WEEKDAY_LABELS.map((_, i) => {
    const periods = (oh?.twentyFourSeven ? [] : (oh?.periods ?? []))
      .filter((p) => p.weekday === i + 1)
      .sort((a, b) => a.begin.localeCompare(b.begin))
      .slice(0, MAX_PERIODS_PER_DAY)
      .map((p) => ({ begin: p.begin, end: p.end }));
    return { periods: periods.length > 0 ? periods : [{ begin: "", end: "" }] };
  });
}

/** Centavos as the form shows them: pesos, a comma before the centavos when there are any ("5000", "5000,50"). */
export function pesosField(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : `${Math.trunc(cents / 100)},${String(cents % 100).padStart(2, "0")}`;
}

/** The form's initial value: a new station, or the one being edited. */
export function stationFormDefaults(station?: StationDto) {
  return {
    name: station?.name ?? "",
    address: station?.address ?? "",
    city: station?.city ?? "",
    province: station?.province ?? "",
    postalCode: station?.postalCode ?? "",
    latitude: station ? String(station.latitude) : "",
    longitude: station ? String(station.longitude) : "",
    parkingType: station?.parkingType ?? "",
    services: station?.services ?? [],
    hours: {
      mode: (station && !station.openingHours.twentyFourSeven ? "WEEKLY" : "ALWAYS") as OpeningMode,
      days: daysFromOpeningHours(station?.openingHours),
    },
    timeZone: station?.timeZone ?? DEFAULT_TIME_ZONE,
    photoUrl: station?.photoUrl ?? "",
    published: station?.published ?? false,
    authorizationPolicy: station?.authorizationPolicy ?? "OPEN",
    gridCapacityKw: station?.gridCapacityKw != null ? String(station.gridCapacityKw).replace(".", ",") : "",
    // Drivers prepay at the connectors' QR, between these amounts (pesos).
    qr: {
      enabled: station?.qrPaymentEnabled ?? false,
      min: pesosField(station?.qrMinCents ?? DEFAULT_QR_MIN_CENTS),
      max: pesosField(station?.qrMaxCents ?? DEFAULT_QR_MAX_CENTS),
    },
  };
}
