// What a charger's own screen says about the price (OCPP 2.0.1 display messages, OCPP 1.6
// California Pricing): the price in force before a session, the running cost during it and
// the final cost after it. Pure: the texts and amounts come from the same pricing rule as the
// session's stored price (domain/pricing), so the charger never shows a number the receipt
// contradicts.
//
// A driver is a consumer: every price shown on the charger is the final one, VAT included
// (a rate whose prices are without VAT is shown with it added, rounded to the centavo).

import { formatArs } from "./money";
import { billedSeconds, DEFAULT_TIME_ZONE, priceSessionByBand, roundCents, type RateSnapshot } from "./pricing";
import { bandNow, localMoment, type HolidayCheck } from "./tariff-bands";

/** Where the rate is read: the station's time zone and the national holidays. */
export interface PriceClock {
  timeZone?: string;
  isHoliday: HolidayCheck;
}

/** The prices of one stretch of time: per kWh and per minute, VAT included, in centavos. */
export interface ShownPrices {
  perKwhCents: number;
  perMinuteCents: number;
}

/** The price in force at an instant and, when a band changes it later, the next one. */
export interface PriceNow {
  now: ShownPrices;
  /** The next change of price (within a week), or null when the rate has one price all day. */
  next: { at: Date; prices: ShownPrices } | null;
  sessionFeeCents: number;
  idle: { graceMinutes: number; perMinuteCents: number } | null;
}

/** A price as the driver pays it: VAT added when the rate's prices are without it. */
export function grossCents(cents: number, rate: Pick<RateSnapshot, "vatIncluded" | "vatRateBp">): number {
  return rate.vatIncluded ? cents : roundCents((cents * (10_000 + rate.vatRateBp)) / 10_000);
}

function bandPrices(rate: RateSnapshot, band: number): ShownPrices {
  const b = band >= 0 ? rate.bands?.[band] : undefined;
  return {
    perKwhCents: grossCents(b ? b.pricePerKwhCents : rate.pricePerKwhCents, rate),
    perMinuteCents: grossCents(b ? b.pricePerMinuteCents : rate.pricePerMinuteCents, rate),
  };
}

/** The rate's prices at `at`, band-aware, with the next change. */
export function priceNow(rate: RateSnapshot, at: Date, clock: PriceClock): PriceNow {
  const bands = rate.bands ?? [];
  const found = bandNow(bands, at, { timeZone: clock.timeZone ?? DEFAULT_TIME_ZONE, isHoliday: clock.isHoliday, localHolidays: rate.localHolidays });
  return {
    now: bandPrices(rate, found.band),
    next: found.next ? { at: found.next.at, prices: bandPrices(rate, found.next.band) } : null,
    sessionFeeCents: grossCents(rate.sessionFeeCents, rate),
    idle: rate.idlePricePerMinuteCents > 0 ? { graceMinutes: rate.idleGraceMinutes, perMinuteCents: grossCents(rate.idlePricePerMinuteCents, rate) } : null,
  };
}

const money = (cents: number) => formatArs(cents).replace(/\u00a0/g, " ");

function pricesText(p: ShownPrices): string {
  const parts = [`${money(p.perKwhCents)}/kWh`];
  if (p.perMinuteCents > 0) parts.push(`${money(p.perMinuteCents)}/min`);
  return parts.join(" · ");
}

/** "a las 18:00" today, "mañana a las 00:00", or "el 05/12 a las 00:00", in the station's time. */
function whenText(at: Date, from: Date, timeZone: string): string {
  const then = localMoment(at.getTime(), timeZone);
  const today = localMoment(from.getTime(), timeZone);
  const tomorrow = localMoment(from.getTime() + 86_400_000, timeZone);
  const minutes = Math.floor(then.msOfDay / 60_000);
  const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
  if (then.date === today.date) return `Desde las ${hhmm}`;
  if (then.date === tomorrow.date) return `Desde mañana a las ${hhmm}`;
  return `Desde el ${then.date.slice(8, 10)}/${then.date.slice(5, 7)} a las ${hhmm}`;
}

/**
 * The price in force as one line for the charger's screen, e.g.
 * «$ 350,00/kWh · $ 10,00/min · Desde las 18:00: $ 420,00/kWh». The session fee and the idle
 * penalty follow when the rate has them.
 */
export function priceText(rate: RateSnapshot, at: Date, clock: PriceClock): string {
  const p = priceNow(rate, at, clock);
  const parts = [pricesText(p.now)];
  if (p.sessionFeeCents > 0) parts.push(`${money(p.sessionFeeCents)} por carga`);
  if (p.next) parts.push(`${whenText(p.next.at, at, clock.timeZone ?? DEFAULT_TIME_ZONE)}: ${pricesText(p.next.prices)}`);
  if (p.idle) parts.push(`Inactivo: ${money(p.idle.perMinuteCents)}/min después de ${p.idle.graceMinutes} min`);
  return parts.join(" · ");
}

/** An open (or just closed) session as the charger reports it: what the running cost needs. */
export interface OpenSessionUsage {
  energyWh: number;
  startedAt: Date;
  /** When charging ended (the vehicle stopped taking energy); null while it charges. */
  chargingEndedAt: Date | null;
}

/**
 * What the session costs so far at `at`, VAT included, in centavos: the session priced as if it
 * ended now (charging until now, or idle since charging ended), by the same rule as its final
 * price. Without meter readings the energy of a session across band edges is interpolated, as
 * the rate preview does.
 */
export function runningCostCents(rate: RateSnapshot, s: OpenSessionUsage, at: Date, clock: PriceClock): number {
  const end = at < s.startedAt ? s.startedAt : at;
  const chargingEnd = s.chargingEndedAt && s.chargingEndedAt < end ? s.chargingEndedAt : end;
  const price = priceSessionByBand(rate, {
    energyWh: Math.max(0, s.energyWh),
    chargingMinutes: billedSeconds(s.startedAt, chargingEnd) / 60,
    idleMinutes: billedSeconds(chargingEnd, end) / 60,
    idleStartedAt: chargingEnd,
    startedAt: s.startedAt,
    chargingEndedAt: chargingEnd,
    timeZone: clock.timeZone ?? DEFAULT_TIME_ZONE,
    isHoliday: clock.isHoliday,
  });
  return price.totalCents;
}

const kwh = (wh: number) => (wh / 1000).toLocaleString("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** «Llevás $ 1.234,56 · 6,00 kWh»: the running cost on the charger's screen. */
export function runningCostText(costCents: number, energyWh: number): string {
  return `Llevás ${money(costCents)} · ${kwh(energyWh)} kWh`;
}

/** «Total: $ 1.234,56 · 15,00 kWh»: the final cost on the charger's screen. */
export function finalCostText(costCents: number, energyWh: number): string {
  return `Total: ${money(costCents)} · ${kwh(energyWh)} kWh`;
}

/** Centavos as the decimal amount OCPP carries (totalCost, California Pricing's cost and prices). */
export function ocppAmount(cents: number): number {
  return cents / 100;
}
