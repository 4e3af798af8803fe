// The sliding-window limiter over both stores: memory (one node) and PostgreSQL (several nodes
// sharing the database — two limiters with their own store objects count together), and over
// the buffered store in front of each (cached reads, batched writes: the same verdicts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#db/client";
import { BufferedRateLimitStore, MemoryRateLimitStore, PostgresRateLimitStore, RateLimiter, type RateLimitStore } from "#infra/rate-limit";
import { consume } from "~/lib/rate-limit.server";
import { testBackends } from "../../setup/db";

interface StoreCase {
  name: string;
  make(now: () => number): RateLimitStore;
}

const databases: Database[] = [];
const cases: StoreCase[] = [{ name: "memory", make: (now) => new MemoryRateLimitStore(now) }];
for (const backend of testBackends()) {
  let database: Database | undefined;
  cases.push({
    name: backend.name,
    make: (now) => {
      if (!database) throw new Error("database not open");
      return new PostgresRateLimitStore(database.db, now);
    },
  });
  beforeAll(async () => {
    database = await backend.open();
    databases.push(database);
  });
}
for (const inner of [...cases]) {
  cases.push({ name: `buffered ${inner.name}`, make: (now) => new BufferedRateLimitStore(inner.make(now), { now }) });
}
afterAll(async () => {
  for (const d of databases) await d.close();
});
/** The stores that talk to the database directly (not the memory one, not the buffered ones). */
const direct = (name: string) => name !== "memory" && !name.startsWith("buffered");

let seq = 0;
const unique = (name: string) => `${name}-${++seq}-${Math.random().toString(36).slice(2)}`;

describe.each(cases)("RateLimiter over the $name store", (store) => {
  it("allows `limit` hits per window, then refuses with a retry time", async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(unique("t"), { limit: 3, windowMs: 60_000 }, { store: store.make(() => now), now: () => now });
    for (let i = 0; i < 3; i++) expect((await limiter.hit("k")).ok).toBe(true);
    const refused = await limiter.hit("k");
    expect(refused.ok).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect((await limiter.check("other")).ok).toBe(true);
    // Later in the next window the old hits weigh less and less.
    now += 60_000 + 40_000;
    expect((await limiter.hit("k")).ok).toBe(true);
    // Two windows later everything is forgotten.
    now += 120_000;
    for (let i = 0; i < 3; i++) expect((await limiter.hit("k")).ok).toBe(true);
  });

  it("has no burst at the window edge", async () => {
    let now = 0;
    const limiter = new RateLimiter(unique("t"), { limit: 10, windowMs: 60_000 }, { store: store.make(() => now), now: () => now });
    now = 59_000;
    for (let i = 0; i < 10; i++) await limiter.hit("k");
    now = 61_000; // a fixed window would allow 10 more here
    expect((await limiter.hit("k")).ok).toBe(false);
  });

  it("the refusal's retry time is when a hit is allowed again", async () => {
    let now = 0;
    const limiter = new RateLimiter(unique("t"), { limit: 2, windowMs: 60_000 }, { store: store.make(() => now), now: () => now });
    await limiter.hit("k");
    await limiter.hit("k");
    const { retryAfterMs } = await limiter.check("k");
    now += retryAfterMs - 1000;
    expect((await limiter.check("k")).ok).toBe(false);
    now += 1000;
    expect((await limiter.check("k")).ok).toBe(true);
  });

  it("reset forgets one key only", async () => {
    const s = store.make(Date.now);
    const limiter = new RateLimiter(unique("t"), { limit: 1, windowMs: 60_000 }, { store: s });
    await limiter.hit("a");
    await limiter.hit("b");
    await limiter.reset("a");
    expect((await limiter.check("a")).ok).toBe(true);
    expect((await limiter.check("b")).ok).toBe(false);
  });

  it("consume counts nothing when any limit refuses", async () => {
    const s = store.make(Date.now);
    const a = new RateLimiter(unique("a"), { limit: 1, windowMs: 60_000 }, { store: s });
    const b = new RateLimiter(unique("b"), { limit: 5, windowMs: 60_000 }, { store: s });
    await a.hit("x");
    expect(await consume([{ limiter: a, key: "x" }, { limiter: b, key: "y" }], { count: true })).toBeDefined();
    for (let i = 0; i < 5; i++) expect((await b.hit("y")).ok).toBe(true);
  });

  it.runIf(direct(store.name))("nodes sharing the database count together", async () => {
    const name = unique("shared");
    const nodeA = new RateLimiter(name, { limit: 4, windowMs: 60_000 }, { store: store.make(Date.now) });
    const nodeB = new RateLimiter(name, { limit: 4, windowMs: 60_000 }, { store: store.make(Date.now) });
    expect((await nodeA.hit("1.2.3.4")).ok).toBe(true);
    expect((await nodeB.hit("1.2.3.4")).ok).toBe(true);
    expect((await nodeA.hit("1.2.3.4")).ok).toBe(true);
    expect((await nodeB.hit("1.2.3.4")).ok).toBe(true);
    expect((await nodeA.hit("1.2.3.4")).ok).toBe(false);
    expect((await nodeB.hit("1.2.3.4")).ok).toBe(false);
  });

  it.runIf(direct(store.name))("sweeps windows that no longer count", async () => {
    let now = 5_000_000;
    const s = store.make(() => now) as PostgresRateLimitStore;
    const limiter = new RateLimiter(unique("sweep"), { limit: 5, windowMs: 60_000 }, { store: s, now: () => now });
    await limiter.hit("k");
    now += 3 * 60_000;
    expect(await s.sweep()).toBeGreaterThanOrEqual(1);
  });
});

describe.each(testBackends())("BufferedRateLimitStore over PostgreSQL ($name)", (backend) => {
  let database: Database;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database?.close());

  it("counts its own hits at once, writes them in one batch, and sees another node's after maxAgeMs", async () => {
    let now = 9_000_000;
    const clock = () => now;
    const sharedA = new PostgresRateLimitStore(database.db, clock);
    const bufferedA = new BufferedRateLimitStore(sharedA, { now: clock, maxAgeMs: 1000, flushMs: 60_000 });
    const bufferedB = new BufferedRateLimitStore(new PostgresRateLimitStore(database.db, clock), { now: clock, maxAgeMs: 1000, flushMs: 60_000 });
    const name = unique("hot");
    const rule = { limit: 5, windowMs: 60_000 };
    const nodeA = new RateLimiter(name, rule, { store: bufferedA, now: clock });
    const nodeB = new RateLimiter(name, rule, { store: bufferedB, now: clock });

    for (let i = 0; i < 3; i++) expect((await nodeA.hit("uid")).ok).toBe(true);
    // Nothing written yet; node A counts its own pending hits.
    expect(await sharedA.counts(`${name}:uid`, now - (now % 60_000), 60_000)).toEqual({ current: 0, previous: 0 });
    expect((await nodeA.check("uid")).ok).toBe(true);
    await bufferedA.flush();
    expect(await sharedA.counts(`${name}:uid`, now - (now % 60_000), 60_000)).toEqual({ current: 3, previous: 0 });

    // Node B read the shared count before A's hits landed? It reads now: 3, then two more fit.
    expect((await nodeB.hit("uid")).ok).toBe(true);
    expect((await nodeB.hit("uid")).ok).toBe(true);
    expect((await nodeB.hit("uid")).ok).toBe(false);
    // A's cached view is refreshed after maxAgeMs and includes B's hits once written.
    await bufferedB.flush();
    now += 1500;
    expect((await nodeA.hit("uid")).ok).toBe(false);
  });
});
