// `npm run db:rollup [-- --check] [-- --business <uuid>]`: rebuilds the daily session rollup
// (session_daily_totals, session_station_daily_totals, session_hourly_totals) from
// charging_sessions, or with --check only compares them and exits 1 on a difference. The
// triggers of migration 0002 keep it current; this is for repairs and audits.
// Opens the server's database: PostgreSQL with DATABASE_URL, else PGlite under DATA_DIR (.data;
// PGlite admits one process, so stop the local server first).
import path from "node:path";
import { openDatabase } from "../db/client";
import { rebuildSessionRollups, rollupDrift } from "../db/rollup";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = path.resolve(import.meta.dirname, "..", process.env.DATA_DIR ?? ".data");
  const businessId = option("business");
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    const started = Date.now();
    if (!process.argv.includes("--check")) {
      await rebuildSessionRollups(database.db, businessId);
      console.log(`[db:rollup] resumen diario recalculado${businessId ? ` (empresa ${businessId})` : ""} en ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    const drift = await rollupDrift(database.db, businessId);
    if (drift.length > 0) {
      console.error(`[db:rollup] el resumen difiere de las cargas (${drift.length} filas, primeras 20):`);
      for (const line of drift) console.error(`  ${line}`);
      process.exitCode = 1;
    } else {
      console.log("[db:rollup] el resumen coincide con un recálculo desde las cargas");
    }
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(`[db:rollup] ${(err as Error).message}`);
  process.exit(1);
});
