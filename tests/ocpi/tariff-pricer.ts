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
// Restrictions it does not know make it throw, so a new tariff shape (time-of-use bands) is added
// to the table of shapes together with the restriction it needs.
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

/** Whether an element's restrictions hold for a period; any restriction this eMSP cannot evaluate throws. */
function applies(element: TariffElement): boolean {
  const r = element.restrictions;
  if (!r) return true;
  const known = Object.keys(r).filter((k) => (r as Record<string, unknown>)[k] !== undefined);
  if (known.length > 0) throw new Error(`restricción sin evaluar en el eMSP de prueba: ${known.join(", ")}`);
  return true;
}

function componentFor(tariff: Tariff, type: Priced): PriceComponent | undefined {
  for (const element of tariff.elements) {
    const component = element.price_components.find((p) => p.type === type);
    if (component && applies(element)) return component;
  }
  return undefined;
}

/** Consumed amount in the step's unit: Wh for ENERGY (volume in kWh), seconds for time (volume in hours). */
function units(type: Priced, volume: number): number {
  const raw = type === "ENERGY" ? volume * 1000 : volume * 3600;
  // Volumes carry 4 decimals, so the units are exact to 1e-6; drop the binary noise before rounding up.
  return Number(raw.toFixed(6));
}

export function priceCdr(cdr: Cdr, tariffs: Map<string, Tariff>): Costs {
  const used = new Map<PriceComponent, { type: Priced; units: number }>();
  let flat: PriceComponent | undefined;
  for (const period of cdr.charging_periods) {
    if (!period.tariff_id) continue;
    const tariff = tariffs.get(period.tariff_id);
    if (!tariff) throw new Error(`tarifa ${period.tariff_id} no publicada`);
    if (tariff.currency !== cdr.currency) throw new Error("moneda distinta");
    for (const d of period.dimensions) {
      if (d.type !== "ENERGY" && d.type !== "TIME" && d.type !== "PARKING_TIME") continue;
      const component = componentFor(tariff, d.type);
      if (!component) continue;
      const u = used.get(component) ?? { type: d.type, units: 0 };
      u.units += units(d.type, d.volume);
      used.set(component, u);
    }
    flat ??= componentFor(tariff, "FLAT");
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
