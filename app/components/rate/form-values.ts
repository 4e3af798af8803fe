// The rate form's values and labels, without zod: what the page bundles (the zod schema in
// ./schema.ts loads lazily in the browser; docs/benchmarks.md §1).
import { DEFAULT_VAT_RATE_BP, formatArsInput } from "#domain/money";
import type { RateDto } from "#contract/dto";

export const MONEY_MESSAGE = "Ingresá un importe válido, por ejemplo 1.234,56.";
export const MONEY_HINT = "En pesos: 1.234,56 o 1234.56.";

/** The VAT rates an operator picks from (basis points); 21 % is the general rate. */
export const VAT_OPTIONS: { bp: number; label: string }[] = [
  { bp: 2100, label: "21 % (general)" },
  { bp: 1050, label: "10,5 % (reducida)" },
  { bp: 2700, label: "27 % (servicios a empresas)" },
  { bp: 0, label: "0 % (exento)" },
];

/** What the preview scenario fields are called in the form (they are not part of the rate). */
export const SCENARIO = {
  minutes: "scenarioMinutes",
  kwh: "scenarioKwh",
  idleMinutes: "scenarioIdleMinutes",
  idleStart: "scenarioIdleStart",
  day: "scenarioDay",
} as const;

/** "Una sesión de 45 min, 30 kWh y 20 min de inactividad". */
export const DEFAULT_SCENARIO = {
  [SCENARIO.minutes]: "45",
  [SCENARIO.kwh]: "30",
  [SCENARIO.idleMinutes]: "20",
  [SCENARIO.idleStart]: "20:00",
  [SCENARIO.day]: "WEEKDAY",
};

/** One time-of-use band as the form holds it (amounts as typed). */
export interface BandFormRow {
  name: string;
  days: string;
  from: string;
  to: string;
  pricePerKwhCents: string;
  pricePerMinuteCents: string;
}

/** The row "Agregar franja" adds: weekdays, hours and prices to fill in. */
export const EMPTY_BAND: BandFormRow = { name: "", days: "WEEKDAY", from: "", to: "", pricePerKwhCents: "", pricePerMinuteCents: "" };

export type RateFormValues = { [field: string]: string | BandFormRow[] };

/** 'AAAA-MM-DD' as the operator reads it: 'DD/MM/AAAA'. */
const dmy = (iso: string) => iso.replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$3/$2/$1");

/** The form's starting values for a new rate. */
export function newRateValues(): RateFormValues {
  return {
    name: "",
    pricePerKwhCents: "",
    pricePerMinuteCents: "",
    sessionFeeCents: "",
    vatIncluded: "true",
    vatRateBp: String(DEFAULT_VAT_RATE_BP),
    idleGraceMinutes: "",
    idlePricePerMinuteCents: "",
    idleMaxCents: "",
    idleActiveFrom: "",
    idleActiveTo: "",
    noShowFeeCents: "",
    bands: [],
    localHolidays: "",
    ...DEFAULT_SCENARIO,
  };
}

const moneyText = (cents: number | null) =>
  cents === null ? "" : formatArsInput(cents);

/** The form's starting values for an existing rate (amounts as es-AR text, "1.234,56"). */
export function rateToValues(rate: RateDto): RateFormValues {
  return {
    name: rate.name,
    pricePerKwhCents: moneyText(rate.pricePerKwhCents),
    pricePerMinuteCents: moneyText(rate.pricePerMinuteCents),
    sessionFeeCents: moneyText(rate.sessionFeeCents),
    vatIncluded: String(rate.vatIncluded),
    vatRateBp: String(rate.vatRateBp),
    idleGraceMinutes: String(rate.idleGraceMinutes),
    idlePricePerMinuteCents: moneyText(rate.idlePricePerMinuteCents),
    idleMaxCents: moneyText(rate.idleMaxCents),
    idleActiveFrom: rate.idleActiveFrom ?? "",
    idleActiveTo: rate.idleActiveTo ?? "",
    noShowFeeCents: moneyText(rate.noShowFeeCents),
    bands: rate.bands.map((b) => ({
      name: b.name ?? "",
      days: b.days,
      from: b.from,
      to: b.to,
      pricePerKwhCents: moneyText(b.pricePerKwhCents),
      pricePerMinuteCents: moneyText(b.pricePerMinuteCents),
    })),
    localHolidays: rate.localHolidays.map(dmy).join(", "),
    ...DEFAULT_SCENARIO,
  };
}
