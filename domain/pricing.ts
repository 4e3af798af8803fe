// Pricing of a charging session with a rate (Tarifa): energy, time, session fee, idle
// penalty and VAT. Pure and deterministic: the OCPP handler, the API and the demo seed all
// price sessions with this module, so a session's stored breakdown is always reproducible
// from its rate snapshot and usage.
//
// Money is integer centavos. Each component is rounded to centavos once (half away from
// zero); VAT is computed on the sum of the rounded components.

import { bandLabel, bandNow, mergeHolidays, splitByBands, type EnergyReading, type HolidayCheck, type TariffBand } from "./tariff-bands";
import { DEFAULT_TIME_ZONE } from "./time-zone";

export { DEFAULT_TIME_ZONE };
export { DEFAULT_VAT_RATE_BP } from "./money";

/** The rate as it was when the session started; stored on the session (`rate_snapshot`). */
export interface RateSnapshot {
  rateId: string | null;
  name: string;
  currency: string;
  pricePerKwhCents: number;
  /** Per minute of charging (start to end of charging), not of idle time. */
  pricePerMinuteCents: number;
  sessionFeeCents: number;
  /** true: the prices above already include VAT; false: VAT is added on top. */
  vatIncluded: boolean;
  vatRateBp: number;
  /** Idle penalty: minutes after charging ends that are free. */
  idleGraceMinutes: number;
  idlePricePerMinuteCents: number;
  /** Cap on the idle penalty; null = no cap. */
  idleMaxCents: number | null;
  /** Optional window ('HH:MM', station local time) when idle minutes count; may cross midnight. */
  idleActiveFrom: string | null;
  idleActiveTo: string | null;
  /** Reservation no-show fee. */
  noShowFeeCents: number;
  /** Time-of-use bands (domain/tariff-bands); absent or empty: one price all day. */
  bands?: TariffBand[];
  /**
   * Local holidays ('YYYY-MM-DD') priced as Sundays besides the national ones: the rate's own and
   * its company's, merged when the snapshot is taken.
   */
  localHolidays?: string[];
}

/** The columns of a `rates` row that a snapshot needs (structural, so domain stays DB-free). */
export interface RateRow {
  id: string;
  name: string;
  currency: string;
  pricePerKwhCents: number;
  pricePerMinuteCents: number;
  sessionFeeCents: number;
  vatIncluded: boolean;
  vatRateBp: number;
  idleGraceMinutes: number;
  idlePricePerMinuteCents: number;
  idleMaxCents: number | null;
  idleActiveFrom: string | null;
  idleActiveTo: string | null;
  noShowFeeCents: number;
  /** Optional so older callers (OCPI's tariff of a rate) type-check; the table always has them. */
  bands?: TariffBand[];
  localHolidays?: string[];
}

/**
 * The snapshot a session keeps of its rate. `companyHolidays` are the company's local holidays
 * (business_users.local_holidays): they join the rate's own, so the session is priced with the
 * calendar in force when it started.
 */
export function rateSnapshotFromRow(row: RateRow, companyHolidays: readonly string[] | null = []): RateSnapshot {
  return {
    rateId: row.id,
    name: row.name,
    currency: row.currency,
    pricePerKwhCents: row.pricePerKwhCents,
    pricePerMinuteCents: row.pricePerMinuteCents,
    sessionFeeCents: row.sessionFeeCents,
    vatIncluded: row.vatIncluded,
    vatRateBp: row.vatRateBp,
    idleGraceMinutes: row.idleGraceMinutes,
    idlePricePerMinuteCents: row.idlePricePerMinuteCents,
    idleMaxCents: row.idleMaxCents,
    idleActiveFrom: row.idleActiveFrom,
    idleActiveTo: row.idleActiveTo,
    noShowFeeCents: row.noShowFeeCents,
    bands: row.bands ?? [],
    localHolidays: mergeHolidays(row.localHolidays, companyHolidays),
  };
}

/** One price of a rate at a moment: its band's name and label (or the rate's own prices) and what it costs. */
export interface PriceInForce {
  /** The band's name for drivers ("Pico"), or null (unnamed band, or the rate's own prices). */
  name: string | null;
  /** The band's label for operators: its name with its days and hours, or "Fuera de franja". */
  label: string;
  pricePerKwhCents: number;
  pricePerMinuteCents: number;
}

