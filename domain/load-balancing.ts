// Load balancing (ADR 0018): a station's grid capacity shared fairly among the
// connectors charging there. Pure: the central system reads the rows and sends the limits.

export interface ChargingConnector {
  id: string;
  /** The connector's rated maximum (kW). */
  maxKw: number;
  /** false: its charger does not take charging profiles, so it draws up to its maximum. */
  smart: boolean;
}

/**
 * Each smart connector's limit (kW, two decimals, rounded down so the sum never exceeds the
 * capacity). The connectors that take no limits are counted at their maximum first; what is left
 * is shared equally among the others, none above its own maximum (water-filling: what one cannot
 * use goes to the rest). Never below 0.
 */
export function allocate(capacityKw: number, connectors: readonly ChargingConnector[]): Map<string, number> {
  const out = new Map<string, number>();
  const fixed = connectors.filter((c) => !c.smart).reduce((sum, c) => sum + c.maxKw, 0);
  let left = Math.max(0, capacityKw - fixed);
  let open = [...connectors.filter((c) => c.smart)].sort((a, b) => a.maxKw - b.maxKw);
  while (open.length > 0) {
    const share = left / open.length;
    const capped = open.filter((c) => c.maxKw <= share);
    if (capped.length === 0) {
      for (const c of open) out.set(c.id, floor2(share));
      break;
    }
    for (const c of capped) {
      out.set(c.id, floor2(c.maxKw));
      left -= c.maxKw;
    }
    open = open.filter((c) => c.maxKw > share);
  }
  return out;
}

const floor2 = (kw: number) => Math.max(0, Math.floor(kw * 100 + 1e-9) / 100);
