// `npm run bench:queries [-- --runs N] [-- --explain]`: the Business API's heavy reads for the
// bench operator (npm run bench:seed first), called in-process exactly as the pages call them,
// so the figures are the queries plus JSON. Prints p50/p95 per scenario; with --explain (and
// PostgreSQL), EXPLAIN (ANALYZE, BUFFERS) of every SQL statement a scenario ran.
// Targets (docs/benchmarks.md): home KPIs and charts < 150 ms p95, activity pages < 50 ms p95.
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { createApi } from "#api/app";
import { createKeyRing } from "#infra/crypto";
import { disabledMailer } from "#infra/mail";
import { createDriverPayments } from "../../payments";
import type { Db } from "#db/client";
import * as schema from "#db/schema";
import { BENCH_EMAIL, BENCH_FIREBASE_UID, benchBusinessId } from "#db/seed/bench";
import { benchTarget, openBenchDatabase } from "./db";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 20;
const explain = process.argv.includes("--explain");
const DAY = 86_400_000;

interface Scenario {
  group: "home" | "activity";
  name: string;
  /** API paths called in parallel, as the page's loader does. */
  paths: (ctx: Ctx) => Promise<string[]> | string[];
}
interface Ctx {
  call: (path: string) => Promise<unknown>;
  stationId: string;
  chargerId: string;
}

const iso = (d: Date) => d.toISOString();
const now = new Date();
const year = `from=${iso(new Date(now.getTime() - 365 * DAY))}&to=${iso(now)}`;
const month = `from=${iso(new Date(now.getTime() - 30 * DAY))}&to=${iso(now)}`;
const oldMonth = `from=${iso(new Date(now.getTime() - 300 * DAY))}&to=${iso(new Date(now.getTime() - 270 * DAY))}`;
const graphic = (period: string) => ["energyRevenueByDay", "sessionsByHour", "topStations"].map((s) => `/Business/Graphic?series=${s}&${period}`);

/** Follows nextCursor `pages - 1` times and returns the path of the last page. */
async function keysetPath(ctx: Ctx, base: string, pages: number): Promise<string> {
  let path = base;
  for (let i = 1; i < pages; i++) {
    const page = (await ctx.call(path)) as { nextCursor: string | null };
    if (!page.nextCursor) break;
    path = `${base}&cursor=${encodeURIComponent(page.nextCursor)}`;
  }
  return path;
}

