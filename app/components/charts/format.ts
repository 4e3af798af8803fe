// es-AR number, date and duration formatting for the home, activity and payment screens.
// Dates are shown in the stations' time zone (Buenos Aires) on the server and in the browser
// alike, so the HTML never changes on hydration.
import { DEFAULT_TIME_ZONE } from "#domain/time-zone";
import { formatInt } from "~/lib/numbers";

export { formatArs } from "#domain/money";
export const TIME_ZONE = DEFAULT_TIME_ZONE;

export { formatInt, formatKw, formatKwh, formatPct } from "~/lib/numbers";

const dateTime = new Intl.DateTimeFormat("es-AR", {
  timeZone: TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const time = new Intl.DateTimeFormat("es-AR", { timeZone: TIME_ZONE, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const longDate = new Intl.DateTimeFormat("es-AR", { timeZone: TIME_ZONE, day: "numeric", month: "long", year: "numeric" });

/** ISO instant → `01/03/2025 12:00` (Buenos Aires). */
export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)).replace(",", "") : "—");
export const formatTime = (iso: string) => time.format(new Date(iso));

/** A calendar date `2025-03-01` → `1 de marzo de 2025` (no time zone shift). */
const calendarDay = new Intl.DateTimeFormat("es-AR", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
// The charts name every day of the period twice (label and description), on every render: the
// names are kept (a few hundred days at most in use; the map starts over past 1,000).
const dayNames = new Map<string, string>();
export function formatDay(ymd: string): string {
  let name = dayNames.get(ymd);
  if (name === undefined) {
    const [y, m, d] = ymd.split("-").map(Number);
    name = calendarDay.format(new Date(Date.UTC(y, m - 1, d)));
    if (dayNames.size >= 1_000) dayNames.clear();
    dayNames.set(ymd, name);
  }
  return name;
}
/** `2025-03-01` → `01/03` (short axis label). */
export function formatDayShort(ymd: string): string {
  const [, m, d] = ymd.split("-");
  return `${d}/${m}`;
}
export const formatLongDate = (iso: string) => longDate.format(new Date(iso));

/** 70 → `1 h 10 min`; 5 → `5 min`. */
export function formatMinutes(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest ? `${formatInt(h)} h ${rest} min` : `${formatInt(h)} h`;
}

const compact = new Intl.NumberFormat("es-AR", { notation: "compact", maximumFractionDigits: 1 });
/** `1500000` → `1,5 M` (chart axes). */
export const formatCompact = (n: number) => compact.format(n);
