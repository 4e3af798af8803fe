// The price preview of the rate form: the values being typed, priced by domain/pricing.ts —
// the same module that prices real sessions. Pure: it runs in the server render (no
// JavaScript needed) and again in the browser on every keystroke.
import { parseArsInput } from "#domain/money";
import {
  billableIdleMinutes,
  DEFAULT_TIME_ZONE,
  DEFAULT_VAT_RATE_BP,
  parseHhmm,
  priceNoShow,
  priceSessionByBand,
  pricesNow,
  type BandedPrice,
  type RateSnapshot,
  type SessionUsage,
} from "#domain/pricing";
import { BAND_DAYS, bandProblems, type BandDays, type TariffBand } from "#domain/tariff-bands";
import { DEFAULT_SCENARIO, SCENARIO } from "./form-values";

export interface Scenario {
  chargingMinutes: number;
  energyKwh: number;
  idleMinutes: number;
  /** 'HH:MM' when charging ends and idle time begins (matters only for a rate with idle hours). */
  idleStart: string;
  /** The day type of the example (matters only for a rate with bands). */
  day: BandDays;
}

/** The band in force now and the next change: domain/pricing's `pricesNow`, as the QR page has it too. */
export type BandsNow = NonNullable<ReturnType<typeof pricesNow>>;

/** What the page knows of today: the moment and the holidays of the coming days (national and the company's). */
export interface PreviewClock {
  now: string;
  holidays: string[];
}

export type Preview =
  | {
      ok: true;
      scenario: Scenario;
      rate: RateSnapshot;
      price: BandedPrice;
      bandsNow: BandsNow | null;
      billableIdleMinutes: number;
      noShow: { feeCents: number; vatCents: number; totalCents: number };
      /** The idle window was ignored because it is incomplete. */
      windowIgnored: boolean;
    }
  | { ok: false; problems: string[] };

const MONEY_LABELS = {
  pricePerKwhCents: "precio por kWh",
  pricePerMinuteCents: "precio por minuto",
  sessionFeeCents: "cargo por sesión",
  idlePricePerMinuteCents: "precio por minuto de inactividad",
  idleMaxCents: "tope de la penalidad",
  noShowFeeCents: "cargo por no presentarse",
} as const;

