// Time-of-use bands of a rate (franjas horarias: pico, valle, resto). Pure and DB-free, shared
// by the browser preview, the API, OCPP and the seed. This module only splits a session's
// charging time and energy among the bands; domain/pricing turns the split into centavos.
//
// A band applies on one day type (weekdays, Saturdays, Sundays and holidays) from `from` to
// `to` in the station's local time; outside every band the rate's own prices apply. A band
// never wraps past midnight: the hours after midnight belong to the next day's type (Friday
// 23:00 → 02:00 is Saturday from 00:00), so a night band is two rows, "23:00–24:00" and
// "00:00–06:00".

// The day types, their labels and the limits live in their own module, so a screen that only
// names them does not carry the band arithmetic into its first load.
export { BAND_DAYS, BAND_DAYS_LABELS, MAX_BANDS, MAX_COMPANY_HOLIDAYS, MAX_LOCAL_HOLIDAYS, type BandDays } from "./tariff-band-days";
import { BAND_DAYS_LABELS, type BandDays } from "./tariff-band-days";

/** Holiday lists ('YYYY-MM-DD') as one: each date once, in order. A rate prices its own and its company's. */
export function mergeHolidays(...lists: (readonly string[] | null | undefined)[]): string[] {
  return [...new Set(lists.flatMap((l) => l ?? []))].sort();
}

