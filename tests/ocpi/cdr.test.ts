// A closed session as an OCPI CDR (ocpi/cdr.ts): idle minutes are PARKING_TIME priced at
// the rate's idle price after its grace — never at the charging-time price — and the CDR's totals
// are the session's own breakdown (domain/pricing). Every CDR is validated with the zod schema
// written from mod_cdrs.asciidoc.
import { describe, expect, it } from "vitest";
import { priceSession, usageFromSession, type RateSnapshot } from "#domain/pricing";
import { sessionToCdr, type CdrPlace, type SessionForCdr } from "../../ocpi/cdr";
import { rateToTariff } from "../../ocpi/mapping";
import { cdr as cdrSchema } from "../../ocpi/schemas";

const party = { countryCode: "AR", partyId: "ENC", operatorName: "Empresa" };
const place: CdrPlace = {
  station: { id: "5f0b9a3e-58a5-4c55-9a53-7c3f2d3e0a11", name: "Palermo", address: "Av. Santa Fe 3253", city: "Buenos Aires", postalCode: "C1425BGH", country: "ARG", latitude: -34.5875, longitude: -58.4097 },
  chargerId: "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6",
  connector: { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE" },
};
const token = { country_code: "NL", party_id: "EMS", uid: "012345678", type: "RFID" as const, contract_id: "NL-EMS-C12345678-X" };
const RATE_ID = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

function rate(over: Partial<RateSnapshot> = {}): RateSnapshot {
  return {
    rateId: RATE_ID,
    name: "AC",
    currency: "ARS",
    pricePerKwhCents: 35_000,
    pricePerMinuteCents: 500,
    sessionFeeCents: 50_000,
    vatIncluded: true,
    vatRateBp: 2100,
    idleGraceMinutes: 15,
    idlePricePerMinuteCents: 2000,
    idleMaxCents: null,
    idleActiveFrom: null,
    idleActiveTo: null,
    noShowFeeCents: 0,
    ...over,
  };
}

/** A session priced like the central system does: domain/pricing on its usage. */
function closedSession(r: RateSnapshot, chargingMin: number, idleMin: number, energyWh: number): SessionForCdr {
  const startedAt = new Date("2026-11-26T12:00:00Z");
  const chargingEndedAt = new Date(startedAt.getTime() + chargingMin * 60_000);
  const unpluggedAt = new Date(chargingEndedAt.getTime() + idleMin * 60_000);
  const price = priceSession(r, usageFromSession({ energyWh, startedAt, chargingEndedAt, unpluggedAt, stoppedAt: unpluggedAt }));
  return { id: "c0ffee00-1111-4222-8333-444455556666", startedAt, chargingEndedAt, unpluggedAt, stoppedAt: unpluggedAt, energyWh, rateId: RATE_ID, rateSnapshot: r, ...price, updatedAt: unpluggedAt };
}

describe("sessions as OCPI CDRs", () => {
  it("60 min charging, 45 min idle with 15 min grace: PARKING_TIME after the grace at the idle price; TIME is charging only", () => {
    const r = rate();
    const s = closedSession(r, 60, 45, 20_000);
    const c = cdrSchema.parse(sessionToCdr(party, s, place, token, { authMethod: "COMMAND" }));
    expect(c.charging_periods).toEqual([
      { start_date_time: "2026-11-26T12:00:00Z", dimensions: [{ type: "ENERGY", volume: 20 }, { type: "TIME", volume: 1 }], tariff_id: RATE_ID },
      { start_date_time: "2026-11-26T13:00:00Z", dimensions: [{ type: "PARKING_TIME", volume: 0.25 }] },
      { start_date_time: "2026-11-26T13:15:00Z", dimensions: [{ type: "PARKING_TIME", volume: 0.5 }], tariff_id: RATE_ID },
    ]);
    // 30 billable idle minutes × $20 = $600 (VAT included), not 45 × $5 (the charging-time price).
    expect(s.idleCents).toBe(60_000);
    expect(c.total_parking_cost).toEqual({ excl_vat: 495.87, incl_vat: 600 });
    expect(c.total_parking_time).toBe(0.75);
    expect(c.total_time_cost).toEqual({ excl_vat: 247.93, incl_vat: 300 });
    expect(c.total_time).toBe(1.75);
    expect(c.total_energy).toBe(20);
    expect(c.total_energy_cost!.incl_vat).toBe(7000);
    expect(c.total_fixed_cost!.incl_vat).toBe(500);
    expect(c.total_cost.incl_vat).toBe((60_000 + 30_000 + 700_000 + 50_000) / 100);
    // Excl. VAT, the total is the sum of the dimensions' costs (each volume × the tariff's net price).
    expect(c.total_cost.excl_vat).toBe(5785.12 + 247.93 + 413.22 + 495.87);
    expect(c.cdr_location).toMatchObject({ evse_uid: place.chargerId, evse_id: "AR*ENC*E0D1E2F3A4B5C4D6E8F708192A3B4C5", connector_id: "1" });
  });

  it("the PARKING_TIME price of the CDR is the one the tariff publishes (idle price per hour, excl. VAT)", () => {
    const r = rate();
    const c = sessionToCdr(party, closedSession(r, 30, 75, 5000), place, token, { authMethod: "AUTH_REQUEST" });
    const t = rateToTariff(party, { ...r, id: RATE_ID, updatedAt: new Date() });
    const parking = t.elements[1].price_components[0];
    expect(parking.type).toBe("PARKING_TIME");
    // The grace is no restriction (min_duration counts the whole session): the CDR's grace period has no tariff.
    expect(t.elements[1].restrictions).toBeUndefined();
    const billedHours = c.charging_periods.at(-1)!.dimensions[0].volume; // 60 min after the grace
    expect(billedHours).toBe(1);
    expect(c.total_parking_cost!.excl_vat).toBeCloseTo(parking.price * billedHours, 1);
  });

  it("within the grace: parking is recorded without a tariff and costs nothing", () => {
    const c = cdrSchema.parse(sessionToCdr(party, closedSession(rate(), 20, 10, 3000), place, token, { authMethod: "WHITELIST" }));
    expect(c.charging_periods.map((p) => [p.dimensions[0].type, p.tariff_id ?? null])).toEqual([
      ["ENERGY", RATE_ID],
      ["PARKING_TIME", null],
    ]);
    expect(c.total_parking_cost).toEqual({ excl_vat: 0, incl_vat: 0 });
  });

  it("a rate without VAT included: prices excl. VAT as set, incl. VAT on top; the idle cap holds", () => {
    const r = rate({ vatIncluded: false, idleMaxCents: 30_000, pricePerMinuteCents: 0 });
    const s = closedSession(r, 10, 120, 1000);
    const c = cdrSchema.parse(sessionToCdr(party, s, place, token, { authMethod: "COMMAND" }));
    expect(c.total_parking_cost).toEqual({ excl_vat: 300, incl_vat: 363 });
    expect(c.total_time_cost).toEqual({ excl_vat: 0, incl_vat: 0 });
    expect(c.total_cost.incl_vat).toBe(s.totalCents / 100);
  });
});
