// Logical backups that work the same on PGlite and PostgreSQL: one gzip'd NDJSON file,
// a header line and then every row of every table as JSON, tables in foreign-key order. The dump
// reads one consistent snapshot (a repeatable-read, read-only transaction), so it can run while
// a PostgreSQL-backed server is up. A restore goes into a database at the same migration level,
// in one transaction: it lands whole or not at all.
import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import readline from "node:readline";
import { createGunzip, createGzip } from "node:zlib";
import { finished } from "node:stream/promises";
import { getTableName, is, sql, type SQL } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import * as schema from "./schema";

export const BACKUP_FORMAT = "enchufa-backup";
export const BACKUP_VERSION = 1;

interface Header {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** Migrations applied to the source database (the target must have the same). */
  migrations: number;
  tables: Record<string, number>;
}

export class BackupError extends Error {
  override name = "BackupError";
}

/**
 * Tables derived from others by triggers (the session rollups, migration 0002): not dumped,
 * since restoring the sessions fills them again exactly as they were.
 */
const DERIVED_TABLES: ReadonlySet<string> = new Set(
  [schema.sessionDailyTotals, schema.sessionStationDailyTotals, schema.sessionHourlyTotals].map((t) => getTableName(t)),
);

/** Every table of the schema, each after the tables it references. */
export function tablesInDependencyOrder(): string[] {
  const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
  const deps = new Map<string, Set<string>>();
  for (const table of tables) {
    const name = getTableName(table);
    const refs = new Set(getTableConfig(table).foreignKeys.map((fk) => getTableName(fk.reference().foreignTable)));
    refs.delete(name);
    deps.set(name, refs);
  }
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name)) return;
    if (path.has(name)) throw new BackupError(`Dependencia circular entre tablas: ${[...path, name].join(" → ")}`);
    path.add(name);
    for (const dep of deps.get(name) ?? []) visit(dep, path);
    path.delete(name);
    ordered.push(name);
  };
  for (const name of [...deps.keys()].sort()) visit(name, new Set());
  return ordered;
}

type Executor = { execute: (q: SQL) => PromiseLike<unknown> };
async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function migrationCount(db: Executor): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return Number(row?.n ?? 0);
}

async function count(db: Executor, table: string): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql.raw(`select count(*)::int as n from ${ident(table)}`));
  return Number(row?.n ?? 0);
}

const BATCH = 2000;

/** Writes a backup of the whole database to `file` (gzip'd NDJSON). Returns the row counts. */
export async function backupDatabase(db: Db, file: string): Promise<Header> {
  const gzip = createGzip();
  const out = createWriteStream(file, { mode: 0o600 });
  gzip.pipe(out);
  const write = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await once(gzip, "drain");
  };
  const tables = tablesInDependencyOrder().filter((t) => !DERIVED_TABLES.has(t));
  const header: Header = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: new Date().toISOString(), migrations: 0, tables: {} };
  try {
    await db.transaction(
      async (tx) => {
        header.migrations = await migrationCount(tx);
        for (const t of tables) header.tables[t] = await count(tx, t);
        await write(JSON.stringify(header));
        for (const t of tables) {
          // Keyset over ctid: stable inside the snapshot, no OFFSET rescans.
          let after = "(0,0)";
          for (;;) {
            const page = await rows<{ c: string; j: string }>(
              tx,
              sql.raw(`select ctid::text as c, row_to_json(x)::text as j from ${ident(t)} x where ctid > '${after}'::tid order by ctid limit ${BATCH}`),
            );
            for (const row of page) await write(`{"t":${JSON.stringify(t)},"r":${row.j}}`);
            if (page.length < BATCH) break;
            after = page[page.length - 1].c;
          }
        }
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
  } finally {
    gzip.end();
    await finished(out);
  }
  return header;
}

/**
 * Loads a backup into `db` (already migrated). Refuses a database that has data unless
 * `replace` is set (then everything is emptied first), and a backup from another migration
 * level. All in one transaction.
 */
export async function restoreDatabase(db: Db, file: string, opts: { replace?: boolean } = {}): Promise<Header> {
  const lines = readline.createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  let header: Header;
  try {
    header = JSON.parse(first.value ?? "") as Header;
  } catch {
    throw new BackupError("El archivo no es una copia de seguridad de Enchufá.");
  }
  if (header.format !== BACKUP_FORMAT || header.version !== BACKUP_VERSION) throw new BackupError("El archivo no es una copia de seguridad de Enchufá (o es de otra versión).");
  const allTables = tablesInDependencyOrder();
  const tables = allTables.filter((t) => !DERIVED_TABLES.has(t));
  const unknown = Object.keys(header.tables).filter((t) => !tables.includes(t));
  if (unknown.length) throw new BackupError(`La copia tiene tablas que esta versión no conoce: ${unknown.join(", ")}`);

  const current = await migrationCount(db);
  if (current !== header.migrations) {
    throw new BackupError(`La copia es de una base con ${header.migrations} migraciones y esta tiene ${current}: restaurala con la versión de Enchufá que la hizo.`);
  }

  await db.transaction(async (tx) => {
    // Rows come back as they were: triggers that fill tables from others (a new company's owner
    // membership, migration 0006) stand aside for this transaction.
    await tx.execute(sql`select set_config('enchufa.restoring', 'on', true)`);
    let existing = 0;
    for (const t of allTables) existing += await count(tx, t);
    if (existing > 0) {
      if (!opts.replace) throw new BackupError("La base de destino ya tiene datos. Usá --replace para vaciarla y restaurar la copia.");
      await tx.execute(sql.raw(`truncate ${allTables.map(ident).join(", ")} restart identity cascade`));
    }
    let batch: string[] = [];
    let batchTable = "";
    const flush = async () => {
      if (!batch.length) return;
      await tx.execute(sql`insert into ${sql.raw(ident(batchTable))} select * from json_populate_recordset(null::${sql.raw(ident(batchTable))}, ${`[${batch.join(",")}]`}::json)`);
      batch = [];
    };
    const loaded: Record<string, number> = {};
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      if (!next.value) continue;
      const m = /^\{"t":("(?:[^"\\]|\\.)*"),"r":(.*)\}$/.exec(next.value);
      if (!m) throw new BackupError("La copia está dañada (línea ilegible).");
      const table = JSON.parse(m[1]) as string;
      if (!tables.includes(table)) throw new BackupError(`La copia está dañada (tabla desconocida: ${table}).`);
      if (table !== batchTable || batch.length >= 500) {
        await flush();
        batchTable = table;
      }
      batch.push(m[2]);
      loaded[table] = (loaded[table] ?? 0) + 1;
    }
    await flush();
    for (const [t, n] of Object.entries(header.tables)) {
      if ((loaded[t] ?? 0) !== n) throw new BackupError(`La copia está incompleta: ${t} tiene ${loaded[t] ?? 0} filas de ${n}.`);
    }
    // Identity columns continue after the restored ids.
    const identities = await rows<{ table_name: string; column_name: string }>(
      tx,
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public' and is_identity = 'YES'`,
    );
    for (const { table_name, column_name } of identities) {
      await tx.execute(
        sql.raw(
          `select setval(pg_get_serial_sequence('${ident(table_name)}', '${column_name}'), coalesce((select max(${ident(column_name)}) from ${ident(table_name)}), 0) + 1, false)`,
        ),
      );
    }
  });
  lines.close();
  return header;
}
