// Statements the OCPP hot path runs hundreds of times a second with the same text (ADR 0024):
// drizzle builds the SQL once, from the statement's template with one placeholder per value,
// and each run only fills the values in and hands text and values to the driver. Building the
// same SQL on every message (walking its chunks, escaping names, allocating the pieces) was the
// largest part of the server's own CPU after the system calls in the profiles of 26 and 27
// November, and its garbage fed the collector.
import { fillPlaceholders, sql, type Placeholder, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Db } from "./client";

const dialect = new PgDialect();

/** What the node-postgres pool and PGlite both answer. */
type Rows<Row> = { rows: Row[] };

/**
 * A statement built once. `names` are its values; `template` receives one placeholder per name
 * and returns the statement (the same drizzle `sql` as anywhere else). Running it on a database
 * (`db`, `telemetry`) sends the built text straight to the driver: node-postgres still names and
 * prepares it per connection (ADR 0012). Inside a transaction (no driver at hand) it is built
 * with the values as an ordinary drizzle statement: same SQL, same result.
 */
export function fixedQuery<Row extends Record<string, unknown>, const K extends string>(names: readonly K[], template: (p: Record<K, Placeholder<K>>) => SQL) {
  let built: { text: string; params: unknown[] } | undefined;
  return async (db: Db, values: Record<K, unknown>): Promise<Row[]> => {
    const client = (db as unknown as { $client?: unknown }).$client;
    if (!client) {
      const withValues = template(Object.fromEntries(names.map((n) => [n, sql.param(values[n])])) as unknown as Record<K, Placeholder<K>>);
      return ((await db.execute(withValues)) as unknown as Rows<Row>).rows;
    }
    built ??= (() => {
      const query = dialect.sqlToQuery(template(Object.fromEntries(names.map((n) => [n, sql.placeholder(n)])) as Record<K, Placeholder<K>>));
      return { text: query.sql, params: query.params };
    })();
    const params = fillPlaceholders(built.params, values);
    // Values as the second argument, as drizzle passes them: that is the call db/client.ts names.
    if (client instanceof pg.Pool) return ((await client.query({ text: built.text }, params)) as unknown as Rows<Row>).rows;
    return ((await (client as { query(text: string, params: unknown[]): Promise<Rows<Row>> }).query(built.text, params)) as Rows<Row>).rows;
  };
}
