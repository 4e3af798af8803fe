// api/company-cache.ts: a company's period totals kept for a TTL, shared while computed, dropped
// by the company's writes, never kept after a failure, bounded in size.
import { describe, expect, it } from "vitest";
import { createCompanyCache } from "#api/company-cache";

function clock(start = 0) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

describe("createCompanyCache", () => {
  it("reuses a value for the TTL; past it, answers with the kept value at once while one new computation runs", async () => {
    const c = clock();
    const cache = createCompanyCache(15_000, c.now);
    let runs = 0;
    let release!: () => void;
    let gate = Promise.resolve();
    const compute = async () => {
      const run = ++runs;
      await gate;
      return run;
    };
    expect(await cache.get("a", "k", compute)).toBe(1);
    c.advance(14_999);
    expect(await cache.get("a", "k", compute)).toBe(1);
    expect(runs).toBe(1);

    c.advance(1);
    gate = new Promise<void>((r) => (release = r));
    // Nobody waits for the new computation: the pages read during it get the kept value.
    expect(await cache.get("a", "k", compute)).toBe(1);
    expect(await cache.get("a", "k", compute)).toBe(1);
    expect(runs).toBe(2);
    release();
    await gate;
    await Promise.resolve();
    expect(await cache.get("a", "k", compute)).toBe(2);
    expect(runs).toBe(2);
  });

  it("a value older than four TTLs is not served: the read waits for a new one", async () => {
    const c = clock();
    const cache = createCompanyCache(15_000, c.now);
    let runs = 0;
    const compute = async () => ++runs;
    expect(await cache.get("a", "k", compute)).toBe(1);
    c.advance(60_000);
    expect(await cache.get("a", "k", compute)).toBe(2);
  });

  it("a failed new computation drops the kept value and is reported: the next read computes and waits", async () => {
    const c = clock();
    const reported: unknown[] = [];
    const cache = createCompanyCache(15_000, c.now, undefined, (err, where) => reported.push([(err as Error).message, where]));
    expect(await cache.get("a", "k", async () => "old")).toBe("old");
    c.advance(15_000);
    let fail!: (err: Error) => void;
    const failing = new Promise<string>((_, reject) => (fail = reject));
    expect(await cache.get("a", "k", () => failing)).toBe("old");
    fail(new Error("db down"));
    await failing.catch(() => undefined);
    await Promise.resolve();
    expect(reported).toEqual([["db down", { businessId: "a", key: "k" }]]);
    expect(await cache.get("a", "k", async () => "new")).toBe("new");
  });

  it("a write during a new computation wins: what that computation read before the write is not kept", async () => {
    const c = clock();
    const cache = createCompanyCache(15_000, c.now);
    await cache.get("a", "k", async () => "before");
    c.advance(15_000);
    let release!: (v: string) => void;
    const slow = new Promise<string>((r) => (release = r));
    expect(await cache.get("a", "k", () => slow)).toBe("before");
    cache.forget("a");
    release("read before the write");
    await slow;
    await Promise.resolve();
    expect(await cache.get("a", "k", async () => "after the write")).toBe("after the write");
  });

  it("keeps companies and keys apart", async () => {
    const cache = createCompanyCache(15_000, clock().now);
    expect(await cache.get("a", "k", async () => "a-k")).toBe("a-k");
    expect(await cache.get("b", "k", async () => "b-k")).toBe("b-k");
    expect(await cache.get("a", "j", async () => "a-j")).toBe("a-j");
    expect(await cache.get("a", "k", async () => "other")).toBe("a-k");
  });

  it("requests that arrive while a value is computed share that computation", async () => {
    const cache = createCompanyCache(15_000, clock().now);
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const compute = async () => {
      runs++;
      await gate;
      return "v";
    };
    const both = Promise.all([cache.get("a", "k", compute), cache.get("a", "k", compute)]);
    release();
    expect(await both).toEqual(["v", "v"]);
    expect(runs).toBe(1);
  });

  it("a failure is not kept: the next request computes again", async () => {
    const cache = createCompanyCache(15_000, clock().now);
    await expect(cache.get("a", "k", async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect(await cache.get("a", "k", async () => "ok")).toBe("ok");
  });

  it("a write by the company drops its values, and only its values", async () => {
    const cache = createCompanyCache(15_000, clock().now);
    await cache.get("a", "k", async () => "old a");
    await cache.get("b", "k", async () => "old b");
    cache.forget("a");
    expect(await cache.get("a", "k", async () => "new a")).toBe("new a");
    expect(await cache.get("b", "k", async () => "new b")).toBe("old b");
  });

  it("TTL 0 computes every time", async () => {
    const cache = createCompanyCache(0, clock().now);
    let runs = 0;
    await cache.get("a", "k", async () => ++runs);
    await cache.get("a", "k", async () => ++runs);
    expect(runs).toBe(2);
  });

  it("holds at most maxEntries values, dropping the oldest", async () => {
    const cache = createCompanyCache(15_000, clock().now, 2);
    await cache.get("a", "1", async () => "1");
    await cache.get("a", "2", async () => "2");
    await cache.get("a", "3", async () => "3");
    expect(await cache.get("a", "1", async () => "1 again")).toBe("1 again");
    expect(await cache.get("a", "3", async () => "x")).toBe("3");
  });
});
