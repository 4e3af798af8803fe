// bench:server's open-loop generator measures what a user waits, queue included: on a virtual
// clock, a server that answers one request at a time is driven past its capacity.
import { describe, expect, it } from "vitest";
import { openLoop, quantile } from "../../../scripts/bench/open-loop";

/** A single-worker FIFO server on a virtual clock: each request takes `serviceMs` once it reaches the front. */
function simulatedServer(serviceMs: number, expected: number) {
  let t = 0;
  let busyUntil = 0;
  let calls = 0;
  const pending: { done: number; resolve: (status: number) => void }[] = [];
  const sent: { url: string; at: number }[] = [];
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  // Answers every request due by `until`, each at its own time, letting the caller's callbacks run.
  async function runUntil(until: number) {
    pending.sort((a, b) => a.done - b.done);
    while (pending.length && pending[0].done <= until) {
      const next = pending.shift()!;
      t = next.done;
      next.resolve(200);
      await settle();
    }
  }
  return {
    sent,
    now: () => t,
    sleep: async (ms: number) => {
      const target = t + ms;
      await runUntil(target);
      t = target;
    },
    send: (url: string) => {
      sent.push({ url, at: t });
      busyUntil = Math.max(busyUntil, t) + serviceMs;
      const done = busyUntil;
      const answer = new Promise<number>((resolve) => pending.push({ done, resolve }));
      // Once the last request has left, the generator waits on the rest: answer them all.
      if (++calls === expected) setImmediate(() => void runUntil(Infinity));
      return answer;
    },
  };
}

describe("open-loop load generator", () => {
  it("sends at the fixed rate, taking the pages in turn, whatever the answers", async () => {
    const server = simulatedServer(10, 20);
    await openLoop({ rate: 40, seconds: 0.5, urls: ["/home", "/station"], ...server });
    expect(server.sent.map((s) => s.at)).toEqual(Array.from({ length: 20 }, (_, i) => i * 25));
    expect(server.sent.slice(0, 4).map((s) => s.url)).toEqual(["/home", "/station", "/home", "/station"]);
  });

  it("a server with room: every latency is its service time", async () => {
    const server = simulatedServer(10, 40);
    const r = await openLoop({ rate: 40, seconds: 1, urls: ["/home"], ...server });
    expect(r).toMatchObject({ sent: 40, failed: 0, p50: 10, p99: 10, max: 10, maxSendLagMs: 0 });
  });

  it("a saturated server: latencies count from the scheduled time, so the queue shows", async () => {
    // 50 ms per request is 20 per second; 40 arrive per second. Request i leaves at 25·i and is
    // answered at 50·(i+1): it waited 50 + 25·i ms. A closed loop would have reported 50 ms.
    const server = simulatedServer(50, 40);
    const r = await openLoop({ rate: 40, seconds: 1, urls: ["/home", "/charger"], ...server });
    expect(r.p50).toBe(50 + 25 * 19);
    expect(r.max).toBe(50 + 25 * 39);
    expect(r.p99).toBe(r.max);
    expect(r.byUrl["/home"].sent + r.byUrl["/charger"].sent).toBe(40);
    // And it kept sending on time while the answers queued up.
    expect(server.sent.map((s) => s.at)).toEqual(Array.from({ length: 40 }, (_, i) => i * 25));
  });

  it("a generator that sends late counts its own lateness too, and reports it", async () => {
    const server = simulatedServer(10, 20);
    const late = async (ms: number) => server.sleep(ms + 5); // a busy event loop oversleeps
    const r = await openLoop({ rate: 40, seconds: 0.5, urls: ["/home"], ...server, sleep: late });
    expect(r).toMatchObject({ p50: 15, max: 15, maxSendLagMs: 5 });
  });

  it("counts answers that are not 2xx as failed", async () => {
    let n = 0;
    const r = await openLoop({ rate: 1000, seconds: 0.01, urls: ["/x"], send: async () => (n++ % 2 ? 500 : 200), sleep: async () => {} });
    expect(r).toMatchObject({ sent: 10, failed: 5 });
  });

  it("quantiles by nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([quantile(values, 0.5), quantile(values, 0.99), quantile(values, 1), quantile([], 0.5)]).toEqual([50, 99, 100, 0]);
  });
});
