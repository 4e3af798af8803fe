// The test eMSP's price calculator: what an eMSP that never saw Enchufá's code computes for a CDR
// from the Tariffs it pulled, written from mod_tariffs.asciidoc and mod_cdrs.asciidoc alone:
//
// - a charging period without tariff_id has no tariff relevant (mod_cdrs §ChargingPeriod) and
//   costs nothing;
// - in a period, each dimension is priced by the first TariffElement, in order, that has a
//   PriceComponent of its type and whose restrictions hold (mod_tariffs §TariffElement);
// - FLAT is billed once per session, by the first period that has it;
// - consumed amounts are rounded up to the component's step_size — Wh for ENERGY, seconds for
//   TIME and PARKING_TIME — over the session's total of that component (§PriceComponent);
// - price is excl. VAT per kWh, per hour or per session, and vat the percentage on top;
// - each dimension's cost is rounded to the cent, and the total is their sum.
//
// - restrictions (time of day, day of the week, dates) are read at each period's start in the
//   Location's time zone, and a period outside its Tariff's start_date_time/end_date_time throws.
//
// Restrictions it does not know make it throw, so a new tariff shape is added to the table of
// shapes together with the restriction it needs.
import type { Cdr, PriceComponent, Tariff, TariffElement } from "../../ocpi/schemas";

type Priced = "ENERGY" | "TIME" | "PARKING_TIME" | "FLAT";
export interface Costs {
  energy: { excl_vat: number; incl_vat: number };
  time: { excl_vat: number; incl_vat: number };
  parking: { excl_vat: number; incl_vat: number };
  fixed: { excl_vat: number; incl_vat: number };
  total: { excl_vat: number; incl_vat: number };
}

/** Round half up to the cent, after dropping binary noise. */
const cents = (amount: number) => Math.round(Number((amount * 100).toPrecision(12))) / 100;

/** Restrictions this eMSP evaluates (mod_tariffs §TariffRestrictions), at the start of each charging period. */
const EVALUATED = new Set(["start_time", "end_time", "day_of_week", "start_date", "end_date"]);

