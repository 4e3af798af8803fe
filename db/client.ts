// Opens the database: PGlite (embedded Postgres, on disk or in memory) by default, PostgreSQL
// when a URL is given. Both speak the same SQL and share one schema and one set of migrations,
// which are applied here at open so a node never serves an outdated schema.
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { EventEmitter } from "node:events";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";
import { ambientDb } from "./ambient";
import { createWriteWatch, watchPgliteWrites, type WriteWatch } from "./write-watch";
import type { Db } from "./types";

export type { Db, Schema } from "./types";

/**
 * Messages between server nodes (OCPP commands routed to the node holding a charger's socket,
 * live events for the dashboards): PostgreSQL LISTEN/NOTIFY, or in-process with PGlite,
 * which only one process can open anyway. Payloads are strings under 8000 bytes.
 */
export interface Channels {
  notify(channel: string, payload: string): Promise<void>;
  /** Resolves once listening; the returned function stops it. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
}

export interface Database {
  db: Db;
  /**
   * For readings only (meter values, signs of life, the OCPP message log): on PostgreSQL a pool
   * whose commits do not wait for the disk (synchronous_commit off, ADR 0023); PGlite: `db`.
   */
  telemetry: Db;
  kind: "pglite" | "postgres";
  /**
   * PGlite only: every statement its one process sends, so reads can be kept until their tables
   * are written (db/write-watch.ts). PostgreSQL is written by other processes too: none.
   */
  writes?: WriteWatch;
  channels: Channels;
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
  /**
   * PGlite in memory: start from this image of an already migrated database (`dumpDataDir`)
   * instead of an empty one. Migrating is most of the cost of opening one; a test run opens
   * hundreds. The migrations still run, and find nothing left to apply.
   */
  pgliteImage?: Blob;
  /** Where idle-connection errors of the pool go (default: console.error). */
  onError?: (err: Error) => void;
  /** PostgreSQL: connections this node keeps at most (default 10). */
  poolMax?: number;
  /**
   * PostgreSQL: statements each connection prepares at most (default 200; 0 prepares none, as
   * behind PgBouncer's transaction pooling before 1.21). See preparePerConnection.
   */
  preparedStatements?: number;
}

/** Migrations folder: env MIGRATIONS_DIR (the Docker image sets it), else `<cwd>/db/migrations`. */
export function migrationsFolder(): string {
  return path.resolve(process.env.MIGRATIONS_DIR ?? path.join(process.cwd(), "db", "migrations"));
}

// Any fixed 64-bit number: every node takes this advisory lock around migrations.
const MIGRATION_LOCK_KEY = 7_274_651_002_024;

export async function openDatabase(opts: OpenDatabaseOptions = {}): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.onError, opts.poolMax, opts.preparedStatements) : openPglite(opts);
}

async function openPglite(opts: OpenDatabaseOptions): Promise<Database> {
  let client: PGlite;
  if (opts.inMemory) {
    client = await PGlite.create(opts.pgliteImage ? { loadDataDir: opts.pgliteImage } : {});
  } else {
    const dir = path.resolve(opts.dataDir ?? path.join(process.cwd(), ".data"), "db");
    await mkdir(dir, { recursive: true });
    client = await PGlite.create({ dataDir: dir });
  }
  const writes = createWriteWatch();
  watchPgliteWrites(client, writes);
  const db = drizzlePglite({ client, schema });
  try {
    await migratePglite(db, { migrationsFolder: migrationsFolder() });
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
  let closed = false;
  // The planner's statistics, kept as autovacuum keeps them on a PostgreSQL server.
  await refreshStatistics(client).catch(() => []);
  const statistics = setInterval(() => void refreshStatistics(client).catch(() => []), STATISTICS_CHECK_MS);
  statistics.unref();
  // Every handle joins the transaction of an audited write (db/ambient.ts).
  const shared = ambientDb(db);
  return {
    db: shared,
    telemetry: shared,
    kind: "pglite",
    writes,
    channels: inProcessChannels(),
    async ping() {
      if (closed) throw new Error("La base de datos está cerrada");
      await client.query("select 1");
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(statistics);
      await client.close();
    },
  };
}

/** How often the embedded database looks for tables whose statistics fell behind. */
export const STATISTICS_CHECK_MS = 60 * 60_000;

/**
 * PGlite runs no autovacuum, so nothing ever ANALYZEs its tables: a table filled after it was
 * created (the seed, months of sessions) keeps the planner's "empty table" guess, and a page's
 * "20 newest of this company" joins every row of the company before sorting them instead of
 * walking the index (measured: the activity list 1,2 s → 1 ms under EXPLAIN ANALYZE on the demo
 * data). This analyzes each table that holds rows but was never analyzed, or has more than
 * doubled (in pages) since it was, which is autovacuum's rule in spirit; on a database whose
 * statistics are current it is one catalog query. Answers the tables analyzed.
 */
export async function refreshStatistics(client: Pick<PGlite, "query" | "exec">): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and pg_relation_size(c.oid) > 0
      and (c.reltuples < 0 or pg_relation_size(c.oid) / current_setting('block_size')::int > 2 * c.relpages + 8)`);
  for (const { name } of rows) await client.exec(`analyze "${name.replace(/"/g, '""')}"`);
  return rows.map((r) => r.name);
}

