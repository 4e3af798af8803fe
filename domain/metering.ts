// The energy a session delivered, from the register readings a charger reported for it
// (Energy.Active.Import.Register, Wh). Pure: the OCPP store (1.6 and 2.0.1), the API and the
// screens read a session's energy and its meter fault with these rules.
//
// A register only moves forward. A reading below an earlier one is a fault of the charger, never a
// discount: the session is billed by the highest reading (a *regression*). A reading below the
// start of the current run of readings means the register restarted (power loss, firmware
// update): what was delivered before the restart is kept and the readings after it count from
// where they restarted (a *reset*). Either way the session is flagged for the operator.

/** What went wrong with a session's meter, stored on the session (`meter_fault`). */
export interface MeterFault {
  /** regressed: a reading went below an earlier one; reset: the register restarted below where the session began. */
  kind: "regressed" | "reset";
  /** The highest register reading (Wh) the session reported. */
  highestWh: number;
  /** The register at the stop (Wh), as the charger reported it. */
  stopWh: number;
  /** The energy billed (Wh). */
  billedWh: number;
}

export interface MeterEnergy {
  energyWh: number;
  /** null when every reading moved forward (or stood still). */
  fault: MeterFault | null;
}

/**
 * Energy from `meterStartWh` and the register readings that followed it, in the order the charger
 * took them (the stop reading last). `highestSeenWh` is a register the session already reached
 * at a time not known here (the highest of its periodic readings, before the stop): the session
 * is billed at least up to it, and a stop below it is a regression. Readings that are not a
 * finite, non-negative number are not trustworthy and are ignored; the result is whole Wh (half
 * away from zero).
 */
export function energyFromReadings(meterStartWh: number, readings: readonly number[], highestSeenWh: number | null = null): MeterEnergy {
  const trusted = readings.filter((r) => Number.isFinite(r) && r >= 0);
  let runStart = meterStartWh;
  let runHigh = meterStartWh;
  let closedRuns = 0;
  let highest = meterStartWh;
  let kind: MeterFault["kind"] | null = null;
  for (const r of trusted) {
    highest = Math.max(highest, r);
    if (r >= runHigh) runHigh = r;
    else if (r >= runStart) kind ??= "regressed";
    else {
      // Below where this run began: the register restarted; its run so far is delivered energy.
      kind = "reset";
      closedRuns += runHigh - runStart;
      runStart = r;
      runHigh = r;
    }
  }
  let energyWh = Math.max(0, Math.round(closedRuns + runHigh - runStart));
  const stopWh = trusted.length ? trusted[trusted.length - 1] : meterStartWh;
  if (highestSeenWh !== null && Number.isFinite(highestSeenWh) && highestSeenWh > meterStartWh) {
    energyWh = Math.max(energyWh, Math.round(highestSeenWh - meterStartWh));
    highest = Math.max(highest, highestSeenWh);
    if (stopWh < highestSeenWh) kind ??= "regressed";
  }
  if (!kind) return { energyWh, fault: null };
  return { energyWh, fault: { kind, highestWh: Math.round(highest), stopWh: Math.round(stopWh), billedWh: energyWh } };
}

const wh = new Intl.NumberFormat("es-AR", { maximumFractionDigits: 0 });

/** The operator's notice of a session billed despite its meter (session detail, notification). */
export function meterFaultNotice(fault: MeterFault): string {
  return fault.kind === "regressed"
    ? `El medidor retrocedió: facturamos según la lectura más alta registrada (${wh.format(fault.highestWh)} Wh).`
    : `El medidor se reinició durante la carga: facturamos la energía registrada antes y después del reinicio (${wh.format(fault.billedWh)} Wh).`;
}