/** The local date, day of the week and minute of the day of an instant, in the Location's time zone. */
function localTime(at: string, timeZone: string): { date: string; day: string; minute: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", weekday: "long", hour: "2-digit", minute: "2-digit" })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, day: parts.weekday.toUpperCase(), minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether an element's restrictions hold at a period's start: the day of the week; the time of
 * day from start_time (inclusive) to end_time (exclusive), wrapping past midnight when end_time
 * is not after start_time (00:00 is the end of the day); the local date from start_date
 * (inclusive) to end_date (exclusive). Any other restriction throws: this eMSP cannot evaluate it.
 */
function applies(element: TariffElement, periodStart: string, timeZone: string): boolean {
  const r = element.restrictions;
  if (!r) return true;
  const unknown = Object.keys(r).filter((k) => (r as Record<string, unknown>)[k] !== undefined && !EVALUATED.has(k));
  if (unknown.length > 0) throw new Error(`restricción sin evaluar en el eMSP de prueba: ${unknown.join(", ")}`);
  const local = localTime(periodStart, timeZone);
  if (r.day_of_week && !r.day_of_week.includes(local.day as (typeof r.day_of_week)[number])) return false;
  if (r.start_date && local.date < r.start_date) return false;
  if (r.end_date && local.date >= r.end_date) return false;
  const from = r.start_time ? minuteOf(r.start_time) : 0;
  if (r.end_time) {
    const to = minuteOf(r.end_time);
    return to > from ? local.minute >= from && local.minute < to : local.minute >= from || local.minute < to;
  }
  return local.minute >= from;
}

function componentFor(tariff: Tariff, type: Priced, periodStart: string, timeZone: string): PriceComponent | undefined {
  for (const element of tariff.elements) {
    const component = element.price_components.find((p) => p.type === type);
    if (component && applies(element, periodStart, timeZone)) return component;
  }
  return undefined;
}

/** Consumed amount in the step's unit: Wh for ENERGY (volume in kWh), seconds for time (volume in hours). */
function units(type: Priced, volume: number): number {
  const raw = type === "ENERGY" ? volume * 1000 : volume * 3600;
  // Volumes carry 4 decimals, so the units are exact to 1e-6; drop the binary noise before rounding up.
  return Number(raw.toFixed(6));
}

/**
 * The CDR's costs from the Tariffs the eMSP holds, restrictions read in `timeZone` (the
 * Location's time_zone). A period must fall within its Tariff's start_date_time/end_date_time.
 */
export function priceCdr(cdr: Cdr, tariffs: Map<string, Tariff>, timeZone = "America/Argentina/Buenos_Aires"): Costs {
  const used = new Map<PriceComponent, { type: Priced; units: number }>();
  let flat: PriceComponent | undefined;
  for (const period of cdr.charging_periods) {
    if (!period.tariff_id) continue;
    const tariff = tariffs.get(period.tariff_id);
    if (!tariff) throw new Error(`tarifa ${period.tariff_id} no publicada`);
    if (tariff.currency !== cdr.currency) throw new Error("moneda distinta");
    const at = Date.parse(period.start_date_time);
    if ((tariff.start_date_time && at < Date.parse(tariff.start_date_time)) || (tariff.end_date_time && at >= Date.parse(tariff.end_date_time))) {
      throw new Error(`tarifa ${period.tariff_id} fuera de vigencia en ${period.start_date_time}`);
    }
    for (const d of period.dimensions) {
      if (d.type !== "ENERGY" && d.type !== "TIME" && d.type !== "PARKING_TIME") continue;
      const component = componentFor(tariff, d.type, period.start_date_time, timeZone);
      if (!component) continue;
      const u = used.get(component) ?? { type: d.type, units: 0 };
      u.units += units(d.type, d.volume);
      used.set(component, u);
    }
    flat ??= componentFor(tariff, "FLAT", period.start_date_time, timeZone);
  }
  const zero = () => ({ excl: 0, incl: 0 });
  const sums: Record<Priced, { excl: number; incl: number }> = { ENERGY: zero(), TIME: zero(), PARKING_TIME: zero(), FLAT: zero() };
  for (const [component, { type, units: amount }] of used) {
    const step = Math.max(1, component.step_size);
    const billed = Math.ceil(amount / step) * step;
    const volume = type === "ENERGY" ? billed / 1000 : billed / 3600;
    const excl = volume * component.price;
    sums[type].excl += excl;
    sums[type].incl += excl * (1 + (component.vat ?? 0) / 100);
  }
  if (flat) {
    sums.FLAT.excl += flat.price;
    sums.FLAT.incl += flat.price * (1 + (flat.vat ?? 0) / 100);
  }
  const cost = (s: { excl: number; incl: number }) => ({ excl_vat: cents(s.excl), incl_vat: cents(s.incl) });
  const result = { energy: cost(sums.ENERGY), time: cost(sums.TIME), parking: cost(sums.PARKING_TIME), fixed: cost(sums.FLAT) };
  const all = Object.values(result);
  return {
    ...result,
    total: { excl_vat: cents(all.reduce((a, c) => a + c.excl_vat, 0)), incl_vat: cents(all.reduce((a, c) => a + c.incl_vat, 0)) },
  };
}

/** The CDR's own totals in the same shape (absent costs are zero). */
export function cdrCosts(cdr: Cdr): Costs {
  const zero = { excl_vat: 0, incl_vat: 0 };
  const of = (p: { excl_vat: number; incl_vat?: number } | undefined) => (p ? { excl_vat: p.excl_vat, incl_vat: p.incl_vat ?? p.excl_vat } : zero);
  return {
    energy: of(cdr.total_energy_cost),
    time: of(cdr.total_time_cost),
    parking: of(cdr.total_parking_cost),
    fixed: of(cdr.total_fixed_cost),
    total: of(cdr.total_cost),
  };
}