/**
 * The price in force at `now` and the next change of it (within a week), from the rate's bands:
 * «Ahora: $ 350,00/kWh (Resto) · Desde las 18:00: $ 420,00/kWh». Null when the rate has no bands
 * (one price all day). The rate preview and the QR page both show this.
 */
export function pricesNow(
  rate: Pick<RateSnapshot, "pricePerKwhCents" | "pricePerMinuteCents" | "bands" | "localHolidays">,
  now: Date,
  o: { timeZone: string; isHoliday: HolidayCheck },
): (PriceInForce & { next: (PriceInForce & { at: Date }) | null }) | null {
  const bands = rate.bands ?? [];
  if (bands.length === 0) return null;
  const at = bandNow(bands, now, { ...o, localHolidays: rate.localHolidays });
  const priced = (i: number): PriceInForce => {
    const b = bands[i];
    return { name: b?.name ?? null, label: bandLabel(b), pricePerKwhCents: b?.pricePerKwhCents ?? rate.pricePerKwhCents, pricePerMinuteCents: b?.pricePerMinuteCents ?? rate.pricePerMinuteCents };
  };
  return { ...priced(at.band), next: at.next ? { ...priced(at.next.band), at: at.next.at } : null };
}

export interface SessionUsage {
  energyWh: number;
  /** From session start to the end of charging. May be fractional. */
  chargingMinutes: number;
  /** From the end of charging to unplug (SuspendedEV/Finishing → Available). May be fractional. */
  idleMinutes: number;
  /** When idle time began; required when the rate has idle active hours. */
  idleStartedAt?: Date;
  /** IANA zone the active hours and bands are read in; defaults to Buenos Aires. */
  timeZone?: string;
  /** When charging began and ended; the start is required when the rate has bands. */
  startedAt?: Date;
  chargingEndedAt?: Date;
  /** Meter readings during the session, to split energy among bands. */
  readings?: readonly EnergyReading[];
  /** The national holiday calendar; required when the rate has bands. */
  isHoliday?: HolidayCheck;
}

export interface SessionPrice {
  energyCents: number;
  timeCents: number;
  sessionFeeCents: number;
  idleCents: number;
  /** energy + time + session fee + idle, as priced (includes VAT when the rate's prices do). */
  subtotalCents: number;
  /** VAT contained in (vatIncluded) or added to (not vatIncluded) the subtotal. */
  vatCents: number;
  totalCents: number;
}

/** Round to a whole centavo, half away from zero. */
export function roundCents(amount: number): number {
  if (!Number.isFinite(amount)) throw new RangeError(`Importe inválido: ${amount}`);
  // 15 significant digits drop binary noise (0.1 * 3 = 0.30000000000000004) before rounding.
  const clean = Number(amount.toPrecision(15));
  const rounded = Math.sign(clean) * Math.round(Math.abs(clean));
  return rounded === 0 ? 0 : rounded; // no -0
}

/** Minutes between two instants, fractional, never negative. */
export function minutesBetween(from: Date, to: Date): number {
  return Math.max(0, (to.getTime() - from.getTime()) / 60_000);
}

/**
 * Seconds billed for the stretch from `from` to `to`: every started second counts whole (rounded
 * up, never down), so what is billed is never below the time used and at most a second above
 * it. Roaming tariffs publish this rule as step_size 1 (second) on TIME and PARKING_TIME.
 */
export function billedSeconds(from: Date, to: Date): number {
  return Math.max(0, Math.ceil((to.getTime() - from.getTime()) / 1000));
}

/**
 * Usage of a closed session from its timestamps, in billed seconds expressed as minutes
 * (`billedSeconds`: a started second counts whole). Idle time runs from the end of charging to
 * unplug (or, failing that, the stop).
 */
