// The daily reconciliation's timer: the first pass a while after start, then one a day, never two
// at once, a failure logged (the next day tries again), stopped on shutdown.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startDailyReconciliation } from "../../../payments/reconciliation";

describe("startDailyReconciliation", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs after the first delay, then every interval, and stops", async () => {
    let runs = 0;
    const errors: string[] = [];
    const stop = startDailyReconciliation(
      {
        dailyReconciliation: async () => {
          runs++;
          if (runs === 2) throw new Error("proveedor caído");
        },
      },
      { error: (_obj, msg) => errors.push(msg ?? "") },
      1_000,
      500,
    );
    await vi.advanceTimersByTimeAsync(499);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    expect(errors).toEqual(["conciliación: falló la pasada diaria"]);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(2);
  });

  it("does not start a pass while the last one runs", async () => {
    let runs = 0;
    let release: () => void = () => {};
    const stop = startDailyReconciliation({ dailyReconciliation: () => (runs++, new Promise<void>((r) => (release = r))) }, { error: () => {} }, 100, 10);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(2);
    stop();
  });
});
