// Chart axes: an empty chart repeats no label, counts get whole-number gridlines.
import { describe, expect, it } from "vitest";
import { axis } from "~/components/charts/scale";
import { formatCompact, formatInt } from "~/components/charts/format";

const labels = (max: number, format: (n: number) => string, integer = false) => axis(max, integer).ticks.map(format);

describe("chart axis", () => {
  it("nothing to show: only the baseline, no label repeated nor rounded", () => {
    expect(labels(0, formatInt, true)).toEqual(["0"]);
    expect(labels(0, formatCompact)).toEqual(["0"]);
    expect(labels(0, (v) => `$ ${formatCompact(v / 100)}`)).toEqual(["$ 0"]);
  });

  it("counts: whole numbers, each once, and the top covers the highest value", () => {
    for (const max of [1, 2, 3, 5, 7, 12, 37, 250]) {
      const a = axis(max, true);
      const shown = a.ticks.map(formatInt);
      expect(new Set(shown).size, `${max}: ${shown}`).toBe(shown.length);
      expect(a.ticks.every(Number.isInteger), `${max}`).toBe(true);
      expect(a.top).toBeGreaterThanOrEqual(max);
      expect(a.ticks.at(-1)).toBe(a.top);
    }
    expect(labels(3, formatInt, true)).toEqual(["0", "1", "2", "3"]);
  });
});