export function usageFromSession(s: {
  energyWh: number;
  startedAt: Date;
  chargingEndedAt: Date | null;
  unpluggedAt: Date | null;
  stoppedAt: Date | null;
  timeZone?: string;
}): SessionUsage {
  const end = s.unpluggedAt ?? s.stoppedAt ?? s.chargingEndedAt ?? s.startedAt;
  const chargingEnd = s.chargingEndedAt ?? end;
  return {
    energyWh: Math.max(0, s.energyWh),
    chargingMinutes: billedSeconds(s.startedAt, chargingEnd) / 60,
    idleMinutes: billedSeconds(chargingEnd, end) / 60,
    idleStartedAt: chargingEnd,
    timeZone: s.timeZone,
    startedAt: s.startedAt,
    chargingEndedAt: chargingEnd,
  };
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** 'HH:MM' (00:00–23:59) to minutes after midnight; null if malformed. */
export function parseHhmm(value: string): number | null {
  const m = HHMM.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Milliseconds since local midnight of `t` in `timeZone`. */
function localMsOfDay(t: number, timeZone: string): number {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formatters.set(timeZone, fmt);
  }
  let h = 0;
  let m = 0;
  let s = 0;
  for (const part of fmt.formatToParts(t)) {
    if (part.type === "hour") h = Number(part.value);
    else if (part.type === "minute") m = Number(part.value);
    else if (part.type === "second") s = Number(part.value);
  }
  return ((h * 60 + m) * 60 + s) * 1000 + (((t % 1000) + 1000) % 1000);
}

/** Whether local time `msOfDay` is inside [from, to); a window with from > to crosses midnight. */
function insideWindow(msOfDay: number, fromMs: number, toMs: number): boolean {
  return fromMs < toMs ? msOfDay >= fromMs && msOfDay < toMs : msOfDay >= fromMs || msOfDay < toMs;
}

/** Milliseconds of [startMs, endMs) that fall inside the daily local window [from, to). */
function msInsideDailyWindow(startMs: number, endMs: number, fromMin: number, toMin: number, timeZone: string): number {
  if (fromMin === toMin) return Math.max(0, endMs - startMs); // same start and end: all day
  const fromMs = fromMin * 60_000;
  const toMs = toMin * 60_000;
  let inside = 0;
  let t = startMs;
  // Jump from boundary to boundary; the local clock is re-read at each jump, so an offset
  // change (DST) is at most misplaced within one segment.
  while (t < endMs) {
    const x = localMsOfDay(t, timeZone);
    const untilFrom = (fromMs - x + DAY_MS) % DAY_MS || DAY_MS;
    const untilTo = (toMs - x + DAY_MS) % DAY_MS || DAY_MS;
    const step = Math.min(endMs - t, untilFrom, untilTo);
    if (insideWindow(x, fromMs, toMs)) inside += step;
    t += step;
  }
  return inside;
}

function assertAmount(name: string, value: number) {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} debe ser un número no negativo (recibido ${value})`);
}

/**
 * Idle minutes that the penalty applies to: those after the grace period that fall inside the
 * rate's active hours (all of them when it has none). Grace counts from the start of idle
 * time, whatever the hour. Fractional when the window boundaries cut a minute.
 */
export function billableIdleMinutes(rate: RateSnapshot, usage: SessionUsage): number {
  assertAmount("idleMinutes", usage.idleMinutes);
  const grace = Math.max(0, rate.idleGraceMinutes);
  const afterGrace = usage.idleMinutes - grace;
  if (afterGrace <= 0) return 0;

  const { idleActiveFrom: from, idleActiveTo: to } = rate;
  if (from == null && to == null) return afterGrace;
  const fromMin = from == null ? null : parseHhmm(from);
  const toMin = to == null ? null : parseHhmm(to);
  if (fromMin == null || toMin == null) throw new RangeError("El horario de la penalidad necesita inicio y fin 'HH:MM'");
  if (!usage.idleStartedAt) throw new TypeError("idleStartedAt es obligatorio cuando la tarifa tiene horario de penalidad");

  const idleStart = usage.idleStartedAt.getTime();
  const startMs = idleStart + grace * 60_000;
  const endMs = idleStart + usage.idleMinutes * 60_000;
  return msInsideDailyWindow(startMs, endMs, fromMin, toMin, usage.timeZone ?? DEFAULT_TIME_ZONE) / 60_000;
}

/** VAT contained in a gross amount, or added to a net one. */
export function vatCents(amountCents: number, vatRateBp: number, included: boolean): number {
  return included ? roundCents((amountCents * vatRateBp) / (10_000 + vatRateBp)) : roundCents((amountCents * vatRateBp) / 10_000);
}

/**
 * VAT added on top of prices without it, line by line: each line with its VAT is rounded to the
 * cent on its own, as a roaming partner prices it from the published tariff (volume × price
 * excl. VAT, plus the tariff's VAT), and the VAT is what those add over the lines' net amounts.
 * `lines` are the unrounded net amounts in centavos.
 */
export function vatOnTopCents(lines: number[], vatRateBp: number): number {
  return lines.reduce((sum, line) => sum + roundCents((line * (10_000 + vatRateBp)) / 10_000) - roundCents(line), 0);
}


/** One band's part of a session: what it took and what it cost (before VAT when not included). */
export interface BandLine {
  /** Index in the rate's bands, or -1 for the hours outside every band. */
  band: number;
  label: string;
  pricePerKwhCents: number;
  pricePerMinuteCents: number;
  /** Wh, fractional when interpolated between readings. */
  energyWh: number;
  minutes: number;
  energyCents: number;
  timeCents: number;
}

export interface BandedPrice extends SessionPrice {
  /** Per band; empty when the rate has no bands. Energy and time cents add up to the price's. */
  bands: BandLine[];
  /** A band edge fell between meter readings: its energy was interpolated. */
  bandsEstimated: boolean;
}

/**
 * Energy and time of a session, per band when the rate has bands. Each band's energy and time
 * is rounded to centavos once, and the session's energy and time are the sums of the bands', so
 * the lines a driver sees add up to the total; without bands it is one line, priced as always.
 */
/**
 * Energy and time of a session in centavos, per band when the rate has bands. `vatLines` are the
 * same amounts before rounding, one per line a roaming partner prices (VAT on top is rounded per line).
 */
function energyAndTime(rate: RateSnapshot, usage: SessionUsage): { energyCents: number; timeCents: number; vatLines: number[]; bands: BandLine[]; bandsEstimated: boolean } {
  const bands = rate.bands ?? [];
  if (bands.length === 0) {
    const energy = (rate.pricePerKwhCents * usage.energyWh) / 1000;
    const time = rate.pricePerMinuteCents * usage.chargingMinutes;
    return { energyCents: roundCents(energy), timeCents: roundCents(time), vatLines: [energy, time], bands: [], bandsEstimated: false };
  }
  if (!usage.startedAt) throw new TypeError("startedAt es obligatorio cuando la tarifa tiene franjas horarias");
  if (!usage.isHoliday) throw new TypeError("isHoliday es obligatorio cuando la tarifa tiene franjas horarias");
  const split = splitByBands(bands, { ...usage, startedAt: usage.startedAt }, {
    timeZone: usage.timeZone ?? DEFAULT_TIME_ZONE,
    isHoliday: usage.isHoliday,
    localHolidays: rate.localHolidays,
  });
  const lines = split.shares.map((s): BandLine => {
    const b = s.band >= 0 ? bands[s.band] : undefined;
    const perKwh = b ? b.pricePerKwhCents : rate.pricePerKwhCents;
    const perMinute = b ? b.pricePerMinuteCents : rate.pricePerMinuteCents;
    return {
      band: s.band,
      label: bandLabel(b),
      pricePerKwhCents: perKwh,
      pricePerMinuteCents: perMinute,
      energyWh: s.energyWh,
      minutes: s.minutes,
      energyCents: roundCents((perKwh * s.energyWh) / 1000),
      timeCents: roundCents(perMinute * s.minutes),
    };
  });
  return {
    energyCents: lines.reduce((a, l) => a + l.energyCents, 0),
    timeCents: lines.reduce((a, l) => a + l.timeCents, 0),
    vatLines: lines.flatMap((l) => [(l.pricePerKwhCents * l.energyWh) / 1000, l.pricePerMinuteCents * l.minutes]),
    bands: lines,
    bandsEstimated: split.estimated,
  };
}

/** What a closed session stores of its bands (charging_sessions.price_bands). */
export interface SessionBands {
  lines: BandLine[];
  estimated: boolean;
}

/** The per-band part of a price to store on the session; null when the rate has no bands. */
export function sessionBands(p: BandedPrice): SessionBands | null {
  return p.bands.length > 0 ? { lines: p.bands, estimated: p.bandsEstimated } : null;
}

/** A session's price with its per-band lines (empty without bands). */
export function priceSessionByBand(rate: RateSnapshot, usage: SessionUsage): BandedPrice {
  assertAmount("energyWh", usage.energyWh);
  assertAmount("chargingMinutes", usage.chargingMinutes);
  assertAmount("idleMinutes", usage.idleMinutes);

  const { energyCents, timeCents, vatLines, bands, bandsEstimated } = energyAndTime(rate, usage);
  const sessionFeeCents = rate.sessionFeeCents;

  let idle = 0;
  if (rate.idlePricePerMinuteCents > 0) {
    idle = rate.idlePricePerMinuteCents * billableIdleMinutes(rate, usage);
    if (rate.idleMaxCents != null && roundCents(idle) > rate.idleMaxCents) idle = rate.idleMaxCents;
  }
  const idleCents = roundCents(idle);

  const subtotalCents = energyCents + timeCents + sessionFeeCents + idleCents;
  const vat = rate.vatIncluded ? vatCents(subtotalCents, rate.vatRateBp, true) : vatOnTopCents([...vatLines, sessionFeeCents, idle], rate.vatRateBp);
  return {
    energyCents,
    timeCents,
    sessionFeeCents,
    idleCents,
    subtotalCents,
    vatCents: vat,
    totalCents: rate.vatIncluded ? subtotalCents : subtotalCents + vat,
    bands,
    bandsEstimated,
  };
}

export function priceSession(rate: RateSnapshot, usage: SessionUsage): SessionPrice {
  const { bands: _bands, bandsEstimated: _estimated, ...price } = priceSessionByBand(rate, usage);
  return price;
}

/** The reservation no-show penalty with its VAT, same VAT handling as the rate's prices. */
export function priceNoShow(rate: RateSnapshot): { feeCents: number; vatCents: number; totalCents: number } {
  const feeCents = rate.noShowFeeCents;
  const vat = vatCents(feeCents, rate.vatRateBp, rate.vatIncluded);
  return { feeCents, vatCents: vat, totalCents: rate.vatIncluded ? feeCents : feeCents + vat };
}

/** The lines of a price, in the order a receipt shows them. */
const LINES = ["energyCents", "timeCents", "sessionFeeCents", "idleCents"] as const;

/**
 * A price as it was charged: a prepaid session costs its price up to what the driver prepaid, so
 * when the price is above `chargedCents` its lines are scaled down to add up to exactly that,
 * and a receipt never shows lines above what was charged. The VAT is the one contained in the
 * charged total; without VAT included, the lines add up to the charged total less that VAT.
 * Scaling is in integer centavos by largest remainder: each line gets its share rounded down,
 * and the centavos left go one each to the lines with the largest cut fraction, ties to the
 * earlier line (energy, time, session fee, idle). A price at or below `chargedCents` is
 * returned as it is.
 */
export function chargedPrice(price: SessionPrice, chargedCents: number, rate: Pick<RateSnapshot, "vatIncluded" | "vatRateBp">): SessionPrice {
  assertAmount("chargedCents", chargedCents);
  if (!Number.isSafeInteger(chargedCents)) throw new RangeError(`chargedCents debe ser entero (recibido ${chargedCents})`);
  if (price.totalCents <= chargedCents) return { ...price };
  const vat = vatCents(chargedCents, rate.vatRateBp, true);
  const target = rate.vatIncluded ? chargedCents : chargedCents - vat;
  const lines = LINES.map((k) => BigInt(Math.max(0, price[k])));
  const sum = lines.reduce((a, b) => a + b, 0n);
  // Nothing to scale (a price of VAT alone, or of nothing): the whole amount is the first line.
  if (sum === 0n) return { energyCents: target, timeCents: 0, sessionFeeCents: 0, idleCents: 0, subtotalCents: target, vatCents: vat, totalCents: chargedCents };
  const share = lines.map((l) => l * BigInt(target));
  const scaled = share.map((q) => q / sum);
  let left = BigInt(target) - scaled.reduce((a, b) => a + b, 0n);
  // Largest cut fraction first; Array.prototype.sort is stable, so ties keep the lines' order.
  const byCut = share.map((q, i) => ({ i, rest: q % sum })).sort((a, b) => (b.rest > a.rest ? 1 : b.rest < a.rest ? -1 : 0));
  for (const { i } of byCut) {
    if (left <= 0n) break;
    scaled[i] += 1n;
    left -= 1n;
  }
  const [energyCents, timeCents, sessionFeeCents, idleCents] = scaled.map(Number);
  return { energyCents, timeCents, sessionFeeCents, idleCents, subtotalCents: target, vatCents: vat, totalCents: chargedCents };
}