async function openPostgres(url: string, onError?: (err: Error) => void, poolMax = 10, preparedStatements = DEFAULT_PREPARED_STATEMENTS): Promise<Database> {
  const openPool = (max: number, extra: Partial<pg.PoolConfig> = {}, settings: string[] = []) => {
    const pool = new pg.Pool({
      connectionString: url,
      max,
      // Fail fast instead of hanging a request when the server is down or saturated.
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
      application_name: "enchufa",
      // No JIT: PostgreSQL compiles a query whose estimated cost passes jit_above_cost on every
      // execution (prepared or not), and for this app's short aggregations the compiling is the
      // cost: the home page's top stations over a month of 1 M sessions spent 47 of its 98 ms in it.
      // (A DATABASE_URL with its own `options` replaces these.)
      options: ["-c jit=off", ...settings].join(" "),
      ...extra,
    });
    // An idle client whose server connection drops emits 'error' on the pool; without a
    // listener Node would crash the process. The pool discards that client and carries on.
    pool.on("error", (err) => (onError ?? defaultOnError)(err));
    // A client checked out for a transaction gets no such listener from the pool: when its
    // connection drops mid-transaction, the query in flight rejects (the request gets its error
    // and the transaction is rolled back by PostgreSQL) and the client also emits 'error', which
    // must not crash the process either. The pool drops the broken client when it is released.
    pool.on("connect", (client) => {
      client.on("error", (err) => (onError ?? defaultOnError)(err));
      if (preparedStatements > 0) preparePerConnection(client, preparedStatements);
    });
    return pool;
  };
  const pool = openPool(poolMax);
  // Readings: commits that do not wait for the WAL flush (ADR 0023). A database crash may lose
  // the last fraction of a second of them — never a start, a stop, a price or an operator's edit,
  // which all go through `pool` — and never leaves the database inconsistent.
  const telemetryPool = openPool(Math.max(2, Math.ceil(poolMax / 2)), { application_name: "enchufa-telemetry" }, ["-c synchronous_commit=off"]);

  const db = drizzleNodePg({ client: pool, schema });
  const telemetry = drizzleNodePg({ client: telemetryPool, schema });
  try {
    await withAdvisoryLock(pool, () => migrateNodePg(db, { migrationsFolder: migrationsFolder() }));
  } catch (err) {
    await pool.end().catch(() => {});
    await telemetryPool.end().catch(() => {});
    throw err;
  }
  let closed = false;
  const channels = postgresChannels(url, pool, onError ?? defaultOnError);
  return {
    // Every handle joins the transaction of an audited write (db/ambient.ts); readings never do.
    db: ambientDb(db),
    telemetry,
    kind: "postgres",
    channels,
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      if (closed) return;
      closed = true;
      await channels.close();
      await pool.end();
      await telemetryPool.end();
    },
  };
}

