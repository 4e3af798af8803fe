// Every value the demo stores can be saved back unchanged: each seeded station, charger, rate,
// tag, access group and the company profile is read through the API and written back as read
// (the form's round trip), and the API accepts it. Seed data the API itself would refuse is a
// demo no one can edit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyRing, sealPaymentCredentials } from "#infra/crypto";
import { seedDemoOperator } from "#db/seed/demo";
import { mintToken, openHarness, TEST_KEYS, testBackends, type Harness } from "./helpers";

const NOW = new Date("2025-06-15T15:00:00-03:00");

type Item = Record<string, unknown> & { id: string };

describe.each(testBackends())("demo data round-trips through the API ($name)", (backend) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await openHarness(backend, { now: () => NOW });
    const ring = createKeyRing(TEST_KEYS);
    await seedDemoOperator(h.db, { firebaseUid: "demo-uid", email: "demo@enchufa.local", now: NOW, sealCredentials: (plain, ctx) => sealPaymentCredentials(ring, plain, ctx) });
    token = mintToken("demo-uid", { email: "demo@enchufa.local" });
  }, 120_000);
  afterAll(() => h?.close());

  async function json(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await h.call(method, path, { token, body });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  }
  async function all(path: string): Promise<Item[]> {
    const page = await json("GET", `${path}?pageSize=100`);
    expect(page.status).toBe(200);
    return (page.body as { items: Item[] }).items;
  }
  /** GET each item, PUT it back as read (after `toInput`): every answer a 2xx. */
  async function roundTrip(list: string, one: (id: string) => string, toInput: (dto: Item) => unknown = (dto) => dto, opts: { seeded?: boolean } = {}) {
    const items = await all(list);
    if (opts.seeded !== false) expect(items.length).toBeGreaterThan(0);
    const refused: { id: string; status: number; body: unknown }[] = [];
    for (const item of items) {
      const dto = (await json("GET", one(item.id))).body as Item;
      const saved = await json("PUT", one(item.id), toInput(dto));
      if (saved.status >= 300) refused.push({ id: `${String(dto.name ?? dto.idTag ?? dto.id)}`, status: saved.status, body: saved.body });
    }
    expect(refused).toEqual([]);
  }

  it("stations", () => roundTrip("/Business/ChargingStation", (id) => `/Business/ChargingStation/${id}`));
  it("chargers", () => roundTrip("/Business/Charger", (id) => `/Business/Charger/${id}`));
  it("rates", () => roundTrip("/Business/Fees", (id) => `/Business/Fees/${id}`));
  // The demo seeds no tags or access groups yet: held to the same rule once it does.
  it("tags", () => roundTrip("/Business/Tag", (id) => `/Business/Tag/${id}`, undefined, { seeded: false }));
  it("access groups", () =>
    roundTrip("/Business/AccessGroup", (id) => `/Business/AccessGroup/${id}`, (dto) => ({ ...dto, stationIds: ((dto.stations as { id: string }[]) ?? []).map((s) => s.id) }), { seeded: false }));

  it("the company profile", async () => {
    const profile = (await json("GET", "/Business/BusinessUser")).body as Record<string, unknown>;
    const saved = await json("PATCH", "/Business/BusinessUser/Update", profile);
    expect({ status: saved.status, body: saved.status >= 300 ? saved.body : null }).toEqual({ status: 200, body: null });
  });
});
