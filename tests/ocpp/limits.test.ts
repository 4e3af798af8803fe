import { describe, expect, it } from "vitest";
import { callBudget, keyedRate } from "#ocpp/limits";

describe("callBudget: a charger's call rate", () => {
  it("accepts a burst, refuses beyond it, then closes after too many refusals", () => {
    const t = 0;
    const budget = callBudget({ burst: 3, perSecond: 1, closeAfterRefused: 2 }, () => t);
    expect([budget.take(), budget.take(), budget.take()]).toEqual(["accept", "accept", "accept"]);
    expect(budget.take()).toBe("refuse");
    expect(budget.take()).toBe("refuse");
    expect(budget.refused).toBe(2);
    expect(budget.take()).toBe("close");
  });

  it("refills at the sustained rate, up to the burst", () => {
    let t = 0;
    const budget = callBudget({ burst: 2, perSecond: 4, closeAfterRefused: 100 }, () => t);
    budget.take();
    budget.take();
    expect(budget.take()).toBe("refuse");
    t += 250; // one token at 4/s
    expect(budget.take()).toBe("accept");
    expect(budget.take()).toBe("refuse");
    t += 60_000; // a long pause refills only up to the burst
    expect([budget.take(), budget.take(), budget.take()]).toEqual(["accept", "accept", "refuse"]);
  });

  it("an accepted call resets the refusal count", () => {
    let t = 0;
    const budget = callBudget({ burst: 1, perSecond: 1, closeAfterRefused: 1 }, () => t);
    budget.take();
    expect(budget.take()).toBe("refuse");
    t += 1000;
    expect(budget.take()).toBe("accept");
    expect(budget.take()).toBe("refuse");
  });
});

describe("keyedRate: connections per charger and per address", () => {
  it("allows perMinute in a burst per key, refills over the minute, and forgets keys that refilled", () => {
    let t = 0;
    const rate = keyedRate(2, () => t);
    expect([rate.take("a"), rate.take("a"), rate.take("a")]).toEqual([true, true, false]);
    expect(rate.take("b")).toBe(true); // another key has its own
    t += 30_000; // one connection back at 2 a minute
    expect([rate.take("a"), rate.take("a")]).toEqual([true, false]);
    t += 120_000;
    rate.prune();
    expect(rate.size).toBe(0);
    expect([rate.take("a"), rate.take("a"), rate.take("a")]).toEqual([true, true, false]);
  });
});