export const DEFAULT_PREPARED_STATEMENTS = 200;

/** Statement names by SQL text, shared by the connections (bounded: cleared when it grows past this). */
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_MAX = 5_000;

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    if (statementNames.size >= STATEMENT_NAMES_MAX) statementNames.clear();
    name = `e_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Each connection parses and plans a statement once, not on every call: the parameterised
 * statements drizzle sends are given a name derived from their text, and node-postgres prepares a
 * named statement the first time a connection runs it (Parse), then only binds and executes it.
 * PostgreSQL keeps its plan in the connection's plan cache (custom plans first, a generic one
 * when it is no worse). The pages' queries are few and fixed, so this saves most of PostgreSQL's
 * parse and plan work: about a quarter of its CPU per page (docs/benchmarks.md §3). A connection
 * prepares at most `max` distinct statements (texts that vary, such as IN lists of different
 * lengths, could otherwise grow without end); beyond that it runs them unnamed, as before.
 */
function preparePerConnection(client: pg.PoolClient, max: number) {
  const prepared = new Set<string>();
  const query = client.query;
  // node-postgres' query(config, values, callback) is overloaded; only the config-object form with
  // values (drizzle's) is named, everything else passes through untouched.
  client.query = function (this: pg.PoolClient, config: unknown, values?: unknown, callback?: unknown) {
    if (config && typeof config === "object" && Array.isArray(values) && values.length > 0) {
      const c = config as pg.QueryConfig;
      if (typeof c.text === "string" && c.name === undefined) {
        const name = statementName(c.text);
        if (prepared.has(name) || prepared.size < max) {
          prepared.add(name);
          config = { ...c, name };
        }
      }
    }
    return (query as (...args: unknown[]) => unknown).call(this, config, values, callback);
  } as typeof client.query;
}

function inProcessChannels(): Channels {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async notify(channel, payload) {
      // Asynchronous like NOTIFY: a listener never runs inside the notifier's call stack.
      queueMicrotask(() => emitter.emit(channel, payload));
    },
    async listen(channel, handler) {
      emitter.on(channel, handler);
      return async () => void emitter.off(channel, handler);
    },
  };
}

const CHANNEL_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * LISTEN needs one dedicated connection (a pooled one would be handed to other queries). It
 * reconnects with a growing delay when the server goes away and listens again on every channel.
 */
function postgresChannels(url: string, pool: pg.Pool, onError: (err: Error) => void): Channels & { close(): Promise<void> } {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;
  let retry = 0;

  const connect = (): Promise<pg.Client> =>
    (connecting ??= (async () => {
      const c = new pg.Client({ connectionString: url, application_name: "enchufa-listen" });
      c.on("notification", (msg) => {
        for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? "");
      });
      c.on("error", (err) => onError(err));
      c.on("end", () => {
        client = undefined;
        connecting = undefined;
        if (closed || handlers.size === 0) return;
        const delay = Math.min(30_000, 500 * 2 ** retry++);
        setTimeout(() => void connect().catch(() => {}), delay).unref();
      });
      try {
        await c.connect();
        for (const channel of handlers.keys()) await c.query(`listen ${channel}`);
        retry = 0;
        client = c;
        return c;
      } catch (err) {
        connecting = undefined;
        await c.end().catch(() => {});
        throw err;
      }
    })());

  return {
    async notify(channel, payload) {
      await pool.query("select pg_notify($1, $2)", [channel, payload]);
    },
    async listen(channel, handler) {
      if (!CHANNEL_RE.test(channel)) throw new Error(`Canal inválido: ${channel}`);
      let set = handlers.get(channel);
      const first = !set;
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(handler);
      const c = client ?? (await connect());
      if (first && client) await c.query(`listen ${channel}`);
      return async () => {
        set.delete(handler);
        if (set.size === 0) {
          handlers.delete(channel);
          await client?.query(`unlisten ${channel}`).catch(() => {});
        }
      };
    },
    async close() {
      closed = true;
      await client?.end().catch(() => {});
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
  console.error("[db] error en una conexión de PostgreSQL:", err.message);
}
