// Argentina's national holidays, from the maintained `date-holidays` calendar (it knows the
// movable holidays and the bridges decreed each year). Server-only: the calendar carries every
// country's data, far too much for a screen; screens get the dates from their loader.
//
// Only "public" holidays (feriados nacionales, fixed and movable) count as "domingos y
// feriados". The "optional" días no laborables (the tourist bridges, Nochebuena and Fin de Año
// afternoons) do not: on those days each employer decides whether to work, so most commerce
// opens and demand looks like a weekday's. An operator whose area stops can add the date as a
// local holiday of the rate.
import Holidays from "date-holidays";
import type { HolidayCheck } from "./tariff-bands";

const calendar = new Holidays("AR", { types: ["public"] });
const byYear = new Map<number, Set<string>>();

function yearDates(year: number): Set<string> {
  let set = byYear.get(year);
  if (!set) {
    set = new Set(calendar.getHolidays(year).filter((h) => h.type === "public").map((h) => h.date.slice(0, 10)));
    byYear.set(year, set);
  }
  return set;
}

/** Whether a local date 'YYYY-MM-DD' is an Argentine national holiday. */
export const isArgentineHoliday: HolidayCheck = (localDate) => {
  const year = Number(localDate.slice(0, 4));
  return Number.isInteger(year) && yearDates(year).has(localDate);
};

/** The national holidays between two local dates, inclusive ('YYYY-MM-DD'), for a screen's preview. */
export function argentineHolidaysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++) {
    for (const d of yearDates(y)) if (d >= from && d <= to) out.push(d);
  }
  return out.sort();
}
