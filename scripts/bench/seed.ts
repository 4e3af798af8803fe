// `npm run bench:seed [-- --reset] [-- --sessions N]`: the large benchmark operator
// (db/seed/bench.ts) into DATABASE_URL (PostgreSQL) or PGlite under DATA_DIR (.data-bench).
// Idempotent: an existing bench operator is kept unless --reset. Not part of `npm test`.
import { BENCH_SIZE, seedBenchOperator, verifyBenchPricing } from "#db/seed/bench";
import { benchTarget, openBenchDatabase } from "./db";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  const target = benchTarget();
  const sessions = Number(option("sessions") ?? BENCH_SIZE.sessions);
  if (!Number.isInteger(sessions) || sessions < 1) throw new Error("--sessions debe ser un entero positivo");
  console.log(`[bench:seed] ${target.label}`);
  const database = await openBenchDatabase(target);
  try {
    const started = Date.now();
    const result = await seedBenchOperator(database.db, {
      reset: process.argv.includes("--reset"),
      size: { ...BENCH_SIZE, sessions },
      log: (line) => console.log(`[bench:seed] ${line}`),
    });
    if (!result.created) console.log("[bench:seed] el operador de benchmark ya existe (--reset lo vuelve a generar)");
    for (const [k, v] of Object.entries(result.counts)) console.log(`  ${k.padEnd(14)} ${v.toLocaleString("es-AR")}`);
    const check = await verifyBenchPricing(database.db, result.businessId);
    console.log(`[bench:seed] precios verificados con domain/pricing: ${check.checked} cargas, ${check.mismatches.length} diferencias`);
    for (const m of check.mismatches.slice(0, 5)) console.log(`  ${m}`);
    console.log(`[bench:seed] ${((Date.now() - started) / 1000).toFixed(0)} s`);
    if (check.mismatches.length > 0) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(`[bench:seed] ${(err as Error).message}`);
  process.exit(1);
});
