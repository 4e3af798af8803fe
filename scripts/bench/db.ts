// The benchmark database: PostgreSQL at DATABASE_URL (created when missing), else PGlite under
// DATA_DIR (default .data-bench, never local mode's .data). Refuses the test suite's database.
import path from "node:path";
import pg from "pg";
import { openDatabase, type Database } from "#db/client";

export interface BenchDatabaseTarget {
  url?: string;
  dataDir?: string;
  label: string;
}

export function benchTarget(): BenchDatabaseTarget {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = new URL(url).pathname.replace(/^\//, "");
    if (!name || name === "test" || name === "postgres") {
      throw new Error(`No uso la base "${name || "(sin nombre)"}" para benchmarks: usá una propia, p. ej. postgres://root@127.0.0.1:5432/enchufa_bench`);
    }
    return { url, label: `PostgreSQL ${new URL(url).host}/${name}` };
  }
  const dataDir = path.resolve(process.env.DATA_DIR ?? ".data-bench");
  return { dataDir, label: `PGlite ${path.relative(process.cwd(), dataDir) || dataDir}` };
}

/** CREATE DATABASE when the URL's database does not exist yet. */
async function ensurePostgresDatabase(url: string) {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (err) {
    if ((err as { code?: string }).code !== "3D000") throw err;
  } finally {
    await probe.end().catch(() => {});
  }
  const target = new URL(url);
  const name = target.pathname.replace(/^\//, "");
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

export async function openBenchDatabase(target = benchTarget()): Promise<Database> {
  if (target.url) {
    await ensurePostgresDatabase(target.url);
    return openDatabase({ databaseUrl: target.url });
  }
  return openDatabase({ dataDir: target.dataDir });
}
