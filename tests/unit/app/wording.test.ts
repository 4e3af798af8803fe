// Wording the screens show: numbers agree with their nouns, places keep their accents, and the
// figures quoted are the ones enforced.
import { describe, expect, it } from "vitest";
import { ARGENTINA_TIME_ZONES } from "#contract/schemas/constants";
import { RESERVATION_MAX_HOURS, RESERVATIONS_DESCRIPTION } from "#contract/schemas/reservation-constants";
import { timeZoneLabel } from "~/components/station/StationForm";
import { allocationLines } from "~/lib/station.server";
import type { StationAllocationDto } from "#contract/dto";

describe("wording", () => {
  it("time zones read with their accents; the saved ids stay IANA's", () => {
    for (const tz of ARGENTINA_TIME_ZONES) expect(timeZoneLabel(tz), tz).not.toMatch(/\/|_/);
    expect(timeZoneLabel("America/Argentina/Cordoba")).toBe("Córdoba");
    expect(timeZoneLabel("America/Argentina/Tucuman")).toBe("Tucumán");
    expect(timeZoneLabel("America/Argentina/Rio_Gallegos")).toBe("Río Gallegos");
    expect(timeZoneLabel("America/Argentina/La_Rioja")).toBe("La Rioja");
  });

  it("the grid capacity's summary agrees with one connector or many", () => {
    const connector = (n: number) => ({ connectorId: `c${n}`, chargerName: "CP", connectorNumber: n, allocatedKw: 11, maxPowerKw: 22, status: "Accepted" });
    const allocation = (n: number) => ({ gridCapacityKw: 44, allocatedKw: 11 * n, connectors: Array.from({ length: n }, (_, i) => connector(i + 1)) }) as unknown as StationAllocationDto;
    const [one] = allocationLines(allocation(1))!;
    expect(one).toMatch(/al único conector que carga\.$/);
    expect(one).not.toMatch(/1 conector que cargan/);
    expect(allocationLines(allocation(2))![0]).toMatch(/entre 2 conectores que cargan\.$/);
  });

  it("Reservas says how long a reservation may last, as enforced", () => {
    expect(RESERVATIONS_DESCRIPTION).toContain(`como máximo ${RESERVATION_MAX_HOURS} horas`);
    expect(RESERVATIONS_DESCRIPTION).not.toContain("hasta una hora");
  });
});
