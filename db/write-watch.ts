// What the embedded database's one process may keep between requests: reads that stay valid until
// a statement writes one of their tables (ADR 0049). PGlite is opened by one process, so every
// statement that can change a table passes through its client there; `watchPgliteWrites` sees
// each one on the wire, whoever sent it (drizzle, raw SQL, a transaction), and moves the
// table's version. A PostgreSQL database is written by other processes and nodes too: it has no
// watch, and these reads are made every time.
import type { PGlite } from "@electric-sql/pglite";

export interface WriteWatch {
  /**
   * A number that changes whenever a statement that may write one of `tables` is sent, when a
   * transaction that wrote one of them ends (committed or rolled back), and at every rollback.
   */
  version(tables: readonly string[]): number;
  /** Whether an open transaction has written one of `tables`: what is read now may never commit. */
  writing(tables: readonly string[]): boolean;
  /** Records one statement's SQL (called for every statement the database is sent). */
  observe(sqlText: string): void;
}

// The table a write names: `insert into "t"`, `update t`, `delete from public.t`, `truncate t`.
// Row locks (`for update`) and upserts (`do update set`) name no table: the word after them is
// counted as one, which only moves a version nothing reads.
const WRITE = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_$]*)"?/gi;
const BEGIN = /^\s*(?:begin|start\s+transaction)\b/i;
const END = /^\s*(?:commit|end|rollback|abort)\b(?!\s+to\b)/i;
const ROLLBACK = /\brollback\b/i;

export function createWriteWatch(): WriteWatch {
  const counts = new Map<string, number>();
  let rollbacks = 0;
  let inTransaction = false;
  // Tables written inside the open transaction: their readers must not keep what they read
  // before the transaction's end decides whether those rows exist.
  const pending = new Set<string>();
  const bump = (table: string) => counts.set(table, (counts.get(table) ?? 0) + 1);

  return {
    version(tables) {
      let sum = rollbacks;
      for (const table of tables) sum += counts.get(table) ?? 0;
      return sum;
    },
    writing(tables) {
      return pending.size > 0 && tables.some((table) => pending.has(table));
    },
    observe(sqlText) {
      if (BEGIN.test(sqlText)) inTransaction = true;
      for (const match of sqlText.matchAll(WRITE)) {
        const table = match[1].toLowerCase();
        bump(table);
        if (inTransaction) pending.add(table);
      }
      // A rollback (to a savepoint too) can undo any write of the transaction, including those of
      // triggers and cascades: every version moves.
      if (ROLLBACK.test(sqlText)) rollbacks++;
      if (END.test(sqlText)) {
        for (const table of pending) bump(table);
        pending.clear();
        inTransaction = false;
      }
    },
  };
}

const PARSE = 0x50; // 'P': an extended-protocol statement (name, SQL, parameter types)
const QUERY = 0x51; // 'Q': a simple-protocol query string

/**
 * Shows the watch every statement the client sends. PGlite's queries, `exec` and transactions all
 * go through `execProtocolRaw` with frontend protocol messages; a Parse or Query message carries
 * the SQL text (for Parse, after the statement's name).
 */
export function watchPgliteWrites(client: PGlite, watch: WriteWatch): void {
  const send = client.execProtocolRaw.bind(client);
  const decoder = new TextDecoder();
  client.execProtocolRaw = (message, options) => {
    for (let at = 0; at + 5 <= message.length; ) {
      const type = message[at];
      const length = ((message[at + 1] << 24) | (message[at + 2] << 16) | (message[at + 3] << 8) | message[at + 4]) >>> 0;
      const end = at + 1 + length;
      if (type === PARSE || type === QUERY) {
        let start = at + 5;
        if (type === PARSE) start = message.indexOf(0, start) + 1; // past the statement's name
        const stop = message.indexOf(0, start);
        watch.observe(decoder.decode(message.subarray(start, stop === -1 || stop > end ? end : stop)));
      }
      at = end;
    }
    return send(message, options);
  };
}

/** Entries kept at once across all keys (the oldest leaves first). */
const MAX_ENTRIES = 5_000;

export interface StableReads {
  /**
   * The value under `key`, read by `read` from `tables`: kept until a statement writes one of them.
   * Without a watch (PostgreSQL), read every time.
   */
  get<T>(tables: readonly string[], key: string, read: () => Promise<T>): Promise<T>;
}

export function stableReads(watch: WriteWatch | undefined, maxEntries = MAX_ENTRIES): StableReads {
  const entries = new Map<string, { version: number; value: unknown }>();
  return {
    async get<T>(tables: readonly string[], key: string, read: () => Promise<T>): Promise<T> {
      // Inside a transaction that wrote these tables, rows it may still roll back are neither
      // served from nor kept for other requests.
      if (!watch || watch.writing(tables)) return read();
      const before = watch.version(tables);
      const hit = entries.get(key);
      if (hit && hit.version === before) return hit.value as T;
      const value = await read();
      // Kept only when nothing wrote those tables while it was read: otherwise it may be older
      // than the write, and the next reader reads again.
      if (watch.version(tables) === before && !watch.writing(tables)) {
        entries.delete(key);
        entries.set(key, { version: before, value });
        while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      }
      return value;
    },
  };
}
