// A rate as pricing sees it, everything free unless a test says otherwise: the one builder the
// pricing tests share, so a new field of RateSnapshot is given its neutral value once.
import type { RateSnapshot } from "#domain/pricing";

export const rateSnapshot = (over: Partial<RateSnapshot> = {}): RateSnapshot => ({
  rateId: "r1",
  name: "Prueba",
  currency: "ARS",
  pricePerKwhCents: 0,
  pricePerMinuteCents: 0,
  sessionFeeCents: 0,
  vatIncluded: true,
  vatRateBp: 2100,
  idleGraceMinutes: 0,
  idlePricePerMinuteCents: 0,
  idleMaxCents: null,
  idleActiveFrom: null,
  idleActiveTo: null,
  noShowFeeCents: 0,
  bands: [],
  localHolidays: [],
  ...over,
});
