// Bad input never gets a 500: every filter and sort parameter of every list is
// whitelisted or bound as a parameter, and every endpoint answers garbage bodies with a 4xx
// problem in Spanish. The tables are intact afterwards. The walks enumerate the app's own route
// table, so a new endpoint is covered as soon as it is mounted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "#infra/sql";
import { createTenant, expectProblem, openHarness, rateInput, stationInput, testBackends, expectStatus, type Harness, type Tenant } from "./helpers";

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
  // Dates a calendar has but the database (or JavaScript's ISO format) does not.
  "to=9999-12-31",
  "from=0001-01-01",
  "from=0001-01-01&to=9999-12-31",
  "from=275760-01-01",
  "to=9999-12-31T23:59",
  // NUL and control characters in any text.
  "q=%00",
  "q=a%00b",
  "q=%01%1F",
  "search=%00",
  "email=%00",
];
/** Every text a body may carry, with a NUL or a control character, and dates out of range. */
const HOSTILE_VALUES = ["a\u0000b", "\u0000", "x\u0007y", "9999-12-31", "0001-01-01", "9999-12-31T23:59:00Z"];
const FIELDS = ["name", "holderName", "idTag", "email", "businessName", "businessAddress", "address", "city", "note", "command", "type", "from", "to", "expiresOn", "expiresAt", "reason", "role", "label", "accountLabel", "versionsUrl", "partyId", "countryCode", "location", "retrieveDate"];
const fill = (value: string) => Object.fromEntries(FIELDS.map((f) => [f, value]));
/** Concrete values for a route's path parameters (an id that exists nowhere, a plain word otherwise). */
const concrete = (path: string) =>
  path.replace(/^\/api/, "").replace(/:(\w+)/g, (_, name: string) => (/id$/i.test(name) ? "00000000-0000-4000-8000-000000000000" : name === "connector" ? "1" : "X"));
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

  const endpoints = (methods: (m: string) => boolean) => {
    const seen = new Set<string>();
    return h.api.routes.filter((r) => r.method !== "ALL" && methods(r.method) && !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
  };

  it("every GET endpoint × hostile filter/sort parameters (dates out of range, NUL) → 200 or a Spanish 4xx, never a 5xx", async () => {
    const reads = endpoints((m) => m === "GET");
    expect(reads.length).toBeGreaterThan(30);
    for (const r of reads) {
      const path = concrete(r.path);
      for (const q of HOSTILE_PARAMS) {
        const res = await h.call("GET", `${path}?${q}`, { token: t.token });
        // A live stream (server-sent events) never ends: its status is the answer.
        const streaming = res.headers.get("content-type")?.includes("event-stream");
        const text = streaming ? (await res.body?.cancel(), "") : await res.text();
        expect(res.status, `${path}?${q.slice(0, 40)}: ${text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400) expect(JSON.parse(text).title, `${path}?${q.slice(0, 40)}`).toMatch(/[a-záéíóúñ]/i);
      }
    }
    const [{ n }] = await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from stations where name = 'Intacta'`);
    expect(n).toBe(1);
  }, 180_000);

  it("lists with dates out of range → 422 naming the date field", async () => {
    for (const path of ["/Business/Activity", "/Business/Audit", "/Business/Activity/Export.csv", "/Business/Payments"]) {
      for (const q of ["to=9999-12-31", "from=0001-01-01"]) {
        const problem = await expectProblem(await h.call("GET", `${path}?${q}`, { token: t.token }), 422);
        expect(Object.keys(problem.errors ?? {}), `${path}?${q}`).toEqual([q.split("=")[0]]);
      }
    }
  });

  it("a NUL character in a text → 422 naming the field (tags, the company profile)", async () => {
    const tag = await expectProblem(await h.call("POST", "/Business/Tag", { token: t.token, body: { idTag: "NUL-1", holderName: "Ana\u0000" } }), 422);
    expect(tag.errors?.holderName?.[0]).toMatch(/caracteres/);
    const profile = await expectProblem(await h.call("PATCH", "/Business/BusinessUser/Update", { token: t.token, body: { businessName: "Empresa\u0000" } }), 422);
    expect(profile.errors?.businessName?.[0]).toMatch(/caracteres/);
    const query = await expectProblem(await h.call("GET", "/Business/Tag?q=%00", { token: t.token }), 422);
    expect(Object.keys(query.errors ?? {})).toEqual(["q"]);
  });

  it("every write endpoint × texts with NUL/control characters, dates out of range, wrong content types → never a 5xx", async () => {
    const writes = endpoints((m) => m !== "GET");
    const bodies: { type: string; body: string }[] = [
      ...HOSTILE_VALUES.map((v) => ({ type: "application/json", body: JSON.stringify(fill(v)) })),
      { type: "application/json", body: JSON.stringify({ ...fill("ok"), ["k\u0000"]: "x" }) },
      { type: "text/plain", body: JSON.stringify(fill("a\u0000b")) },
      { type: "application/x-www-form-urlencoded", body: "name=a%00b&holderName=%00" },
      { type: "multipart/form-data; boundary=xyz", body: "--xyz\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\na\u0000b" },
      { type: "multipart/form-data", body: "no boundary" },
    ];
    for (const r of writes) {
      const path = concrete(r.path);
      for (const { type, body } of bodies) {
        const res = await h.api.fetch(new Request(`http://enchufa.test/api${path}`, { method: r.method, headers: { Authorization: `Bearer ${t.token}`, "Content-Type": type }, body }));
        const text = await res.text();
        const label = `${r.method} ${path} ${type} ${body.slice(0, 40)}: ${text.slice(0, 200)}`;
        expect(res.status, label).toBeLessThan(500);
        if (res.status >= 400) expect(res.headers.get("content-type"), label).toContain("application/problem+json");
      }
    }
    const [{ n }] = await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from audit_log where changes::text like '%\\u0000%'`);
    expect(n).toBe(0);
  }, 120_000);

  it("every endpoint × garbage and malformed bodies → a 4xx problem, never a 5xx", async () => {
    const writes = endpoints((m) => m !== "GET");
    expect(writes.length).toBeGreaterThan(15);
    for (const r of writes) {
      const path = concrete(r.path);
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
