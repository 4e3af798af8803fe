// The period the home screen summarises: presets (today, 7 days, 30 days, this month) or a
// custom range of calendar days in Buenos Aires. Dates travel as `YYYY-MM-DD`; the API reads
// a bare `from` as 00:00 of that day and a bare `to` as the end of that day.
import { MAX_RANGE_DAYS, RANGE_MESSAGES } from "#contract/schemas/constants";
import { TIME_ZONE } from "./format";

export const PERIOD_KEYS = ["today", "7d", "30d", "month", "custom"] as const;
export type PeriodKey = (typeof PERIOD_KEYS)[number];
export const DEFAULT_PERIOD = "30d" as const;

export const PERIOD_LABELS: Record<PeriodKey, string> = {
  today: "Hoy",
  "7d": "Últimos 7 días",
  "30d": "Últimos 30 días",
  month: "Este mes",
  custom: "Personalizado",
};

export interface Period {
  key: PeriodKey;
  /** Inclusive calendar days, `YYYY-MM-DD`. */
  from: string;
  to: string;
  /** Field errors of a custom range (the period falls back to the default then). */
  errors: { from?: string; to?: string };
  /** What the user typed, kept in the form when it is wrong. */
  input: { from: string; to: string };
}

const YMD = /^\d{4}-\d{2}-\d{2}$/;

/** Today's date in Buenos Aires. */
const buenosAiresYmd = new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });
export function todayYmd(now = new Date()): string {
  return buenosAiresYmd.format(now);
}

export function addDays(ymd: string, days: number): string {
  const [y, m, d] = ymd.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function isValidYmd(value: string): boolean {
  if (!YMD.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.toISOString().slice(0, 10) === value && y >= 2000 && y <= 2100;
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function preset(key: Exclude<PeriodKey, "custom">, today: string): { from: string; to: string } {
  switch (key) {
    case "today":
      return { from: today, to: today };
    case "7d":
      return { from: addDays(today, -6), to: today };
    case "month":
      return { from: `${today.slice(0, 8)}01`, to: today };
    default:
      return { from: addDays(today, -29), to: today };
  }
}

/** Read `?period=…&from=…&to=…`; anything unknown means the default period. */
export function resolvePeriod(params: URLSearchParams, now = new Date()): Period {
  const today = todayYmd(now);
  const raw = params.get("period") ?? "";
  const inputFrom = (params.get("from") ?? "").trim();
  const inputTo = (params.get("to") ?? "").trim();
  const key: PeriodKey = (PERIOD_KEYS as readonly string[]).includes(raw) ? (raw as PeriodKey) : inputFrom || inputTo ? "custom" : DEFAULT_PERIOD;
  const input = { from: inputFrom, to: inputTo };
  if (key !== "custom") {
    const range = preset(key, today);
    return { key, ...range, errors: {}, input: { ...range } };
  }

  const errors: Period["errors"] = {};
  if (!inputFrom) errors.from = "Ingresá la fecha de inicio.";
  else if (!isValidYmd(inputFrom)) errors.from = "Ingresá una fecha válida.";
  if (!inputTo) errors.to = "Ingresá la fecha de fin.";
  else if (!isValidYmd(inputTo)) errors.to = "Ingresá una fecha válida.";
  if (!errors.from && !errors.to) {
    if (inputTo < inputFrom) errors.to = "La fecha 'hasta' no puede ser anterior a 'desde'.";
    else if (daysBetween(inputFrom, inputTo) + 1 > MAX_RANGE_DAYS) errors.to = RANGE_MESSAGES.span;
  }
  if (errors.from || errors.to) return { key, ...preset(DEFAULT_PERIOD, today), errors, input };
  return { key, from: inputFrom, to: inputTo, errors, input };
}
