// createReloadScheduler (app/components/LiveRevalidation.tsx): live events become at most one
// reload a second, also while events never stop, and never while the operator is busy.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createReloadScheduler } from "~/components/LiveRevalidation";

describe("createReloadScheduler", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("a burst of events is one reload, a second after the first", () => {
    const reload = vi.fn();
    const s = createReloadScheduler(reload, () => false, 1_000);
    s.changed();
    vi.advanceTimersByTime(300);
    s.changed();
    s.changed();
    vi.advanceTimersByTime(699);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5_000);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("events that never stop (a busy company) still reload once a second", () => {
    const reload = vi.fn();
    const s = createReloadScheduler(reload, () => false, 1_000);
    for (let t = 0; t < 10_000; t += 200) {
      s.changed();
      vi.advanceTimersByTime(200);
    }
    expect(reload).toHaveBeenCalledTimes(10);
  });

  it("waits while a form is sent or a page is left, then reloads", () => {
    const reload = vi.fn();
    let busy = true;
    const s = createReloadScheduler(reload, () => busy, 1_000);
    s.changed();
    vi.advanceTimersByTime(3_000);
    expect(reload).not.toHaveBeenCalled();
    busy = false;
    vi.advanceTimersByTime(1_000);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("nothing runs after the page is left", () => {
    const reload = vi.fn();
    const s = createReloadScheduler(reload, () => false, 1_000);
    s.changed();
    s.stop();
    vi.advanceTimersByTime(5_000);
    expect(reload).not.toHaveBeenCalled();
  });
});
