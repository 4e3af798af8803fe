// Every list the Business API returns is bounded on the server: paged collections cap pageSize at
// MAX_PAGE_SIZE, option lists (id and name) at OPTIONS_MAX_PAGE_SIZE (and say so in Spanish),
// the CSV export at EXPORT_MAX_ROWS, catalogs are fixed sets. A new GET endpoint fails the first test until it is classified here, so an unbounded
// list cannot slip in. The data is a small bench operator (db/seed/bench.ts) with more rows than
// one page in every collection; its prices are also checked against domain/pricing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { MAX_PAGE_SIZE, OPTIONS_MAX_PAGE_SIZE } from "#contract/schemas/common";
import { EXPORT_MAX_ROWS } from "#api/routes/activity";
import { BENCH_FIREBASE_UID, BENCH_SIZE, seedBenchOperator, verifyBenchPricing } from "#db/seed/bench";
import { queryRows } from "#infra/sql";
import { mintToken, openHarness, testBackends, type Harness } from "./helpers";

/** Paged collections and the most rows one page may hold. */
const PAGED: [path: string, cap: number][] = [
  ["/api/Business/Activity", MAX_PAGE_SIZE],
  ["/api/Business/Charger", MAX_PAGE_SIZE],
  ["/api/Business/Charger/Options", OPTIONS_MAX_PAGE_SIZE],
  ["/api/Business/ChargingStation", MAX_PAGE_SIZE],
  ["/api/Business/ChargingStation/Options", OPTIONS_MAX_PAGE_SIZE],
  ["/api/Business/Fees", MAX_PAGE_SIZE],
  ["/api/Business/Notification", MAX_PAGE_SIZE],
  ["/api/Business/Payments", MAX_PAGE_SIZE],
  ["/api/Business/Invoice", MAX_PAGE_SIZE],
  ["/api/Business/Audit", MAX_PAGE_SIZE],
  ["/api/Business/Tag", MAX_PAGE_SIZE],
  ["/api/Business/AccessGroup", MAX_PAGE_SIZE],
  ["/api/Business/Reservation", MAX_PAGE_SIZE],
  // Roaming: partners, and the stations with their roaming flag.
  ["/api/Business/Roaming/Partner", MAX_PAGE_SIZE],
  ["/api/Business/Roaming/Station", MAX_PAGE_SIZE],
  // One charger's events (`:id`: a seeded charger with more events than a page).
  ["/api/Business/Charger/:id/Event", MAX_PAGE_SIZE],
  // Its recent OCPP messages and its diagnostics (the same charger, seeded beyond a page).
  ["/api/Business/Charger/:id/Message", MAX_PAGE_SIZE],
  ["/api/Business/Charger/:id/Diagnostics", MAX_PAGE_SIZE],
];
/** Capped at EXPORT_MAX_ROWS (activity), AUDIT_EXPORT_MAX_ROWS (audit log) and TAG_EXPORT_MAX_ROWS (RFID tags); the team's lists at TEAM_MAX (members + open invitations). */
const EXPORTS = [
  "/api/Business/Activity/Export.csv",
  "/api/Business/Audit/Export.csv",
  "/api/Business/Tag/Export.csv",
  "/api/Business/Member",
  "/api/Business/Invitation",
  // A charger's messages at OCPP_MESSAGES_KEPT (its ring holds no more); its model's chargers at FIRMWARE_MODEL_MAX.
  "/api/Business/Charger/:id/Message/Export.csv",
  "/api/Business/Charger/:id/Firmware",
  // The reconciliation of one period: at most RECONCILIATION_MAX_DAYS days, the provider's search
  // read at most SEARCH_MAX_PAGES pages (a longer one is said to be partial).
  "/api/Business/Payments/Reconciliation",
  "/api/Business/Payments/Reconciliation/Export.csv",
  // The sales book (Libro IVA Ventas) at EXPORT_MAX_ROWS, like the activity's.
  "/api/Business/Invoice/Export.csv",
];
/** Global catalogs seeded by db/seed/catalogs.ts: a fixed, small set. */
const CATALOGS = ["/api/Business/ChargerBrand", "/api/Business/Service", "/api/Driver/ConnectorType"];
/** One object (or one aggregate), never a list of rows. */
const SINGLE = [
  "/api/Account/Business",
  "/api/Business/Activity/:id",
  "/api/Business/BusinessUser",
  "/api/Business/Charger/:id",
  "/api/Business/Charger/:id/Diagnostics/:diagnosticsId/File",
  "/api/Business/ChargingStation/:id",
  // The connectors of one station that are charging now, with their limits.
  "/api/Business/ChargingStation/:id/Allocation",
  "/api/Business/Dashboard",
  "/api/Business/Fees/:id",
  // One rate's prices now and its pending changes: at most SCHEDULE_MAX_PENDING.
  "/api/Business/Fees/:id/Schedule",
  "/api/Business/Tag/:id",
  // The company's local holidays: at most MAX_COMPANY_HOLIDAYS, and a year of national ones.
  "/api/Business/Holidays",
  "/api/Business/AccessGroup/:id",
  "/api/Business/Reservation/:id",
  "/api/Business/Graphic",
  "/api/Business/Roaming",
  "/api/Business/Notification/UnreadCount",
  "/api/MercadoPago/BusinessUser",
  "/api/Business/Fiscal",
  "/api/Pagos360/BusinessUser",
  "/api/images/:file",
  "/api/openapi.json",
  // One connector, one payment.
  "/api/Driver/Charge/:identity/:connector",
  "/api/Driver/Payment/:id",
  // One voucher, and its PDF.
  "/api/Business/Invoice/:id",
  "/api/Business/Invoice/:id/Pdf",
  "/api/Driver/Payment/:id/Invoice/Pdf",
];
/** Server-sent events: carries only the kind of each change (no rows); the page reloads its own bounded data. */
const STREAMS = ["/api/Business/Live"];

