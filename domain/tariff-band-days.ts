// The day types a time-of-use band applies on, their Spanish names, and how many bands and local
// holidays a rate and a company may have. The rules that use them are in tariff-bands.ts.

export const BAND_DAYS = ["WEEKDAY", "SATURDAY", "SUNDAY_HOLIDAY"] as const;
export type BandDays = (typeof BAND_DAYS)[number];

export const BAND_DAYS_LABELS: Record<BandDays, string> = {
  WEEKDAY: "Lunes a viernes",
  SATURDAY: "Sábados",
  SUNDAY_HOLIDAY: "Domingos y feriados",
};

/** At most this many bands per rate: three day types by a handful of ranges each. */
export const MAX_BANDS = 24;
/** At most this many local holidays per rate. */
export const MAX_LOCAL_HOLIDAYS = 60;
/** At most this many local holidays per company: a few years of a province's and a town's own. */
export const MAX_COMPANY_HOLIDAYS = 60;