export interface TariffBand {
  /** Optional label shown to drivers ("Pico", "Valle"); null shows the hours. */
  name?: string | null;
  days: BandDays;
  /** 'HH:MM', 00:00–23:59. */
  from: string;
  /** 'HH:MM', after `from`; '24:00' is the end of the day. */
  to: string;
  pricePerKwhCents: number;
  pricePerMinuteCents: number;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MIN = 24 * 60;

/** 'HH:MM' to minutes after midnight ('24:00' is 1440); null when malformed. */
export function bandMinute(value: string, { end = false } = {}): number | null {
  if (end && value === "24:00") return DAY_MIN;
  const m = HHMM.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

export interface BandProblem {
  index: number;
  field: "from" | "to" | "days";
  message: string;
}

/**
 * What is wrong with a list of bands, in Spanish, per row and field: malformed hours, an end
 * not after its start, and two bands of the same day type that overlap (touching is fine:
 * "hasta 18:00" and "desde 18:00").
 */
export function bandProblems(bands: readonly TariffBand[]): BandProblem[] {
  const problems: BandProblem[] = [];
  const spans: { index: number; days: BandDays; from: number; to: number }[] = [];
  bands.forEach((b, index) => {
    const from = bandMinute(b.from);
    const to = bandMinute(b.to, { end: true });
    if (from == null) problems.push({ index, field: "from", message: "Ingresá la hora de inicio como HH:MM (por ejemplo 18:00)." });
    if (to == null) problems.push({ index, field: "to", message: "Ingresá la hora de fin como HH:MM (por ejemplo 23:00, o 24:00 para el fin del día)." });
    if (from == null || to == null) return;
    if (to <= from) {
      problems.push({ index, field: "to", message: "El fin debe ser posterior al inicio. Para cruzar la medianoche cargá dos franjas: hasta las 24:00 y desde las 00:00." });
      return;
    }
    const clash = spans.find((s) => s.days === b.days && s.from < to && from < s.to);
    if (clash) {
      problems.push({ index, field: "from", message: `Se superpone con la franja ${clash.index + 1} (${BAND_DAYS_LABELS[b.days].toLowerCase()}).` });
      return;
    }
    spans.push({ index, days: b.days, from, to });
  });
  return problems;
}

/** 'YYYY-MM-DD' local dates on which holidays apply; the national calendar is given by the caller. */
export type HolidayCheck = (localDate: string) => boolean;

export interface LocalMoment {
  /** 'YYYY-MM-DD' in the zone. */
  date: string;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** Milliseconds since local midnight. */
  msOfDay: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The local calendar date, weekday and time of day of an instant in `timeZone`. */
export function localMoment(t: number, timeZone: string): LocalMoment {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", weekday: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formatters.set(timeZone, fmt);
  }
  const p: Record<string, string> = {};
  for (const part of fmt.formatToParts(t)) p[part.type] = part.value;
  const ms = ((Number(p.hour) * 60 + Number(p.minute)) * 60 + Number(p.second)) * 1000 + (((t % 1000) + 1000) % 1000);
  return { date: `${p.year}-${p.month}-${p.day}`, weekday: WEEKDAYS[p.weekday] ?? 0, msOfDay: ms };
}

/** The day type of a local date: Sundays and holidays (national or the rate's own) first. */
export function dayTypeOf(m: Pick<LocalMoment, "date" | "weekday">, isHoliday: HolidayCheck, localHolidays: readonly string[] = []): BandDays {
  if (m.weekday === 0 || isHoliday(m.date) || localHolidays.includes(m.date)) return "SUNDAY_HOLIDAY";
  return m.weekday === 6 ? "SATURDAY" : "WEEKDAY";
}

/** Index of the band in force at a local moment, or -1 for the rate's own prices. */
function bandIndexAt(bands: readonly TariffBand[], day: BandDays, minuteOfDay: number): number {
  return bands.findIndex((b) => b.days === day && minuteOfDay >= (bandMinute(b.from) ?? DAY_MIN) && minuteOfDay < (bandMinute(b.to, { end: true }) ?? 0));
}

/** Milliseconds from `msOfDay` to the next band edge of that day type, or to local midnight. */
function msToNextEdge(bands: readonly TariffBand[], day: BandDays, msOfDay: number): number {
  let next = DAY_MIN * 60_000;
  for (const b of bands) {
    if (b.days !== day) continue;
    for (const edge of [bandMinute(b.from), bandMinute(b.to, { end: true })]) {
      if (edge == null) continue;
      const ms = edge * 60_000;
      if (ms > msOfDay && ms < next) next = ms;
    }
  }
  return next - msOfDay;
}

export interface BandSegment {
  /** Band index in the rate's list, or -1 outside every band. */
  band: number;
  start: number;
  end: number;
}

/**
 * Cuts [startMs, endMs) at every band edge and local midnight, in `timeZone`; consecutive
 * pieces of the same band are joined. The local clock is re-read at each cut, so the walk stays
 * right across an offset change too.
 */
export function bandSegments(
  bands: readonly TariffBand[],
  startMs: number,
  endMs: number,
  o: { timeZone: string; isHoliday: HolidayCheck; localHolidays?: readonly string[] },
): BandSegment[] {
  const out: BandSegment[] = [];
  let t = startMs;
  while (t < endMs) {
    const m = localMoment(t, o.timeZone);
    const day = dayTypeOf(m, o.isHoliday, o.localHolidays);
    const band = bandIndexAt(bands, day, Math.floor(m.msOfDay / 60_000));
    const next = Math.min(endMs, t + msToNextEdge(bands, day, m.msOfDay));
    const last = out[out.length - 1];
    if (last && last.band === band && last.end === t) last.end = next;
    else out.push({ band, start: t, end: next });
    t = next;
  }
  return out;
}

/** A meter reading during a session: energy delivered so far (Wh) at an instant. */
export interface EnergyReading {
  at: Date;
  energyWh: number;
}

/**
 * Energy delivered by each instant of a session, read off its meter readings: 0 at the start,
 * `totalWh` at the end of charging, straight lines between readings. Readings outside the
 * session, or that go backwards, are left out so the curve only rises and ends at the total.
 */
export function energyCurve(startMs: number, endMs: number, totalWh: number, readings: readonly EnergyReading[]): { at(ms: number): number; hasReadingAt(ms: number): boolean } {
  const pts: [number, number][] = [[startMs, 0]];
  for (const r of [...readings].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const t = r.at.getTime();
    const prev = pts[pts.length - 1];
    if (t <= prev[0] || t >= endMs || !(r.energyWh >= prev[1]) || r.energyWh > totalWh) continue;
    pts.push([t, r.energyWh]);
  }
  const readAt = new Set(pts.slice(1).map(([t]) => t));
  if (endMs > startMs) pts.push([endMs, totalWh]);
  return {
    at(ms: number) {
      if (ms <= startMs) return 0;
      if (ms >= endMs) return totalWh;
      let i = 1;
      while (i < pts.length - 1 && pts[i][0] < ms) i++;
      const [t0, e0] = pts[i - 1];
      const [t1, e1] = pts[i];
      return t1 === t0 ? e1 : e0 + ((e1 - e0) * (ms - t0)) / (t1 - t0);
    },
    // A reading within the same second counts as taken on the edge: OCPP timestamps are whole seconds.
    hasReadingAt(ms: number) {
      for (const t of readAt) if (Math.abs(t - ms) < 1000) return true;
      return false;
    },
  };
}

/** What one band took of a session: energy (Wh, fractional when interpolated) and minutes. */
export interface BandShare {
  band: number;
  energyWh: number;
  minutes: number;
}

export interface BandSplit {
  shares: BandShare[];
  /** Some band edge fell between two meter readings: its energy was interpolated. */
  estimated: boolean;
}

/**
 * Splits a session's charging among the bands. Minutes are those counted for the session
 * (`chargingMinutes` from the start); energy is `energyWh` split by the meter readings at each
 * band edge, interpolated linearly when no reading falls on it. Shares are in order of first use;
 * energies add up to `energyWh` and minutes to `chargingMinutes`.
 */
export function splitByBands(
  bands: readonly TariffBand[],
  s: { startedAt: Date; chargingEndedAt?: Date; chargingMinutes: number; energyWh: number; readings?: readonly EnergyReading[] },
  o: { timeZone: string; isHoliday: HolidayCheck; localHolidays?: readonly string[] },
): BandSplit {
  const start = s.startedAt.getTime();
  const minutesEnd = start + s.chargingMinutes * 60_000;
  const energyEnd = Math.max(minutesEnd, s.chargingEndedAt?.getTime() ?? minutesEnd);
  const segments = bandSegments(bands, start, energyEnd, o);
  const curve = energyCurve(start, energyEnd, s.energyWh, s.readings ?? []);
  const byBand = new Map<number, BandShare>();
  let estimated = false;
  segments.forEach((seg, i) => {
    if (i > 0 && s.energyWh > 0 && !curve.hasReadingAt(seg.start)) estimated = true;
    const share = byBand.get(seg.band) ?? { band: seg.band, energyWh: 0, minutes: 0 };
    share.energyWh += curve.at(seg.end) - curve.at(seg.start);
    share.minutes += Math.max(0, Math.min(seg.end, minutesEnd) - seg.start) / 60_000;
    byBand.set(seg.band, share);
  });
  if (byBand.size === 0) byBand.set(-1, { band: -1, energyWh: s.energyWh, minutes: s.chargingMinutes });
  return { shares: [...byBand.values()], estimated };
}

/** The band in force at an instant and the next change of price after it (within a week). */
export function bandNow(
  bands: readonly TariffBand[],
  now: Date,
  o: { timeZone: string; isHoliday: HolidayCheck; localHolidays?: readonly string[] },
): { band: number; next: { at: Date; band: number } | null } {
  const t = now.getTime();
  const [first, second] = bandSegments(bands, t, t + 7 * 86_400_000, o);
  return { band: first?.band ?? -1, next: second ? { at: new Date(second.start), band: second.band } : null };
}

/** A band's label for people: its name, or its day type and hours. */
export function bandLabel(b: TariffBand | undefined): string {
  if (!b) return "Fuera de franja";
  const hours = `${b.from}–${b.to}`;
  return b.name ? `${b.name} (${BAND_DAYS_LABELS[b.days].toLowerCase()} ${hours})` : `${BAND_DAYS_LABELS[b.days]} ${hours}`;
}
