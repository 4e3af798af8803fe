// SQL fragments shared by the list and KPI queries.
import { sql, type SQL } from "drizzle-orm";
import { chargers, connectors } from "../db/schema";
import { STATUS_BUCKETS, type StatusBucket } from "../domain/ocpp-status-summary";

/** The connector's bucket (domain/ocpp-status statusBucket, in SQL). Needs chargers ⋈ connectors. */
export const bucketCase: SQL<StatusBucket> = sql<StatusBucket>`case
  when not (${chargers.online} and ${chargers.enabled}) or ${connectors.status} = 'Unavailable' then 'offline'
  when ${connectors.status} = 'Available' then 'available'
  when ${connectors.status} = 'Faulted' then 'faulted'
  else 'charging' end`;

/** count(connectors) per bucket, as columns named after the buckets. */
export function bucketCounts() {
  return Object.fromEntries(
    STATUS_BUCKETS.map((b) => [b, sql<number>`count(${connectors.id}) filter (where ${bucketCase} = ${b})`.mapWith(Number)]),
  ) as Record<StatusBucket, SQL.Aliased<number> | SQL<number>>;
}

export function emptyBuckets(): Record<StatusBucket, number> {
  return { available: 0, charging: 0, faulted: 0, offline: 0 };
}

export function pickBuckets(row: Record<string, unknown>): Record<StatusBucket, number> {
  const out = emptyBuckets();
  for (const b of STATUS_BUCKETS) out[b] = Number(row[b] ?? 0);
  return out;
}

/** Raw SQL rows on either driver (both answer `{ rows }`); numeric/bigint come as strings. */
export async function queryRows<T extends Record<string, unknown>>(db: { execute: (q: SQL) => PromiseLike<unknown> }, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows?: T[] };
  return result.rows ?? [];
}

export const num = (v: unknown): number => (v == null ? 0 : Number(v));
export const numOrNull = (v: unknown): number | null => (v == null ? null : Number(v));
