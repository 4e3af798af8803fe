// Bad input never gets a 500 (issue 10): every filter and sort parameter of every list is
// whitelisted or bound as a parameter, and every endpoint answers garbage bodies with a 4xx
// problem in Spanish. The tables are intact afterwards.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "#infra/sql";
import { createTenant, openHarness, rateInput, stationInput, testBackends, expectStatus, type Harness, type Tenant } from "./helpers";

const LISTS = ["/Business/Activity", "/Business/Charger", "/Business/ChargingStation", "/Business/Fees", "/Business/Notification", "/Business/Payments", "/Business/Activity/Export.csv", "/Business/Dashboard", "/Business/Graphic"];
const HOSTILE_PARAMS = [
  "sort=name;drop table stations",
  "sort=-password",
  "sort=(select 1)",
  "sort=name,,,-",
  "q=' or 1=1 --",
  "q=%25_%5C",
  "q=" + "x".repeat(5000),
  "from=2024-13-45",
  "to=not-a-date",
  "from=2030-01-01&to=2020-01-01",
  "status=DROP",
  "stationId=not-a-uuid",
  "stationId=1' or '1'='1",
  "chargerId[]=x",
  "page=1e999",
  "page=-1",
  "pageSize=0",
  "cursor=%00%01",
  "unread=maybe",
];
const GARBAGE_BODIES: unknown[] = [[], "texto", null, 12, { name: { $gt: "" } }, { name: ["a"], latitude: "x" }, { connectors: "all" }, { pricePerKwhCents: 1e308 }];

describe.each(testBackends())("hostile input ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  beforeAll(async () => {
    h = await openHarness(backend, { accountRequestsPerMinute: 100_000 });
    t = await createTenant(h, `hostile-${backend.name}`);
    await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Intacta" }) }), 201);
    await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput({ name: "Intacta" }) }), 201);
  });
  afterAll(() => h?.close());

  it("every list × hostile filter/sort parameters → 200 or a Spanish 422, never a 5xx", async () => {
    for (const path of LISTS) {
      for (const q of HOSTILE_PARAMS) {
        const res = await h.call("GET", `${path}?${q}`, { token: t.token });
        const text = await res.text();
        expect([200, 400, 422], `${path}?${q.slice(0, 40)}: ${text.slice(0, 200)}`).toContain(res.status);
        if (res.status !== 200) expect(JSON.parse(text).title, `${path}?${q.slice(0, 40)}`).toMatch(/[a-záéíóúñ]/i);
      }
    }
    const [{ n }] = await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from stations where name = 'Intacta'`);
    expect(n).toBe(1);
  });

  it("every endpoint × garbage and malformed bodies → a 4xx problem, never a 5xx", async () => {
    const seen = new Set<string>();
    const writes = h.api.routes.filter((r) => r.method !== "ALL" && r.method !== "GET" && !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
    expect(writes.length).toBeGreaterThan(15);
    for (const r of writes) {
      const path = r.path.replace(/^\/api/, "").replace(/:id/, "00000000-0000-4000-8000-000000000000");
      for (const body of [...GARBAGE_BODIES, "{not json"]) {
        const headers: Record<string, string> = { Authorization: `Bearer ${t.token}` };
        let payload: string | undefined;
        if (body === "{not json") {
          headers["Content-Type"] = "application/json";
          payload = body;
        } else if (body !== undefined) {
          headers["Content-Type"] = "application/json";
          payload = JSON.stringify(body);
        }
        const res = await h.api.fetch(new Request(`http://enchufa.test/api${path}`, { method: r.method, headers, body: payload }));
        const text = await res.text();
        const label = `${r.method} ${path} ${String(payload).slice(0, 40)}: ${text.slice(0, 200)}`;
        // Accepted (a PATCH ignores unknown fields, ReadAll needs no body) or refused with a problem: never a 5xx.
        expect(res.status, label).toBeLessThan(500);
        if (res.status >= 400) expect(res.headers.get("content-type"), label).toContain("application/problem+json");
      }
    }
    const [{ n }] = await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from rates where name = 'Intacta'`);
    expect(n).toBe(1);
  });
});
