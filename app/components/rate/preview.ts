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
  priceSession,
  type RateSnapshot,
  type SessionPrice,
  type SessionUsage,
} from "#domain/pricing";
import { DEFAULT_SCENARIO, SCENARIO } from "./form-values";

export interface Scenario {
  chargingMinutes: number;
  energyKwh: number;
  idleMinutes: number;
  /** 'HH:MM' when charging ends and idle time begins (matters only for a rate with idle hours). */
  idleStart: string;
}

export type Preview =
  | {
      ok: true;
      scenario: Scenario;
      rate: RateSnapshot;
      price: SessionPrice;
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

/** A fixed Buenos Aires day (UTC−3, no DST) at `hhmm`: the preview is the same on any date. */
export function idleStartDate(hhmm: string): Date {
  return new Date(`2025-01-15T${hhmm}:00-03:00`);
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
  return { scenario: { chargingMinutes, energyKwh, idleMinutes, idleStart }, problems };
}

/** Price the scenario with the rate as typed so far. */
export function computePreview(values: Record<string, unknown>): Preview {
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
  };
  const usage: SessionUsage = {
    energyWh: Math.round(scenario.energyKwh * 1000),
    chargingMinutes: scenario.chargingMinutes,
    idleMinutes: scenario.idleMinutes,
    idleStartedAt: idleStartDate(scenario.idleStart),
    timeZone: DEFAULT_TIME_ZONE,
  };
  try {
    return {
      ok: true,
      scenario,
      rate,
      price: priceSession(rate, usage),
      billableIdleMinutes: billableIdleMinutes(rate, usage),
      noShow: priceNoShow(rate),
      windowIgnored,
    };
  } catch {
    return { ok: false, problems: ["Revisá los valores de la tarifa."] };
  }
}