const ROWS = MAX_PAGE_SIZE + 20;
/** Stations (one charger each): more than the larger cap, so the option lists fill a page too. */
const STATIONS = OPTIONS_MAX_PAGE_SIZE + 20;

describe.each(testBackends())("list endpoints are bounded ($name)", (backend) => {
  let h: Harness;
  const token = mintToken(BENCH_FIREBASE_UID);
  let businessId = "";
  let chargerId = "";
  /** The request path of a PAGED entry (its `:id` is the charger seeded with events). */
  const pathOf = (path: string) => path.replace(/^\/api/, "").replace(":id", chargerId);

  beforeAll(async () => {
    h = await openHarness(backend);
    const seeded = await seedBenchOperator(h.db, {
      reset: true,
      size: { ...BENCH_SIZE, stations: STATIONS, chargersPerStation: 1, connectorsPerCharger: 1, sessions: 400, historyDays: 30, meterDays: 2, notifications: ROWS },
    });
    businessId = seeded.businessId;
    // Rates and payments beyond one page too.
    await h.db.execute(sql`insert into rates (business_id, name) select ${businessId}::uuid, 'Tarifa ' || lpad(i::text, 3, '0') from generate_series(1, ${ROWS}) i`);
    await h.db.execute(sql`insert into payments (business_id, provider, amount_cents, status, external_id)
      select ${businessId}::uuid, 'MERCADOPAGO', 1000 * i, 'APPROVED', 'bench-' || i from generate_series(1, ${ROWS}) i`);
    await h.db.execute(sql`insert into invoices (business_id, type, point_of_sale, number, status, total_cents, net_cents, vat_cents, vat_rate_bp, issue_date, service_from, service_to)
      select ${businessId}::uuid, 6, 3, i, 'AUTHORIZED', 1210 * i, 1000 * i, 210 * i, 2100, current_date, current_date, current_date from generate_series(1, ${ROWS}) i`);
    await h.db.execute(sql`insert into audit_log (business_id, actor_uid, actor_email, actor_role, action, resource_type, resource_id)
      select ${businessId}::uuid, 'bench-operator', 'bench@enchufa.local', 'OWNER', 'rate.create', 'rate', gen_random_uuid()::text from generate_series(1, ${ROWS}) i`);
    await h.db.execute(sql`insert into access_groups (business_id, name) select ${businessId}::uuid, 'Grupo ' || lpad(i::text, 3, '0') from generate_series(1, ${ROWS}) i`);
    await h.db.execute(sql`insert into ocpi_partners (business_id) select ${businessId}::uuid from generate_series(1, ${ROWS}) i`);
    await h.db.execute(sql`insert into rfid_tags (business_id, id_tag, holder_name) select ${businessId}::uuid, 'BENCH' || i, 'Titular ' || i from generate_series(1, ${ROWS}) i`);
    const [charger] = await queryRows(h.db, sql`select id from chargers where business_id = ${businessId}::uuid order by id limit 1`);
    chargerId = String(charger.id);
    // Reservations beyond one page (past ones: the states a list mostly holds).
    await h.db.execute(sql`insert into reservations (business_id, charger_id, connector_number, id_tag, expires_at, status)
      select ${businessId}::uuid, ${chargerId}::uuid, 1, 'BENCH' || i, now() - make_interval(mins => i), 'EXPIRED' from generate_series(1, ${ROWS}) i`);
    await h.db.execute(sql`insert into charger_events (business_id, charger_id, kind, summary, payload, at)
      select ${businessId}::uuid, ${chargerId}::uuid, 'SecurityEventNotification', 'StartupOfTheDevice', '{}'::jsonb, now() - make_interval(mins => i) from generate_series(1, ${ROWS}) i`);
    await h.db.execute(sql`insert into ocpp_messages (business_id, charger_id, slot, seq, at, direction, message_type, message_id, action, payload)
      select ${businessId}::uuid, ${chargerId}::uuid, i, i, now() - make_interval(secs => i), 'IN', 2, 'm' || i, 'Heartbeat', '{}' from generate_series(1, ${ROWS}) i`);
    await h.db.execute(sql`insert into charger_diagnostics (business_id, charger_id, request_id, token_hash, requested_at)
      select ${businessId}::uuid, ${chargerId}::uuid, i, md5(i::text), now() - make_interval(mins => i) from generate_series(1, ${ROWS}) i`);
  }, 120_000);
  afterAll(() => h?.close());

  it("classifies every GET endpoint by how it is bounded", () => {
    const known = new Set([...PAGED.map(([path]) => path), ...EXPORTS, ...CATALOGS, ...SINGLE, ...STREAMS]);
    const gets = [...new Set(h.api.routes.filter((r) => r.method === "GET").map((r) => r.path))];
    const unclassified = gets.filter((p) => !known.has(p));
    expect(unclassified, "declare how these endpoints bound their rows").toEqual([]);
    expect(gets.length).toBe(known.size);
  });

  it("seeds more rows than one page in every collection, priced like domain/pricing", async () => {
    const check = await verifyBenchPricing(h.db, businessId, 200);
    expect(check.checked).toBeGreaterThan(100);
    expect(check.mismatches).toEqual([]);
    for (const [path, cap] of PAGED) {
      const body = (await (await h.call("GET", `${pathOf(path)}?pageSize=1`, { token })).json()) as { total: number };
      expect(body.total, path).toBeGreaterThan(cap);
    }
  });

  it.each(PAGED)("%s never returns more than its cap (%i rows)", async (path, cap) => {
    const p = pathOf(path);
    const full = await h.call("GET", `${p}?pageSize=${cap}`, { token });
    expect(full.status).toBe(200);
    expect(((await full.json()) as { items: unknown[] }).items).toHaveLength(cap);

    const byDefault = (await (await h.call("GET", p, { token })).json()) as { items: unknown[] };
    expect(byDefault.items.length).toBeLessThanOrEqual(cap);

    for (const q of [`pageSize=${cap + 1}`, "pageSize=100000", "pageSize=-1", "pageSize=abc"]) {
      const res = await h.call("GET", `${p}?${q}`, { token });
      expect(res.status, `${p}?${q}`).toBe(422);
      const problem = (await res.json()) as { title: string; errors?: Record<string, string[]> };
      expect(problem.errors?.pageSize?.[0], `${p}?${q}`).toMatch(/[a-záéíóúñ]/i);
    }
    // Unknown "limit" parameters are not a way around the cap.
    const limited = (await (await h.call("GET", `${p}?limit=100000&pageSize=${cap}`, { token })).json()) as { items: unknown[] };
    expect(limited.items.length).toBeLessThanOrEqual(cap);
  });

  it("caps the CSV export", async () => {
    const res = await h.call("GET", "/Business/Activity/Export.csv", { token });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("X-Export-Rows"))).toBeLessThanOrEqual(EXPORT_MAX_ROWS);
  });

  it.each(CATALOGS)("%s is a small fixed catalog", async (path) => {
    const body = (await (await h.call("GET", path.replace(/^\/api/, ""), { token })).json()) as unknown[] | { items: unknown[] };
    const rows = Array.isArray(body) ? body : body.items;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(MAX_PAGE_SIZE);
  });
});
