// Axis helpers for the SVG charts: a "nice" upper bound and its ticks.

/** Round up to 1, 2, 2.5, 5 × 10^k so the gridlines land on round values. */
export function niceMax(max: number): number {
  if (!Number.isFinite(max) || max <= 0) return 1;
  const exp = Math.floor(Math.log10(max));
  const base = 10 ** exp;
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (max <= step * base) return step * base;
  }
  return 10 * base;
}

/**
 * A value axis for values up to `max`: its top and its gridlines. With nothing to show (max 0)
 * only the baseline, so no label repeats ("0, 0, 1, 1, 1" or "$ 0" five times); whole quantities
 * (counts) get whole-number steps, so no label is a rounded fraction.
 */
export function axis(max: number, integer = false): { top: number; ticks: number[] } {
  if (!Number.isFinite(max) || max <= 0) return { top: 1, ticks: [0] };
  if (integer) {
    const step = Math.max(1, Math.ceil(niceMax(max / 4)));
    const count = Math.max(1, Math.ceil(max / step));
    return { top: step * count, ticks: Array.from({ length: count + 1 }, (_, i) => i * step) };
  }
  return { top: niceMax(max), ticks: ticks(max) };
}

/** `count` + 1 evenly spaced ticks from 0 to niceMax(max). */
export function ticks(max: number, count = 4): number[] {
  const top = niceMax(max);
  return Array.from({ length: count + 1 }, (_, i) => (top * i) / count);
}

/** Show at most `max` of `n` category labels: every k-th one. */
export function labelStep(n: number, max: number): number {
  return Math.max(1, Math.ceil(n / max));
}