const SCENARIOS: Scenario[] = [
  { group: "home", name: "KPIs 30 días", paths: () => [`/Business/Dashboard?${month}`] },
  { group: "home", name: "gráficos 30 días", paths: () => graphic(month) },
  { group: "home", name: "KPIs + gráficos 30 días (la página)", paths: () => [`/Business/Dashboard?${month}`, ...graphic(month)] },
  { group: "home", name: "KPIs 1 año", paths: () => [`/Business/Dashboard?${year}`] },
  { group: "home", name: "gráficos 1 año", paths: () => graphic(year) },
  { group: "home", name: "KPIs + gráficos 1 año (la página)", paths: () => [`/Business/Dashboard?${year}`, ...graphic(year)] },
  { group: "activity", name: "página 1, sin filtros", paths: () => ["/Business/Activity?pageSize=20"] },
  { group: "activity", name: "página 1, estado Completada", paths: () => ["/Business/Activity?pageSize=20&status=COMPLETED"] },
  { group: "activity", name: "página 1, una estación", paths: (c) => [`/Business/Activity?pageSize=20&stationId=${c.stationId}`] },
  { group: "activity", name: "página 1, un cargador + pago pendiente", paths: (c) => [`/Business/Activity?pageSize=20&chargerId=${c.chargerId}&paymentStatus=PENDING`] },
  { group: "activity", name: "página 1, un mes de hace 9 meses", paths: () => [`/Business/Activity?pageSize=20&${oldMonth}`] },
  { group: "activity", name: "página 10 (offset)", paths: () => ["/Business/Activity?pageSize=20&page=10"] },
  { group: "activity", name: "página 1.000 (offset)", paths: () => ["/Business/Activity?pageSize=20&page=1000"] },
  { group: "activity", name: "página 100 (cursor)", paths: async (c) => [await keysetPath(c, "/Business/Activity?pageSize=20", 100)] },
  { group: "activity", name: "página 1.000 (cursor)", paths: async (c) => [await keysetPath(c, "/Business/Activity?pageSize=20", 1000)] },
  { group: "activity", name: "página 99 desde la 100 (Anterior, before)", paths: async (c) => {
      const base = "/Business/Activity?pageSize=20";
      const page = (await c.call(await keysetPath(c, base, 100))) as { prevCursor: string | null };
      return [`${base}&before=${encodeURIComponent(page.prevCursor ?? "")}`];
    } },
  { group: "activity", name: "página 30, Completada + pago pendiente (cursor)", paths: async (c) => [await keysetPath(c, "/Business/Activity?pageSize=20&status=COMPLETED&paymentStatus=PENDING", 30)] },
  { group: "activity", name: "página 50 de una estación (cursor)", paths: async (c) => [await keysetPath(c, `/Business/Activity?pageSize=20&stationId=${c.stationId}`, 50)] },
  { group: "activity", name: "detalle de una carga", paths: async (c) => {
      const page = (await c.call(`/Business/Activity?pageSize=1&${month}`)) as { items: { id: string }[] };
      return [`/Business/Activity/${page.items[0]?.id}`];
    } },
];

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  const target = benchTarget();
  const database = await openBenchDatabase(target);
  const captured: { sql: string; params: unknown[] }[] = [];
  let pool: pg.Pool | null = null;
  let db: Db = database.db;
  if (target.url) {
    // Our own pool with a query logger, so --explain can replay the exact statements.
    pool = new pg.Pool({ connectionString: target.url, max: 10 });
    db = drizzle({ client: pool, schema, logger: { logQuery: (sql, params) => void captured.push({ sql, params }) } }) as unknown as Db;
  }
  try {
    const businessId = await benchBusinessId(db);
    if (!businessId) throw new Error("No hay operador de benchmark: ejecutá primero `npm run bench:seed`.");
    const token = "bench";
    // bench:server may have pointed the business at an emulator account: sign in as whoever owns it.
    const [owner] = await db.select({ uid: schema.businessUsers.firebaseUid }).from(schema.businessUsers).where(eq(schema.businessUsers.id, businessId));
    const encryptionKeys = ["c".repeat(64)];
    const logger = { info: () => {}, warn: () => {}, error: (o: object, m?: string) => console.error(m, o) };
    const api = createApi({
      db,
      verifyToken: async () => ({ uid: owner?.uid ?? BENCH_FIREBASE_UID, email: BENCH_EMAIL, email_verified: true }),
      encryptionKeys,
      logger,
      driverPayments: createDriverPayments({ db, keyRing: createKeyRing(encryptionKeys), logger, mailer: disabledMailer, appName: "Enchufá" }),
      publicOrigin: "http://127.0.0.1",
      // The bench measures queries, not the per-account limit: at today's speeds its hundreds of
      // calls a minute would be answered 429 half-way through.
      accountRequestsPerMinute: 1_000_000,
    });
    const call = async (path: string) => {
      const res = await api.fetch(new Request(`http://127.0.0.1/api${path}`, { headers: { Authorization: `Bearer ${token}` } }));
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const stations = (await call("/Business/ChargingStation?pageSize=1&sort=name")) as { items: { id: string }[] };
    const chargersPage = (await call("/Business/Charger?pageSize=1&sort=name")) as { items: { id: string }[] };
    const ctx: Ctx = { call, stationId: stations.items[0].id, chargerId: chargersPage.items[0].id };

    console.log(`Consultas del operador de benchmark: ${target.label}, ${runs} corridas por escenario (p50/p95 en ms)\n`);
    console.log(`${"escenario".padEnd(56)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"máx".padStart(8)}`);
    const explained: { name: string; statements: { sql: string; params: unknown[] }[] }[] = [];
    for (const sc of SCENARIOS) {
      const paths = await sc.paths(ctx);
      await Promise.all(paths.map(call)); // warm-up
      captured.length = 0;
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await Promise.all(paths.map(call));
        times.push(performance.now() - t);
        if (i === 0) explained.push({ name: `${sc.group}: ${sc.name}`, statements: [...captured] });
      }
      times.sort((a, b) => a - b);
      const target = sc.group === "home" ? 150 : 50;
      const flag = pct(times, 95) > target ? `  ← objetivo ${target} ms` : "";
      console.log(`${`${sc.group}: ${sc.name}`.padEnd(56)} ${pct(times, 50).toFixed(1).padStart(8)} ${pct(times, 95).toFixed(1).padStart(8)} ${times.at(-1)!.toFixed(1).padStart(8)}${flag}`);
    }
    if (explain && pool) {
      for (const e of explained) {
        console.log(`\n### ${e.name}`);
        const seen = new Set<string>();
        for (const st of e.statements) {
          if (seen.has(st.sql) || /^select "id", "firebase_uid"|from "business_users"/.test(st.sql)) continue;
          seen.add(st.sql);
          const res = await pool.query(`explain (analyze, buffers, costs off) ${st.sql}`, st.params as unknown[]);
          console.log(`\n${st.sql.replace(/\s+/g, " ").slice(0, 300)}…\n`);
          console.log(res.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n"));
        }
      }
    }
  } finally {
    await pool?.end();
    await database.close();
  }
}

main().catch((err) => {
  console.error(`[bench:queries] ${(err as Error).stack ?? err}`);
  process.exit(1);
});
