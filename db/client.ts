// Opens the database: PGlite (embedded Postgres, on disk or in memory) by default, PostgreSQL
// when a URL is given. Both speak the same SQL and share one schema and one set of migrations,
// which are applied here at open so a node never serves an outdated schema.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";

export type Schema = typeof schema;

/** The Drizzle database, whichever driver is underneath. Transactions (`tx`) are assignable to it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Resolves when the database answers; throws when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres://… — use a PostgreSQL server instead of PGlite. */
  databaseUrl?: string;
  /** PGlite stores its files under `${dataDir}/db` (default dataDir: `<cwd>/.data`). */
  dataDir?: string;
  /** PGlite in memory: nothing persisted (tests). */
  inMemory?: boolean;
  /** Where idle-connection errors of the pool go (default: console.error). */
  onError?: (err: Error) => void;
}

/** Migrations folder: env MIGRATIONS_DIR (the Docker image sets it), else `<cwd>/db/migrations`. */
export function migrationsFolder(): string {
  return path.resolve(process.env.MIGRATIONS_DIR ?? path.join(process.cwd(), "db", "migrations"));
}

// Any fixed 64-bit number: every node takes this advisory lock around migrations.
const MIGRATION_LOCK_KEY = 7_274_651_002_024;

export async function openDatabase(opts: OpenDatabaseOptions = {}): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.onError) : openPglite(opts);
}

async function openPglite(opts: OpenDatabaseOptions): Promise<Database> {
  let client: PGlite;
  if (opts.inMemory) {
    client = await PGlite.create();
  } else {
    const dir = path.resolve(opts.dataDir ?? path.join(process.cwd(), ".data"), "db");
    await mkdir(dir, { recursive: true });
    client = await PGlite.create({ dataDir: dir });
  }
  const db = drizzlePglite({ client, schema });
  try {
    await migratePglite(db, { migrationsFolder: migrationsFolder() });
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
  let closed = false;
  return {
    db,
    kind: "pglite",
    async ping() {
      if (closed) throw new Error("La base de datos está cerrada");
      await client.query("select 1");
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

async function openPostgres(url: string, onError?: (err: Error) => void): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Fail fast instead of hanging a request when the server is down or saturated.
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    application_name: "enchufa",
  });
  // An idle client whose server connection drops emits 'error' on the pool; without a
  // listener Node would crash the process. The pool discards that client and carries on.
  pool.on("error", (err) => (onError ?? defaultOnError)(err));

  const db = drizzleNodePg({ client: pool, schema });
  try {
    await withAdvisoryLock(pool, () => migrateNodePg(db, { migrationsFolder: migrationsFolder() }));
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  let closed = false;
  return {
    db,
    kind: "postgres",
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** Serializes migrations across nodes starting at once (drizzle's migrator does not). */
async function withAdvisoryLock<T>(pool: pg.Pool, fn: () => Promise<T>): Promise<T> {
  const lockClient = await pool.connect();
  try {
    await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      return await fn();
    } finally {
      await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    lockClient.release();
  }
}

function defaultOnError(err: Error) {
  console.error("[db] error en una conexión inactiva de PostgreSQL:", err.message);
}