/** "30", "30,5", "30.5" → number; null if not a non-negative number. */
export function parseQuantity(text: string | undefined): number | null {
  const t = (text ?? "").trim().replace(",", ".");
  if (t === "" || !/^\d+(\.\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** Fixed Buenos Aires days (UTC−3, no DST) per day type: the preview is the same on any date. */
const SCENARIO_DATES: Record<BandDays, string> = { WEEKDAY: "2025-01-15", SATURDAY: "2025-01-18", SUNDAY_HOLIDAY: "2025-01-19" };

/** The example's end of charging: a fixed day of its type at `hhmm`. */
export function idleStartDate(hhmm: string, day: BandDays = "WEEKDAY"): Date {
  return new Date(`${SCENARIO_DATES[day]}T${hhmm}:00-03:00`);
}

function str(values: Record<string, unknown>, key: string): string {
  const v = values[key];
  return typeof v === "string" ? v : "";
}

export function readScenario(values: Record<string, unknown>): { scenario: Scenario; problems: string[] } {
  const problems: string[] = [];
  const num = (key: string, label: string, max: number) => {
    const raw = str(values, key);
    const n = parseQuantity(raw === "" ? DEFAULT_SCENARIO[key as keyof typeof DEFAULT_SCENARIO] : raw);
    if (n === null || n > max) {
      problems.push(`Revisá ${label} del ejemplo.`);
      return 0;
    }
    return n;
  };
  const chargingMinutes = num(SCENARIO.minutes, "los minutos de carga", 100_000);
  const energyKwh = num(SCENARIO.kwh, "los kWh", 10_000);
  const idleMinutes = num(SCENARIO.idleMinutes, "los minutos de inactividad", 100_000);
  const start = str(values, SCENARIO.idleStart).trim();
  const idleStart = parseHhmm(start) === null ? DEFAULT_SCENARIO[SCENARIO.idleStart] : start;
  const dayText = str(values, SCENARIO.day);
  const day = (BAND_DAYS as readonly string[]).includes(dayText) ? (dayText as BandDays) : "WEEKDAY";
  return { scenario: { chargingMinutes, energyKwh, idleMinutes, idleStart, day }, problems };
}

/**
 * The bands as typed: rows left blank are skipped (just added); a row with a wrong hour or
 * amount, or overlapping another, keeps the preview from pricing until it is fixed.
 */
export function readBands(values: Record<string, unknown>): { bands: TariffBand[]; problems: string[] } {
  const rows = Array.isArray(values.bands) ? (values.bands as Record<string, unknown>[]) : [];
  const bands: TariffBand[] = [];
  const problems: string[] = [];
  rows.forEach((row, i) => {
    const r = (row ?? {}) as Record<string, unknown>;
    const from = str(r, "from").trim();
    const to = str(r, "to").trim();
    const kwh = str(r, "pricePerKwhCents").trim();
    const min = str(r, "pricePerMinuteCents").trim();
    if (from === "" && to === "" && kwh === "" && min === "") return;
    const pricePerKwhCents = kwh === "" ? 0 : parseArsInput(kwh);
    const pricePerMinuteCents = min === "" ? 0 : parseArsInput(min);
    const days = str(r, "days");
    if (pricePerKwhCents === null || pricePerMinuteCents === null || pricePerKwhCents < 0 || pricePerMinuteCents < 0 || !(BAND_DAYS as readonly string[]).includes(days)) {
      problems.push(`Revisá la franja ${i + 1}.`);
      return;
    }
    bands.push({ name: str(r, "name").trim() || null, days: days as BandDays, from, to, pricePerKwhCents, pricePerMinuteCents });
  });
  if (problems.length === 0 && bandProblems(bands).length > 0) problems.push(`Revisá las franjas: ${bandProblems(bands)[0].message}`);
  return { bands, problems };
}

/** The band in force now and the next change ("Desde las 18:00: $ 420/kWh"); null without bands. */
export function bandsNowOf(rate: RateSnapshot, clock: PreviewClock | undefined): BandsNow | null {
  if (!clock) return null;
  const holidays = new Set(clock.holidays);
  return pricesNow(rate, new Date(clock.now), { timeZone: DEFAULT_TIME_ZONE, isHoliday: (d) => holidays.has(d) });
}

/** Price the scenario with the rate as typed so far. */
export function computePreview(values: Record<string, unknown>, clock?: PreviewClock): Preview {
  const problems: string[] = [];
  const moneyOf = (key: keyof typeof MONEY_LABELS, empty: 0 | null): number | null => {
    const raw = str(values, key).trim();
    if (raw === "") return empty;
    const cents = parseArsInput(raw);
    if (cents === null || cents < 0) {
      problems.push(`Revisá el ${MONEY_LABELS[key]}.`);
      return empty;
    }
    return cents;
  };
  const pricePerKwhCents = moneyOf("pricePerKwhCents", 0) ?? 0;
  const pricePerMinuteCents = moneyOf("pricePerMinuteCents", 0) ?? 0;
  const sessionFeeCents = moneyOf("sessionFeeCents", 0) ?? 0;
  const idlePricePerMinuteCents = moneyOf("idlePricePerMinuteCents", 0) ?? 0;
  const idleMaxCents = moneyOf("idleMaxCents", null);
  const noShowFeeCents = moneyOf("noShowFeeCents", 0) ?? 0;

  const graceText = str(values, "idleGraceMinutes").trim();
  let idleGraceMinutes = 0;
  if (graceText !== "") {
    if (/^\d+$/.test(graceText)) idleGraceMinutes = Number(graceText);
    else problems.push("Revisá los minutos de gracia.");
  }
  const bpText = str(values, "vatRateBp").trim();
  const vatRateBp = /^\d+$/.test(bpText) && Number(bpText) <= 10_000 ? Number(bpText) : DEFAULT_VAT_RATE_BP;
  const vatIncluded = str(values, "vatIncluded") !== "false";

  const from = str(values, "idleActiveFrom").trim();
  const to = str(values, "idleActiveTo").trim();
  const windowOk = parseHhmm(from) !== null && parseHhmm(to) !== null && from !== to;
  const windowIgnored = (from !== "" || to !== "") && !windowOk;

  const { scenario, problems: scenarioProblems } = readScenario(values);
  problems.push(...scenarioProblems);
  const { bands, problems: bandProblemList } = readBands(values);
  problems.push(...bandProblemList);
  const localHolidays = str(values, "localHolidays")
    .split(/[\s,;]+/)
    .map((d) => d.replace(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, (_m, dd: string, mm: string, yyyy: string) => `${yyyy}-${mm.padStart(2, "0")}-${dd.padStart(2, "0")}`))
    .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d));
  if (problems.length > 0) return { ok: false, problems };

  const rate: RateSnapshot = {
    rateId: null,
    name: str(values, "name"),
    currency: "ARS",
    pricePerKwhCents,
    pricePerMinuteCents,
    sessionFeeCents,
    vatIncluded,
    vatRateBp,
    idleGraceMinutes,
    idlePricePerMinuteCents,
    idleMaxCents,
    idleActiveFrom: windowOk ? from : null,
    idleActiveTo: windowOk ? to : null,
    noShowFeeCents,
    bands,
    localHolidays,
  };
  const chargingEnd = idleStartDate(scenario.idleStart, scenario.day);
  const usage: SessionUsage = {
    energyWh: Math.round(scenario.energyKwh * 1000),
    chargingMinutes: scenario.chargingMinutes,
    idleMinutes: scenario.idleMinutes,
    idleStartedAt: chargingEnd,
    timeZone: DEFAULT_TIME_ZONE,
    // The example ends charging at its hour: it started that many minutes before.
    startedAt: new Date(chargingEnd.getTime() - scenario.chargingMinutes * 60_000),
    chargingEndedAt: chargingEnd,
    // The example's days are fixed and not holidays; its Sunday stands for the holidays.
    isHoliday: () => false,
  };
  try {
    return {
      ok: true,
      scenario,
      rate,
      price: priceSessionByBand(rate, usage),
      bandsNow: bandsNowOf(rate, clock),
      billableIdleMinutes: billableIdleMinutes(rate, usage),
      noShow: priceNoShow(rate),
      windowIgnored,
    };
  } catch {
    return { ok: false, problems: ["Revisá los valores de la tarifa."] };
  }
}
